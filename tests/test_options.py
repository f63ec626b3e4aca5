"""Issue 25, items 3 and 4: option defaults as argparse and HfArgumentParser set them, and
GPU selected by an option for the determinism-flag rules (the message names the flag)."""

from __future__ import annotations

import pytest

from reprolint.api import check_sources

HEAD = "import argparse\nimport torch\n\np = argparse.ArgumentParser()\n"
TRAIN = (
    "torch.manual_seed(0)\nmodel = torch.nn.Conv2d(3, 8, 3)\n{cuda}\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "model(torch.zeros(1, 3, 8, 8)).flatten(1).index_select(0, idx).sum().backward()\nopt.step()\n"
)


def program(option: str, cuda: str = "if args.cuda:\n    model.cuda()", extra: str = "") -> str:
    return HEAD + option + "\n" + extra + "args = p.parse_args()\n" + TRAIN.format(cuda=cuda)


def messages(source: str, code: str = "RPL301") -> list[str]:
    return [d.message for d in check_sources({"train.py": source}) if d.code == code]


@pytest.mark.parametrize(
    "option, asked",
    [
        ("p.add_argument('--cuda', action='store_false')", None),  # on unless `--cuda` is passed
        ("p.add_argument('--cuda', action='store_true')", "`--cuda`"),
        ("p.add_argument('--cuda', action=argparse.BooleanOptionalAction, default=True)", None),
        ("p.add_argument('--cuda', type=str2bool, default='False')", "`--cuda true`"),
        ("p.add_argument('--cuda', type=str2bool, default='yes')", None),
        ("p.add_argument('--cuda', type=bool, default='False')", None),  # bool('False') is True
    ],
)
def test_the_message_names_the_flag_when_cuda_needs_one(option: str, asked: str | None) -> None:
    source = program(option).replace("import torch\n", "import torch\n\ndef str2bool(v):\n    return v == 'true'\n", 1)
    (message,) = messages(source)
    if asked is None:
        assert "(`.cuda()`)" in message
    else:
        assert f"(`.cuda()` when run with {asked})" in message


def test_set_defaults_overrides_the_argument_default() -> None:
    assert messages(program("p.add_argument('--cuda', action='store_true')", extra="p.set_defaults(cuda=True)\n")) == [
        "this torch training program selects CUDA (`.cuda()`) and trains through "
        "`model(torch.zeros(1, 3, 8, 8)).flatten(1).index_select(...)`'s backward (train.py:13), "
        "nondeterministic on CUDA, but never calls `torch.use_deterministic_algorithms(True)`"
    ]
    # deterministic mode on through set_defaults: nothing for RPL301
    det = "p.add_argument('--det', action='store_true')\np.add_argument('--cuda', action='store_false')"
    source = program(det, extra="p.set_defaults(det=True)\n").replace(
        "torch.manual_seed(0)\n", "torch.manual_seed(0)\ntorch.use_deterministic_algorithms(args.det)\n"
    )
    assert messages(source) == []


def test_a_gpu_index_option_names_its_value() -> None:
    source = program("p.add_argument('--gpu', type=int, default=None)", "if args.gpu is not None:\n    model.cuda(args.gpu)")
    (message,) = messages(source, "RPL302")
    assert "(`.cuda()` when run with `--gpu ...`)" in message


def test_a_device_option_that_only_cpu_can_take_selects_nothing() -> None:
    option = "p.add_argument('--device', default='cpu', choices=['cpu', 'mps'])"
    assert messages(program(option, "model.to(torch.device(args.device))")) == []


def test_no_run_reaches_cuda_when_the_flag_cannot_turn_it_on() -> None:
    option = "p.add_argument('--no-cuda', action='store_true', default=True)"
    assert messages(program(option, "if not args.no_cuda:\n    model.cuda()")) == []


def test_a_condition_on_something_else_than_options_is_not_asked_for() -> None:
    source = program("p.add_argument('--lr', type=float, default=0.1)", "if False:\n    model.cuda()")
    assert messages(source) == []


def test_dataclass_field_defaults_are_option_defaults() -> None:
    source = (
        "from dataclasses import dataclass, field\nimport torch\nfrom transformers import HfArgumentParser\n\n"
        "@dataclass\nclass Args:\n    use_cuda: bool = field(default=True, metadata={'help': 'GPU'})\n\n"
        "(args,) = HfArgumentParser(Args).parse_args_into_dataclasses()\n"
    ) + TRAIN.format(cuda="if args.use_cuda:\n    model.cuda()")
    (message,) = messages(source)
    assert "(`.cuda()`)" in message


def test_cudnn_benchmark_is_reported_where_the_program_can_run_on_cuda() -> None:
    source = program("p.add_argument('--cuda', action='store_true')").replace(
        "torch.manual_seed(0)\n", "torch.manual_seed(0)\ntorch.backends.cudnn.benchmark = True\n"
    )
    assert len(messages(source, "RPL203")) == 1
    cpu_only = source.replace("if args.cuda:\n    model.cuda()", "pass")
    assert messages(cpu_only, "RPL203") == []


def test_seeding_keeps_default_run_semantics() -> None:
    # a seed only under `--seed-all` leaves the default run unseeded
    source = program(
        "p.add_argument('--cuda', action='store_true')\np.add_argument('--seed-all', action='store_true')"
    ).replace("torch.manual_seed(0)\n", "if args.seed_all:\n    torch.manual_seed(0)\n")
    codes = {d.code for d in check_sources({"train.py": source})}
    assert "RPL101" in codes or "RPL104" in codes


