"""`reprolint check` does not crash on any file of the installed torch package or of
Python's standard library (flake8-bugbear's "does not crash on all of site-packages").

Each tree is checked in one run, on every core, without the cache; every file is
checked (the default excludes are lifted). A crash would be exit status 2 or a
traceback; a bug caught per file would be an RPL900 "internal error" finding, which is
a failure here too. Parse errors (the standard library's deliberately bad test files)
and the size limits are findings, not crashes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

TREES = {"stdlib": Path(sysconfig.get_paths()["stdlib"])}
try:
    import importlib.util

    _torch = importlib.util.find_spec("torch")
    if _torch is not None and _torch.origin:
        TREES["torch"] = Path(_torch.origin).parent
except (ImportError, ValueError):
    pass


@pytest.mark.slow
@pytest.mark.parametrize("name", ["torch", "stdlib"])
def test_check_does_not_crash_on_a_whole_tree(name: str, tmp_path: Path) -> None:
    tree = TREES.get(name)
    if tree is None:
        pytest.skip(f"{name} is not installed")
    # Every file: no default excludes (only other interpreters' packages and caches).
    (tmp_path / "reprolint.toml").write_text('exclude = ["site-packages", "__pycache__"]\n')
    # The concise format, like the text one, needs no fix edits: each file is checked,
    # and no edit that would never be printed is computed (json and sarif compute them).
    result = subprocess.run(
        [sys.executable, "-m", "reprolint", "check", str(tree), "--no-cache",
         "--config", str(tmp_path / "reprolint.toml"), "--output-format", "concise"],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "CI": "1"},
    )
    assert result.returncode in (0, 1), result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    findings = result.stdout.splitlines()
    assert findings, "a whole tree without a single finding: nothing was checked?"
    internal = [line for line in findings if " RPL900 " in line and "internal error" in line]
    assert internal == [], internal[:5]
    files = sum(1 for _ in tree.rglob("*.py"))
    assert files > 100


def test_a_bug_in_one_file_is_a_finding_not_a_crash(tmp_path: Path, monkeypatch) -> None:
    from reprolint import api

    (tmp_path / "good.py").write_text("import random\nrandom.random()\n")
    (tmp_path / "bad.py").write_text("x = 1\n")
    real = api.collect_facts

    def buggy(module, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if path.endswith("bad.py"):
            raise RuntimeError("boom")
        return real(module, path, *args, **kwargs)

    monkeypatch.setattr(api, "collect_facts", buggy)
    diagnostics = api.check_paths([str(tmp_path)], jobs=1, prefilter=False)
    bad = [d for d in diagnostics.diagnostics if d.path.endswith("bad.py")]
    assert [d.code for d in bad] == ["RPL900"]
    assert "internal error: RuntimeError: boom" in bad[0].message
    assert any(d.code == "RPL101" and d.path.endswith("good.py") for d in diagnostics.diagnostics)


def test_data_files_are_skipped_with_a_notice_and_code_is_not(tmp_path: Path) -> None:
    from reprolint.api import DATA_FILE_BYTES, check_paths

    rows = "".join(f"    ({i}, 'float16', {i * 2}): ({i}, {i + 1}, 4, 8),\n" for i in range(9000))
    data = f"import torch\n\nTABLE = {{\n{rows}}}\n\nx = torch.randn(3)\n"
    code = "".join(
        f"def f{i}(a, b):\n    '''Add.'''\n    return torch.add(a, b, alpha={i})\n\n\n" for i in range(4000)
    )
    (tmp_path / "meta.py").write_text(data)
    (tmp_path / "big_code.py").write_text("import torch\n\n\n" + code)
    assert min(len(data), len(code)) > DATA_FILE_BYTES
    result = check_paths([str(tmp_path)], jobs=1)
    # a data table is named in the summary's skipped files, not reported as a problem
    assert not [d for d in result.diagnostics if d.code == "RPL900"]
    assert [Path(s.split(" (")[0]).name for s in result.skipped] == ["meta.py"]
    assert "literal data tables" in result.skipped[0]
    assert "200,000-byte limit for data files" in result.skipped[0]
    assert {Path(d.path).name for d in result.diagnostics} == {"big_code.py"} or not result.diagnostics
