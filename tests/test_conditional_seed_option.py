"""RPL104 names where the option its condition reads is defined, with its default: the
line a user changes to seed every run."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

OPTIONS = (
    "import argparse\n\n\n"
    "def options():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--lr', type=float, default=0.1)\n"
    "    parser.add_argument('-s', '--manual-seed', dest='manual_seed', type=int)\n"
    "    return parser.parse_args()\n"
)
TRAIN = (
    "import torch\nfrom options import options\n\n"
    "opt = options()\n"
    "if opt.manual_seed is not None:\n"
    "    torch.manual_seed(opt.manual_seed)\n"
    "print(torch.randn(2), opt.lr)\n"
)


def test_the_option_a_conditional_seed_reads_is_a_related_location(tmp_path: Path) -> None:
    (tmp_path / "options.py").write_text(OPTIONS)
    (tmp_path / "train.py").write_text(TRAIN)
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL104"]
    assert [(Path(r.path).name, r.span.start_line, r.message) for r in finding.related] == [
        ("train.py", 5, "the condition that skips it with the default options"),
        ("options.py", 7, "the option `--manual-seed` is defined here, None by default"),
        ("train.py", 7, "`torch.randn` draws from torch's global RNG, unseeded on a default run"),
    ]


def test_the_option_a_helper_s_parameter_was_given_is_related(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch\n\n\n"
        "def set_seed(seed):\n"
        "    if seed is not None and torch.cuda.is_available():\n"
        "        torch.manual_seed(seed)\n\n\n"
        "parser = argparse.ArgumentParser()\n"
        "parser.add_argument('--seed', type=int)\n"
        "parser.add_argument('--cuda', action='store_true')\n"
        "args = parser.parse_args()\n"
        "set_seed(args.seed)\n"
        "print(torch.randn(2), args.cuda)\n"
    )
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL104"]
    # the parameter's option, not `--cuda` (`torch.cuda` is no option)
    assert [(r.span.start_line, r.message) for r in finding.related][1:] == [
        (11, "the option `--seed` is defined here, None by default"),
        (15, "`torch.randn` draws from torch's global RNG, unseeded on a default run"),
    ]


def test_the_draws_a_skipped_seed_leaves_unseeded_are_related(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(
        "import random\n\nimport torch\n\n"
        "SEED = None\n"
        "if SEED is not None:\n"
        "    random.seed(SEED)\n"
        "    torch.manual_seed(SEED)\n"
        "torch.manual_seed(0)\n"  # torch is seeded on every run: only `random` is left unseeded
        "net = torch.nn.Linear(2, 2)\n"
        + "".join(f"x{i} = random.random()\n" for i in range(5))
    )
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL104"]
    assert finding.span.start_line == 7
    draws = [(r.span.start_line, r.message.split("`")[1]) for r in finding.related if "unseeded" in r.message]
    assert draws == [(line, "random.random") for line in range(11, 16)]


def test_a_group_lists_the_draws_each_skipped_call_leaves_unseeded(tmp_path: Path) -> None:
    # one condition skips two seeding calls of different libraries: one finding, whose
    # related draws are those of both libraries
    (tmp_path / "train.py").write_text(
        "import random\n\nimport torch\n\n"
        "SEED = None\n"
        "if SEED is not None:\n"
        "    random.seed(SEED)\n"
        "    torch.manual_seed(SEED)\n"
        "a = random.random()\n"
        "b = torch.randn(2)\n"
    )
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL104"]
    draws = [(r.span.start_line, r.message.split("`")[1]) for r in finding.related if "unseeded" in r.message]
    assert draws == [(9, "random.random"), (10, "torch.randn")]


TESTED_TWICE = (
    "import argparse\nimport torch\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--seed', type=int, default=None)\n"
    "args = parser.parse_args()\n"
    "if args.seed is not None:\n"
    "    torch.manual_seed(args.seed)\n"
    "model = torch.nn.Linear(3, 3)\n"
    "if args.seed is not None:\n"
    "    torch.manual_seed(args.seed)\n"
    "print(model(torch.randn(2, 3)))\n"
)


def test_one_condition_tested_twice_is_one_finding(tmp_path: Path) -> None:
    # Both seeding calls are skipped by the same default: one cause, one finding at the
    # first, with both tests of the condition and the second call as related locations.
    (tmp_path / "demo.py").write_text(TESTED_TWICE)
    findings = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL104"]
    assert [(d.span.start_line, d.message.split(" run only")[0]) for d in findings] == [
        (8, "`torch.manual_seed` (lines 8 and 11)"),
    ]
    assert [(r.span.start_line, r.message) for r in findings[0].related][:3] == [
        (7, "the condition that skips it with the default options"),
        (10, "the condition that skips it with the default options"),
        (11, "`torch.manual_seed` is skipped by the same condition"),
    ]


def test_other_conditions_stay_separate_findings(tmp_path: Path) -> None:
    (tmp_path / "demo.py").write_text(TESTED_TWICE.replace(
        "if args.seed is not None:\n    torch.manual_seed(args.seed)\nprint",
        "if args.seed:\n    torch.manual_seed(args.seed)\nprint",
    ))
    findings = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL104"]
    assert [d.span.start_line for d in findings] == [8, 11]
