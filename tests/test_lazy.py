"""Lazy libcst: only the command line swaps in a stand-in; a library caller never gets one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _probe(code: str, cwd: Path = ROOT) -> str:
    run = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_importing_the_api_leaves_the_callers_libcst_alone() -> None:
    # A caller that imports reprolint.api and then libcst gets the real package, not a
    # stand-in from reprolint._lazy (which would surprise isinstance checks, pickling and
    # tools that inspect sys.modules).
    out = _probe(
        "import sys, types, reprolint.api, libcst\n"
        "print(type(sys.modules['libcst']).__module__, libcst.Module.__module__)\n"
    )
    assert out.split()[0] != "reprolint._lazy"
    assert out.split()[1].startswith("libcst")


def test_the_real_libcst_is_the_one_the_caller_imported_first() -> None:
    out = _probe(
        "import libcst, sys\nfirst = libcst\nimport reprolint.api\n"
        "print(sys.modules['libcst'] is first)\n"
    )
    assert out == "True"


def test_the_cli_still_defers_libcst_until_a_parse(tmp_path: Path) -> None:
    # `reprolint rules` parses nothing: the command line never imports the real libcst.
    out = _probe(
        "import sys\nfrom reprolint.cli import main\nmain(['rules', '--format', 'json'])\n"
        "print('libcst._nodes.base' in sys.modules)\n",
        cwd=tmp_path,
    )
    assert out.splitlines()[-1] == "False"


def test_check_never_imports_the_language_server_stack(tmp_path: Path) -> None:
    # pygls and lsprotocol are the `lsp` extra: only `reprolint server` imports them.
    (tmp_path / "train.py").write_text("import torch\nx = torch.randn(3)\n")
    out = _probe(
        "import sys\nimport reprolint\nfrom reprolint.cli import main\n"
        "status = main(['check', '--no-cache', 'train.py'])\n"
        "print(status, sorted(m for m in ('pygls', 'lsprotocol', 'reprolint.server', 'torch') if m in sys.modules))\n",
        cwd=tmp_path,
    )
    assert out.splitlines()[-1] == "1 []"


def test_the_first_parse_of_a_cli_run_loads_libcst_through_the_stand_in(tmp_path: Path) -> None:
    # The first file a fresh command line parses is what loads the real libcst: every step
    # of that parse (api._unvalidated_nodes included) must go through the stand-in, or the
    # file becomes an "internal error" RPL900 (a circular import of libcst._nodes.base).
    (tmp_path / "train.py").write_text("import torch\nx = torch.randn(3)\n")
    out = _probe(
        "from reprolint.cli import main\nmain(['check', '--no-cache', '--jobs', '1', 'train.py'])\n",
        cwd=tmp_path,
    )
    assert "train.py:2:5: RPL101" in out
    assert "RPL900" not in out
