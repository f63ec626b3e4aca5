"""`--output-format github`: the workflow commands GitHub Actions turns into annotations."""

from __future__ import annotations

import io
import json

from reprolint.model import Diagnostic, Severity, Span
from reprolint.reporters import Report, render
from reprolint.reporters.github import escape_data, escape_property, github_line

UNSEEDED = "import torch\n\nx = torch.randn(3)\n"
SEEDED = "import torch\n\ntorch.manual_seed(0)\nx = torch.randn(3)\n"
MESSAGE = (
    "`torch.randn` draws from torch's global RNG, which is never seeded on this "
    "program's path (entry point: {entry})"
)


def _diagnostic(**changes) -> Diagnostic:
    values = dict(
        code="RPL101",
        name="unseeded-global-rng",
        message="m",
        path="train.py",
        span=Span(3, 5, 3, 19),
    )
    values.update(changes)
    return Diagnostic(**values)


def test_one_warning_command_per_finding(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("check", "--output-format", "github", "train.py", cwd=root)
    assert result.status == 1
    assert result.out == (
        "::warning file=train.py,line=3,endLine=3,col=5,endColumn=19,"
        "title=RPL101 unseeded-global-rng::" + MESSAGE.format(entry="train.py") + "\n"
    )


def test_clean_run_prints_nothing_and_exits_0(cli, project) -> None:
    root = project({"train.py": SEEDED})
    result = cli("check", "--output-format", "github", ".", cwd=root)
    assert (result.status, result.out) == (0, "")


def test_paths_are_relative_to_the_working_directory(cli, project) -> None:
    root = project({"src/pkg/train.py": UNSEEDED})
    result = cli("check", "--output-format", "github", str(root / "src"), cwd=root)
    assert result.out.startswith("::warning file=src/pkg/train.py,line=3,")


def test_parse_error_is_an_error_annotation(cli, project) -> None:
    root = project({"bad.py": "def train(:\n    pass\n"})
    result = cli("check", "--output-format", "github", "bad.py", cwd=root)
    assert result.status == 1
    [line] = result.out.splitlines()
    assert line.startswith("::error file=bad.py,line=1,endLine=1,col=")
    assert ",title=RPL900 parse-error::Failed to parse bad.py: " in line


def test_severity_maps_to_error_warning_notice() -> None:
    commands = [
        github_line(_diagnostic(severity=severity), cwd=".").split(" ", 1)[0]
        for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
    ]
    assert commands == ["::error", "::warning", "::notice"]


def test_message_and_properties_are_escaped() -> None:
    d = _diagnostic(
        message="100% of runs differ\r\nsee: a,b",
        path="dir,with:odd%chars/train.py",
        code="RPL101",
        name="odd:name,here",
    )
    assert github_line(d, cwd=".") == (
        "::warning file=dir%2Cwith%3Aodd%25chars/train.py,line=3,endLine=3,col=5,endColumn=19,"
        "title=RPL101 odd%3Aname%2Chere::100%25 of runs differ%0D%0Asee: a,b"
    )


def test_escape_functions_follow_actions_toolkit() -> None:
    assert escape_data("a%b\rc\nd:e,f") == "a%25b%0Dc%0Ad:e,f"
    assert escape_property("a%b\rc\nd:e,f") == "a%25b%0Dc%0Ad%3Ae%2Cf"


def test_multiline_span_keeps_its_end() -> None:
    d = _diagnostic(span=Span(2, 1, 5, 3))
    assert github_line(d, cwd=".").startswith(
        "::warning file=train.py,line=2,endLine=5,col=1,endColumn=3,"
    )


def test_render_through_the_format_registry() -> None:
    out = io.StringIO()
    render("github", Report([_diagnostic(path="<stdin>")], 1, exit_status=1), out)
    assert out.getvalue().startswith("::warning file=<stdin>,line=3,")


def test_notebook_finding_points_at_the_file_line_of_its_cell_line(cli, project) -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Train\n"]},
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": ["import torch\n", "\n", "x = torch.randn(3)"],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    text = json.dumps(notebook, indent=1) + "\n"
    root = project({"nb.ipynb": text})
    file_line = text.splitlines().index('    "x = torch.randn(3)"') + 1
    result = cli("check", "--output-format", "github", "nb.ipynb", cwd=root)
    assert result.out == (
        f"::warning file=nb.ipynb,line={file_line},endLine={file_line},"
        "title=RPL101 unseeded-global-rng::cell 1:3:5: " + MESSAGE.format(entry="nb.ipynb") + "\n"
    )
