"""`fix --write` racing a user's edit (issue 30, item 2): an edit saved to a file while
fix rewrites it (after fix read it, before the new content replaces it) is never lost.

The edit is made from inside the write (where fix flushes the new content to disk), the
window a slow disk or a busy editor widens. What a user sees: exit 1, the file named as
not overwritten, and the file on disk holding their edit.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

FIXABLE = "import torch\ntorch.backends.cudnn.benchmark = True\n"
USER_EDIT = "# saved by the user while fix was writing\n"


def _append(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(USER_EDIT)


def _atomic_save(path: Path) -> None:  # what editors do: a new file renamed over the old
    new = path.with_name(path.name + ".editor-tmp")
    new.write_text(path.read_text() + USER_EDIT)
    os.replace(new, path)


def _same_size_rewrite(path: Path) -> None:  # same length, same inode, same mtime tick
    info = os.stat(path)
    text = path.read_text()
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(text.replace("True", "Fals", 1))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


@pytest.mark.parametrize("edit", [_append, _atomic_save, _same_size_rewrite],
                         ids=["append", "atomic-save", "same-size-same-mtime"])
def test_an_edit_saved_during_fix_write_is_kept(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Callable[[Path], None],
) -> None:
    target = tmp_path / "train.py"
    target.write_text(FIXABLE)
    real_fsync = os.fsync
    fired = []

    def fsync_then_edit(fd: int) -> None:
        real_fsync(fd)
        if not fired:
            fired.append(fd)
            edit(target)

    monkeypatch.setattr(os, "fsync", fsync_then_edit)
    done = cli("fix", "--write", "--unsafe-fixes", "--no-cache", "train.py", cwd=tmp_path)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert fired, "fix never flushed a write"
    expected = {_append: FIXABLE + USER_EDIT, _atomic_save: FIXABLE + USER_EDIT,
                _same_size_rewrite: FIXABLE.replace("True", "Fals", 1)}[edit]
    assert target.read_text() == expected, done
    assert done.status == 1, done
    assert "train.py: changed on disk since it was read" in done.err, done
    assert "not overwritten" in done.err
    assert "Fixed 1" not in done.out, done


def test_an_unchanged_file_is_still_fixed(cli, tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(FIXABLE)
    done = cli("fix", "--write", "--unsafe-fixes", "--no-cache", "train.py", cwd=tmp_path)
    assert done.status == 0, done
    assert "benchmark = False" in (tmp_path / "train.py").read_text()
