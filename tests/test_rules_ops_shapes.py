"""RPL202 entries that hold for some inputs only, decided from what the source shows
(spatial losses, integer cumsum, interpolate modes) -- issue 14 item 10, issue 13."""

from __future__ import annotations

import pytest

from reprolint.api import check_source
from reprolint.config import Settings

HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ndevice = torch.device('cuda')\n"


def rpl202(body: str, version: str = "2.13") -> list[tuple[int, str]]:
    """(line, message) of the RPL202 findings of a CUDA training program."""
    source = HEAD + body + "loss.backward()\n"
    return [
        (d.span.start_line, d.message)
        for d in check_source(source, "train.py", Settings(torch_version=version))
        if d.code == "RPL202"
    ]


@pytest.mark.parametrize(
    "expression",
    [
        "logits.transpose(1, 2)",  # DETR: (B, Q, C) -> (B, C, Q)
        "logits.swapaxes(2, 1)",
        "logits.permute(0, 2, 1).contiguous()",
        "logits.view(b, c, h * w)",
        "F.log_softmax(logits.transpose(1, 2), dim=1)",
        "torch.randn(2, 5, 16, 16, device=device)",
        "einops.rearrange(logits, 'b q c -> b c q')",
    ],
)
def test_cross_entropy_on_a_visibly_spatial_input_is_reported(expression: str) -> None:
    body = f"import einops\nloss = F.cross_entropy({expression}, target, weight)\n"
    [(line, message)] = rpl202(body)
    assert line == 6
    assert message.startswith("`F.cross_entropy(...)` has no deterministic CUDA implementation (on an input with more than two dimensions)")
    assert "flatten the spatial dims" in message


@pytest.mark.parametrize(
    "expression",
    [
        "logits",  # a module's output: its shape is unknown here
        "logits.view(-1, logits.size(-1))",  # flattened to (N, C): the deterministic kernel
        "logits.reshape(-1, 10)",
        "logits.transpose(0, 1)",  # keeps the class dim last on a 2-D or 3-D tensor
        "logits.transpose(-1, -2)",  # valid on 2-D too
        "model(x)",
    ],
)
def test_cross_entropy_on_a_plain_or_unknown_input_is_silent(expression: str) -> None:
    assert rpl202(f"loss = F.cross_entropy({expression}, target)\n") == []


def test_a_name_bound_to_a_spatial_tensor_carries_it() -> None:
    body = "seq = logits.permute(0, 2, 1)\nlp = F.log_softmax(seq, dim=1)\nloss = F.nll_loss(lp, target)\n"
    assert [line for line, _ in rpl202(body)] == [7]
    rebound = "seq = logits.permute(0, 2, 1)\nseq = seq.reshape(-1, 5)\nloss = F.nll_loss(seq, target)\n"
    assert rpl202(rebound) == []


def test_loss_module_instances_are_judged_at_their_call() -> None:
    body = (
        "class Crit(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.ce = nn.CrossEntropyLoss(ignore_index=-1)\n"
        "    def forward(self, out, y):\n"
        "        return self.ce(out.transpose(1, 2), y) + self.ce(out.flatten(0, 1), y.flatten())\n"
        "nll = nn.NLLLoss()\n"
        "loss = Crit()(out, y) + nll(torch.randn(2, 3, 8, 8, device=device), y) + nll(out, y)\n"
    )
    found = rpl202(body)
    assert [line for line, _ in found] == [10, 12]
    assert found[0][1].startswith("`self.ce(...)` has no deterministic CUDA implementation")
    assert found[1][1].startswith("`nll(...)`")


def test_spatial_losses_need_cuda() -> None:
    source = "import torch.nn.functional as F\nloss = F.cross_entropy(x.transpose(1, 2), y)\nloss.backward()\n"
    assert [d for d in check_source(source, "train.py") if d.code == "RPL202"] == []


def test_cumsum_of_integer_counts_is_silent_and_of_floats_is_reported() -> None:
    body = (
        "ends = torch.cumsum(torch.unique_consecutive(torch.tensor([a.shape[-1] for a in xs]), return_counts=True)[1], 0)\n"
        "counts = torch.unique(labels, return_counts=True)[-1]\n"
        "starts = torch.cumsum(counts, 0)\n"
        "pos = torch.cumsum(mask.long(), 1)\n"
        "pos2 = torch.cumsum(mask, dim=1, dtype=torch.long)\n"
        "hist = torch.cumsum(torch.bincount(ids), 0)\n"
        "mass = torch.cumsum(probs, -1)\n"
        "inv = torch.cumsum(torch.unique(labels, return_inverse=True, return_counts=True)[1], 0)\n"
        "loss = mass.sum()\n"
    )
    # only the floats (probs); unique's counts and inverse indices are int64
    assert [line for line, _ in rpl202(body)] == [11]
    # 2.14 moved cumsum to the deterministic-with-flag list: no RPL202 at all
    assert rpl202(body, "2.14") == []


