"""verify on programs with no optimizer step: what determines the result is compared.

Without optimizer steps, verify compares the tensors every `torch.save` call wrote,
the state of the models alive at exit, and the program's output with timing-like
values set aside (issue 17 item 2: word-language-model's evaluation printed
`| ms/batch 810.43 | loss 7.84 |` and was called NOT REPRODUCIBLE).
"""

from __future__ import annotations

import sys

import pytest

from pathlib import Path

pytest.importorskip("torch")
pytestmark = pytest.mark.slow

PY = sys.executable
EVAL = str(Path(__file__).resolve().parents[2] / "corpus" / "train" / "eval_timing.py")

# pytorch/examples' regression: a global model updated by hand, no optimizer, no save.
HAND_UPDATE = """
import torch
{seed}
fc = torch.nn.Linear(4, 1)
w = torch.randn(4, 1, generator=torch.Generator().manual_seed(0))
for step in range(20):
    x = torch.randn(32, 4, generator=torch.Generator().manual_seed(step))
    loss = torch.nn.functional.mse_loss(fc(x), x @ w)
    fc.zero_grad()
    loss.backward()
    for p in fc.parameters():
        p.data.add_(-0.1 * p.grad)
print("Loss: {{:.6f}} after {{}} batches".format(loss.item(), step + 1))
"""


def test_evaluation_with_varying_timing_is_reproducible(verify) -> None:
    result = verify("--", PY, EVAL)
    assert result.status == 0, result
    lines = result.out.splitlines()
    assert lines[0].startswith(
        "REPRODUCIBLE: 2 runs bit-identical (1 torch.save call (7 tensors), program output)"
    ), result
    assert lines[1] == "  program output: timing differs (ignored), first at line 1"
    data = verify("--output-format", "json", "--", PY, EVAL).json()
    [saved] = data["comparisons"][0]["processes"][0]["saved"]
    assert (saved["label"], saved["tensors"], saved["equal"]) == ("model.pt", 7, True)
    assert data["comparisons"][0]["output"]["timing_differs"] is True


def test_unseeded_evaluation_names_the_saved_tensors_that_differ(verify) -> None:
    result = verify("--", PY, EVAL, "--unseeded")
    assert result.status == 1, result
    first = result.out.splitlines()[0]
    assert first.startswith(
        "NOT REPRODUCIBLE: the tensors saved by torch.save #1 (model.pt): 7 of 7 tensors differ: embed.weight (Σ "
    ), result


def test_a_hand_written_update_compares_the_model_alive_at_exit(verify, script) -> None:
    seeded = script("regression.py", HAND_UPDATE.format(seed="torch.manual_seed(1)"))
    result = verify("--", PY, seeded)
    assert result.status == 0, result
    assert "(1 model at exit (2 tensors), program output)" in result.out.splitlines()[0]

    unseeded = script("regression_unseeded.py", HAND_UPDATE.format(seed=""))
    result = verify("--", PY, unseeded)
    assert result.status == 1, result
    assert result.out.startswith(
        "NOT REPRODUCIBLE: the state of model Linear at exit: 2 of 2 tensors differ: weight (Σ "
    ), result
