"""One cause, one finding (issue 26 item 3) for the per-site causes of one program:
the trainers of a file that leave the same switch off (RPL306), the order-taking uses of
one set of strings (RPL401). The first is reported, the others are related locations,
and the fix changes all of them."""
from __future__ import annotations

from reprolint.api import check_source, fix_source

LIGHTNING = '''import lightning as L

L.seed_everything(0, workers=True)


def pretrain(model, data):
    L.Trainer(max_epochs=10{first}).fit(model, data)


def finetune(model, data):
    L.Trainer(max_epochs=2{second}).fit(model, data)


model, data = object(), object()
pretrain(model, data)
finetune(model, data)
'''


def _of(source: str, code: str) -> list:
    return [d for d in check_source(source, "train.py") if d.code == code]


def test_trainers_with_the_same_switch_off_are_one_finding() -> None:
    source = LIGHTNING.format(first="", second="")
    [found] = _of(source, "RPL306")
    assert found.span.start_line == 7
    assert "and 1 more of this program's trainers" in found.message
    assert [(r.path, r.span.start_line) for r in found.related] == [("train.py", 11)]
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert "L.Trainer(max_epochs=10, deterministic=True)" in fixed
    assert "L.Trainer(max_epochs=2, deterministic=True)" in fixed
    assert _of(fixed, "RPL306") == []


def test_trainers_missing_different_things_stay_apart() -> None:
    # `deterministic=False` said outright is another message than the default left alone
    source = LIGHTNING.format(first=", deterministic=False", second="")
    found = _of(source, "RPL306")
    assert [d.span.start_line for d in found] == [7, 11]
    assert all(not d.related for d in found)


def test_a_deterministic_trainer_is_not_grouped() -> None:
    source = LIGHTNING.format(first=", deterministic=True", second="")
    [found] = _of(source, "RPL306")
    assert found.span.start_line == 11 and not found.related
    assert "more of this program" not in found.message


VOCAB = '''words = open("corpus.txt").read().split()
vocab = set(words)
itos = list(vocab)
stoi = {w: i for i, w in enumerate(vocab)}
for w in vocab:
    print(w)
'''


def test_the_uses_of_one_set_are_one_finding() -> None:
    [found] = _of(VOCAB, "RPL401")
    assert (found.span.start_line, found.message.split("`")[1]) == (3, "list(vocab)")
    assert [r.span.start_line for r in found.related] == [4, 5]
    assert all("`vocab`" in r.message for r in found.related)
    fixed = fix_source(VOCAB, "train.py")
    assert fixed == VOCAB.replace("list(vocab)", "sorted(vocab)").replace(
        "enumerate(vocab)", "enumerate(sorted(vocab))").replace("in vocab:", "in sorted(vocab):")
    assert _of(fixed, "RPL401") == []


def test_sets_of_the_same_name_in_two_functions_stay_apart() -> None:
    source = (
        "def a(path):\n    s = set(open(path).read().split())\n    return list(s)\n\n\n"
        "def b(path):\n    s = set(open(path).read().split())\n    return list(s)\n\n\n"
        "print(a('x'), b('y'))\n"
    )
    found = _of(source, "RPL401")
    assert [d.span.start_line for d in found] == [3, 8]
    assert all(not d.related for d in found)


def test_unnamed_sets_are_not_grouped() -> None:
    source = "words = open('a').read().split()\nprint(list(set(words)))\nprint(', '.join(set(words)))\n"
    assert [d.span.start_line for d in _of(source, "RPL401")] == [2, 3]