def test_cumsum_of_a_mask_counts_in_int64_and_is_silent() -> None:
    body = (
        "pos = (ids == pad).cumsum(dim=-1)\n"
        "keep = (~(ids == pad) & (ids > 2)).cumsum(dim=1)\n"
        "seen = ids.ne(pad).cumsum(dim=1)\n"
        "mass = (probs * (ids == pad)).cumsum(dim=-1)\n"
        "loss = mass.sum()\n"
    )
    # a float times a mask is a float: only that one
    assert [line for line, _ in rpl202(body)] == [8]


@pytest.mark.parametrize(
    ("definition", "reported"),
    [
        ("def up(x, mode='bicubic'):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n", True),
        ("def up(x, mode='nearest'):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n", False),
        ("MODE = 'bicubic'\ndef up(x):\n    return F.interpolate(x, scale_factor=2, mode=MODE)\n", True),
        ("def up(x):\n    return F.interpolate(x, scale_factor=2)\n", False),
        ("def up(x):\n    return F.interpolate(x, None, 2.0, 'linear')\n", True),
        ("def up(x):\n    return nn.Upsample(scale_factor=2, mode='nearest-exact')(x)\n", False),
    ],
)
def test_interpolate_mode_from_keyword_position_constant_or_parameter_default(definition: str, reported: bool) -> None:
    found = rpl202(definition + "loss = up(x).sum()\n")
    assert bool(found) is reported
    if reported:
        assert "for its backward pass" in found[0][1]


def rpl201(source: str) -> list[tuple[int, str]]:
    return [(d.span.start_line, d.message) for d in check_source(source, "train.py") if d.code == "RPL201"]


PARAMETER_TABLE = (
    "import torch\nimport torch.nn as nn\n"
    "class Table(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.rows = nn.Parameter(torch.randn(27, 8))\n"
    "        self.emb = nn.Embedding(27, 8)\n"
    "    def forward(self, ids, mask):\n"
    "        pick = torch.randint(0, 27, (64,))\n"
    "        a = self.rows[pick]\n"  # 10: reported
    "        b = self.emb.weight[ids.long()]\n"  # 11: reported
    "        c = self.rows[ids]\n"  # 12: unknown index
    "        d = self.rows[3] + self.rows[mask.bool()].sum() + self.rows[torch.arange(27)].sum()\n"
    "        self.rows[pick] = 0.0\n"
    "        return a + b + c + d\n"
    "model = Table(){device}\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "model(x, m).sum().backward()\n"
)


def test_parameter_indexed_by_an_integer_tensor_is_reported_on_the_cpu() -> None:
    found = rpl201(PARAMETER_TABLE.format(device=""))
    assert [line for line, _ in found] == [10, 11]
    assert found[0][1].startswith(
        "`self.rows[pick]` is nondeterministic on CPU in its backward pass unless `torch.use_deterministic_algorithms(True)` is on"
    )


def test_parameter_index_on_cuda_is_sort_based_and_silent() -> None:
    assert rpl201(PARAMETER_TABLE.format(device=".cuda()")) == []


def test_parameter_index_needs_training_and_no_deterministic_mode() -> None:
    evaluation = PARAMETER_TABLE.format(device="").replace("model(x, m).sum().backward()\n", "model(x, m)\n").replace(
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n", ""
    )
    assert rpl201(evaluation) == []
    flagged = PARAMETER_TABLE.format(device="").replace("import torch\n", "import torch\ntorch.use_deterministic_algorithms(True)\n", 1)
    assert rpl201(flagged) == []


def test_spatial_loss_without_reduction_writes_one_loss_per_element() -> None:
    # the CUDA kernel alerts for the 'mean' and 'sum' reductions only (atomicAdd into a total)
    body = (
        "per_pixel = F.cross_entropy(logits.transpose(1, 2), y, reduction='none')\n"
        "summed = F.nll_loss(logits.transpose(1, 2), y, None, None, -100, None, 'sum')\n"
        "none = nn.CrossEntropyLoss(reduction='none')\n"
        "mean = nn.CrossEntropyLoss(weight)\n"
        "loss = per_pixel.mean() + summed + none(logits.permute(0, 2, 1), y).mean() + mean(logits.permute(0, 2, 1), y)\n"
    )
    assert [line for line, _ in rpl202(body)] == [6, 9]


