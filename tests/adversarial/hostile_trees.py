"""Generators of hostile project trees, for the adversarial tests (issue 15).

Each generator adds one kind of hostility to a project folder: planted caches, links,
permissions, surrogates in names and notebooks, deep nesting, long chains, huge files,
FIFOs, bad encodings. They are plain functions of ``(project, outside, size)`` so a
Hypothesis strategy can combine them, and a parametrised test can run each alone.
``outside`` is a folder next to the project that reprolint must never change.

Sizes are bounded so that each case costs well under a second of analysis: a case that
needs minutes (tens of thousands of nested parentheses) proves the same point as one
that needs a second, and a test loop that takes minutes is not run.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Callable

__all__ = ["GENERATORS", "TRAINING", "Generator", "make_project"]

Generator = Callable[[Path, Path, int], None]

# An ordinary training script with findings (and fixes): every tree has one, so a
# hostile ingredient that hides findings shows up as a missing RPL101.
TRAINING = (
    "import random\n"
    "import numpy as np\n"
    "\n"
    "\n"
    "def train():\n"
    "    return random.random() + np.random.rand()\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    train()\n"
)


def make_project(root: Path) -> tuple[Path, Path]:
    """A project folder with :data:`TRAINING` and an ``outside`` folder beside it."""
    project = root / "project"
    outside = root / "outside"
    project.mkdir(parents=True)
    outside.mkdir()
    (project / "train.py").write_text(TRAINING)
    (outside / "precious.py").write_text("import random\nrandom.random()\n")
    (outside / "notes.txt").write_text("keep me\n")
    return project, outside


# --------------------------------------------------------------------------- caches


def planted_cache(project: Path, outside: Path, size: int) -> None:
    """A committed cache: reprolint 0.1's marker, entries saying "no findings", a tag."""
    cache = project / ".reprolint_cache"
    if os.path.lexists(cache):
        return  # another ingredient made it (a link)
    (cache / "runs").mkdir(parents=True)
    (cache / "v1" / "ab").mkdir(parents=True)
    (cache / ".gitignore").write_text(
        "# Created by reprolint: the analysis cache (`reprolint clean` removes it).\n*\n"
    )
    (cache / "CACHEDIR.TAG").write_text(
        "Signature: 8a477f597d28d172789f06886806bc55\nreprolint-folder: " + "0" * 64 + "\n"
    )
    for i in range(max(1, size % 5)):
        key = f"{i:064x}"
        (cache / "runs" / f"{key}.json").write_text(json.dumps({"key": key, "diagnostics": []}))
        (cache / "v1" / "ab" / f"{key[2:]}.json").write_text(
            json.dumps({"key": key, "payload": {"facts": {"!c": "Popen", "args": ["sh"]}}})
        )
    (cache / "trigger-words-0000000000000000.json").write_text(json.dumps({"value": [[], []]}))
    (cache / "src-of-the-project.py").write_text("keep = True\n")


def hostile_cache_dir(project: Path, outside: Path, size: int) -> None:
    """``cache-dir`` pointing out of the project: the parent, the root, elsewhere."""
    choices = ["..", "", ".", "../outside", str(outside), "sub/../.."]
    value = choices[size % len(choices)]
    (project / "reprolint.toml").write_text(f"cache-dir = {json.dumps(value)}\n")


def linked_cache(project: Path, outside: Path, size: int) -> None:
    """The cache folder is a link to a folder outside the project."""
    if os.path.lexists(project / ".reprolint_cache"):
        return  # another ingredient planted it
    target = outside / "cache-target"
    target.mkdir(exist_ok=True)
    (project / ".reprolint_cache").symlink_to(target, target_is_directory=True)


# --------------------------------------------------------------------------- links


def links(project: Path, outside: Path, size: int) -> None:
    """A link to a project file, a dangling link, a loop, a link to a folder outside."""
    (project / "real_helper.py").write_text("import os\n\nFILES = os.listdir('.')\n")
    (project / "linked_helper.py").symlink_to(project / "real_helper.py")
    (project / "dangling.py").symlink_to(project / "does_not_exist.py")
    (project / "loop.py").symlink_to(project / "loop.py")
    (project / "outside_dir").symlink_to(outside, target_is_directory=True)


# --------------------------------------------------------------------------- permissions


def permissions(project: Path, outside: Path, size: int) -> None:
    """An unreadable file, a folder without search permission, a read-only folder."""
    (project / "secret.py").write_text("import random\nrandom.random()\n")
    os.chmod(project / "secret.py", 0)
    locked = project / "locked"
    locked.mkdir()
    (locked / "inner.py").write_text("import random\nrandom.random()\n")
    os.chmod(locked, stat.S_IWUSR)  # no read, no search
    readonly = project / "readonly"
    readonly.mkdir()
    (readonly / "fixme.py").write_text("import torch\ntorch.backends.cudnn.benchmark = True\n")
    os.chmod(readonly, stat.S_IRUSR | stat.S_IXUSR)


# --------------------------------------------------------------------------- text


def surrogates(project: Path, outside: Path, size: int) -> None:
    """Names that are not UTF-8, a notebook with a lone surrogate, bad encodings."""
    name = os.fsencode(project) + b"/bad\xff\xfename.py"
    with open(name, "wb") as handle:
        handle.write(b"import os\nos.listdir('.')\n")
    (project / "lone.ipynb").write_text(
        '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,'
        ' "source": ["import random\\n", "x = \\"\\ud800\\"\\n", "random.random()\\n"]}],'
        ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    )
    (project / "latin.py").write_bytes(b"# -*- coding: utf-8 -*-\nx = '\xff\xfe'\n")
    (project / "nul.py").write_bytes(b"import random\n\x00\nrandom.random()\n")
    (project / "bom_crlf.py").write_bytes(b"\xef\xbb\xbfimport random\r\nrandom.random()\r\n")
    (project / "escape\x1b[31mred.py").write_text("import random\nrandom.random()\n")


