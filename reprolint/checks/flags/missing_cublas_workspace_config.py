from __future__ import annotations

from typing import Any, Iterator, Optional

from reprolint.analysis.determinism import program_torch, program_usages
from reprolint.analysis.usage_events import EnvSet, FlagSet, TrainStep
from reprolint.catalog.ops import load_cublas
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.determinism import determinism_available, determinism_level, plan_determinism
from reprolint.model import Applicability, Related


class MissingCublasWorkspaceConfig(Rule):
    """
    ## What it does
    Reports deterministic mode without `CUBLAS_WORKSPACE_CONFIG` set before cuBLAS
    starts (required up to torch 2.9, advisory later).

    It looks at programs that use CUDA, by default or when the user passes an option
    (see RPL301), and call
    `torch.use_deterministic_algorithms(True)` themselves (or
    `accelerate.utils.set_seed(..., deterministic=True)`), and at how the variable is
    set in the code: `os.environ["CUBLAS_WORKSPACE_CONFIG"] = ...`,
    `os.environ.setdefault(...)`, `os.environ.update(...)` or `os.putenv(...)`, with
    `:4096:8` or `:16:8` (a value that is not a literal is trusted). It is reported at
    the deterministic-mode call when the variable is never set, set to another value,
    or set only after cuBLAS can have started: after the program's first training step
    (a forward and backward on CUDA), or, in a program with no training step, after
    the first line that puts work on the GPU. Moving a model to the GPU or selecting
    a device calls no cuBLAS routine, so a variable set after those lines and before
    training is in time. Lightning
    `Trainer(deterministic=True)` and Hugging Face full determinism set it themselves
    and are not reported.

    Version-aware, from the catalog's `[cublas]` table: for torch up to 2.9 (the
    `torch-version` setting, else the torch the program's project declares, named in the
    message with where it is declared, else the installed torch, else the newest
    catalogued) the message says cuBLAS calls raise; from torch 2.10 on, where PyTorch gives each
    handle its own workspace and no longer needs it, the finding is advisory (code
    that also runs on older torch still needs it).

    Blind spot: a variable exported by a launch script or the shell is not seen.

    ## Why is this bad?
    With CUDA >= 10.2, cuBLAS picks reduction strategies per stream unless its
    workspace is fixed; under deterministic mode torch up to 2.9 therefore raises
    `RuntimeError: Deterministic behavior was enabled ... but this operation is not
    deterministic because it uses CuBLAS` at the first `mm`/`bmm`/`Linear`. cuBLAS
    reads the variable when its first call creates a handle (and torch sizes its
    workspaces then), so setting it after cuBLAS work has run has no effect.

    Mitigation: set the variable before anything touches CUDA, at the top of the entry
    point (`os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")`) or in the
    launch environment.

    ## Example
    ```python
    import torch
    model = Net().cuda()
    torch.use_deterministic_algorithms(True)
    ```

    Use instead:
    ```python
    import os
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    import torch
    torch.use_deterministic_algorithms(True)
    model = Net().cuda()
    ```

    ## Fix safety
    Safe where no op without a deterministic implementation (RPL202) runs, as for RPL301
    (the switches go in together): the variable fixes cuBLAS's workspace layout, one of
    the layouts a run could already get; `:4096:8` costs about 24 MiB of GPU memory.
    Unsafe where such an op runs. The fix depends on `fix-style`: `hooks` inserts
    `reprolint.runtime.install(seed=...)` at the entry point (it turns on every
    determinism switch as torch/TensorFlow is imported, and seeds them), `inline`
    inserts the plain statements right after the entry point's imports, before any
    statement can start CUDA, once per program (RPL301-RPL303 share one block:
    `os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")`,
    `torch.use_deterministic_algorithms(True)`, `torch.backends.cudnn.deterministic =
    True`, `torch.backends.cudnn.benchmark = False`). A value the program sets to
    something else is not changed (no fix).

    ## References
    - https://docs.nvidia.com/cuda/cublas/index.html#results-reproducibility
    - https://docs.pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
    - https://github.com/pytorch/pytorch/pull/161749
    """

    code = "RPL303"
    message = "`{call}` turns on deterministic mode but `CUBLAS_WORKSPACE_CONFIG` is {problem}: {consequence}"
    fix_title = "Set `CUBLAS_WORKSPACE_CONFIG=:4096:8` before CUDA starts"
    fix_applicability = Applicability.SAFE
    framework = "torch"
    devices = "cuda"

    VALID = [
        Valid(
            "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\nimport torch\n"
            "torch.use_deterministic_algorithms(True)\nmodel = torch.nn.Linear(2, 2).cuda()\n"
        ),
        Valid("import torch\ntorch.use_deterministic_algorithms(True)\nmodel = torch.nn.Linear(2, 2)\n"),  # CPU
        Valid(
            "import os, torch\nos.environ.setdefault('CUBLAS_WORKSPACE_CONFIG', ':16:8')\n"
            "torch.use_deterministic_algorithms(mode=True)\ndevice = torch.device('cuda')\n"
        ),
        Valid(  # after the GPU is selected, before any cuBLAS call: in time
            "import os, torch\ndevice = torch.device('cuda')\nmodel = torch.nn.Linear(2, 2).to(device)\n"
            "torch.use_deterministic_algorithms(True)\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n"
            "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor x in torch.randn(4, 2, device=device):\n"
            "    model(x).sum().backward()\n    opt.step()\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import torch\ntorch.use_deterministic_algorithms(True)\nmodel = torch.nn.Linear(2, 2).cuda()\n",
            line=2, message="never set",
            fixed=(
                'import torch\nimport reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n'
                '\ntorch.use_deterministic_algorithms(True)\n'
                'model = torch.nn.Linear(2, 2).cuda()\n'
            ),
        ),
        Invalid(
            "import os, torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"
            "os.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\ntorch.use_deterministic_algorithms(True)\n",
            line=4, message="after",
        ),
        Invalid(  # set between two trainings: the first one has started cuBLAS
            "import os, torch\ntorch.use_deterministic_algorithms(True)\nmodel = torch.nn.Linear(2, 2).cuda()\n"
            "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(torch.randn(2, device='cuda')).sum().backward()\n"
            "opt.step()\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n",
            line=2, message="after training has started",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        facts = load_cublas()
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            asked = program.cuda_when_asked()  # CUDA by default or when the user asks
            if asked is None:
                continue
            cuda = asked[0]
            det = None
            for position, path, usage in program.of(FlagSet, "torch.deterministic"):
                if program.value(usage) is not False:
                    det = (position, path, usage)
                    break
            if det is None:
                continue
            started = _cublas_started(program, cuda)
            related: list[Related] = []
            problem, kind, value = "never set", "unset", None
            for position, _, env in program.of(EnvSet, facts.env):
                if env.value is not None and env.value not in facts.accepted:
                    problem = f"set to `{env.value}`, not one of {', '.join(f'`{v}`' for v in facts.accepted)}"
                    kind, value = "wrong-value", env.value
                    continue
                if position > started[0]:
                    problem = f"set only after {started[1]}, and cuBLAS reads it once, at its first call"
                    kind, value = "late", env.value
                    related = [started[2]] if started[2] is not None else []
                    continue
                problem = ""
                break
            if not problem:
                continue
            # the torch this program runs on: the setting, its project's declaration...
            version, phrase, assumed = program_torch(ctx, program.entry)
            required = facts.required_for(version)
            if required:
                consequence = (
                    f"{phrase} raises RuntimeError at the first cuBLAS call "
                    "(`mm`, `bmm`, `nn.Linear`) under deterministic mode with CUDA >= 10.2"
                )
            else:
                until = facts.required_until
                last = f"{until[0]}.{until[1] - 1}" if until is not None and until[1] > 0 else "older releases"
                consequence = (
                    f"advisory with {phrase.rstrip(',')}, which no longer needs it, but torch <= {last} "
                    "raises RuntimeError at the first cuBLAS call without it"
                )
            _, path, usage = det
            if (path, usage.span) in seen:
                continue
            seen.add((path, usage.span))
            # ``problem_kind``: "unset", "wrong-value" (``value`` holds it) or "late".
            yield self.report(
                path, usage.span, call=usage.text, problem=problem, consequence=consequence,
                problem_kind=kind, value=value, required=required, entry_points=program.entry_points,
                version=assumed, related=related,
            )


def _cublas_started(program: Any, cuda: Any) -> tuple[int, str, Optional[Related]]:
    """The position from which cuBLAS may have run, what runs there, and that place:
    the first training step (a forward and backward), else the first line that puts
    work on CUDA. Building an optimizer calls no cuBLAS routine."""
    for step in program.of(TrainStep, "torch"):
        if not step.usage.builds_optimizer:
            span = step.usage.span
            where = Related(step.path, span, "training runs here, and with it cuBLAS, before the variable is set")
            return step.position, f"training has started ({step.path}:{span.start_line})", where
    return cuda.position, "CUDA has started", None


# ----------------------------------------------------------------------------- fix

MissingCublasWorkspaceConfig.fix_planner(plan_determinism)
MissingCublasWorkspaceConfig.fix_prechecker(determinism_available)
MissingCublasWorkspaceConfig.fix_leveller(determinism_level)