def test_interpolate_mode_from_an_option_takes_its_default() -> None:
    source = (
        "import argparse, torch\nimport torch.nn.functional as F\n"
        "p = argparse.ArgumentParser()\np.add_argument('--up', default='bicubic')\n"
        "p.add_argument('--down', default='nearest')\nargs = p.parse_args()\n"
        "x = torch.randn(1, 3, 8, 8, device='cuda', requires_grad=True)\n"
        "a = F.interpolate(x, scale_factor=2, mode=args.up)\n"
        "b = F.interpolate(x, scale_factor=2, mode=args.down)\n"
        "(a.sum() + b.sum()).backward()\n"
    )
    assert [d.span.start_line for d in check_source(source, "train.py") if d.code == "RPL202"] == [8]


def test_a_segmentation_mask_target_makes_the_loss_spatial() -> None:
    body = (
        "import numpy as np\n"
        "mask = torch.from_numpy(np.random.randint(0, 21, (2, 64, 64))).cuda()\n"
        "soft = torch.rand(2, 21, device=device).softmax(-1)\n"
        "seg = F.cross_entropy(model(image), mask)\n"  # line 8: (N, H, W) target
        "mix = F.cross_entropy(model(image), soft)\n"  # (N, C) soft labels: 2-D
        "ids = F.cross_entropy(model(image), torch.randint(0, 21, (8,), device=device))\n"
        "loss = seg + mix + ids\n"
    )
    assert [line for line, _ in rpl202(body)] == [8]


def test_checkpoint_data_and_detached_tensors_take_no_backward() -> None:
    # DeiT: a checkpoint's position embedding resized while loading weights for fine-tuning
    body = (
        "checkpoint = torch.load(path, map_location='cpu')\n"
        "pos = checkpoint['model']['pos_embed'][:, 1:]\n"
        "pos = pos.reshape(-1, 14, 14, 384).permute(0, 3, 1, 2)\n"
        "pos = F.interpolate(pos, size=(16, 16), mode='bicubic', align_corners=False)\n"
        "frozen = F.interpolate(feats.detach(), scale_factor=2, mode='bicubic')\n"
        "x = F.interpolate(feats, scale_factor=2, mode='bicubic')\n"  # line 10: reported
        "x = F.interpolate(x, scale_factor=2, mode='bicubic')\n"  # line 11: x is not checkpoint data
        "loss = x.sum()\n"
    )
    assert [line for line, _ in rpl202(body)] == [10, 11]


def test_an_op_inside_an_assignment_reads_the_name_before_it() -> None:
    # `seq` is spatial before the assignment that flattens it
    body = "seq = logits.permute(0, 2, 1)\nseq = F.cross_entropy(seq, y) + seq.sum()\nloss = F.cross_entropy(seq, y)\n"
    assert [line for line, _ in rpl202(body)] == [6]


def test_cumsum_from_torch_2_14_is_rpl201_for_floats_only() -> None:
    source = HEAD + (
        "ends = torch.cumsum(torch.unique_consecutive(sizes, return_counts=True)[1], 0)\n"
        "mass = torch.cumsum(torch.softmax(logits, -1), -1)\n"
        "loss = mass.sum()\nloss.backward()\n"
    )
    diags = check_source(source, "train.py", Settings(torch_version="2.14"))
    assert [d.code for d in diags if d.code in ("RPL201", "RPL202")] == []
    # a CUDA training program: the float cumsum is the evidence of its one RPL301
    (program,) = [d for d in diags if d.code == "RPL301"]
    assert [r.span.start_line for r in program.related] == [6]


