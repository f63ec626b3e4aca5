"""Python 2 files (issue 14 item 11, issue 25): checked as the Python 3 they mean, line
for line; never rewritten by `fix`; RPL900 only when that reading does not parse."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reprolint.api import check_paths, check_sources
from reprolint.python2 import as_python3

DRAW = "import numpy as np\nx = np.random.rand(3)\n"


@pytest.mark.parametrize(
    "legacy",
    [
        'print "epoch", 1\n',
        "exec 'y = 1' in {}\n",
        "mode = 0777\n",
        "n = 10L\n",
        "y = `1`\n",
        "if 1 <> 2:\n    pass\n",
        "try:\n    pass\nexcept ValueError, e:\n    raise ValueError, 'bad'\n",
        's = ur"abc"\n',
        # indentation mixing tabs and spaces: Python 2 reads a tab as the next multiple of 8
        "def f(x):\n    if x:\n\treturn 1\n    return 0\n",
    ],
)
def test_a_python2_file_is_checked_as_python2(legacy: str) -> None:
    source = "import sys\n" + legacy + DRAW
    (d,) = check_sources({"legacy.py": source})
    assert (d.code, d.span.start_line) == ("RPL101", source.count("\n") - 0)  # the draw's own line
    assert d.fix is None  # read, never rewritten


@pytest.mark.parametrize(
    "legacy",
    [
        "import torch\nt = torch.zeros(2).cuda(async=True)\n",
        "def load(path, async=False):\n    return path\n",
        "class Loader:\n    await = 0\n",
    ],
)
def test_a_python36_file_with_async_as_a_name_is_checked(legacy: str) -> None:
    source = legacy + DRAW
    (d,) = check_sources({"old.py": source})
    assert (d.code, d.span.start_line) == ("RPL101", source.count("\n"))
    assert d.fix is None


def test_python36_reading_keeps_the_keywords_of_37() -> None:
    source = "async def f(x):\n    await x\n    async with x:\n        pass\nx.cuda(async=True)\n"
    assert as_python3(source) == source.replace("async=", "async_=")


def test_check_notes_a_python36_file(tmp_path) -> None:
    (tmp_path / "train.py").write_text("import numpy as np\nnp.random.rand(3).cuda(async=True)\n")
    result = check_paths([str(tmp_path / "train.py")])
    assert any("1 file in Python 3.6 syntax checked as Python 3.6, with no fixes" in n for n in result.notes)
    assert not any("Python 2" in n for n in result.notes)


def test_the_reading_keeps_every_line_and_column_before_the_change() -> None:
    source = 'import numpy as np\nif True: print "x is", 1\nx = np.random.rand(3)  # after\n'
    translated = as_python3(source)
    assert translated is not None
    assert translated.splitlines()[0] == "import numpy as np"
    assert translated.splitlines()[1] == 'if True: print( "x is", 1)'
    assert translated.splitlines()[2] == source.splitlines()[2]


def test_python2_that_the_reading_cannot_parse_is_rpl900_named_python2() -> None:
    (d,) = check_sources({"legacy.py": 'print "x"\ndef train(:\n    pass\n'})
    assert d.code == "RPL900"
    assert "Python 2 syntax" in d.message


def test_python3_syntax_error_is_not_called_python2() -> None:
    (d,) = check_sources({"bad.py": "def train(:\n    pass\n"})
    assert d.code == "RPL900"
    assert "Python 2" not in d.message and "syntax error" in d.message


def test_indentation_that_python2s_tab_stops_leave_wrong_is_not_called_python2() -> None:
    # a tab under four spaces: CPython 3 finds the mix ambiguous; Python 2 puts the tab's
    # stop at column 8, an unexpected indent: not Python 2 either
    (d,) = check_sources({"bad.py": "def train():\n    x = 1\n\ty = 2\n"})
    assert d.code == "RPL900" and d.span.start_line == 3
    assert "Python 2 syntax" not in d.message
    assert "inconsistent use of tabs and spaces in indentation, with Python 2's tab stops too" in d.message
    # where the tab stops make it consistent, it is Python 2 that the reading checks
    assert check_sources({"legacy.py": "def train():\n        x = 1\n\ty = 2\n"}) == []


def test_program_importing_a_python2_module_sees_its_draws() -> None:
    found = check_sources({
        "legacy.py": 'import random\n\ndef helper():\n    print "x"\n    return random.random()\n',
        "train.py": "import torch\nimport legacy\n\nif __name__ == '__main__':\n    legacy.helper()\n    x = torch.randn(3)\n",
    })
    codes = sorted((d.path, d.code, d.span.start_line) for d in found)
    assert codes == [("legacy.py", "RPL101", 5), ("train.py", "RPL101", 6)]


def test_check_notes_the_file_and_fix_leaves_it_byte_for_byte(cli, tmp_path) -> None:
    text = 'import numpy as np\nprint "start"\nx = np.random.rand(3)\nnp.save("x.npy", x)\n'
    (tmp_path / "train.py").write_text(text)
    result = check_paths([str(tmp_path / "train.py")])
    assert [(d.code, d.span.start_line) for d in result.diagnostics] == [("RPL101", 3)]
    assert any("Python 2 syntax checked as Python 2, with no fixes" in n and "train.py" in n for n in result.notes)
    checked = cli("check", "--no-cache", "train.py", cwd=tmp_path)
    assert "fixable" not in checked.out
    cli("fix", "--write", "--unsafe-fixes", "--no-cache", "train.py", cwd=tmp_path)
    assert (tmp_path / "train.py").read_text() == text


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["1", "x", "'a'", "x + 1", "(1,\n    2)", "[x for x in y]", "f(x, y=2)"]), min_size=0, max_size=4),
    st.booleans(),
)
def test_a_print_statement_reads_as_one_call_on_the_same_lines(items: list[str], trailing: bool) -> None:
    statement = "print " + ", ".join(items) + ("," if trailing and items else "")
    source = "x = y = 1\nf = dict\n" + statement.rstrip() + "\nz = 2\n"
    translated = as_python3(source)
    if translated is None:  # `print (1, 2)` is a call in Python 3 already: nothing to read
        compile(source, "<t>", "exec")
        return
    assert translated.count("\n") == source.count("\n")
    assert translated.splitlines()[-1] == "z = 2"
    compile(translated, "<t>", "exec")


def test_print_to_a_file_reads_as_a_call_with_file() -> None:
    source = 'import sys\nprint >>sys.stderr, "epoch", 1\nprint >>sys.stderr\nprint "a" if True else "b"\n'
    assert as_python3(source) == (
        'import sys\nprint(  "epoch", 1, file=sys.stderr)\nprint (file=sys.stderr)\nprint( "a" if True else "b")\n'
    )


def test_reading_python2_prints_no_warning_of_the_users_code(capsys) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a SyntaxWarning would raise here
        assert as_python3('print "x"\nif 1 is 1: pass\n') is not None
    assert capsys.readouterr().err == ""


def test_mixed_tab_indentation_reads_as_python2_nests_it() -> None:
    source = "def f(x):\n    if x:\n\ty = 1\n\treturn y\n    return 0\n"
    reading = as_python3(source)
    assert reading is not None and reading.splitlines()[2:4] == ["        y = 1", "        return y"]
    assert reading.splitlines()[0::4] == source.splitlines()[0::4]  # lines without tabs unchanged


def test_tab_indentation_cpython_reads_is_checked_with_the_tabs_expanded(cli, tmp_path) -> None:
    # a tab-indented line under a space-indented block: consistent for CPython (the tab
    # goes to column 8), but libcst's tokenizer refused it ("no matching outer block for
    # dedent") and the file was an RPL900
    text = (
        "import numpy as np\n\ndef plot(scores):\n    avg = np.empty(3)\n    for t in range(3):\n"
        "\t    avg[t] = np.random.rand()\n    np.save('avg.npy', avg)\n\nplot([1])\n"
    )
    compile(text, "train.py", "exec")  # CPython reads it
    (tmp_path / "train.py").write_text(text)
    result = check_paths([str(tmp_path / "train.py")])
    assert [(d.code, d.span.start_line) for d in result.diagnostics] == [("RPL101", 6)]
    assert any("indented with tabs and spaces" in n and "train.py" in n for n in result.notes)
    cli("fix", "--write", "--unsafe-fixes", "--no-cache", "train.py", cwd=tmp_path)
    assert (tmp_path / "train.py").read_text() == text  # no fix on text read with tabs expanded


def test_tab_indented_file_cpython_rejects_stays_a_syntax_error() -> None:
    (d,) = check_sources({"bad.py": "if True:\n\tdef train(:\n\t\tpass\n"})
    assert d.code == "RPL900" and "syntax error" in d.message
