"""Claims about which kernel an op call runs, checked against the real torch on CPU.

RPL202 leaves out adaptive average pooling to output size 1 because torch computes it as
a mean: the autograd node of such a call is ``MeanBackward``, not the adaptive pooling
backward that has no deterministic CUDA kernel. Each case here runs the call on the
installed torch, reads the autograd node, and checks that `check` reports the same
call exactly when the pooling kernel runs.
"""

from __future__ import annotations

import pytest

from reprolint.api import check_source
from reprolint.config import Settings

torch = pytest.importorskip("torch")
F = torch.nn.functional
nn = torch.nn

# (source of the call on `x`, a 4-D input for 2-D pooling and 5-D for 3-D)
CASES = [
    "F.adaptive_avg_pool2d(x, 1)",
    "F.adaptive_avg_pool2d(x, (1, 1))",
    "F.adaptive_avg_pool2d(x, output_size=[1, 1])",
    "nn.AdaptiveAvgPool2d(1)(x)",
    "nn.AdaptiveAvgPool2d((1, 1))(x)",
    "F.adaptive_avg_pool2d(x, 2)",
    "F.adaptive_avg_pool2d(x, (1, None))",
    "nn.AdaptiveAvgPool2d(output_size=3)(x)",
    "F.adaptive_avg_pool3d(v, 1)",
    "F.adaptive_avg_pool3d(v, (1, 1, 1))",
    "nn.AdaptiveAvgPool3d(2)(v)",
]


def _runs_pooling_kernel(expression: str) -> bool:
    x = torch.randn(1, 3, 8, 8, requires_grad=True)
    v = torch.randn(1, 2, 4, 4, 4, requires_grad=True)
    out = eval(expression, {"F": F, "nn": nn, "x": x, "v": v})  # noqa: S307 - our own literals
    return "AdaptiveAvgPool" in type(out.grad_fn).__name__


@pytest.mark.parametrize("expression", CASES)
def test_rpl202_reports_adaptive_pooling_exactly_when_torch_runs_the_pooling_kernel(expression):
    source = (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(1, 3, 8, 8, device='cuda', requires_grad=True)\n"
        "v = torch.randn(1, 2, 4, 4, 4, device='cuda', requires_grad=True)\n"
        f"y = {expression}\n"
        "y.sum().backward()\n"
    )
    reported = any(d.code == "RPL202" for d in check_source(source, path="train.py"))
    assert reported == _runs_pooling_kernel(expression), expression


REPEATS = [
    ("x.repeat_interleave(2, dim=0)", True),
    ("torch.repeat_interleave(x, 3, dim=1)", True),
    ("x.repeat_interleave(repeats=2)", True),
    ("x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0)", False),
    # Python ints the source shows as such: grouped-query attention's head ratio, a length
    ("x.repeat_interleave(heads // kv_heads, dim=0)", True),
    ("x.repeat_interleave(len(names), dim=1)", True),
    # one of a tensor's sizes (`x.shape[-1]`, `x.size(1)`), also through a name (a
    # mask repeated along the embedding axis)
    ("x.repeat_interleave(x.shape[-1], dim=1)", True),
    ("x.repeat_interleave(x.size(0), dim=1)", True),
    ("x.repeat_interleave(width, dim=1)", True),
    # a name bound to such an int, and a name bound to a tensor of repeats
    ("x.repeat_interleave(q_per_kv, dim=0)", True),
    ("x.repeat_interleave(counts, dim=0)", False),
    # arithmetic on a tensor of repeats is a tensor
    ("x.repeat_interleave(counts * 2, dim=0)", False),
]
NAMES = (
    "heads, kv_heads = 8, 4\nq_per_kv = heads // kv_heads\nnames = ['a', 'b']\n"
    "counts = torch.tensor([1, 2, 3])\nwidth = x.shape[-1]\n"
)


@pytest.mark.parametrize(("expression", "scalar"), REPEATS)
def test_rpl201_reports_repeat_interleave_exactly_when_its_backward_indexes(expression, scalar):
    # Integer repeats: an expand and a copy (a view's backward, a plain sum) on the
    # installed torch (>= 2.1); tensor repeats: index_select, whose CUDA backward
    # accumulates with atomic adds.
    x = torch.randn(3, 4, requires_grad=True)
    scope = {"torch": torch, "x": x}
    exec(NAMES, scope)  # noqa: S102
    node = type(eval(expression, scope).grad_fn).__name__  # noqa: S307
    assert ("IndexSelect" in node) is not scalar, node
    source = (
        "import torch\ntorch.manual_seed(0)\n"
        "x = torch.randn(3, 4, device='cuda', requires_grad=True)\n" + NAMES.replace("])", "], device='cuda')")
        + f"y = {expression}\ny.sum().backward()\n"
    )
    line = 4 + NAMES.count("\n")
    # a CUDA training program: the site is RPL301's evidence (a related location)
    reported = any(
        d.code == "RPL201" and d.span.start_line == line
        or d.code == "RPL301" and any(r.span.start_line == line for r in d.related)
        for d in check_source(source, path="train.py")
    )
    assert reported is not scalar, expression


