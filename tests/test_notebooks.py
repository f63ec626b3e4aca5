"""Notebooks: checked as one program, findings mapped to cells, cells written back."""

from __future__ import annotations

import json
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reprolint.api import check_paths, check_source
from reprolint.notebooks import (
    NotebookError,
    notebook_program,
    notebook_sources,
    read_notebook,
    write_back,
)

RPL101 = (
    "`torch.randn` draws from torch's global RNG, which is never seeded on this "
    "program's path (entry point: nb.ipynb)"
)


def code(*lines: str, outputs: Optional[list] = None, count: Optional[int] = None) -> dict:
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {},
        "outputs": outputs or [],
        "source": list(lines),
    }


def markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": [text]}


def notebook(*cells: dict, language: str = "python", kernel: str = "python3", **dump: Any) -> str:
    document = {
        "cells": list(cells),
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": language, "name": kernel},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    dump.setdefault("indent", 1)
    return json.dumps(document, **dump) + "\n"


def check_nb(cli, project, text: str, *args: str):
    root = project({"nb.ipynb": text})
    return cli("check", "--output-format", "concise", *args, "nb.ipynb", cwd=root)


def test_finding_is_reported_at_cell_and_line(cli, project) -> None:
    text = notebook(
        markdown("# Training\n"),
        code("import torch\n"),
        markdown("Now draw:\n"),
        code("# the weights\n", "\n", "w = torch.randn(3)"),
    )
    root = project({"nb.ipynb": text})
    result = cli("check", "nb.ipynb", cwd=root)
    assert result.status == 1
    assert result.out.splitlines() == [
        f"nb.ipynb:cell 2:3:5: RPL101 {RPL101}",
        "Found 1 problem (1 fixable with `reprolint fix`).",  # notebooks are fixed too
    ]


def test_json_output_carries_the_cell(cli, project) -> None:
    root = project({"nb.ipynb": notebook(code("import torch\n", "x = torch.randn(3)\n"))})
    result = cli("check", "--output-format", "json", "nb.ipynb", cwd=root)
    [item] = json.loads(result.out)
    assert (item["path"], item["cell"], item["line"], item["column"], item["end_column"]) == (
        "nb.ipynb", 1, 2, 5, 19,
    )


def test_related_locations_and_the_late_seed_are_given_in_cells(cli, project) -> None:
    # program lines 2, 4 and 6 are cell 1 line 2, cell 2 line 2 and cell 3 line 2
    text = notebook(
        code("import torch\n", "x = torch.randn(3)\n"),
        code("# more\n", "y = torch.rand(2)\n"),
        code("# now\n", "torch.manual_seed(0)\n"),
    )
    root = project({"nb.ipynb": text})
    [item] = json.loads(cli("check", "--output-format", "json", "nb.ipynb", cwd=root).out)
    assert (item["cell"], item["line"]) == (1, 2)
    assert [(r["cell"], r["line"], r["column"]) for r in item["related"]] == [(3, 2, 1), (2, 2, 5)]
    assert "before `torch.manual_seed` runs (nb.ipynb:cell 3:2; entry point: nb.ipynb)" in item["message"]
    sarif = json.loads(cli("check", "--output-format", "sarif", "nb.ipynb", cwd=root).out)
    [result] = sarif["runs"][0]["results"]
    seed = result["relatedLocations"][0]
    assert seed["properties"] == {"cell": 3, "cellRegion": {"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 21}}
    # the region is the notebook file's line that holds the seeding call
    lines = text.splitlines()
    assert "torch.manual_seed(0)" in lines[seed["physicalLocation"]["region"]["startLine"] - 1]
    # a partial seeding is said by RPL101 at the draw, naming the seeding call in its cell
    partial = notebook(code("import random\n", "import torch\n"), code("torch.manual_seed(0)\n", "k = random.randint(0, 3)\n", "torch.save(k, 'k.pt')\n"))
    root = project({"nb.ipynb": partial})
    items = json.loads(cli("check", "--output-format", "json", "nb.ipynb", cwd=root).out)
    [rpl101] = [i for i in items if i["code"] == "RPL101"]
    assert (rpl101["cell"], rpl101["line"]) == (2, 2)
    assert "(first with `torch.manual_seed`, nb.ipynb:cell 2:1), not `random`" in rpl101["message"]
    assert [(r["cell"], r["line"]) for r in rpl101["related"]] == [(2, 1)]
    assert [i["code"] for i in items if i["code"] == "RPL105"] == []
    # a script's related locations carry no cell
    root = project({"train.py": "import torch\nx = torch.randn(3)\ntorch.manual_seed(0)\n"})
    [item] = json.loads(cli("check", "--output-format", "json", "train.py", cwd=root).out)
    assert item["related"][0].keys() == {"path", "line", "column", "message"}
    assert "(train.py:3; entry point: train.py)" in item["message"]


def test_places_named_in_related_messages_are_given_in_cells(cli, project) -> None:
    # the call chain's note names the draw's place: cell 1 line 4, not program line 4 + 0
    text = notebook(
        code("import torch\n"),
        code("def build():\n", "    net = torch.nn.Linear(4, 2)\n", "    return net\n"),
        code("# train\n", "model = build()\n", "torch.save(model.state_dict(), 'm.pt')\n"),
    )
    root = project({"nb.ipynb": text})
    [item] = json.loads(cli("check", "--output-format", "json", "nb.ipynb", cwd=root).out)
    assert (item["code"], item["cell"], item["line"]) == ("RPL101", 2, 2)
    notes = [r["message"] for r in item["related"]]
    assert "this call of `build` leads to the draw `torch.nn.Linear` at nb.ipynb:cell 2:2" in notes
    assert not any("nb.ipynb:5" in n for n in notes)  # program line 5 is cell 2 line 2


def test_top_level_draws_that_feed_nothing_are_not_reported(cli, project) -> None:
    # fchollet-style illustrations: random arrays shown, a toy NumPy RNN, a random baseline
    shows = notebook(
        code("import numpy as np\n", "x = np.random.random((20, 100))\n", "z = np.maximum(x + x, 0.0)\n"),
        code("state = np.zeros(4)\n", "for x_t in np.random.random((5, 4)):\n", "    state = np.tanh(x_t + state)\n"),
        code("labels = [0, 1, 1]\n", "copy_ = list(labels)\n", "np.random.shuffle(copy_)\n", "print(np.mean(np.array(copy_) == labels))\n"),
        code("model.fit(train_x, train_y)\n"),
    )
    assert check_nb(cli, project, shows).out == ""
    # the same draws reaching a fit (through a shuffle and indexing), a file, or a helper
    feeds = notebook(
        code("import numpy as np\n", "idx = np.arange(10)\n", "np.random.shuffle(idx)\n"),
        code("x_train = data[idx][:8]\n", "model.fit(x_train, y)\n"),
    )
    [line] = check_nb(cli, project, feeds).out.splitlines()
    assert line.startswith("nb.ipynb:cell 1:3:1: RPL101 `np.random.shuffle`")
    saves = notebook(code("import numpy as np\n", "noise = np.random.normal(size=(4, 2))\n", "np.save('noise.npy', noise)\n"))
    assert "RPL101" in check_nb(cli, project, saves).out
    reads = notebook(
        code("import numpy as np\n", "mask = np.random.rand(8) > 0.5\n"),
        code("def batches():\n", "    return data[mask]\n"),
    )
    assert "RPL101" in check_nb(cli, project, reads).out


def test_cells_run_in_order_as_one_program(cli, project) -> None:
    seeded_first = notebook(code("import torch\n"), code("torch.manual_seed(0)\n"),
                            code("x = torch.randn(3)\n"))
    assert check_nb(cli, project, seeded_first).out == ""
    seeded_late = notebook(code("import torch\n", "x = torch.randn(3)\n"),
                           code("torch.manual_seed(0)\n"))
    [line] = check_nb(cli, project, seeded_late).out.splitlines()
    assert line.startswith("nb.ipynb:cell 1:2:5: RPL101 `torch.randn` draws from torch's global RNG")


def test_magics_and_shell_escapes_are_skipped_without_moving_lines(cli, project) -> None:
    # RPL101 is one finding per program and library (at the first draw): each cell draws
    # from a library of its own so that every draw is a finding at its own position. The
    # `%timeit` line is skipped: had it been kept, its draw from a fourth library would be
    # a fourth finding.
    text = notebook(
        code("%matplotlib inline\n", "!pip install torch\n", "files = !ls\n", "import torch\n",
             "import random\n", "import numpy as np\n", "import tensorflow as tf\n",
             "torch.randn?\n", "torch.*rand*?\n", "?np.random.*\n", "if True:\n", "    %load_ext autoreload\n",
             "    !nvidia-smi \\\n", "       --query\n", "x = torch.randn(3)\n"),
        code("%%bash\n", "echo $((1 + )) 'not python'\n"),
        code("%%time\n", "y = random.random()\n"),
        code("%time z = np.random.rand(4)\n", 't = %timeit -o tf.random.normal([1])\n'),
        code("torch.save((x, y, z), 'xyz.pt')\n"),  # what the draws feed (they matter)
    )
    lines = check_nb(cli, project, text).out.splitlines()
    assert [line.split(" RPL")[0] + " RPL" + line.split(" RPL")[1][:3] for line in lines] == [
        "nb.ipynb:cell 1:15:5: RPL101",
        "nb.ipynb:cell 3:2:5: RPL101",
        "nb.ipynb:cell 4:1:11: RPL101",  # columns of the cell, `%time ` included
    ]


def test_magic_like_text_inside_a_string_is_kept() -> None:
    text = notebook(code('doc = """\n', "!important: not a shell line\n", '"""\n'))
    source, _ = notebook_program(read_notebook(text))
    assert source == 'doc = """\n!important: not a shell line\n"""\n'


def test_a_line_inside_open_brackets_or_after_a_backslash_is_python_not_a_magic(cli, project) -> None:
    # `% (...)` continuing a print's format string (the d2l notebooks) was read as a line
    # magic and the cell reported as unparsable (RPL900)
    text = notebook(code(
        "for epoch in range(3):\n",
        "    print('epoch %d, loss %.4f'\n",
        "          % (epoch + 1, 0.5))\n",
        "total = 1 + \\\n",
        "!ls\n",
        "%matplotlib inline\n",
    ))
    source, _ = notebook_program(read_notebook(text))
    assert source.splitlines() == [
        "for epoch in range(3):", "    print('epoch %d, loss %.4f'", "          % (epoch + 1, 0.5))",
        "total = 1 + \\", "!ls", "pass",
    ]
    assert "RPL900" not in check_nb(cli, project, notebook(code(
        "for epoch in range(3):\n", "    print('epoch %d, loss %.4f'\n", "          % (epoch + 1, 0.5))\n",
    ))).out


def test_an_indented_cell_runs_as_ipython_dedents_it(cli, project) -> None:
    # IPython removes the first non-blank line's indentation from every line that starts
    # with it before running the cell; the cell was an RPL900 "unexpected indent"
    text = notebook(
        code("import torch\n"),
        code("\n", "  w = torch.randn(3,\n", "                4)\n", "  torch.save(w, 'w.pt')\n"),
    )
    source, _ = notebook_program(read_notebook(text))
    assert source.splitlines()[1:] == ["", "w = torch.randn(3,", "              4)", "torch.save(w, 'w.pt')"]
    lines = check_nb(cli, project, text).out.splitlines()
    assert [line.split(": RPL")[0] + ": RPL" + line.split(": RPL")[1][:3] for line in lines] == [
        "nb.ipynb:cell 2:2:7: RPL101",  # the column of the cell as written, indentation included
    ]


def test_a_cell_indented_inconsistently_is_still_a_syntax_error(cli, project) -> None:
    # only the lines that start with the first line's indentation lose it, as in IPython
    text = notebook(code("    x = 1\n", "  y = 2\n"))
    [line] = check_nb(cli, project, text).out.splitlines()
    assert line.startswith("nb.ipynb:cell 1:2:") and "RPL900" in line


def test_program_lines_map_back_to_cells() -> None:
    text = notebook(markdown("x"), code("a = 1\n", "b = 2"), code(""), code("%%bash\n", "ls\n"))
    source, cell_map = notebook_program(read_notebook(text))
    assert source == "a = 1\nb = 2\n\n\n"
    assert [cell_map.locate(n)[:2] for n in range(1, 5)] == [(1, 1), (1, 2), (3, 1), (3, 2)]


def test_suppression_comment_in_a_cell(cli, project) -> None:
    text = notebook(code("import torch\n", "x = torch.randn(3)  # noqa: RPL101\n"))
    assert check_nb(cli, project, text).status == 0


def test_syntax_error_maps_to_its_cell(cli, project) -> None:
    text = notebook(code("import torch\n"), code("x = 1\n", "def train(:\n"))
    [line] = check_nb(cli, project, text).out.splitlines()
    # The column is CPython's, which varies across versions; the cell and line do not.
    assert line.startswith("nb.ipynb:cell 2:2:")
    assert " RPL900 Failed to parse nb.ipynb: syntax error: " in line


def test_broken_json_is_a_clear_rpl900(cli, project) -> None:
    result = check_nb(cli, project, '{\n "cells": [\n  {"cell_type": "code",}\n ]\n}\n')
    assert result.status == 1
    assert result.out == (
        "nb.ipynb:3:24: RPL900 Failed to parse nb.ipynb: invalid notebook JSON: "
        "Expecting property name enclosed in double quotes\n"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[]", "not a Jupyter notebook: the JSON is not an object"),
        ('{"metadata": {}}', "not a Jupyter notebook: no `cells` list"),
        ('{"worksheets": [], "nbformat": 3}', "nbformat 3 notebooks are not supported"),
        (b'{"cells": []}\xff', "notebook is not UTF-8"),
    ],
)
def test_files_that_are_not_notebooks(text, reason, tmp_path) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    [d] = check_paths([str(path)]).diagnostics
    assert d.code == "RPL900"
    assert reason in d.message


def test_notebook_of_another_language_is_not_checked(cli, project) -> None:
    # (A python3 kernel with language "R" is Python: issue 30 — see tests/adversarial.)
    text = notebook(code("x <- rnorm(3)\n"), language="R", kernel="ir")
    result = check_nb(cli, project, text)
    assert (result.status, result.out) == (0, "")
    assert "Skipped 1 file, not analysed: nb.ipynb (R notebook, not Python)." in result.err


def test_discovery_finds_notebooks_and_they_use_project_modules(cli, project) -> None:
    root = project({
        "utils.py": "import torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n",
        "notebooks/explore.ipynb": notebook(code("import torch\n", "x = torch.randn(3)\n")),
        "seeded.ipynb": notebook(code("import torch\n", "from utils import set_seed\n",
                                      "set_seed(0)\n", "x = torch.randn(3)\n")),
    })
    result = cli("check", "--output-format", "concise", ".", cwd=root)
    [line] = result.out.splitlines()
    assert line.startswith("notebooks/explore.ipynb:cell 1:2:5: RPL101 ")


def test_large_outputs_do_not_count_against_the_size_limit(tmp_path) -> None:
    image = {"output_type": "display_data", "metadata": {},
             "data": {"image/png": "A" * 2_000_000}}
    path = tmp_path / "nb.ipynb"
    path.write_text(notebook(code("import torch\n", "torch.randn(3)\n", outputs=[image])))
    assert [d.code for d in check_paths([str(path)]).diagnostics] == ["RPL101"]


def test_check_source_reads_a_notebook_from_text() -> None:
    [d] = check_source(notebook(code("import torch\n", "x = torch.randn(3)\n")), "nb.ipynb")
    assert (d.cell, d.span.start_line) == (1, 2)


# -- writing back --------------------------------------------------------------------------

def test_write_back_without_changes_is_byte_identical() -> None:
    text = notebook(code("import torch\n", "x = 1"), markdown("m"), code("y = 2\n"))
    assert write_back(text, notebook_sources(read_notebook(text))) == text


def test_write_back_changes_only_the_given_cell() -> None:
    output = {"name": "stdout", "output_type": "stream", "text": ["hi\n"]}
    text = notebook(
        code("import torch\n", "x = torch.randn(3)", outputs=[output], count=1),
        markdown("Below"),
        code("y = 2\n", count=2),
        sort_keys=True,
    )
    new = write_back(text, {1: "import torch\ntorch.manual_seed(0)\nx = torch.randn(3)"})
    assert new == text.replace(
        '  "source": [\n    "import torch\\n",\n    "x = torch.randn(3)"\n   ]',
        '  "source": [\n    "import torch\\n",\n    "torch.manual_seed(0)\\n",\n'
        '    "x = torch.randn(3)"\n   ]',
    )
    assert new != text
    assert notebook_sources(read_notebook(new)) == {
        1: "import torch\ntorch.manual_seed(0)\nx = torch.randn(3)",
        2: "y = 2\n",
    }


@pytest.mark.parametrize(
    "dump",
    [
        {"indent": 1},
        {"indent": 2, "sort_keys": True},
        {"indent": 4, "ensure_ascii": True},
        {"indent": None},
        {"indent": None, "separators": (",", ":")},
    ],
    ids=["nbformat", "indent2", "ascii", "one-line", "compact"],
)
def test_write_back_keeps_the_file_style(dump: dict) -> None:
    text = notebook(code("a = 'é'\n", "b = 1"), code(), code("c = 3\n"), **dump)
    new = write_back(text, {1: "a = 'é'\nb = 2\n", 2: "import torch\n"})
    document = json.loads(new)
    assert [c["source"] for c in document["cells"]] == [
        ["a = 'é'\n", "b = 2\n"], ["import torch\n"], ["c = 3\n"]
    ]
    # Re-dumping in the original style gives the same text: formatting was kept.
    assert new == json.dumps(document, **dump) + "\n"


def test_write_back_keeps_string_sources_and_crlf() -> None:
    text = '{\r\n "cells": [\r\n  {"cell_type": "code", "source": "x = 1\\n", "outputs": []}\r\n ],\r\n "metadata": {}\r\n}'
    new = write_back(text, {1: "x = 2\n"})
    assert new == text.replace('"x = 1\\n"', '"x = 2\\n"')


def test_write_back_rejects_an_unknown_cell() -> None:
    text = notebook(markdown("only markdown"))
    with pytest.raises(KeyError):
        write_back(text, {1: "x = 1\n"})


def test_read_notebook_error_points_into_the_json() -> None:
    with pytest.raises(NotebookError) as info:
        read_notebook('{"cells": [}')
    assert (info.value.line, info.value.column) == (1, 12)


_source = st.lists(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), max_size=4
).map("\n".join)


@settings(max_examples=60, deadline=None)
@given(sources=st.lists(_source, min_size=1, max_size=4), new=_source, which=st.data())
def test_write_back_round_trips_any_source(sources, new, which) -> None:
    text = notebook(*(code(*s.splitlines(keepends=True)) for s in sources), markdown("m"))
    number = which.draw(st.integers(1, len(sources)))
    written = write_back(text, {number: new})
    after = notebook_sources(read_notebook(written))
    before = notebook_sources(read_notebook(text))
    assert after == {**before, number: new}
    old_doc, new_doc = json.loads(text), json.loads(written)
    for cell in (*old_doc["cells"], *new_doc["cells"]):
        cell.pop("source")
    assert old_doc == new_doc
