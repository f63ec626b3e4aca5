"""A finding that concerns several programs (issue 17 item 4): a flag missing in a
trainer module shared by three entry points (minGPT's shape: `mingpt/trainer.py` run
by `projects/adder/adder.py`, `projects/chargpt/chargpt.py` and a notebook) is fixed at
every entry point, and `check`'s count of fixable findings is what `fix` then does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "three_entry_points"
ENTRIES = ["demo.ipynb", "projects/adder/adder.py", "projects/chargpt/chargpt.py"]


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


@pytest.fixture
def minigpt(tmp_path: Path) -> Path:
    root = tmp_path / "minigpt"
    shutil.copytree(FIXTURE, root)
    return root


def _program_text(root: Path, entry: str) -> str:
    path = root / entry
    if entry.endswith(".ipynb"):
        return "".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])
    return path.read_text()


@pytest.mark.parametrize(
    ("style", "marker"),
    [("hooks", "reprolint.runtime.install(seed=0)"), ("inline", "torch.use_deterministic_algorithms(True)")],
)
def test_a_shared_trainer_finding_is_fixed_at_every_entry_point(cli, minigpt: Path, style: str, marker: str) -> None:
    result = cli("check", "--no-cache", ".", cwd=minigpt)
    assert "mingpt/trainer.py:7:23: RPL301" in result.out
    assert result.out.splitlines()[-1] == "Found 1 problem (1 fixable with `reprolint fix`)."

    dry = cli("fix", "--unsafe-fixes", "--fix-style", style, ".", cwd=minigpt)
    assert dry.out.splitlines()[:4] == [
        *(f"{entry}: would fix RPL301" for entry in ENTRIES),
        "Would fix 1 problem in 3 files.",
    ]
    written = cli("fix", "--write", "--unsafe-fixes", "--fix-style", style, ".", cwd=minigpt)
    assert written.status == 0, written
    assert written.out == "Fixed 1 problem in 3 files.\n"
    for entry in ENTRIES:
        assert marker in _program_text(minigpt, entry), entry
    assert marker not in (minigpt / "mingpt" / "trainer.py").read_text()
    # Afterwards check and fix agree: nothing reported, nothing left to fix.
    assert cli("check", "--no-cache", ".", cwd=minigpt).out == "All checks passed!\n"
    assert cli("fix", "--unsafe-fixes", "--fix-style", style, ".", cwd=minigpt).out == "Nothing to fix.\n"


def test_json_fix_is_not_null_when_text_says_fixable(cli, minigpt: Path) -> None:
    text = cli("check", "--no-cache", ".", cwd=minigpt).out
    items = json.loads(cli("check", "--no-cache", "--output-format", "json", ".", cwd=minigpt).out)
    fixable = [i for i in items if i["fix"] is not None]
    assert f"({len(fixable)} fixable" in text.splitlines()[-1]
    [item] = fixable
    assert item["fix"]["title"].endswith(f"(in each program that runs it: {', '.join(ENTRIES)})")


def test_the_count_of_fixable_findings_is_what_fix_does_after_one_entry_is_fixed(cli, minigpt: Path) -> None:
    # One entry point fixed by hand: the finding now concerns the two others only.
    adder = minigpt / "projects" / "adder" / "adder.py"
    adder.write_text(adder.read_text().replace(
        "from mingpt.utils import set_seed\n",
        "from mingpt.utils import set_seed\nimport reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n",
    ))
    result = cli("check", "--no-cache", ".", cwd=minigpt)
    assert result.out.splitlines()[-1] == "Found 1 problem (1 fixable with `reprolint fix`)."
    written = cli("fix", "--write", "--unsafe-fixes", ".", cwd=minigpt)
    assert written.out == "Fixed 1 problem in 2 files.\n"
    assert adder.read_text().count("install(seed=0)") == 1
    assert cli("check", "--no-cache", ".", cwd=minigpt).out == "All checks passed!\n"


# -- fixes read the finding's data, never its message (issue 12 item 3)


def _fixed_examples() -> list:
    from reprolint.checks.registry import all_rules

    return [
        pytest.param(rule, example, id=f"{rule.code}-{i}")
        for rule in all_rules()
        for i, example in enumerate(rule.INVALID)
        if example.fixed is not None
    ]


@pytest.mark.parametrize(("rule", "example"), _fixed_examples())
def test_rewording_every_message_changes_no_fix(rule, example, monkeypatch: pytest.MonkeyPatch) -> None:
    from reprolint.api import check_source, fix_source
    from reprolint.checks.base import Rule

    monkeypatch.setattr(Rule, "render", classmethod(lambda cls, data: "reworded"))
    assert {d.message for d in check_source(example.source, "main.py")} <= {"reworded"}
    assert fix_source(example.source, "main.py", unsafe_fixes=True) == example.fixed


# -- check's count of fixable findings is what fix then does


@pytest.mark.slow
@pytest.mark.parametrize("style", ["hooks", "inline"])
def test_check_fixable_count_equals_what_fix_does_on_the_corpus(style: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from reprolint.api import check_paths, fix_paths
    from reprolint.config import Settings
    from reprolint.model import Applicability

    monkeypatch.chdir(Path(__file__).resolve().parent.parent / "corpus")
    settings = Settings().replace(fix_style=style)
    checked = check_paths(["."], settings, jobs=1, fix_edits=False)
    fixable = [
        d for d in checked.diagnostics
        if d.fix is not None and d.fix.applicability is not Applicability.DISPLAY_ONLY
    ]
    report = fix_paths(["."], settings, unsafe_fixes=True)
    assert report.fixed == len(fixable) > 150


def test_a_shared_partial_seeding_helper_is_fixed_for_every_program(cli, project) -> None:
    helper = "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
    script = (
        "import numpy as np\nimport torch\nfrom utils import set_seed\n\n"
        "if __name__ == '__main__':\n    set_seed(1)\n    print(np.random.rand(), torch.rand(1))\n"
    )
    root = project({"utils.py": helper, "a.py": script, "b.py": script})
    items = json.loads(cli("check", "--no-cache", "--output-format", "json", ".", cwd=root).out)
    # one cause, one finding per program: RPL101 at each NumPy draw names the helper's
    # seeding call (no RPL105 at the helper besides)
    assert sorted((i["code"], i["path"]) for i in items) == [("RPL101", "a.py"), ("RPL101", "b.py")]
    for item in items:
        assert ("utils.py", 5) in {(r["path"], r["line"]) for r in item["related"]}
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 0, result
    assert "install(seed=0)" in (root / "a.py").read_text()
    assert "install(seed=0)" in (root / "b.py").read_text()
    assert cli("check", "--no-cache", ".", cwd=root).out == "All checks passed!\n"


def test_a_program_the_fix_cannot_reach_is_named_in_the_fix_title(cli, minigpt: Path) -> None:
    # chargpt.py imports a project module that draws on import before it imports torch:
    # the inline switches need torch and must precede that import, so no place fits.
    (minigpt / "projects" / "chargpt" / "noise.py").write_text("import random\nNOISE = random.random()\n")
    chargpt = minigpt / "projects" / "chargpt" / "chargpt.py"
    chargpt.write_text(chargpt.read_text().replace(
        "import sys\n\nimport torch\n", "import sys\nimport noise\nprint(noise.NOISE)\nimport torch\n"
    ))
    (minigpt / "pyproject.toml").write_text('[tool.reprolint]\nfix-style = "inline"\n')
    items = json.loads(cli("check", "--no-cache", "--output-format", "json", ".", cwd=minigpt).out)
    [item] = [i for i in items if i["code"] == "RPL301"]
    assert item["fix"]["title"] == (
        "Turn on torch's deterministic mode at the entry point (in each program that runs it: "
        "demo.ipynb, projects/adder/adder.py); still needs a change by hand in projects/chargpt/chargpt.py"
    )


def test_inline_partial_seed_adds_random_next_to_a_numpy_seed(cli, project) -> None:
    # `np.random.seed(0)` contains the text `random.seed(0)`: the inline fix for RPL105
    # must still add the `random` seed (it once took the substring for the statement).
    # RPL101 reports the draw (the program seeds torch and NumPy, not `random`).
    script = (
        "import random\n\nimport numpy as np\nimport torch\n\n"
        "torch.manual_seed(0)\nnp.random.seed(0)\n"
        "x = torch.randn(3)[random.randint(0, 2)]\ntorch.save(x, 'x.pt')\n"
    )
    root = project({"train.py": script})
    assert "train.py:8:20: RPL101" in cli("check", "--no-cache", ".", cwd=root).out
    result = cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", ".", cwd=root)
    assert result.status == 0, result
    assert "torch.manual_seed(0)\nrandom.seed(0)\nnp.random.seed(0)\n" in (root / "train.py").read_text()
    assert cli("check", "--no-cache", ".", cwd=root).out == "All checks passed!\n"


def test_an_else_holding_np_random_seed_still_gets_random_seed(cli, project) -> None:
    # The RPL104 fix of `np.random.seed` makes the `else:` first; the one of
    # `random.seed` must then join it (its text is inside `np.random.seed(0)`).
    script = (
        "import argparse\nimport random\n\nimport numpy as np\n\n"
        "p = argparse.ArgumentParser()\np.add_argument('--seed', type=int, default=None)\n"
        "args = p.parse_args()\nif args.seed is not None:\n"
        "    np.random.seed(args.seed)\n    random.seed(args.seed)\n"
        "x = random.random()\ny = np.random.rand()\nnp.save('xy.npy', [x, y])\n"
    )
    root = project({"train.py": script})
    result = cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", ".", cwd=root)
    assert result.status == 0, result
    assert "else:\n    np.random.seed(0)\n    random.seed(0)\n" in (root / "train.py").read_text()
    assert cli("check", "--no-cache", ".", cwd=root).out == "All checks passed!\n"
