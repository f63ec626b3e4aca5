"""`--backend ray --working-dir upload` ships only the project's regular files (issue
30, item 5): links to files and folders outside the project, relative ones included,
never bring what they point at to the workers. Ray is not needed: what Ray is given to
upload (the runtime environment's `working_dir`) is inspected.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from reprolint.harness.backends import ray_backend


def _contents(folder: Path) -> dict[str, bytes]:
    """What a packer that follows links (as Ray's does) would read under `folder`."""
    found = {}
    for top, _, files in os.walk(folder, followlinks=True):
        for name in files:
            path = Path(top) / name
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def test_upload_never_follows_a_link_out_of_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "pkg").mkdir(parents=True)
    outside.mkdir()
    (outside / "id_rsa").write_bytes(b"SECRET KEY\n")
    (outside / "data").mkdir()
    (outside / "data" / "private.csv").write_bytes(b"SECRET ROWS\n")
    (project / "train.py").write_text("print('train')\n")
    (project / "pkg" / "model.py").write_text("X = 1\n")
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text("[core]\n")
    (project / "key").symlink_to(outside / "id_rsa")
    (project / "data").symlink_to(outside / "data", target_is_directory=True)
    (project / "pkg" / "rel").symlink_to(Path("..") / ".." / "outside" / "id_rsa")
    (project / "alias.py").symlink_to("train.py")  # a link inside: left out too
    monkeypatch.chdir(project)
    executor = SimpleNamespace(cwd=str(project))
    try:
        env = ray_backend.RayExecutor._upload_env(executor)  # type: ignore[arg-type]
        shipped = _contents(Path(env["working_dir"]))
    finally:
        for staging in getattr(executor, "_staging", []):
            shutil.rmtree(staging, ignore_errors=True)
    assert not any(b"SECRET" in data for data in shipped.values()), shipped
    assert shipped == {"train.py": b"print('train')\n", "pkg/model.py": b"X = 1\n"}
    err = capsys.readouterr().err
    assert "4 symbolic links left out: alias.py, data, key, pkg/rel" in err, err