GQA = """
import torch
import torch.nn as nn


def repeat_kv(hidden: {annotation}, n_rep: {annotation}):
    return hidden.repeat_interleave(n_rep, dim=1)


class Attention(nn.Module):
    def __init__(self, n_heads=8, n_kv_heads=2):
        super().__init__()
        self.n_rep = {attribute}
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return repeat_kv(self.proj(x), self.n_rep)


torch.manual_seed(0)
model = Attention().cuda()
model(torch.randn(2, 3, 4, device="cuda")).sum().backward()
"""


@pytest.mark.parametrize(("annotation", "attribute", "scalar"), [
    ("int", "n_heads // n_kv_heads", True),
    ("torch.Tensor", "torch.tensor([4, 4, 4])", False),
])
def test_repeats_held_by_an_annotated_parameter_follow_what_the_function_receives(annotation, attribute, scalar):
    """A parameter annotated ``int`` holds a Python int (and a ``self`` attribute set
    from the head counts is one): the call is the view-backed repeat. The same function
    receiving a tensor of repeats indexes, and is reported."""
    scope: dict = {"torch": torch, "nn": nn}
    header, _, _ = GQA.format(annotation=annotation, attribute=attribute).partition("torch.manual_seed")
    exec(header, scope)  # noqa: S102 - our own source
    out = scope["Attention"]()(torch.randn(2, 3, 4))
    assert ("IndexSelect" in type(out.grad_fn).__name__) is not scalar
    source = GQA.format(annotation=annotation, attribute=attribute)
    reported = [
        d for d in check_source(source, path="train.py")
        if d.code == "RPL201" or d.code == "RPL301" and any(r.span.start_line == 7 for r in d.related)
    ]
    assert bool(reported) is not scalar


def test_repeat_interleave_with_integer_repeats_is_reported_for_a_torch_before_2_1():

    source = (
        "import torch\ntorch.manual_seed(0)\n"
        "x = torch.randn(3, 4, device='cuda', requires_grad=True)\n"
        "x.repeat_interleave(2, dim=0).sum().backward()\n"
    )
    old = check_source(source, path="train.py", settings=Settings(torch_version="2.0"))
    (program,) = [d for d in old if d.code == "RPL301"]
    assert [r.span.start_line for r in program.related] == [4]
    new = check_source(source, path="train.py", settings=Settings(torch_version="2.13"))
    assert [d.code for d in new if d.code in ("RPL201", "RPL301")] == []


@pytest.mark.parametrize("expression", ["(ids == 3).cumsum(dim=-1)", "(~(ids == 3) & (ids > 1)).cumsum(dim=1)", "ids.ne(3).cumsum(dim=1)"])
def test_cumsum_of_a_mask_is_an_integer_cumsum(expression):
    """RPL202 leaves out cumsum of what visibly holds booleans: torch promotes a bool
    cumsum to int64, and the CUDA cumsum without a deterministic kernel is the
    floating-point one (the catalog's ``floating-or-complex-dtype`` condition)."""
    ids = torch.randint(0, 5, (2, 6))
    out = eval(expression, {"ids": ids})  # noqa: S307 - our own literals
    assert out.dtype == torch.int64
    source = (
        "import torch\ntorch.manual_seed(0)\nids = torch.randint(0, 5, (2, 6)).cuda()\n"
        "w = torch.nn.Parameter(torch.ones(6).cuda())\n"
        f"y = ({expression} * w).sum()\ny.backward()\n"
    )
    assert [d for d in check_source(source, path="train.py") if d.code == "RPL202"] == []


