from __future__ import annotations

from typing import Iterator

from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.ops._ops import torch_op_findings, without_deterministic_mode


class NondeterministicOp(Rule):
    """
    ## What it does
    Reports a call to an op that is nondeterministic on CUDA unless
    `torch.use_deterministic_algorithms(True)` is on (e.g. `index_add_`,
    `scatter_add_`, `index_put_(accumulate=True)`, `put_`), in a program that does
    not turn it on.

    Which ops, under which arguments and for which torch versions, comes from the
    catalog `rules/nondeterministic_ops.toml` (the "will act deterministically" list of
    `torch.use_deterministic_algorithms`' docstring, release by release), for the torch
    version in the `torch-version` setting, else the one the project declares
    (requirements, setup, pyproject, conda, Pipfile or lock files), else the installed
    torch, else the newest the catalog knows. Ops marked CUDA-only are reported only in programs that use CUDA
    (`.cuda()`, `.to("cuda")`, `torch.device("cuda" ...)`, a `"cuda"` device string,
    `torch.cuda.set_device`, AMP on CUDA, NCCL, `DistributedDataParallel(device_ids=)`,
    Lightning/Fabric/Hugging Face/Accelerate trainers unless told to use the CPU);
    CPU ops of the catalog (`index_put_(accumulate=True)` and `put_(accumulate=True)` on
    CPU tensors) in every program. Backward-only ops are reported in programs that
    train (`.backward()`, an optimizer, a trainer), unless no gradient can flow through
    the call: it runs under `torch.no_grad()`/`inference_mode()` (also in the `forward` of
    a project module whose every call the program makes runs there: an Inception network
    called only to compute a metric), or its input visibly
    requires no grad (a registered buffer, a plain tensor attribute that every
    assignment in its class makes with a factory or moves to a device, and whose elements
    only `__init__` writes, such as an alias sampler's tables, a tensor a factory just made or
    `torch.from_numpy` made, `.detach()`, `.data`, data read from a checkpoint with
    `torch.load`, through slicing and reshapes), or its result is detached at once or
    goes straight to `.numpy()` (which raises on a tensor that requires grad).

    In a CUDA training program the sites are reported once, by RPL301, which lists them
    as related locations; RPL201 reports a site on its own where no such program
    finding covers it: programs that do not train (a forward-only op), CPU entries of
    the catalog, Lightning or Hugging Face trainers (RPL306), library code.

    The program is judged by the flag with its default options: a
    `torch.use_deterministic_algorithms(True)` anywhere on the path silences it
    (`warn_only=True` too: it still selects the deterministic kernels), one behind
    `if args.deterministic:` with a `store_true` option does not. Lightning
    `Trainer(deterministic=True)` and Hugging Face `full_determinism=True` count.

    Advanced indexing of a parameter with an integer tensor (`table[idx]` where
    `table` is an `nn.Parameter` attribute, a module's `.weight`, or a name bound to
    `nn.Parameter(...)`/a factory with `requires_grad=True`; `idx` visibly an integer
    tensor: `torch.randint`, `argmax`, `.long()`, `torch.tensor` of ints, or a name bound
    to one) is reported in training programs that keep torch on the CPU: its backward
    adds the gradient rows with `index_put_(accumulate=True)`, which the CPU kernel
    runs with parallel atomic float adds. On CUDA the accumulation is sort-based and
    deterministic, so a program that uses CUDA is not told. A boolean mask, an
    `arange`/`unique`/`randperm` index (no repeated row), a plain integer and an
    assignment (`table[idx] = v`) are not reported.

    A method is matched on any receiver in a torch module (`x.index_add_(...)`), except
    `self`, a name bound to an object made outside torch, and a call given fewer
    arguments than the Tensor method needs, with no `*args`: `accelerator.gather(t)` is
    a collective, not `Tensor.gather(dim, index)` (the counts are torch's signatures,
    checked against the real torch). An argument read from `self` in a method
    (`F.interpolate(x, mode=self.mode)`) is what the program's constructor calls pass
    for the parameter `__init__` stores there, or its default where they leave it out.

    Not reported: convolutions and cuDNN RNNs (one finding per program instead:
    RPL302), and catalog entries that depend on facts only the running program knows
    (a sparse operand of `bmm`, an index the source does not show to be a tensor,
    quantized tensors).
    An `index_add_` (or the backward of an `index_select`) whose index visibly repeats
    no value is not reported either: the nonzero positions of a mask squeezed or
    flattened to the 1-D index these ops take (`mask.nonzero().squeeze(-1)`, a
    mixture-of-experts layer adding each expert's tokens back), `torch.unique`,
    `torch.arange`, `torch.randperm`, or a name bound to one in the same function (also
    through the old `Variable(...)` wrapper, which returns the tensor it is given). Each
    element then receives a single atomic add, so the result is the same on every run.
    The same holds for `index_copy_` (a key/value cache written at `arange` positions,
    or a registered buffer written at the positions the function's caller passes,
    `self.k.index_copy_(2, input_pos, k)`): each slot gets one value. Positions computed
    in place (`pos % window`) may repeat and are reported.
    The tuple form `torch.where(mask)[0]` / `nonzero(as_tuple=True)[0]` still counts:
    on a 2-D mask its row indices repeat.
    A `gather` along dim 1/-1 whose index has width 1 is not reported as backward
    nondeterministic: its backward adds one gradient per row. The width is read from the
    index (`i.unsqueeze(1)`, `i.view(-1, 1)`, `i[:, None]`, a result squeezed on `dim`,
    a reduction along `dim` with `keepdim=True` such as `mask.sum(-1, keepdim=True)`,
    one draw per row (`probs.multinomial(num_samples=1)`, `torch.multinomial(probs, 1)`:
    a policy gradient's log-probability of the action it took),
    through casts, `.data` and arithmetic with a number (`(n - 1).unsqueeze(-1)`), also from the
    name such an index was bound to in the same function) or from a replay batch's `actions` field (`data.actions`, `replay_data.actions`):
    Stable-Baselines3's replay buffer, which cleanrl uses too, stores a discrete action
    as a column of width 1 (DQN and discrete SAC take the taken action's Q-value so).
    Nor a `gather`/`scatter` whose index lines along `dim` are parts of permutations:
    the indices of a sort along that axis (`torch.argsort(noise, dim=1)`, `x.sort(dim)[1]`,
    `topk(...).indices`) or `torch.randperm(n)`, through slices that keep every axis,
    casts, `unsqueeze`, `expand` and a `repeat` that leaves that axis alone, also through
    the names they are bound to (MAE's random masking: `torch.gather(x, 1,
    ids_keep.unsqueeze(-1).repeat(1, 1, D))`): each element gets one add.
    Not in a module written for another accelerator: one that imports `torch_npu`
    (Ascend), `torch_mlu` (Cambricon), `habana_frameworks` (Gaudi) or `torch_musa` at
    its top level, outside `try`/`if`, only imports where that device's runtime is, so
    its ops never run on CUDA (`torch_xla` is not one: XLA also runs on GPUs).
    Nor in a plain function of an imported module that no call of the program reaches
    (a helper module's evaluation function that only another script calls): a program
    reaches a function when a call runs it, not when it imports its module. Where some
    program calls it, that program decides (under `no_grad` its backward never runs);
    where none does, it is not reported: a module some entry point imports is program
    code, not library code, even when a library module (one no entry point imports)
    imports it too. Library code is reported per site only in modules no entry point
    imports. A function reached only by being passed on (a callback) is a blind spot of
    this.
    Tensor methods whose names other libraries share (`put`, `scatter`, `cumsum`
    without `dim=`) are matched only when called as `torch.X(...)`.
    Not in DataLoader worker processes (a dataset's `__getitem__` and the transforms it
    calls work on CPU tensors), nor on a branch taken only on another device (`if
    device == "mps":`, `if device.type != "cuda":`, `torch.backends.mps.is_available()`).
    `repeat_interleave` with a Python int for `repeats` (a literal, `len(...)`, integer
    arithmetic of names and attributes holding no tensor, such as `self.num_heads //
    self.num_kv_heads`, a name or `self` attribute bound to one, a parameter annotated
    `int`) is not reported from
    torch 2.1 on: it is computed as an expand and a copy, whose backward is a plain
    sum; with a tensor of repeats (or before 2.1, when integer repeats were turned into
    one) it indexes with `index_select`, whose CUDA backward adds atomically. A
    tensor's sizes (`x.shape[-1]`, `x.size(1)`) are such ints.
    A 3-D max pooling whose windows do not overlap (stride at least the kernel, no
    dilation: `nn.MaxPool3d(2)`) adds at most once into each input element. An op whose
    value its function reaches only through detached values (`F.softmax(ref,
    1).detach()`, `.item()`) gets no gradient back, and one on a parameter times a
    comparison's tensor (`input * (input > 0).float()`) has the gradient the parameter
    has. A layer built straight into an attribute of `self` of a class on `nn.Module`
    alone that no module of the program reads (its use in `forward` commented out,
    then `del model.avgpool`) never runs.

    The project calls through which a program first reaches the op (`y = blur(x)` in
    the entry point for an op in `aug.py`) are its related locations, outermost first.

    ## Why is this bad?
    These ops accumulate with atomic adds (or write the same index from several
    threads), so the floating-point sums come out in a different order on each run:
    the model drifts apart from the first step. Chen et al. (ICSE-SEIP 2022) and Pham
    et al. (ASE 2020) found such implementation-level nondeterminism alone gives
    several percent accuracy difference between identical runs.

    Mitigation: turn deterministic mode on at the entry point; torch then uses a
    deterministic (sometimes slower) kernel for every op of this list.

    ## Example
    ```python
    import torch
    device = torch.device("cuda")
    out = torch.zeros(10, device=device).index_add_(0, idx, src)
    ```

    Use instead:
    ```python
    import torch
    torch.use_deterministic_algorithms(True)
    device = torch.device("cuda")
    out = torch.zeros(10, device=device).index_add_(0, idx, src)
    ```

    ## Fix safety
    No automatic fix here: `reprolint fix` inserts the flag for RPL301, which also
    resolves this finding. Turning the flag on changes the numbers (unsafe).

    ## References
    - https://docs.pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
    - https://pytorch.org/docs/stable/notes/randomness.html
    - Chen et al., ICSE-SEIP 2022
    """

    code = "RPL201"
    message = "`{call}` is nondeterministic on {device}{conditions}{notes} unless `torch.use_deterministic_algorithms(True)` is on, which this program never turns on (torch {version})"
    fix_title = "Call `torch.use_deterministic_algorithms(True)` at the entry point"
    framework = "torch"
    devices = "cuda"

    VALID = [
        Valid("import torch\ntorch.use_deterministic_algorithms(True)\nx = torch.zeros(3).cuda()\nx.index_add_(0, i, s)\n"),
        Valid("import torch\nx = torch.zeros(3)\nx.index_add_(0, i, s)\n"),  # CPU-only program
        Valid("import torch\nx = torch.zeros(3).cuda()\ny = x.index_select(0, i)\n"),  # no training: no backward
        Valid("import torch\nx = torch.zeros(3).cuda()\nx.scatter_(0, i, 1.0)\n"),  # scalar value
        Valid("import numpy as np, torch\ndev = 'cuda'\ny = np.arange(3).cumsum(0)\n"),
        # a CUDA training program: its sites are RPL301's evidence, reported there once
        Valid("import torch\nx = torch.randn(3, 4, device='cuda', requires_grad=True)\n"
              "x.repeat_interleave(counts, dim=0).sum().backward()\n"),
        # integer repeats: an expand and a copy (torch >= 2.1), a plain sum backward
        Valid("import torch\nx = torch.randn(3, 4, device='cuda', requires_grad=True)\n"
              "x.repeat_interleave(2, dim=0).sum().backward()\n"),
        # the parameter lives on the GPU: sort-based, deterministic accumulation
        Valid(
            "import torch, torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.table = nn.Parameter(torch.randn(27, 8))\n"
            "    def forward(self, idx):\n        return self.table[idx.long()]\n"
            "m = M().cuda()\nm(x).sum().backward()\n"
        ),
    ]
    INVALID = [
        Invalid("import torch\nx = torch.zeros(3).cuda()\nx.index_add_(0, i, s)\n", line=3, message="index_add_"),

        Invalid(
            "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "out = torch.scatter_add(torch.zeros(4, device=device), 0, idx, src)\n",
            line=3,
        ),
        Invalid("import torch\nt = torch.zeros(5)\nt.index_put_((i,), v, accumulate=True)\n", line=3, message="CPU"),
        Invalid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--det', action='store_true')\n"
            "args = p.parse_args()\nif args.det:\n    torch.use_deterministic_algorithms(True)\n"
            "x = torch.ones(3).to('cuda')\nx.index_add_(0, i, s)\n",
            line=8,
        ),
        Invalid(
            "import torch\nC = torch.randn(27, 10, requires_grad=True)\nxb = torch.randint(0, 27, (32, 3))\n"
            "loss = C[xb].sum()\nloss.backward()\n",
            line=4, message="`C[xb]` is nondeterministic on CPU in its backward pass",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # A site that RPL301 lists for a program it reaches is said once, there (a demo
        # or test that reaches it too adds nothing to that finding).
        covered = {program.entry for program in without_deterministic_mode(ctx)}
        for found in torch_op_findings(ctx):
            if found.code != self.code:
                continue
            if covered.intersection(found.entry_points):
                continue
            fields = found.fields()
            conditions = " in its backward pass" if fields["backward"] else ""
            yield self.report(
                found.path, found.usage.span, **fields, conditions=conditions,
                entry_points=found.entry_points, related=found.related,
            )
