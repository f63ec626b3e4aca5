"""What `--backend ray --working-dir upload` ships: the project's regular files only.

Ray packs a `working_dir` by walking it and following every symbolic link, so a link in
the project (to `~/.ssh`, to `../other-project`, a relative one) would upload what it
points at. The upload is therefore a staged copy: the regular files inside the project,
found without following links, minus the folders reprolint never ships; links are left
out (and named), as are sockets, FIFOs and devices.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import stat
from pathlib import Path
from typing import List, Sequence

from reprolint.discovery import walk

__all__ = ["stage_project"]


def _excluded(name: str, excludes: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in excludes)


def stage_project(source: Path, dest: Path, excludes: Sequence[str]) -> List[str]:
    """Copy the regular files under `source` to the empty folder `dest`, links never
    followed; names matching `excludes` (at any depth) are left out. Returns the paths
    (relative to `source`) of the symbolic links not copied."""
    skipped: List[str] = []
    source = Path(source)
    for top, dirs, files in walk(source, lambda error: None):
        rel_top = Path(top).relative_to(source)
        kept = []
        for name in sorted(dirs):
            path = Path(top) / name
            if _excluded(name, excludes):
                continue
            if path.is_symlink():  # a link to a folder is listed among the folders
                skipped.append(str(rel_top / name))
                continue
            kept.append(name)
            (dest / rel_top / name).mkdir(parents=True, exist_ok=True)
        dirs[:] = kept
        for name in sorted(files):
            if _excluded(name, excludes):
                continue
            path = Path(top) / name
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                skipped.append(str(rel_top / name))
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            target = dest / rel_top / name
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                shutil.copy2(path, target, follow_symlinks=False)
            except OSError:
                continue  # unreadable: the run sees it missing, as it would be there
    return sorted(skipped)
