"""`reprolint fix`: what it writes, what it refuses, and the guarantees around writing."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from reprolint.api import check_source, check_sources, fix_source
from reprolint.checks.base import Invalid
from reprolint.checks.registry import all_rules
from reprolint.config import Settings
from reprolint.model import Applicability

UNSEEDED = "import torch\n\n# weights\nx = torch.randn(3)  # draw\n"
FIXED = (
    "import torch\nimport reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n\n"
    "# weights\nx = torch.randn(3)  # draw\n"
)
# Seeded, but only after a draw: the fix moves the seed, which changes what the draws
# after it produced (unsafe).
LATE = "import random\n\nx = random.random()\nmodel = build()\nrandom.seed(0)\n"
LATE_FIXED = "import random\n\nrandom.seed(0)\nx = random.random()\nmodel = build()\n"


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    # A planning error raises instead of silently dropping the fix.
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


def _fixed_examples() -> list:
    return [
        pytest.param(rule, example, id=f"{rule.code}-{i}")
        for rule in all_rules()
        for i, example in enumerate(rule.INVALID)
        if example.fixed is not None
    ]


@pytest.mark.parametrize(("rule", "example"), _fixed_examples())
def test_rule_fixed_examples(rule, example: Invalid) -> None:
    fixed = fix_source(example.source, "main.py", unsafe_fixes=True)
    assert fixed == example.fixed
    # Converged: fixing again changes nothing, and the rule no longer fires.
    assert fix_source(fixed, "main.py", unsafe_fixes=True) == fixed
    assert not [d for d in check_source(fixed, "main.py") if d.code == rule.code]


def test_declared_fixability_matches_behaviour() -> None:
    for rule in all_rules():
        # a display-only rule edits nothing: it has no rewrite to show
        if rule.fix_applicability in (None, Applicability.DISPLAY_ONLY):
            continue
        assert any(e.fixed is not None for e in rule.INVALID), rule.code


def test_seeding_a_never_seeded_program_is_safe() -> None:
    assert fix_source(UNSEEDED, "train.py") == FIXED
    assert fix_source(UNSEEDED, "train.py", unsafe_fixes=True) == FIXED


def test_unsafe_fixes_need_the_flag() -> None:
    assert fix_source(LATE, "train.py") == LATE
    assert fix_source(LATE, "train.py", unsafe_fixes=True) == LATE_FIXED


def test_inline_style_has_no_reprolint_dependency() -> None:
    source = "import random\nimport numpy as np\n\nx = np.random.rand(2)\ny = random.random()\n"
    fixed = fix_source(source, "t.py", Settings(fix_style="inline", seed=7), unsafe_fixes=True)
    assert "reprolint" not in fixed
    assert fixed == (
        "import random\nimport numpy as np\n\n\ndef seed_everything(seed):\n"
        '    """Seed every random generator this program uses."""\n'
        "    random.seed(seed)\n    np.random.seed(seed)\n\n\nseed_everything(7)\n\n"
        "x = np.random.rand(2)\ny = random.random()\n"
    )


def test_inline_style_reuses_the_project_seeding_helper() -> None:
    utils = "import torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n"
    train = (
        "import numpy as np\nfrom utils import set_seed\n\nif __name__ == '__main__':\n"
        "    set_seed(3)\n    print(np.random.rand(2))\n"
    )
    from reprolint.fixing import fix_texts

    texts, fixed, remaining, problems, converged = fix_texts(
        {"utils.py": utils, "train.py": train}, Settings(fix_style="inline"), ["."], unsafe=True
    )
    assert converged and not problems
    assert texts["train.py"] == train  # the entry point is left alone
    assert texts["utils.py"] == (
        "import torch\nimport numpy\n\ndef set_seed(s):\n    torch.manual_seed(s)\n    numpy.random.seed(s)\n"
    )
    assert not [d for d in remaining if d.code.startswith("RPL1")]


def test_hooks_seed_sites_are_stable_names() -> None:
    source = (
        "import numpy as np\n\ndef augment():\n    a = np.random.default_rng()\n"
        "    b = np.random.default_rng()\n    return a, b\n"
    )
    fixed = fix_source(source, "data.py", unsafe_fixes=True)
    assert 'np.random.default_rng(reprolint.runtime.seed("data.py:augment:np.random.default_rng"))' in fixed
    assert 'np.random.default_rng(reprolint.runtime.seed("data.py:augment:np.random.default_rng#2"))' in fixed


def test_a_seed_moved_above_the_model_keeps_formatting() -> None:
    source = (
        "import torch\n\n\ndef main():\n    # build\n    model = torch.nn.Linear(2, 2)   # odd  spacing\n"
        "    torch.manual_seed(0)\n    return model\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    fixed = fix_source(source, "t.py", unsafe_fixes=True)
    assert fixed == (
        "import torch\n\n\ndef main():\n    torch.manual_seed(0)\n    # build\n"
        "    model = torch.nn.Linear(2, 2)   # odd  spacing\n    return model\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )


def test_seed_goes_before_a_project_import_that_draws() -> None:
    files = {
        "weights.py": "import torch\nW = torch.randn(3)\n",
        "train.py": "import os\nimport weights\nimport torch\n\nprint(weights.W)\n",
    }
    from reprolint.fixing import fix_texts

    texts, *_ = fix_texts(files, Settings(), ["."], unsafe=True)
    assert texts["train.py"] == (
        "import os\nimport reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n\n"
        "import weights\nimport torch\n\nprint(weights.W)\n"
    )
    assert not [d for d in check_sources(texts) if d.code == "RPL101"]


def test_json_diagnostics_carry_their_fix(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("check", "--output-format", "json", "train.py", cwd=root)
    [item] = json.loads(result.out)
    assert item["fix"] == {
        "applicability": "safe",
        "title": "Seed every library at the entry point with `reprolint.runtime.install`",
        "edits": [
            {
                "content": "import reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n",
                "line": 2, "column": 1, "end_line": 2, "end_column": 1,
            }
        ],
    }


def test_fix_on_another_file_has_no_edits_in_json(cli, project) -> None:
    root = project({
        "model.py": "import torch.nn as nn\n\ndef build():\n    return nn.Linear(2, 2)\n",
        "train.py": "from model import build\n\nif __name__ == '__main__':\n    build()\n",
    })
    result = cli("check", "--output-format", "json", ".", cwd=root)
    [item] = [i for i in json.loads(result.out) if i["code"] == "RPL101"]
    assert item["path"] == "model.py"
    assert item["fix"]["applicability"] == "safe" and item["fix"]["edits"] == []


# -- the command


def test_dry_run_reports_and_exits_1(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("fix", "--unsafe-fixes", "train.py", cwd=root)
    assert result.status == 1
    assert result.out == (
        "train.py: would fix RPL101\n"
        "Would fix 1 problem in 1 file.\n"
        "Run with `--diff` to see the changes, `--write` to apply them.\n"
    )
    assert (root / "train.py").read_text() == UNSEEDED


def test_write_summary_counts_manual_and_skipped(cli, project) -> None:
    root = project({
        "a.py": LATE,
        "b.py": "import random\nr = random.SystemRandom()\n",
    })
    result = cli("fix", "--write", ".", cwd=root)
    assert result.status == 0
    assert result.out == (
        "Nothing to fix (1 needs a manual change: run `reprolint check` to see them).\n"
        "1 unsafe fix was not applied: rerun with `--unsafe-fixes` to apply it (they change "
        "an outcome the program already fixed, or can make it fail).\n"
    )
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 0
    assert result.out == (
        "Fixed 1 problem in 1 file (1 needs a manual change: run `reprolint check` to see them).\n"
    )
    assert (root / "a.py").read_text() == LATE_FIXED
    again = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert again.out.startswith("Nothing to fix (1 needs") and (root / "a.py").read_text() == LATE_FIXED


def test_fix_style_option_and_config(cli, project) -> None:
    root = project({
        "train.py": UNSEEDED,
        "pyproject.toml": "[tool.reprolint]\nseed = 11\nfix-style = \"inline\"\nunsafe-fixes = true\n",
    })
    cli("fix", "--write", "train.py", cwd=root)
    assert "seed_everything(11)\n" in (root / "train.py").read_text()
    root2 = project({"sub/train.py": UNSEEDED})
    cli("fix", "--write", "--unsafe-fixes", "--fix-style", "hooks", "sub/train.py", cwd=root2)
    assert "reprolint.runtime.install(seed=11)" in (root2 / "sub" / "train.py").read_text()


def test_select_limits_the_fixes(cli, project) -> None:
    root = project({"t.py": "import random\nimport numpy as np\nrandom.seed()\nrng = np.random.default_rng()\nprint(random.random())\n"})
    cli("fix", "--write", "--unsafe-fixes", "--select", "RPL103", "t.py", cwd=root)
    assert (root / "t.py").read_text() == (
        "import random\nimport numpy as np\nrandom.seed(0)\nrng = np.random.default_rng()\nprint(random.random())\n"
    )


def test_diff_is_what_write_writes_and_patch_applies_it(cli, project, tmp_path: Path) -> None:
    if shutil.which("patch") is None:
        pytest.skip("needs patch")
    files = {
        "src/train.py": UNSEEDED,
        "src/crlf.py": "import numpy as np\r\nrng = np.random.default_rng()\r\n",
        "src/noeol.py": "import random\nrandom.seed()\nrandom.random()",
        "src/bom.py": "\ufeff# -*- coding: utf-8 -*-\nimport torch\nx = torch.rand(2)  # é\n",
    }
    root = project({})
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(text.encode("utf-8"))
    pristine = tmp_path / "pristine"
    shutil.copytree(root / "src", pristine / "src")
    diff = subprocess.run(
        [sys.executable, "-m", "reprolint", "fix", "--diff", "--unsafe-fixes", "src"],
        cwd=root, capture_output=True,
    )
    assert diff.returncode == 1, diff.stderr
    assert diff.stdout.startswith(b"--- a/src/")
    assert b"Would fix 4 problems in 4 files." in diff.stderr
    written = cli("fix", "--write", "--unsafe-fixes", "src", cwd=root)
    assert written.status == 0, written
    applied = subprocess.run(["patch", "-p1", "--quiet"], cwd=pristine, input=diff.stdout, capture_output=True)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    for rel in files:
        assert (pristine / rel).read_bytes() == (root / rel).read_bytes(), rel
    crlf = (root / "src/crlf.py").read_bytes()
    assert crlf.count(b"\r\n") == 4 and b"\n" not in crlf.replace(b"\r\n", b"")
    assert (root / "src/bom.py").read_bytes().startswith(b"\xef\xbb\xbf# -*- coding")
    assert (root / "src/noeol.py").read_bytes() == b"import random\nrandom.seed(0)\nrandom.random()"


def test_encoding_and_mode_are_kept(cli, project) -> None:
    root = project({})
    path = root / "latin.py"
    path.write_bytes("# -*- coding: latin-1 -*-\nimport torch\nname = 'café'\nx = torch.rand(2)\n".encode("latin-1"))
    path.chmod(0o750)
    result = cli("fix", "--write", "--unsafe-fixes", "latin.py", cwd=root)
    assert result.status == 0, result
    data = path.read_bytes()
    assert "name = 'café'".encode("latin-1") in data and b"install(seed=0)" in data
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    assert [p.name for p in root.iterdir()] == ["latin.py"]  # no temporary file left


def test_read_only_file_is_reported_and_the_run_goes_on(cli, project) -> None:
    root = project({"a.py": UNSEEDED, "b.py": UNSEEDED})
    (root / "a.py").chmod(0o444)
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 1
    assert "reprolint: error: a.py: read-only, not written" in result.err
    assert (root / "a.py").read_text() == UNSEEDED
    assert (root / "b.py").read_text() == FIXED
    assert result.out.startswith("Fixed 1 problem in 1 file")


def test_file_changed_since_read_is_not_overwritten(project, monkeypatch) -> None:
    from reprolint import fixing

    root = project({"a.py": UNSEEDED})
    report = fixing.fix_files([str(root / "a.py")], Settings(), unsafe=True)
    [change] = report.changes
    (root / "a.py").write_text(UNSEEDED + "# edited meanwhile\n")
    with pytest.raises(fixing.WriteError, match="changed on disk since it was read"):
        fixing.write_change(change)
    assert (root / "a.py").read_text().endswith("# edited meanwhile\n")


def test_a_fix_that_would_not_parse_is_dropped(monkeypatch) -> None:
    from reprolint import fixing
    from reprolint.fixes import seeding

    class _Unparsable:
        def __init__(self, module) -> None:
            self.code = module.code + "def (:\n"

    def broken(module, seed, stop=None):
        return _Unparsable(module)

    monkeypatch.setattr(seeding, "ensure_install", broken)
    texts, fixed, remaining, problems, converged = fixing.fix_texts(
        {"t.py": UNSEEDED}, Settings(), ["."], unsafe=True
    )
    assert texts["t.py"] == UNSEEDED and not fixed
    assert problems and "would not compile" in problems[0]


def test_no_paths_that_do_not_exist(cli, project) -> None:
    root = project({})
    result = cli("fix", "nope.py", cwd=root)
    assert result.status == 2 and "no such file or directory: nope.py" in result.err


def test_unparsable_file_is_left_alone(cli, project) -> None:
    root = project({"bad.py": "def (:\n", "ok.py": UNSEEDED})
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 0
    assert (root / "bad.py").read_text() == "def (:\n"
    assert (root / "ok.py").read_text() == FIXED


def test_fix_edits_preserve_everything_outside_them() -> None:
    source = (
        "#!/usr/bin/env python\n'''Train.'''\nimport  torch   # spaced\n\n\n"
        "x = torch.randn(3)  ;  y = 'q'   # tail\n"
    )
    fixed = fix_source(source, "t.py", unsafe_fixes=True)
    assert fixed == (
        "#!/usr/bin/env python\n'''Train.'''\nimport  torch   # spaced\nimport reprolint.runtime\n\n"
        "reprolint.runtime.install(seed=0)\n\n\nx = torch.randn(3)  ;  y = 'q'   # tail\n"
    )


if os.name == "nt":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX file modes")
