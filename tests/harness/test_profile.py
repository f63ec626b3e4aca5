"""End to end: `reprolint profile` on small programs, as a user runs it.

Each test profiles a real program (two recorded runs plus the run that locates the
op), so each takes a few seconds; the programs are tiny.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

import pytest

from reprolint.harness.cli import main

pytest.importorskip("torch")
# Each test trains a small model twice under the op-level recorder.
pytestmark = pytest.mark.slow

TRAIN = Path(__file__).resolve().parents[2] / "corpus" / "train"
PY = sys.executable


class Profiled:
    def __init__(self, status: int, out: str, err: str) -> None:
        self.status = status
        self.out = out
        self.err = err

    def json(self) -> dict:
        return json.loads(self.out)

    def __repr__(self) -> str:
        return f"Profiled(status={self.status}, out={self.out!r}, err={self.err[-2000:]!r})"


@pytest.fixture
def profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Callable[..., Profiled]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)

    def run(*args: str) -> Profiled:
        status = main(["profile", *args])
        captured = capsys.readouterr()
        return Profiled(status, captured.out, captured.err)

    return run


@pytest.fixture
def program(tmp_path: Path) -> Callable[[str], str]:
    def write(source: str, name: str = "train.py") -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source))
        return str(path)

    return write


def test_custom_op_reduction_names_the_op_its_line_and_module(profile: Callable[..., Profiled]) -> None:
    script = TRAIN / "custom_op_reduction.py"
    result = profile("--", PY, str(script))
    assert result.status == 1, result
    lines = result.out.splitlines()
    assert lines[0] == (
        "NONDETERMINISTIC OP: `reprolint_corpus::unordered_sum` gives different outputs for "
        "identical inputs (op 15, step 1, forward)"
    )
    call_line = next(i for i, line in enumerate(script.read_text().splitlines(), 1) if "return unordered_sum(x)" in line)
    assert lines[1] == f"  called at {script}:{call_line} in forward: `return unordered_sum(x)`"
    assert lines[2] == "  module: model.pool (SumPool)"
    # Ops before training (data preparation, 80 here) are not recorded (issue 27 item 5).
    assert lines[3] == "  before it: 14 ops ran identically in both runs"
    assert lines[4] == "  differs: output 0 (float32[32, 64])"
    assert lines[5].startswith("  advice: `reprolint_corpus::unordered_sum` is a custom op: ")


def test_json_output_carries_the_same_facts(profile: Callable[..., Profiled]) -> None:
    script = TRAIN / "custom_op_reduction.py"
    data = profile("--steps", "1", "--output-format", "json", "--", PY, str(script)).json()
    assert data["exit_code"] == 1 and data["verdict"] == "diverged"
    d = data["divergence"]
    assert (d["verdict"], d["op"], d["index"], d["step"], d["phase"]) == (
        "op", "reprolint_corpus::unordered_sum", 14, 1, "forward",
    )
    assert d["location"]["source"].endswith("custom_op_reduction.py:53")
    assert d["location"]["module"] == "model.pool"
    assert d["advice"]["catalogued"] is False
    assert [r["label"] for r in data["runs"]] == ["run 1", "run 2", "locate"]
    assert data["runs"][0]["steps"] == 1 and data["runs"][0]["complete"] is True


SEEDED = """
    import torch
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    x, y = torch.randn(32, 8), torch.randint(0, 2, (32,))
    for step in range(5):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        print("step", step)
"""


def test_seeded_program_is_identical_and_stops_after_k_steps(profile: Callable[..., Profiled], program: Callable[[str], str], tmp_path: Path) -> None:
    result = profile("--steps", "2", "--", PY, program(SEEDED))
    assert result.status == 0, result
    assert result.out.startswith("IDENTICAL: both runs dispatched the same ")
    assert "bit-identical inputs and outputs over 2 optimizer steps" in result.out.splitlines()[0]
    [root] = (tmp_path / ".reprolint" / "runs").iterdir()
    # The program was stopped in its second optimizer step, before it printed "step 1".
    assert (root / "profile-1" / "stdout.txt").read_text().split() == ["step", "0"]


def test_unseeded_weights_are_reported_as_randomness(profile: Callable[..., Profiled], program: Callable[[str], str]) -> None:
    result = profile("--", PY, program(SEEDED.replace("torch.manual_seed(0)", "")))
    assert result.status == 1, result
    lines = result.out.splitlines()
    assert lines[0].startswith("UNSEEDED RANDOMNESS: `aten::uniform_` draws different values from identical inputs")
    assert lines[1].endswith("train.py:6 in <module>: `model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))`")
    assert "torch.manual_seed" in result.out


UNSEEDED_RANDN = """
    import torch
    from torch import nn

    data = torch.randn(64, 8)
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        opt.zero_grad()
        model(data).pow(2).mean().backward()
        opt.step()
