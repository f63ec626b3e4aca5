"""Python 2 files (issue 14 item 11): RPL900 says so, and the rest of the program is checked."""

from __future__ import annotations

import pytest

from reprolint.api import check_sources


@pytest.mark.parametrize(
    "source",
    [
        'print "epoch", 1\n',
        "exec 'x = 1'\n",
        "mode = 0777\n",
        "x = `1`\n",
        "if 1 <> 2:\n    pass\n",
        "raise ValueError, 'bad'\n",
    ],
)
def test_python2_file_is_named_python2(source: str) -> None:
    (d,) = check_sources({"legacy.py": source})
    assert d.code == "RPL900"
    assert "Python 2 syntax" in d.message


def test_python3_syntax_error_is_not_called_python2() -> None:
    (d,) = check_sources({"bad.py": "def train(:\n    pass\n"})
    assert d.code == "RPL900"
    assert "Python 2" not in d.message and "syntax error" in d.message


def test_program_importing_a_python2_module_is_still_checked() -> None:
    found = check_sources({
        "legacy.py": 'def helper():\n    print "x"\n',
        "train.py": "import torch\nimport legacy\n\nif __name__ == '__main__':\n    legacy.helper()\n    x = torch.randn(3)\n",
    })
    codes = sorted((d.path, d.code, d.span.start_line) for d in found)
    assert codes == [("legacy.py", "RPL900", 2), ("train.py", "RPL101", 6)]
