"""A set made of a function's parameter (`def encode_onehot(labels): classes =
set(labels)`) is a set of text where every call the programs make passes text: a NumPy
array of str (a column `table[:, -1]` of `np.genfromtxt(path, dtype=np.dtype(str))`), a
list of words. Its order-taking uses are then RPL401, as for a set built in place; where
a call passes numbers, or nothing calls the function, the element type stays unknown and
nothing is reported."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reprolint.api import check_paths, check_source

HELPER = '''import numpy as np


def encode_onehot(labels):
    classes = set(labels)
    mapping = {c: np.identity(len(classes))[i, :] for i, c in enumerate(classes)}
    return np.array(list(map(mapping.get, labels)))


'''


def rpl401(source: str) -> list[int]:
    return [d.span.start_line for d in check_source(source, "prep.py") if d.code == "RPL401"]


@pytest.mark.parametrize("call", [
    'encode_onehot(np.genfromtxt("cora.content", dtype=np.dtype(str))[:, -1])',
    'encode_onehot(np.loadtxt("labels.txt", dtype=str))',
    'encode_onehot(open("labels.txt").read().split())',
    'encode_onehot(["cat", "dog", "cat"])',
])
def test_every_call_passing_text_makes_the_set_one_of_text(call: str) -> None:
    assert rpl401(HELPER + f"onehot = {call}\nprint(onehot)\n") == [6]


@pytest.mark.parametrize("calls", [
    ["encode_onehot(np.arange(10))"],  # numbers: ints hash to themselves
    ['encode_onehot(np.loadtxt("labels.txt", dtype=str))', "encode_onehot(np.arange(10))"],  # one call is not text
    [],  # never called: what it is given is not known
])
def test_a_call_without_text_or_no_call_reports_nothing(calls: list[str]) -> None:
    body = "".join(f"onehot_{i} = {call}\n" for i, call in enumerate(calls)) or "print(1)\n"
    assert rpl401(HELPER + body) == []


def test_a_call_from_another_module_counts(tmp_path: Path) -> None:
    (tmp_path / "utils.py").write_text(HELPER)
    (tmp_path / "train.py").write_text(
        "import numpy as np\nfrom utils import encode_onehot\n\n"
        "table = np.genfromtxt('cora.content', dtype=np.dtype(str))\nlabels = encode_onehot(table[:, -1])\n"
        "print(labels.sum())\n"
    )
    found = [(Path(d.path).name, d.span.start_line) for d in check_paths([str(tmp_path)], jobs=1).diagnostics
             if d.code == "RPL401"]
    assert found == [("utils.py", 6)]


def test_numpy_text_elements_hash_like_str() -> None:
    # the claim the rule rests on: np.str_ elements of a text array hash as str does, so a
    # set of them iterates in an order that depends on the string hash seed
    column = np.array(["Neural_Networks", "Theory", "Genetic_Algorithms"], dtype=np.dtype(str))
    assert all(hash(v) == hash(str(v)) for v in column)


@pytest.mark.parametrize(("call", "reported"), [
    ('encode_onehot(np.loadtxt("labels.txt", dtype=str))', True),
    ("encode_onehot(np.arange(10))", False),
])
def test_rpl307_speaks_for_the_same_sets(call: str, reported: bool) -> None:
    # selected alone, RPL307 reports the program for the sites RPL401 would: not for a set
    # of a parameter some call gives numbers
    from reprolint.config import Settings

    source = HELPER + f"onehot = {call}\nprint(onehot)\n"
    found = [d.code for d in check_source(source, "prep.py", Settings(select=("RPL307",)))]
    assert found == (["RPL307"] if reported else [])