@pytest.mark.parametrize(("index", "evidence"), [
    ("idx = (mask.sum(-1, keepdim=True) - 1).long()\n    y = s.gather(dim=-1, index=idx)", False),
    ("y = s.gather(1, s.argmax(dim=1, keepdim=True))", False),
    ("y = s.gather(-1, (n - 1).unsqueeze(-1))", False),
    # one action drawn per row (a policy gradient's log-probability of its action)
    ("a = torch.softmax(s, -1).multinomial(num_samples=1).data\n    y = s.gather(1, a)", False),
    ("y = s.gather(-1, torch.multinomial(torch.softmax(s, -1), 1))", False),
    ("a = torch.softmax(s, -1).multinomial(3, replacement=True)\n    y = s.gather(1, a)", True),
    ("idx = mask.sum(-1, keepdim=True)\n    y = s.gather(0, idx)", True),
    ("idx = mask.long()\n    y = s.gather(1, idx)", True),
    ("y = s.gather(1, s.argmax(dim=1))", True),
    # a tensor made from an array of that shape (a replay batch's actions as a column)
    ("acts = np.zeros(4, dtype=np.int64)\n    y = s.gather(1, torch.LongTensor(acts.reshape(-1, 1)).to('cuda'))", False),
    ("a = torch.tensor(np.zeros((4, 1), dtype=np.int64).reshape(4, 1), device='cuda')\n    y = s.gather(1, a)", False),
    ("acts = np.zeros(8, dtype=np.int64)\n    y = s.gather(1, torch.LongTensor(acts.reshape(-1, 2)).to('cuda'))", True),
])
def test_a_gather_by_an_index_of_width_one_adds_one_gradient_per_row(index: str, evidence: bool) -> None:
    source = (
        "import numpy as np\nimport torch\ntorch.manual_seed(0)\n\ndef main():\n"
        "    w = torch.nn.Parameter(torch.ones(4, 6, device='cuda'))\n"
        "    opt = torch.optim.SGD([w], lr=0.1)\n    s = w * 2\n    mask = torch.ones(4, 6, device='cuda')\n"
        "    n = mask.sum(1).long()\n"
        f"    {index}\n    y.sum().backward()\n    opt.step()\n\nmain()\n"
    )
    codes = [d.code for d in check_source(source, "train.py")]
    assert ("RPL301" in codes) is evidence, codes


@pytest.mark.parametrize(("call", "evidence"), [
    # one write per row: an index of width 1 along the scattered dim (one-hot labels)
    ("y = torch.zeros(4, 6, device='cuda').scatter_(1, labels.unsqueeze(1), s[:, :1])", False),
    ("y = torch.zeros(4, 6, device='cuda').scatter_add_(1, labels.view(-1, 1), s[:, :1])", False),
    ("y = torch.zeros(4, 6, device='cuda').scatter_(-1, labels[:, None], s[:, :1])", False),
    # several rows into one bucket along dim 0, or a full-width index: writes meet
    ("y = torch.zeros(4, 6, device='cuda').scatter_(0, labels.unsqueeze(1).expand(-1, 6), s)", True),
    ("y = torch.zeros(4, 6, device='cuda').scatter_(1, index, s)", True),
])
def test_a_scatter_by_an_index_of_width_one_writes_one_element_per_row(call: str, evidence: bool) -> None:
    source = (
        "import numpy as np\nimport torch\ntorch.manual_seed(0)\n\ndef main():\n"
        "    w = torch.nn.Parameter(torch.ones(4, 6, device='cuda'))\n"
        "    opt = torch.optim.SGD([w], lr=0.1)\n    s = w * 2\n"
        "    labels = torch.tensor([0, 5, 2, 2], device='cuda')\n"
        "    index = torch.randint(0, 6, (4, 6), device='cuda')\n"
        f"    {call}\n    y.sum().backward()\n    opt.step()\n\nmain()\n"
    )
    codes = [d.code for d in check_source(source, "train.py")]
    assert ("RPL301" in codes) is evidence, codes


@pytest.mark.parametrize(("use", "reported"), [
    # `.numpy()` raises on a tensor that needs grad: the op took none (and ran on the CPU)
    ("basis = F.interpolate(img, size=(8, 8), mode='bicubic')[0, 0].numpy()", False),
    ("basis = F.interpolate(img, size=(8, 8), mode='bicubic').squeeze(0).cpu().numpy()", False),
    # detached at once: no gradient goes back through it
    ("shown = F.interpolate(w, size=(8, 8), mode='bicubic').detach()", False),
    # detached after another op: the interpolation's own backward may run
    ("kept = F.interpolate(w, size=(8, 8), mode='bicubic')\nshown = kept.detach()\nloss = loss + kept.sum()", True),
])
def test_an_op_whose_result_goes_to_numpy_or_is_detached_passes_no_gradient(use: str, reported: bool) -> None:
    body = (
        "w = nn.Parameter(torch.ones(1, 1, 4, 4, device=device))\nimg = next(images)\n"
        "loss = (w * 2).sum()\n" + use + "\n"
    )
    assert bool(rpl202(body)) is reported


@pytest.mark.parametrize(("source", "reported"), [
    ("torch.from_numpy(arr)[None, None]", False),  # a NumPy array's data: no grad
    ("torch.Tensor(arr)[None, None]", True),  # given a tensor that needs grad, an alias that needs it too
])
def test_an_op_on_a_tensor_made_from_numpy_takes_no_gradient(source: str, reported: bool) -> None:
    body = (
        "w = nn.Parameter(torch.ones(1, 1, 4, 4, device=device))\n"
        f"img = {source}\nup = F.interpolate(img, size=(8, 8), mode='bicubic')\nloss = (w * up.mean()).sum()\n"
    )
    assert bool(rpl202(body)) is reported