@pytest.mark.parametrize("index", [
    "(mask.sum(-1, keepdim=True) - 1).long()", "s.argmax(dim=-1, keepdim=True)", "(n - 1).unsqueeze(-1)",
    "torch.softmax(s, -1).multinomial(num_samples=1).data", "torch.multinomial(torch.softmax(s, -1), 1)",
])
def test_a_gather_by_an_index_of_width_one_adds_at_most_one_gradient_per_element(index):
    """RPL201/RPL301 leave out a gather whose index has width 1 along the gathered axis:
    its backward (a scatter-add) then adds at most one gradient into each input element,
    so the atomic adds cannot collide. On the real torch, the gradient of the gathered
    sum holds only 0s and 1s (one add or none per element)."""
    s = torch.randn(4, 6, requires_grad=True)
    mask = torch.ones(4, 6)
    n = mask.sum(1).long()
    idx = eval(index, {"s": s, "mask": mask, "n": n, "torch": torch})  # noqa: S307 - our own literals
    assert idx.shape == (4, 1)
    s.gather(-1, idx).sum().backward()
    assert set(s.grad.unique().tolist()) <= {0.0, 1.0}


@pytest.mark.parametrize("index", [
    "idx.view(-1, 1, 6)", "idx.view(4, 1, 1).expand(4, 1, 6) - 1", "torch.gather(t, 1, idx.view(-1, 1, 6))",
])
def test_a_gather_by_a_view_of_width_one_adds_at_most_one_gradient_per_element(index):
    """A view with a literal 1 at the gathered axis (``idx.view(-1, 1, m)``), an ``expand``
    that keeps it, and the result of a gather by such an index (a gather's result has its
    index's shape): on the real torch each input element of the gathered tensor receives
    at most one gradient value, and `check` reports no RPL201 for the gather."""
    s = torch.randn(4, 3, 6, requires_grad=True)
    idx = torch.randint(0, 3, (4, 6)) if "expand" not in index else torch.randint(1, 4, (4,))
    t = torch.randint(0, 3, (4, 3, 6))
    index_value = eval(index, {"idx": idx, "t": t, "torch": torch})  # noqa: S307 - our own literals
    assert index_value.shape[1] == 1
    s.gather(1, index_value).sum().backward()
    assert set(s.grad.unique().tolist()) <= {0.0, 1.0}
    source = (
        "import torch\ntorch.manual_seed(0)\n"
        "s = torch.randn(4, 3, 6, device='cuda', requires_grad=True)\n"
        "idx = torch.randint(0, 3, (4, 6), device='cuda')\nt = torch.randint(0, 3, (4, 3, 6), device='cuda')\n"
        f"j = {index}\ntorch.gather(s, 1, j).sum().backward()\n"
    )
    assert [d.code for d in check_source(source, path="train.py") if d.code in ("RPL201", "RPL301")] == []


@pytest.mark.parametrize(("padding", "length"), [(1, 4), (3, 8), (3, 64), (7, 2048)])
def test_a_reflection_of_one_axis_adds_at_most_two_gradient_values_per_element(padding, length):
    """RPL202 reports a 1-D reflection padding only where deterministic mode is on: its
    backward adds to each input element its own gradient and at most one mirrored one
    (for an input longer than twice the padding plus one), and two additions onto zero
    give the same sum in either order. On the real torch a gradient of ones shows the
    count per element (the padding of two axes gives a corner four)."""
    x = torch.zeros(1, 2, length, requires_grad=True)
    y = nn.ReflectionPad1d(padding)(x)
    y.backward(torch.ones_like(y))
    assert type(y.grad_fn).__name__.startswith("ReflectionPad1D")
    assert x.grad.max().item() == 2.0
    f = torch.zeros(1, 2, length, requires_grad=True)
    F.pad(f, (padding, padding), mode="reflect").sum().backward()
    assert torch.equal(f.grad, x.grad)
    square = torch.zeros(1, 1, length, length, requires_grad=True)
    nn.ReflectionPad2d(padding)(square).sum().backward()
    assert square.grad.max().item() == 4.0
    program = (
        "import torch, torch.nn as nn\n{mode}x = torch.rand(1, 8, 64, device='cuda')\n"
        f"nn.ReflectionPad1d({padding})(x).sum().backward()\n"
    )
    off = [d for d in check_source(program.format(mode=""), path="train.py") if d.code == "RPL202"]
    on = [d for d in check_source(program.format(mode="torch.use_deterministic_algorithms(True)\n"), path="train.py")
          if d.code == "RPL202"]
    assert off == [] and [d.span.start_line for d in on] == [4]
    assert "at most two gradient values" in on[0].message