def test_json_carries_the_option() -> None:
    import io
    import json

    from reprolint.reporters import Report
    from reprolint.reporters.json import render_json

    diagnostics = check_sources({"train.py": program("p.add_argument('--cuda', action='store_true')")})
    out = io.StringIO()
    render_json(Report(diagnostics, 1), out)
    items = {item["code"]: item for item in json.loads(out.getvalue())}
    assert items["RPL301"]["assumed"] == {"cuda_option": "--cuda"}
    cuda_by_default = check_sources({"train.py": program("p.add_argument('--cuda', action='store_false')")})
    out = io.StringIO()
    render_json(Report(cuda_by_default, 1), out)
    assert all("assumed" not in item for item in json.loads(out.getvalue()))


def test_a_conditional_expression_guards_its_seed_like_an_if() -> None:
    source = (
        "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int, default={d})\n"
        "args = p.parse_args()\ntorch.manual_seed(args.seed) if args.seed else None\n"
        "model = torch.nn.Linear(3, 3)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(torch.ones(2, 3)).sum().backward()\nopt.step()\n"
    )
    unseeded = [(d.code, d.span.start_line) for d in check_sources({"train.py": source.format(d=0)})]
    assert unseeded == [("RPL104", 5)]
    assert check_sources({"train.py": source.format(d=3)}) == []


@pytest.mark.parametrize(
    "guard, build, reported",
    [
        ("if args.bilinear:", "Up()", False),  # an option off by default decides: not run
        ("if BILINEAR:", "Up()", False),  # a module constant decides
        # a parameter: the call that runs the body leaves it out, so its default decides
        ("if bilinear:", "Up()", False),
        # ... unless a call passes another value, or one the source does not show
        ("if bilinear:", "Up(bilinear=True)", True),
        ("if bilinear:", "Up(bilinear=len(sys.argv) > 1)", True),
        ("if bilinear:", "Up(**vars(args))", True),
        ("if bilinear:", "Up(); Up(True)", True),
    ],
)
def test_an_op_on_a_branch_the_default_run_skips_is_not_reported(guard: str, build: str, reported: bool) -> None:
    source = (
        "import argparse, sys, torch\nfrom torch import nn\np = argparse.ArgumentParser()\n"
        "p.add_argument('--bilinear', action='store_true')\nargs = p.parse_args()\nBILINEAR = False\n\n"
        "class Up(nn.Module):\n    def __init__(self, bilinear=False):\n        super().__init__()\n"
        f"        {guard}\n            self.up = nn.Upsample(scale_factor=2, mode='bicubic')\n"
        "        else:\n            self.up = nn.ConvTranspose2d(3, 3, 2, stride=2)\n\n"
        "    def forward(self, x):\n        return self.up(x)\n\n"
        f"torch.manual_seed(0)\nmodel = {build.replace('; ', '.cuda(); ')}.cuda()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(torch.ones(1, 3, 4, 4).cuda()).sum().backward()\nopt.step()\n"
    )
    lines = [d.span.start_line for d in check_sources({"train.py": source}) if d.code == "RPL202"]
    assert lines == ([12] if reported else [])


@pytest.mark.parametrize(
    "call, default, reported",
    [
        ("set_seed(args.seed)", "42", False),  # bound by place: the option's 42 reaches the guard
        ("set_seed(seed=args.seed)", "42", False),
        ("set_seed(args.seed)", "None", True),
        ("set_seed()", "42", True),  # nothing passed: the parameter's None
    ],
)
@pytest.mark.parametrize(
    "guard",
    [
        "    if seed is not None:\n        random.seed(seed)\n",
        "    if seed is None:\n        return\n    random.seed(seed)\n",  # an early return
    ],
)
def test_a_seed_guarded_by_a_parameter_sees_what_the_call_passes(
    call: str, default: str, reported: bool, guard: str
) -> None:
    source = (
        "import argparse, random\n\ndef set_seed(seed=None):\n" + guard + "\n"
        "p = argparse.ArgumentParser()\n"
        f"p.add_argument('--seed', type=int, default={default})\nargs = p.parse_args()\n"
        f"{call}\nprint(random.random())\n"
    )
    codes = [d.code for d in check_sources({"train.py": source})]
    assert codes == (["RPL104"] if reported else [])


def test_membership_tests_decide_a_branch_like_comparisons() -> None:
    """`"xcit" in args.arch` and `args.task in ("train", "eval")` are evaluated with the
    options' defaults; a membership in something not literal stays unknown."""
    from reprolint.api import check_source

    head = (
        "import argparse, torch\nimport torch.nn as nn\np = argparse.ArgumentParser()\n"
        "p.add_argument('--arch', default='{arch}')\np.add_argument('--task', default='train')\n"
        "args = p.parse_args()\ntorch.manual_seed(0)\ndevice = 'cuda'\n"
    )
    body = (
        "if {test}:\n    pool = nn.AdaptiveMaxPool2d(3)\nelse:\n    pool = nn.AvgPool2d(2)\n"
        "m = nn.Sequential(nn.Conv2d(3, 4, 3), pool).to(device)\n"
        "opt = torch.optim.SGD(m.parameters(), lr=0.1)\nm(torch.randn(1, 3, 8, 8, device=device)).sum().backward()\nopt.step()\n"
    )

    def reported(arch: str, test: str) -> bool:
        source = head.format(arch=arch) + body.format(test=test)
        return any(d.code == "RPL202" for d in check_source(source, "train.py"))

    assert not reported("vit_small", "'xcit' in args.arch")
    assert reported("xcit_small", "'xcit' in args.arch")
    assert reported("vit_small", "'xcit' not in args.arch")
    assert reported("vit_small", "args.task in ('train', 'finetune')")
    assert not reported("vit_small", "args.task in ['eval', 'test']")
    assert reported("vit_small", "args.task in CHOICES")  # not literal: unknown, counted
