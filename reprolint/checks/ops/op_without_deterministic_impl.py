from __future__ import annotations

from typing import Iterator

from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.ops._ops import torch_op_findings


class OpWithoutDeterministicImpl(Rule):
    """
    ## What it does
    Reports a call to an op that has no deterministic CUDA implementation and raises
    under deterministic mode (e.g. `histc`, `bincount(weights=)`, `kthvalue`,
    `median(dim)`, `embedding_bag(mode="max")` backward, `interpolate` linear modes
    backward).

    The list is the "will throw a RuntimeError" list of
    `torch.use_deterministic_algorithms`' docstring for the configured torch version
    (`torch-version`, else the project's declared torch, else the installed torch, else
    the newest catalogued), kept in
    `rules/nondeterministic_ops.toml` with the arguments that matter
    (`interpolate(mode="bicubic")`, `F.pad(mode="reflect")`, `bincount(weights=...)`,
    `median(x, dim)`, `scatter_reduce(reduce="prod")`, ...). It is reported whether or
    not deterministic mode is on: without it the op is nondeterministic, with it the op
    raises. Except an op whose result is the same on every run although torch raises
    under the flag: `histc` only counts (every atomic add is the same +1, so the sums do
    not depend on their order), and a reflection padding of the last axis only
    (`nn.ReflectionPad1d(p)`, `F.pad(x, (p, p), mode="reflect")`) adds at most two
    gradient values to each input element (its own and one mirrored, for an input longer
    than `2 * p + 1`), whose sum is the same in either order; they are reported only in a
    program that turns deterministic mode on, where they raise. CUDA-only entries are reported in programs that use CUDA (see RPL201 for
    what counts), backward-only entries in programs that train, when a gradient can
    flow through the call (not under `no_grad`, nor a module built into a local name
    that its function calls only inside `with torch.no_grad():`, nor the `forward` of a
    project module every call of which the program makes there; not on an input that visibly requires
    none: `.detach()`, a buffer or a plain tensor attribute a factory made (see RPL201),
    `torch.from_numpy(...)`, a checkpoint's tensor resized
    while loading weights, also in a helper that resizes a view of its parameter
    (`tokens = pos_embed[:, 1:].reshape(...)`) where every call the program makes passes
    such a tensor; not when the result is detached at once or goes straight to
    `.numpy()`, which raises on a tensor that requires grad).
    The message names the catalog's deterministic alternative.

    What the source shows decides the entries that depend on the input:

    * `F.cross_entropy`/`F.nll_loss` and a `nn.CrossEntropyLoss`/`nn.NLLLoss` instance
      (bound to a name or a `self` attribute, then called) are reported when their
      input visibly has more than two dimensions: `x.transpose(1, 2)` (a dim >= 2),
      `x.permute(0, 2, 1)`, `view`/`reshape` with three or more sizes,
      `einops.rearrange` to three or more axes, a factory given three or more sizes, or
      a name bound to one (through `log_softmax`, casts, `.contiguous()`); or when the
      target visibly has three or more (a segmentation mask `(N, H, W)` made by
      `torch.randint(0, C, (n, h, w))`, `torch.from_numpy(...)` of such an array). Such input
      runs the spatial kernel, whose CUDA forward accumulates with atomics. Logits
      flattened to (N, C) (`view(-1, C)`), a module's output passed as is, and swaps
      that keep the class dimension last (`transpose(0, 1)`) are not reported: the
      plain 2-D classification loss is deterministic. Nor is `reduction="none"` (in the
      call or the loss module's constructor): the kernel writes one loss per element
      and only the `mean`/`sum` reductions add into one total with atomics.
    * `cumsum` is reported on floating-point input only: not on what visibly holds
      integers (the counts of `unique_consecutive(..., return_counts=True)`, a mask
      cast with `.long()`, `dtype=torch.long`, `bincount`, `argmax`), nor on a mask
      (a comparison such as `(ids == pad)`, `ids.ne(pad)`, `~m & n`, also through the
      name it is bound to in the function: `is_eos = text == eos`): torch counts a
      boolean cumsum in int64.
    * `interpolate`/`nn.Upsample` by mode: linear and bicubic have no deterministic
      CUDA backward; nearest, the default, does. Bilinear and trilinear (also
      `nn.UpsamplingBilinear2d`) raise up to torch 2.12 as far as checked; in torch 2.13
      `F.interpolate` computes them under deterministic mode by gathers and weighted
      sums whose backward is deterministic (the docstring still lists them; the code
      and the autograd graph on a non-CPU tensor, measured in tests/libraries, do not),
      so from 2.13 on they are RPL201 (the flag fixes them), not RPL202. The mode is read from a keyword, its position, a
      module constant, the default of the enclosing function's parameter
      (`def up(x, mode="bicubic"): return F.interpolate(x, mode=mode)`) or of a
      command-line option (`mode=args.upsample`); any other variable counts as a
      problem mode.
    * `nn.AdaptiveAvgPool2d`/`3d` and `F.adaptive_avg_pool2d`/`3d` by output size: to
      size 1 on every axis (`1`, `(1, 1)`, `output_size=[1, 1, 1]`: global pooling)
      torch computes a `mean` over the pooled axes, whose backward is deterministic,
      so it is not reported; any other size, `(1, None)` (which keeps an input size)
      or a size held in a variable runs the adaptive pooling kernel and is.

    Not on a branch the default run skips: an option's or constant's default, or a
    parameter's default where the calls that run the function leave it out (`def
    sample(logits, top_p=None): if top_p is not None: ...cumsum...` called as
    `sample(logits)`; a call passing another value, or `**kwargs`, keeps it reported).
    Not in a module written for another accelerator (one importing `torch_npu` and
    the like at its top level), in DataLoader worker processes, on a branch taken only
    on another device, nor in a plain function no call of the program reaches: the
    same cases as RPL201 (`reprolint explain RPL201`).
    Blind spots: shapes decided only at run time (the output of `model(x)` fed to a
    loss), a wrapper called with another mode than its parameter's default, and ops
    reached inside library code (a torchvision model's pooling) are not seen.

    The project calls through which a program first reaches the op (`y = blur(x)` in
    the entry point for an op in `aug.py`) are its related locations, outermost first.

    ## Why is this bad?
    Two runs of the same program differ, and the usual mitigation, deterministic mode,
    makes the program crash at this op (`RuntimeError: ... does not have a
    deterministic implementation`). Either way the op has to be replaced or patched.

    Mitigation: use the catalog's alternative (e.g. `adaptive_avg_pool2d` to a size
    the input divides is `avg_pool2d` with the matching kernel;
    `interpolate(mode="nearest")`; sort-based histograms), or run this op on the CPU,
    or `reprolint.runtime.patch()`.

    ## Example
    ```python
    import torch.nn as nn
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(7)).cuda()
    model(x).sum().backward()
    ```

    Use instead:
    ```python
    import torch.nn as nn
    # for a 28x28 feature map, 7x7 output: a 4x4 average pooling is the same numbers
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AvgPool2d(4)).cuda()
    ```

    ## Fix safety
    No automatic fix: replacing an op changes the numbers and sometimes the model
    (display-only advice in the message).

    ## References
    - https://docs.pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
    - https://pytorch.org/docs/stable/notes/randomness.html
    """

    code = "RPL202"
    message = "`{call}` has no deterministic {device} implementation{conditions}{notes} in torch {version}: it is nondeterministic and raises under `torch.use_deterministic_algorithms(True)`; instead: {alternative}"
    messages = {
        "exact": "`{call}` raises under `torch.use_deterministic_algorithms(True)`, which this program turns on, "
                 "on {device} in torch {version} (its result is the same on every run: {why}); "
                 "instead: {alternative}",
    }
    fix_title = "Replace `{call}` with a deterministic alternative"
    framework = "torch"
    devices = "cuda"

    VALID = [
        # global average pooling (output size 1) is computed as a mean: deterministic
        Valid(
            "import torch, torch.nn as nn\nimport torch.nn.functional as F\n"
            "pool = nn.AdaptiveAvgPool2d((1, 1)).cuda()\n"
            "loss = pool(x).sum() + F.adaptive_avg_pool2d(x, 1).sum() + F.adaptive_avg_pool3d(v, output_size=1).sum()\n"
            "loss.backward()\n"
        ),
        Valid("import torch\nh = torch.histc(torch.rand(10), bins=4)\ntorch.manual_seed(0)\n"),  # CPU only
        # counts only: the same result on every run while deterministic mode is off
        Valid("import torch\nx = torch.rand(10).cuda()\nh = torch.histc(x, bins=4)\n"),
        Valid("import torch\nx = torch.zeros(3).cuda()\ny = torch.bincount(x)\n"),  # no weights (torch >= 2.1)
        Valid(
            "import torch.nn.functional as F, torch\nx = torch.rand(1, 3, 8, 8).cuda()\n"
            "y = F.interpolate(x, scale_factor=2, mode='nearest')\ny.sum().backward()\n"
        ),
        # plain (N, C) classification: the deterministic kernel
        Valid(
            "import torch\nimport torch.nn.functional as F\nlogits = torch.randn(8, 10, device='cuda')\n"
            "loss = F.cross_entropy(logits.view(-1, 10), y)\nloss.backward()\n"
        ),
        # a reflection of the last axis: at most two gradient values per element
        Valid(
            "import torch, torch.nn as nn\nimport torch.nn.functional as F\nx = torch.rand(1, 8, 64, device='cuda')\n"
            "loss = nn.ReflectionPad1d(3)(x).sum() + F.pad(x, (2, 2), mode='reflect').sum()\nloss.backward()\n"
        ),
        # integer counts: an exact, deterministic running sum
        Valid(
            "import torch\ndevice = torch.device('cuda')\n"
            "ends = torch.cumsum(torch.unique_consecutive(sizes, return_counts=True)[1], 0)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import torch\ntorch.use_deterministic_algorithms(True)\nx = torch.rand(10).cuda()\nh = torch.histc(x, bins=4)\n",
            line=4, message="which this program turns on",
        ),
        Invalid(
            "import torch\nimport torch.nn.functional as F\nx = torch.rand(1, 3, 8, 8, device='cuda')\n"
            "y = F.interpolate(x, scale_factor=2, mode='bicubic')\ny.sum().backward()\n",
            line=4,
        ),
        Invalid(
            "import torch, torch.nn as nn\ntorch.use_deterministic_algorithms(True)\n"
            "pool = nn.AdaptiveAvgPool2d(7).cuda()\nloss = pool(x).sum()\nloss.backward()\n",
            line=3, message="AdaptiveAvgPool2d",
        ),
        Invalid(  # (1, None) keeps the width: the pooling kernel, not a mean
            "import torch, torch.nn.functional as F\nx = torch.rand(1, 3, 8, 8, device='cuda', requires_grad=True)\n"
            "F.adaptive_avg_pool2d(x, (1, None)).sum().backward()\n",
            line=3, message="adaptive_avg_pool2d",
        ),
        Invalid("import torch\nx = torch.rand(4, 5).cuda()\nv, i = x.median(dim=1)\n", line=3),
        Invalid(
            "import torch, torch.nn as nn\ntorch.use_deterministic_algorithms(True)\n"
            "x = torch.rand(1, 8, 64, device='cuda')\nnn.ReflectionPad1d(3)(x).sum().backward()\n",
            line=4, message="at most two gradient values",
        ),
        Invalid(  # two axes: a corner element receives four values
            "import torch, torch.nn as nn\nx = torch.rand(1, 8, 64, 64, device='cuda')\n"
            "nn.ReflectionPad2d(3)(x).sum().backward()\n",
            line=3, message="it is nondeterministic",
        ),
        Invalid(
            "import torch\nimport torch.nn.functional as F\nlogits = torch.randn(2, 100, 92, device='cuda')\n"
            "loss = F.cross_entropy(logits.transpose(1, 2), target, weight)\nloss.backward()\n",
            line=4, message="more than two dimensions",
        ),
        Invalid(
            "import torch, torch.nn as nn\ncriterion = nn.CrossEntropyLoss()\nx = torch.randn(2, 9, 5).cuda()\n"
            "loss = criterion(x.permute(0, 2, 1), tags)\n",
            line=4, message="criterion",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        for found in torch_op_findings(ctx):
            if found.code != self.code:
                continue
            entry = found.match.entry
            why = found.exact
            if why and not found.under_flag:
                continue  # histc's counts: the same on every run; it raises only under the flag
            fields = found.fields()
            yield self.report(
                found.path, found.usage.span, **fields, variant="exact" if why else None, why=why,
                conditions=" for its backward pass" if fields["backward"] else "",
                alternative=entry.alternative or "run it on the CPU or patch it with `reprolint.runtime.patch()`",
                entry_points=found.entry_points, related=found.related,
            )
