from __future__ import annotations

from typing import Iterator

from reprolint.analysis.usage_events import FlagSet
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.flags._common import cuda_sites
from reprolint.checks.ops._ops import (
    OpFinding, call_text, nondeterministic_kernels, without_deterministic_mode,
)
from reprolint.fixes.determinism import determinism_available, determinism_level, plan_determinism
from reprolint.model import Applicability, Related


class MissingDeterministicAlgorithms(Rule):
    """
    ## What it does
    Reports a torch training program on CUDA that trains through an op whose CUDA
    kernel is nondeterministic unless `torch.use_deterministic_algorithms(True)` is on,
    and never turns it on (with its default options).

    The ops are those RPL201 describes (the catalog's "deterministic with the flag"
    entries: `index_add_`, `scatter_add_`, `gather` and `index_select` backward,
    `scaled_dot_product_attention` backward, `cumsum`, ...), with the same argument
    semantics (a visibly unique index such as the indices of `topk` or `sort`, integer
    repeats, no gradient flowing, a buffer input, also a helper's parameter that every
    call passes a buffer, a tensor on the CPU (a factory called without `device=`, or
    moved with `.cpu()`), do not count), reached on the program's path in its own code. Ops that raise
    under deterministic mode are RPL202's, reported where they are (the flag alone
    would make the program fail there). The finding is
    one per program: it names the first such op and lists every one as a related
    location, and RPL201 no longer reports those sites one by one (ops that run under
    `torch.no_grad()` or `inference_mode()`, such as sampling for a validation sample,
    are named after those of the training step, and ops that run only where a caller
    passes a parameter other than its default, `if lens is not None:`, after those that
    run with every default). Ops that run only inside `@torch.no_grad()` methods (and
    their callees) that no call runs with grad, such as a top-k sampler whose image is
    logged every 100 steps, are no evidence: nothing the training computes goes through
    them (targets computed in a `with torch.no_grad():` block of the training step are). A CUDA training
    program with none of them (linear layers, convolutions, whose determinism is
    RPL302's) is not reported: in one stream its kernels give the same numbers on every
    run. When the program turns the flag on only under an option that is off by default
    (`if args.deterministic:` with `store_true`), the message says so.

    Only training programs (see "How the program model works": not tests, demos or
    evaluation scripts) that train with torch (`.backward()`, a `torch.optim` optimizer,
    `torch.autograd.grad`) and use CUDA are reported; a CPU-only program is not. What
    counts as using CUDA: `.cuda()`, `.to("cuda")`, `torch.device("cuda" ...)` (also
    `"cuda" if torch.cuda.is_available() else "cpu"`), a `device="cuda"` argument, a
    variable or option default set to `"cuda"`, `torch.cuda.set_device`/`amp`/
    `synchronize`, `init_process_group("nccl")`, `DistributedDataParallel(device_ids=)`,
    `accelerate.Accelerator()`, Lightning `Trainer`/`Fabric` and Hugging Face
    `TrainingArguments`/`Trainer` unless told to use the CPU. A program that runs on
    CUDA only when the user passes an option counts too, and the message names it
    (`if args.cuda: model.cuda()` with `store_true`: "when run with `--cuda`"; a
    `--device` option whose default is `"cpu"`: "when run with `--device cuda`"; `if
    args.gpu is not None:`: "`--gpu ...`"). Option defaults are read as argparse sets
    them: `store_true`/`store_false`, `BooleanOptionalAction`, `set_defaults(...)`
    (which overrides the argument's own), a string default passed through `type=`
    (`type=str2bool, default="False"` is false, `type=bool` makes any non-empty string
    true), and dataclass fields with `field(default=...)` (read by `HfArgumentParser`).

    Device selection seen on real training code counts too: an option whose default is
    CUDA (`parser.add_argument("--device", default="cuda")` then
    `torch.device(args.device)`, as in DETR, DeiT and ConvNeXt: reported at the option),
    `torch.device(f"cuda:{rank}")` and `"cuda:0"` strings, the accelerator API of torch
    >= 2.6 (`torch.accelerator.current_accelerator()`, `set_device_index`), a model
    loaded with `device_map=` (anything but `"cpu"`), and helpers in the project that
    return such a device (`dist_util.dev()`), reached through the call.

    The finding is reported once per program, at the first line that selects the GPU
    in execution order (programs that share that line share one finding). Accepted ways of turning the flag on: the call (positional or
    `mode=True`, `warn_only=True` included: deterministic kernels are still used, only
    the ops without one warn instead of raising — see RPL202),
    `torch.set_deterministic_debug_mode("error"/"warn")`,
    `accelerate.utils.set_seed(..., deterministic=True)` and
    `transformers.enable_full_determinism`. A value from an option counts when the
    option's default is true. Programs whose loop is run by Lightning's or Hugging
    Face's `Trainer` are left to RPL306 (`Trainer(deterministic=True)`,
    `full_determinism=True`).

    Spawned workers: the flag set only in the parent (its `__main__` block or the
    function that spawns) does not reach workers started by
    `torch.multiprocessing.spawn(worker, ...)` (or a `Process` with the `spawn` start
    method), which are fresh interpreters. When such a worker trains on CUDA and does
    not set it itself, it is reported at the spawn, naming the parent's setting (no fix:
    the setting belongs inside the worker).

    After the ops, the project calls through which the program reaches them are related
    locations too (`y = blur(x)` in the entry point for an op in `aug.py`).

    ## Why is this bad?
    Without the flag torch runs these ops with kernels that accumulate with atomic adds
    (`index_add_`, scatter, gather and attention backward passes), so seeded runs still
    diverge from the first step that uses them. Chen et al. (ICSE-SEIP 2022) needed
    deterministic kernels to reproduce every model they trained.

    Mitigation: call `torch.use_deterministic_algorithms(True)` at the start of the
    entry point (with `CUBLAS_WORKSPACE_CONFIG`, see RPL303), and fix what then raises
    (RPL202). Expect some slowdown (Chen et al. measured +24% to +112%).

    ## Example
    ```python
    import torch
    device = torch.device("cuda")
    table = torch.zeros(100, 8, device=device, requires_grad=True)
    loss = table.index_select(0, idx).sum()  # backward: index_add_ with atomics
    loss.backward()
    ```

    Use instead:
    ```python
    import os, torch
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True)
    device = torch.device("cuda")
    table = torch.zeros(100, 8, device=device, requires_grad=True)
    loss = table.index_select(0, idx).sum()
    loss.backward()
    ```

    ## Fix safety
    Safe where no op without a deterministic implementation (RPL202) runs in the
    program: deterministic kernels give one of the results the program could already
    produce. Unsafe where one runs (or the program uses TensorFlow): deterministic mode
    makes it raise. The fix depends on `fix-style`: `hooks` inserts
    `reprolint.runtime.install(seed=...)` at the entry point (it turns on every
    determinism switch as torch/TensorFlow is imported, and seeds them), `inline`
    inserts the plain statements right after the entry point's imports, before any
    statement can start CUDA, once per program (RPL301-RPL303 share one block:
    `os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")`,
    `torch.use_deterministic_algorithms(True)`, `torch.backends.cudnn.deterministic =
    True`, `torch.backends.cudnn.benchmark = False`). A program that calls
    `torch.use_deterministic_algorithms(False)` itself is left to its author (no fix).

    ## References
    - https://docs.pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
    - https://pytorch.org/docs/stable/notes/randomness.html
    - Chen et al., ICSE-SEIP 2022
    """

    code = "RPL301"
    message = (
        "this torch training program selects CUDA ({what}) and trains through {kernels}, "
        "nondeterministic on CUDA, but never calls `torch.use_deterministic_algorithms(True)`"
    )
    messages = {
        "set_only": (
            "this torch training program selects CUDA ({what}) and trains through {kernels}, "
            "nondeterministic on CUDA; it calls `torch.use_deterministic_algorithms(True)` "
            "only when `{condition}`, which is false with the default options"
        ),
        "spawn": (
            "`{call}` runs `{worker}` in fresh processes, which the parent's `{setting}` "
            "(line {flag_line}) does not reach: `{worker}` trains without deterministic "
            "algorithms there"
        ),
    }
    fix_title = "Call `torch.use_deterministic_algorithms(True)` at the entry point"
    fix_applicability = Applicability.SAFE
    framework = "torch"
    devices = "cuda"

    VALID = [
        Valid("import torch\nmodel = torch.nn.Linear(2, 1)\nloss = model(x).sum()\nloss.backward()\ntorch.manual_seed(0)\n"),
        Valid(
            "import torch\ntorch.use_deterministic_algorithms(True, warn_only=True)\n"
            "model = torch.nn.Linear(2, 1).cuda()\nmodel(x).sum().backward()\n"
        ),
        Valid("import torch\nmodel = torch.nn.Linear(2, 1).cuda()\nprint(model(x))\n"),  # no training
        # trains on CUDA through linear layers only: no kernel the flag would replace
        Valid(
            "import torch\nmodel = torch.nn.Linear(2, 1).cuda()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            "model(x).sum().backward()\nopt.step()\n"
        ),
    ]
    INVALID = [
        # Flags set in the parent do not reach a spawned worker (a fresh interpreter).
        Invalid(
            "import torch\nimport torch.multiprocessing as mp\n\ndef worker(rank):\n"
            "    net = torch.nn.Conv2d(3, 8, 3).cuda(rank)\n"
            "    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
            "    net(torch.zeros(1, 3, 8, 8).cuda(rank)).sum().backward()\n    opt.step()\n\n"
            "if __name__ == '__main__':\n    torch.use_deterministic_algorithms(True)\n"
            "    torch.backends.cudnn.deterministic = True\n    mp.spawn(worker, nprocs=2)\n",
            line=13, message="does not reach",
        ),
        Invalid(
            "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "model = torch.nn.Linear(2, 1).to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            "out = torch.zeros(4, 1, device=device).index_add_(0, idx, model(x))\nout.sum().backward()\n",
            line=2, message="index_add_",
            fixed=(
                'import torch\nimport reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n'
                "\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
                'model = torch.nn.Linear(2, 1).to(device)\n'
                'opt = torch.optim.SGD(model.parameters(), lr=0.1)\n'
                'out = torch.zeros(4, 1, device=device).index_add_(0, idx, model(x))\nout.sum().backward()\n'
            ),
        ),
        Invalid(
            "import torch\nimport torch.nn.functional as F\ntorch.use_deterministic_algorithms(False)\n"
            "model = torch.nn.Linear(8, 8).cuda()\nq = model(x)\n"
            "F.scaled_dot_product_attention(q, q, q).sum().backward()\n",
            line=4, message="backward",
        ),
        Invalid(  # tensor repeats: index_select, whose CUDA backward adds atomically
            "import torch\nx = torch.randn(3, 4, device='cuda', requires_grad=True)\n"
            "x.repeat_interleave(counts, dim=0).sum().backward()\n",
            line=2, message="repeat_interleave",
        ),
        # the flag behind an option that is off by default: said so, not "never"
        Invalid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--det', action='store_true')\n"
            "args = p.parse_args()\nif args.det:\n    torch.use_deterministic_algorithms(True)\n"
            "emb = torch.randn(10, 4, device='cuda', requires_grad=True)\n"
            "emb.index_select(0, idx).sum().backward()\n",
            line=7, message="only when `args.det`",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # One finding per CUDA site (the programs that share it share the finding), with
        # the kernels of all of them as evidence.
        for path, usage, asked, group in cuda_sites(without_deterministic_mode(ctx)):
            kernels: dict[tuple[str, object], OpFinding] = {}
            for program in group:
                for found in nondeterministic_kernels(ctx, program.entry):
                    kernels.setdefault((found.path, found.usage.span), found)
            # those on the training path first, then those that run with every default
            # (not only where a caller passes a parameter: `if lens is not None:`), and of
            # them those whose input this body makes before those on a parameter its
            # callers pass (whether a gradient flows there is the callers' business: a
            # batch passed in has none); execution order within each
            ops = sorted((k for k in kernels.values() if not k.inference_only), key=lambda k: (
                k.no_grad, k.maybe, any(fact.startswith("param-input:") for fact in k.usage.facts),
            ))
            if not ops:
                # only ops of `@torch.no_grad()` methods no training step calls (a sample
                # logged every 100 steps): nothing the training computes goes through them
                continue
            switch = next(
                (s for s in (p.set_only_when(FlagSet, "torch.deterministic") for p in group) if s), None
            )
            entries = list(dict.fromkeys(e for p in group for e in p.entry_points))
            yield self.report(
                path, usage.span,
                what=usage.name if asked is None else f"{usage.name} when run with {asked}",
                **({"cuda_option": asked.strip("`")} if asked else {}),
                kernels=kernel_list(ops), condition=switch[2] if switch else None,
                variant="set_only" if switch else None,
                roles={p.entry: p.role.value for p in group}, entry_points=entries,
                related=[
                    *(Related(k.path, k.usage.span, f"`{call_text(k.usage)}` runs a kernel that is "
                              f"nondeterministic on CUDA{' in its backward pass' if k.match.entry.backward_only else ''}")
                      for k in ops),
                    # then the project calls through which the program reaches them
                    *{(r.path, r.span): r for k in ops for r in k.related}.values(),
                ],
            )
        # flags set only in a parent that spawns its training workers (analysis/calls/spawn.py)
        for path, facts in ctx.facts.items():
            yield from (self.report(path, f.span, **f.data) for f in facts.findings if f.code == self.code)


def kernel_list(ops: list[OpFinding]) -> str:
    """The evidence as the message names it: the first op, and how many more."""
    first = ops[0]
    backward = "'s backward" if first.match.entry.backward_only else ""
    text = f"`{call_text(first.usage)}`{backward} ({first.path}:{first.usage.span.start_line})"
    more = len(ops) - 1
    return text if not more else f"{text} and {more} more op{'s' if more > 1 else ''}"


# ----------------------------------------------------------------------------- fix

MissingDeterministicAlgorithms.fix_planner(plan_determinism)
MissingDeterministicAlgorithms.fix_prechecker(determinism_available)
MissingDeterministicAlgorithms.fix_leveller(determinism_level)