def test_an_op_given_tensors_moved_to_the_cpu_runs_the_cpu_kernel():
    """``sums.index_add_(0, labels.cpu(), rows.cpu())``: torch requires the tensors of
    the call on one device (a CPU index on a CUDA tensor is refused), so the call runs
    the CPU kernel, which deterministic mode does not flag; `check` leaves that call and
    reports the same call on CUDA tensors."""
    sums = torch.zeros(3, 2)
    labels = torch.tensor([0, 2, 0, 0])
    rows = torch.randn(4, 2)
    torch.use_deterministic_algorithms(True)
    try:
        out = sums.index_add_(0, labels.cpu(), rows.cpu())  # no alert: a deterministic kernel
    finally:
        torch.use_deterministic_algorithms(False)
    assert out.device.type == "cpu"
    source = (
        "import torch\n"
        "def sums(rows, labels, on_gpu):\n"
        "    total = torch.zeros(3, 2, device='cuda')\n"
        "    if on_gpu:\n"
        "        total.index_add_(0, labels.cuda(), rows)\n"
        "    else:\n"
        "        total.cpu().index_add_(0, labels.cpu(), rows.cpu())\n"
        "    return total\n"
        "print(sums(torch.randn(4, 2, device='cuda'), torch.tensor([0, 2, 0, 0]), len(__file__) > 3))\n"
    )
    found = [d.span.start_line for d in check_source(source, path="run.py") if d.code == "RPL201"]
    assert found == [5]


def test_histc_only_counts():
    """The catalog's `exact_result` for histc: it takes no weights, and its output is the
    number of elements per bin (integral values), so its CUDA kernel's atomic adds are
    all the same +1 and their order cannot change the result. `check` reports it only
    where deterministic mode is on (where torch raises)."""
    x = torch.randn(10_000)
    hist = torch.histc(x, bins=7, min=-2, max=2)
    inside = x[(x >= -2) & (x <= 2)]
    edges = torch.linspace(-2, 2, 8)
    expected = []
    for i, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
        upper = inside < hi if i < 6 else inside <= hi  # the last bin holds `max`
        expected.append(int(((inside >= lo) & upper).sum()))
    assert hist.tolist() == [float(n) for n in expected]
    with pytest.raises(TypeError):
        torch.histc(x, bins=7, weight=torch.ones_like(x))  # no weights: counts only
    program = "import torch\n{mode}x = torch.randn(100, device='cuda')\nh = torch.histc(x, bins=4)\nprint(h)\n"
    off = [d for d in check_source(program.format(mode=""), path="run.py") if d.code == "RPL202"]
    on = [d for d in check_source(program.format(mode="torch.use_deterministic_algorithms(True)\n"), path="run.py")
          if d.code == "RPL202"]
    assert off == [] and [d.span.start_line for d in on] == [4]


def test_numpy_refuses_a_tensor_that_needs_grad_and_a_detached_result_passes_none_back():
    """RPL201/RPL202 count an op whose result goes straight to `.numpy()` (through
    indexing and shape methods) as taking no gradient, and one whose result is detached
    at once as passing none back; `torch.from_numpy` makes a tensor without grad, while
    `torch.Tensor(t)` of a tensor that needs grad returns one that needs it too."""
    import torch.nn.functional as F

    w = torch.ones(1, 1, 2, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match="requires grad"):
        F.interpolate(w, size=(4, 4), mode="bicubic")[0, 0].numpy()
    out = F.interpolate(w, size=(4, 4), mode="bicubic").detach()
    assert not out.requires_grad and out.grad_fn is None
    assert not torch.from_numpy(w.detach().numpy()).requires_grad
    assert torch.Tensor(w).requires_grad


# (call on `x`, 3-D for linear, 4-D for (bi)linear/bicubic, 5-D for trilinear)
RESIZES = [
    "F.interpolate(x, scale_factor=2, mode='bilinear')",
    "F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=True)",
    "nn.Upsample(scale_factor=2, mode='bilinear')(x)",
    "nn.UpsamplingBilinear2d(scale_factor=2)(x)",
    "F.interpolate(v, scale_factor=2, mode='trilinear')",
    "F.interpolate(x, scale_factor=2, mode='bicubic')",
    "F.interpolate(s, scale_factor=2, mode='linear')",
]


def _raising_kernel_under_the_flag(expression: str) -> bool:
    """Whether, under deterministic mode, the call on a non-CPU tensor still runs the
    upsampling kernel whose CUDA backward raises (the meta device stands in for CUDA:
    F.interpolate routes by ``input.is_cpu``)."""
    previous = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        x = torch.randn(1, 3, 8, 8, device="meta", requires_grad=True)
        v = torch.randn(1, 2, 4, 4, 4, device="meta", requires_grad=True)
        s = torch.randn(1, 3, 8, device="meta", requires_grad=True)
        out = eval(expression, {"F": F, "nn": nn, "x": x, "v": v, "s": s})  # noqa: S307 - our own literals
    finally:
        torch.use_deterministic_algorithms(previous)
    return type(out.grad_fn).__name__.startswith("Upsample")