"""


def test_unseeded_randn_is_randomness_with_seeding_advice_not_an_op(
    profile: Callable[..., Profiled], program: Callable[[str], str]
) -> None:
    # `aten::randn.default` has no Generator argument in its schema (torch tags it
    # `nondeterministic_seeded`): unseeded randomness, not a nondeterministic op.
    result = profile("--", PY, program(UNSEEDED_RANDN))
    assert result.status == 1, result
    lines = result.out.splitlines()
    assert lines[0].startswith("UNSEEDED RANDOMNESS: `aten::randn` draws different values"), result
    assert lines[1].endswith("train.py:5 in <module>: `data = torch.randn(64, 8)`"), result
    assert "NONDETERMINISTIC OP" not in result.out
    assert "torch.manual_seed" in result.out
    assert "sort the operands" not in result.out


def test_data_made_outside_torch_is_not_blamed_on_an_op(profile: Callable[..., Profiled], program: Callable[[str], str]) -> None:
    source = """
        import numpy as np
        import torch
        from torch import nn

        torch.manual_seed(0)
        model = nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            batch = torch.from_numpy(np.random.default_rng().normal(size=(8, 4)).astype("float32"))
            opt.zero_grad()
            model(batch).sum().backward()
            opt.step()
    """
    result = profile("--", PY, program(source))
    assert result.status == 1, result
    lines = result.out.splitlines()
    assert lines[0].startswith("DIVERGENCE NOT CAUSED BY AN OP: `")
    assert "is the first op to see different inputs (op " in lines[0]
    assert lines[1].endswith("train.py:12 in <module>: `model(batch).sum().backward()`") or lines[1].endswith(
        "train.py:10 in <module>: `batch = torch.from_numpy(np.random.default_rng().normal(size=(8, 4)).astype(\"float32\"))`"
    )
    assert "likely causes from a static check: RPL102 " in result.out


BACKWARD = """
    import random
    import torch
    from torch import nn

    _entropy = random.SystemRandom()


    @torch.library.custom_op("profile_test::shuffled_grad", mutates_args=())
    def shuffled_grad(g: torch.Tensor, n: int) -> torch.Tensor:
        order = list(range(g.shape[0]))
        _entropy.shuffle(order)
        total = torch.zeros(g.shape[1:])
        for i in order:
            total = total + g[i] * 1000.0
        return (total / 1000.0).expand(n, *g.shape[1:]).clone()


    @torch.library.custom_op("profile_test::mix", mutates_args=())
    def mix(x: torch.Tensor) -> torch.Tensor:
        return x + x.mean(0, keepdim=True)


    def setup(ctx, inputs, output):
        ctx.n = inputs[0].shape[0]


    mix.register_autograd(lambda ctx, g: g + shuffled_grad(g, ctx.n) / ctx.n, setup_context=setup)


    class Mixer(nn.Module):
        def forward(self, x):
            return mix(x)


    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 64), Mixer(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(64, 8)
    for step in range(3):
        opt.zero_grad()
        model(x).pow(2).sum().backward()
        opt.step()
"""


def test_a_backward_op_is_traced_to_its_forward_line_and_module(profile: Callable[..., Profiled], program: Callable[[str], str]) -> None:
    result = profile("--", PY, program(BACKWARD))
    assert result.status == 1, result
    lines = result.out.splitlines()
    assert lines[0].startswith("NONDETERMINISTIC OP: `profile_test::shuffled_grad` gives different outputs for identical inputs (op ")
    assert lines[0].endswith(", step 1, backward)")
    # Called from the user's backward formula (autograd runs it inside loss.backward()).
    assert lines[1].endswith(
        "train.py:28 in <lambda>: `mix.register_autograd(lambda ctx, g: g + shuffled_grad(g, ctx.n) / ctx.n, setup_context=setup)`"
    )
    assert lines[2] == "  backward of: GeneratedBackwardFor_profile_test_mix_defaultBackward"
    assert lines[3] == "  created in the forward pass at train.py:33 in forward: `return mix(x)`"
    assert lines[4] == "  module: model.1 (Mixer)"


def test_a_program_that_fails_is_reported_with_its_stderr(profile: Callable[..., Profiled], program: Callable[[str], str]) -> None:
    result = profile("--", PY, program("import sys\nsys.exit('no data here')\n"))
    assert result.status == 2, result
    lines = result.out.splitlines()
    assert lines[0].startswith("FAILED: run 1 exited with code 1 after ")
    assert "    no data here" in lines


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "give the command to run after --"),
        (("--steps", "0", "--", "python", "x.py"), "--steps must be at least 1"),
        (("--timeout", "-1", "--", "python", "x.py"), "--timeout must be positive"),
    ],
)
def test_usage_errors(profile: Callable[..., Profiled], args: tuple, message: str) -> None:
    result = profile(*args)
    assert result.status == 2
    assert message in result.err


def test_ops_before_training_are_not_recorded_and_steps_bound_the_rest(profile: Callable[..., Profiled], tmp_path) -> None:
    # 20,000 small tensor ops of data preparation, then two training steps.
    script = tmp_path / "prep.py"
    script.write_text(
        "import torch\n\n"
        "if __name__ == '__main__':\n"
        "    torch.manual_seed(0)\n"
        "    rows = [torch.ones(4) * i + 1 for i in range(10_000)]\n"
        "    x = torch.stack(rows)[:64]\n"
        "    model = torch.nn.Linear(4, 1)\n"
        "    opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
        "    for step in range(50):\n"
        "        opt.zero_grad()\n"
        "        model(x).sum().backward()\n"
        "        opt.step()\n"
    )
    data = profile("--steps", "2", "--output-format", "json", "--", PY, str(script)).json()
    assert data["verdict"] == "identical", data
    [run, _] = data["runs"]
    assert run["steps"] == 2 and run["complete"]
    assert run["ops"] < 200  # the two steps' ops, not the 20,000 before them
