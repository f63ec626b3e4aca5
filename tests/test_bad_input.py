"""Bad input gives a clear RPL900 finding (or is handled) and the run goes on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reprolint import api
from reprolint.api import check_paths

UNSEEDED = "import random\nrandom.random()\n"


def _codes(root: Path) -> list[tuple[str, int, str]]:
    result = check_paths([str(root)])
    return [(Path(d.path).name, d.span.start_line, d.code) for d in result.diagnostics]


def test_syntax_error_is_reported_and_other_files_still_checked(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def train(:\n    pass\n")
    (tmp_path / "good.py").write_text(UNSEEDED)
    result = check_paths([str(tmp_path)])
    [parse] = [d for d in result.diagnostics if d.code == "RPL900"]
    assert parse.path.endswith("bad.py")
    assert parse.span.start_line == 1
    assert "syntax error" in parse.message
    assert parse.severity.value == "error"
    assert ("good.py", 2, "RPL101") in _codes(tmp_path)


def test_pep263_latin1_cookie(tmp_path: Path) -> None:
    source = "# -*- coding: latin-1 -*-\n# caf\xe9\nimport random\nrandom.random()\n"
    (tmp_path / "l1.py").write_bytes(source.encode("latin-1"))
    assert _codes(tmp_path) == [("l1.py", 4, "RPL101")]


def test_utf8_bom(tmp_path: Path) -> None:
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + UNSEEDED.encode())
    assert _codes(tmp_path) == [("bom.py", 2, "RPL101")]


def test_undecodable_bytes_are_rpl900(tmp_path: Path) -> None:
    (tmp_path / "raw.py").write_bytes(b"x = 1\ny = '\xff\xfe'\n")
    [d] = check_paths([str(tmp_path)]).diagnostics
    assert d.code == "RPL900"
    assert "cannot decode as utf-8" in d.message
    assert d.span.start_line == 2


def test_unknown_coding_cookie_is_rpl900(tmp_path: Path) -> None:
    (tmp_path / "c.py").write_bytes(b"# coding: klingon\nx = 1\n")
    [d] = check_paths([str(tmp_path)]).diagnostics
    assert d.code == "RPL900" and "encoding" in d.message


def test_empty_file_is_fine(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    assert check_paths([str(tmp_path)]).diagnostics == []


def test_nul_bytes(tmp_path: Path) -> None:
    (tmp_path / "bin.py").write_bytes(b"x = 1\x00\n")
    [d] = check_paths([str(tmp_path)]).diagnostics
    assert d.code == "RPL900" and "NUL" in d.message


def test_huge_file_is_skipped_with_a_notice(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(api, "MAX_FILE_BYTES", 1000)
    (tmp_path / "table.py").write_text("DATA = [\n" + "    1,\n" * 400 + "]\n")
    (tmp_path / "good.py").write_text(UNSEEDED)
    diagnostics = check_paths([str(tmp_path)]).diagnostics
    assert [d.code for d in diagnostics] == ["RPL101", "RPL900"]
    assert "over the 1,000-byte limit" in diagnostics[1].message


def test_deep_nesting_does_not_crash(tmp_path: Path) -> None:
    (tmp_path / "deep.py").write_text("x = " + "(" * 300 + "1" + ")" * 300 + "\n")
    diagnostics = check_paths([str(tmp_path)]).diagnostics
    assert all(d.code == "RPL900" for d in diagnostics)


def test_tool_folders_and_virtualenvs_are_skipped(tmp_path: Path) -> None:
    for folder in (".git", "__pycache__", "build", "node_modules", "myenv"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.py").write_text(UNSEEDED)
    (tmp_path / "myenv" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "ok.py").write_text(UNSEEDED)
    assert _codes(tmp_path) == [("ok.py", 2, "RPL101")]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinks_out_of_the_tree_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.py").write_text(UNSEEDED)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link").symlink_to(outside, target_is_directory=True)
    (tree / "loop").symlink_to(tree, target_is_directory=True)
    (tree / "filelink.py").symlink_to(outside / "x.py")
    (tree / "ok.py").write_text("x = 1\n")
    assert check_paths([str(tree)]).diagnostics == []


def test_unreadable_file(tmp_path: Path) -> None:
    target = tmp_path / "secret.py"
    target.write_text(UNSEEDED)
    target.chmod(0)
    try:
        if os.access(target, os.R_OK):  # root reads anything: nothing to test
            diagnostics = check_paths([str(tmp_path)]).diagnostics
            assert [d.code for d in diagnostics] == ["RPL101"]
        else:
            [d] = check_paths([str(tmp_path)]).diagnostics
            assert d.code == "RPL900" and "cannot read" in d.message
    finally:
        target.chmod(0o644)


def test_a_test_modules_parse_error_is_reported_only_with_include_tests(tmp_path: Path) -> None:
    # Like its other findings: a test module is checked only with include-tests. Its
    # path is all an unparsable file tells (the scan's own folder, here pytest's
    # `test_...0/`, does not count).
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_train.py").write_text("def test(:\n")
    (tmp_path / "model_test.py").write_text("class T:\ndef f(): pass\n")
    (tmp_path / "train.py").write_text("def train(:\n")
    assert [(name, code) for name, _, code in _codes(tmp_path)] == [("train.py", "RPL900")]
    from reprolint.config import Settings

    result = check_paths([str(tmp_path)], Settings(include_tests=True))
    assert sorted(Path(d.path).name for d in result.diagnostics) == ["model_test.py", "test_train.py", "train.py"]