def deep_nesting(project: Path, outside: Path, size: int) -> None:
    """Nested brackets, long attribute and operator chains, deep blocks."""
    depth = 50 + size * 20  # bounded: libcst's cost grows quickly beyond a few hundred
    (project / "nested.py").write_text("x = " + "(" * depth + "1" + ")" * depth + "\n")
    (project / "chain.py").write_text("import a\nx = a" + ".b" * (100 + size * 40) + "\n")
    (project / "sum.py").write_text("a = 1\ny = " + " + ".join(["a"] * (100 + size * 20)) + "\n")
    lines = [f"{'    ' * i}if x{i}:" for i in range(min(90, 10 + size * 4))]
    lines.append("    " * len(lines) + "pass")
    (project / "blocks.py").write_text("\n".join(lines) + "\n")


def huge_files(project: Path, outside: Path, size: int) -> None:
    """A file over the size limit, a large data table, a long single line."""
    (project / "huge.py").write_text("X = 1\n" * (200_000 + size * 1000))  # about 1.2 MB
    rows = ",\n".join(f"    ({i}, {i * 2}, 'row{i}')" for i in range(12_000))
    (project / "table.py").write_text("TABLE = [\n" + rows + ",\n]\n")
    (project / "long_line.py").write_text("x = '" + "a" * 300_000 + "'\n")


def fifo(project: Path, outside: Path, size: int) -> None:
    """A FIFO named like a module (reading it would block forever)."""
    if hasattr(os, "mkfifo"):
        os.mkfifo(project / "pipe.py")


def syntax_errors(project: Path, outside: Path, size: int) -> None:
    """Files CPython rejects, and an empty one."""
    (project / "broken.py").write_text("def f(:\n    pass\n")
    (project / "tabs.py").write_text("if True:\n\tx = 1\n        y = 2\n")
    (project / "empty.py").write_text("")
    (project / "continuation.py").write_bytes(b"x = 1 \\\r\n")


# --------------------------------------------------------------------------- issue 30


def deep_folders(project: Path, outside: Path, size: int) -> None:
    """A folder chain over 1,000 deep (a committable path of 2,000+ characters) with a
    finding at the bottom: a recursive walk dies of RecursionError."""
    here = os.open(project, os.O_RDONLY)
    try:
        for _ in range(1000 + size * 10):  # relative to a descriptor: no long path built
            os.mkdir("d", dir_fd=here)
            below = os.open("d", os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = below
        fd = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here)
        with os.fdopen(fd, "w") as handle:
            handle.write("import random\n\nif __name__ == '__main__':\n    print(random.random())\n")
    finally:
        os.close(here)


def hostile_names(project: Path, outside: Path, size: int) -> None:
    """Names that would forge output: a workflow command after a newline, a diff header
    after a newline, terminal escapes."""
    (project / "x\n::stop-commands::tok\n::error file=train.py,line=1::forged.py").write_text(
        "import random\nrandom.random()\n"
    )
    folder = project / "y\n+++ b"
    folder.mkdir()
    (folder / "run.py").write_text("import torch\ntorch.backends.cudnn.benchmark = True\n")
    (project / "osc\x1b]0;owned\x07.py").write_text("import random\nrandom.random()\n")


def linked_records(project: Path, outside: Path, size: int) -> None:
    """`.reprolint` (or `.reprolint/runs`) a link to a folder outside holding sessions."""
    sessions = outside / "runs"
    for i in range(1 + size % 3):
        session = sessions / f"2024010{i}-000000-0000001234"
        session.mkdir(parents=True, exist_ok=True)
        (session / "keep.txt").write_text("precious\n")
    if size % 2:
        (project / ".reprolint").symlink_to(outside, target_is_directory=True)
    else:
        (project / ".reprolint").mkdir()
        (project / ".reprolint" / "runs").symlink_to(sessions, target_is_directory=True)


def notebook_kernels(project: Path, outside: Path, size: int) -> None:
    """Python notebooks with odd metadata (ipython3; python3 with another language)."""
    metadata = [{"language_info": {"name": "ipython3"}},
                {"kernelspec": {"name": "python3", "language": "markdown"}}][size % 2]
    (project / "kernel.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                   "source": ["import torch\n", "x = torch.randn(3)\n"]}],
        "metadata": metadata, "nbformat": 4, "nbformat_minor": 5,
    }))


GENERATORS: dict[str, Generator] = {
    "planted_cache": planted_cache,
    "hostile_cache_dir": hostile_cache_dir,
    "linked_cache": linked_cache,
    "links": links,
    "permissions": permissions,
    "surrogates": surrogates,
    "deep_nesting": deep_nesting,
    "huge_files": huge_files,
    "fifo": fifo,
    "syntax_errors": syntax_errors,
    "deep_folders": deep_folders,
    "hostile_names": hostile_names,
    "linked_records": linked_records,
    "notebook_kernels": notebook_kernels,
}

if sys.platform == "win32":  # links, modes and FIFOs mean other things there
    for _name in ("links", "linked_cache", "permissions", "fifo", "hostile_names", "linked_records"):
        GENERATORS.pop(_name)
