"""reprolint._atomic: the one atomic write of the cache and of the runtime's record file."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint import _atomic
from reprolint._atomic import write_atomic


def test_a_write_replaces_the_file_and_leaves_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "entry.json"
    target.write_bytes(b"old")
    write_atomic(target, b'{"new": 1}', prefix=".record-", suffix=".json")
    assert target.read_bytes() == b'{"new": 1}'
    assert list(tmp_path.iterdir()) == [target]


def test_an_interrupted_write_keeps_the_old_file_and_removes_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = tmp_path / "entry.json"
    target.write_bytes(b"old")

    def interrupted(src: str, _dst: object) -> None:
        assert Path(src).name.startswith(".tmp-") and Path(src).read_bytes() == b"new"
        raise KeyboardInterrupt

    monkeypatch.setattr(_atomic.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [target]