@pytest.mark.parametrize("expression", RESIZES)
def test_rpl202_reports_a_resize_exactly_when_the_flag_keeps_the_raising_kernel(expression):
    source = (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(1, 3, 8, 8, device='cuda', requires_grad=True)\n"
        "v = torch.randn(1, 2, 4, 4, 4, device='cuda', requires_grad=True)\n"
        "s = torch.randn(1, 3, 8, device='cuda', requires_grad=True)\n"
        f"y = {expression}\n"
        "y.sum().backward()\n"
    )
    installed = ".".join(torch.__version__.split("+")[0].split(".")[:2])
    found = {d.code for d in check_source(source, path="train.py", settings=Settings(torch_version=installed))}
    assert ("RPL202" in found) == _raising_kernel_under_the_flag(expression), expression
    # without the flag every one of them runs a CUDA backward that accumulates with atomic adds
    assert found & {"RPL201", "RPL202", "RPL301"}, expression


def _method_arguments(method: str, count: int) -> list:
    """``count`` arguments a Tensor method could take: a dim, then index-like tensors."""
    x = torch.zeros(3, 3)
    index = torch.zeros(3, 3, dtype=torch.long)
    given = {1: [0], 2: [0, index], 3: [0, index, x], 4: [0, index, x, "sum"]}
    if method in ("index_put", "index_put_"):
        given = {1: [(index[0],)], 2: [(index[0],), torch.zeros(3)]}
    if method in ("put", "put_"):
        given = {1: [index.flatten()], 2: [index.flatten()[:2], torch.zeros(2)]}
    if method == "bmm":
        given = {1: [torch.zeros(1, 3, 3)]}
    if method in ("index_select",):
        given = {1: [0], 2: [0, index[0]]}
    if method in ("index_add", "index_add_", "index_copy", "index_copy_"):
        given = {1: [0], 2: [0, index[0]], 3: [0, index[0], x]}
    if method in ("kthvalue",):
        given = {1: [1]}
    if method == "repeat_interleave":
        given = {1: [2]}
    if method in ("cumsum", "cumsum_"):
        given = {1: [0]}
    return given[count]


def test_the_tensor_methods_need_the_arguments_the_analysis_counts():
    """`accelerator.gather(t)` is no `Tensor.gather`: the analysis leaves out a method call
    given fewer arguments than the Tensor method needs (determinism.TENSOR_METHOD_ARGUMENTS).
    Each count is torch's: one argument fewer raises a TypeError, that many binds."""
    from reprolint.analysis.determinism import TENSOR_METHOD_ARGUMENTS

    for method, count in TENSOR_METHOD_ARGUMENTS.items():
        base = torch.zeros(1, 3, 3) if method == "bmm" else torch.zeros(3, 3)
        getattr(base.clone(), method)(*_method_arguments(method, count))  # binds
        fewer = _method_arguments(method, count - 1) if count > 1 else []
        with pytest.raises(TypeError):
            getattr(base.clone(), method)(*fewer)


MAX_POOLS_3D = [
    ("nn.MaxPool3d(2)", True),
    ("nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2))", True),
    ("nn.MaxPool3d((2, 2, 2), (2, 2, 2), (0, 1, 1))", True),
    ("nn.MaxPool3d(3, stride=1)", False),
    ("nn.MaxPool3d(2, dilation=2)", False),
]


@pytest.mark.parametrize(("layer", "disjoint"), MAX_POOLS_3D)
def test_rpl301_leaves_out_a_3d_max_pooling_whose_windows_do_not_overlap(layer: str, disjoint: bool) -> None:
    # The CUDA backward adds each window's gradient into its argmax with an atomic add;
    # where no input element lies in two windows, no element receives two adds (the CPU
    # backward sums the same contributions: count them with a gradient of ones).
    v = torch.randn(1, 1, 6, 8, 8, requires_grad=True)
    pooled = eval(layer, {"nn": nn})(v)  # noqa: S307 - our own literals
    pooled.backward(torch.ones_like(pooled))
    assert (v.grad.max().item() <= 1.0) is disjoint, layer
    source = (
        "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
        f"pool = {layer}.cuda()\n"
        "v = torch.randn(1, 1, 6, 8, 8, device='cuda', requires_grad=True)\n"
        "pool(v).sum().backward()\n"
    )
    reported = any(
        d.code == "RPL201" and d.span.start_line == 4 or d.code == "RPL301" and any(r.span.start_line == 4 for r in d.related)
        for d in check_source(source, path="train.py", settings=Settings(torch_version="2.13"))
    )
    assert reported is not disjoint, layer
