from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.determinism import program_usages
from reprolint.analysis.program import Role
from reprolint.analysis.usage_events import FlagSet
from reprolint.checks.flags._common import cudnn_disabled
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, node_code
from reprolint.model import Applicability, Diagnostic, Span


class CudnnBenchmark(Rule):
    """
    ## What it does
    Reports `torch.backends.cudnn.benchmark = True`: cuDNN autotuning picks kernels
    per run.

    Also `torch.backends.cudnn.flags(benchmark=True)` and Lightning
    `Trainer(benchmark=True)`. A value taken from an option (`= args.benchmark`) is
    reported when the option's default is true, and so is a value taken from a
    parameter whose default is true (`def training_loop(..., cudnn_benchmark=True):`
    then `cudnn.benchmark = cudnn_benchmark`: what runs when callers leave it alone;
    what callers pass is not followed) or from a module constant; an assignment behind
    a condition that is false with the default options is not. It is reported in programs that can
    run on CUDA, by default or when the user passes an option (`--cuda`, `--device cuda`:
    the same test as RPL301/RPL302; a program that runs torch on the CPU whatever its
    options never runs cuDNN), in library code no program reaches, and for Lightning's
    Trainer (which picks the GPU itself), whether or not the program also sets
    `cudnn.deterministic = True`. Not in a model file's `__main__` self-test that only
    builds, runs and prints shapes (no result of it shows which kernel ran).

    ## Why is this bad?
    With benchmarking on, cuDNN times several convolution algorithms on the first
    batches and keeps the fastest. Timings vary between runs and machines, so
    different runs pick different algorithms, which round differently (and some of
    which are nondeterministic themselves): runs drift apart even with every seed set
    and `cudnn.deterministic = True`. Pham et al. list cuDNN autotuning among the
    implementation-level sources of variance.

    Mitigation: `torch.backends.cudnn.benchmark = False` (the default) for runs that
    must be reproducible; keep autotuning for throughput-only runs behind an option
    that defaults off.

    ## Example
    ```python
    import torch
    torch.backends.cudnn.benchmark = True
    ```

    Use instead:
    ```python
    import torch
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True
    ```

    ## Fix safety
    Unsafe: `benchmark = True` becomes `False` (`Trainer(benchmark=True)` and
    `cudnn.flags(benchmark=True)` get `benchmark=False`; no fix where the Trainer's
    `benchmark` comes from a `**mapping`, since giving the keyword again raises
    `TypeError`: set it to false in the mapping). The program's meaning is kept
    but the kernels change, so the numbers change slightly and training may be slower.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html#cuda-convolution-benchmarking
    - Pham et al., ASE 2020
    """

    code = "RPL203"
    message = "`{setting}` lets cuDNN autotuning pick convolution kernels per run, so runs differ"
    messages = {
        "default": (
            "`{setting}` turns cuDNN autotuning on (`{name}` is true by default): kernels are "
            "picked per run, so runs differ"
        ),
        "option": (
            "`{target}` follows {follows}, which is {state} by default: cuDNN autotuning picks "
            "convolution kernels per run, so runs differ"
        ),
        "spread": (
            "`{setting}` turns cuDNN autotuning on (`benchmark` is true in `{spread}`): kernels "
            "are picked per run, so runs differ"
        ),
    }
    fix_title = "Set `torch.backends.cudnn.benchmark = False`"
    fix_applicability = Applicability.UNSAFE
    framework = "torch"
    devices = "cuda"

    VALID = [
        Valid("import torch\ntorch.backends.cudnn.benchmark = False\n"),
        Valid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--fast', action='store_true')\n"
            "args = p.parse_args()\nif args.fast:\n    torch.backends.cudnn.benchmark = True\n"
        ),
        Valid("import lightning as L\ntrainer = L.Trainer(benchmark=False, deterministic=True)\n"),
        Valid(
            "import torch\n\ndef training_loop(rank=0, benchmark=False):\n"
            "    device = torch.device('cuda', rank)\n    torch.backends.cudnn.benchmark = benchmark\n\n"
            "if __name__ == '__main__':\n    training_loop()\n"
        ),
        # The program runs on the CPU by default: cuDNN never runs.
        Valid(
            "import torch\ntorch.backends.cudnn.benchmark = True\nnet = torch.nn.Conv2d(3, 8, 3)\n\n"
            "if __name__ == '__main__':\n    print(net(torch.zeros(1, 3, 8, 8)))\n"
        ),
    ]
    INVALID = [
        Invalid("import torch\ntorch.backends.cudnn.benchmark = True\nx = torch.zeros(2).cuda()\n", line=2,
            fixed=(
                'import torch\ntorch.backends.cudnn.benchmark = False\nx = torch.zeros(2).cuda()\n'
            ),
        ),
        Invalid(
            "import torch\nfrom torch.backends import cudnn\ncudnn.benchmark = True\n"
            "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n",
            line=3, message="`cudnn.benchmark = True` lets",  # quoted as written
        ),
        Invalid("import pytorch_lightning as pl\ntrainer = pl.Trainer(max_epochs=3, benchmark=True)\n", line=2),
        # From an option: the message names the option and its default, not a literal.
        Invalid(
            "import argparse, torch\nfrom torch.backends import cudnn\np = argparse.ArgumentParser()\n"
            "p.add_argument('--deterministic', action='store_true')\nargs = p.parse_args()\n"
            "cudnn.benchmark = not args.deterministic\nm = torch.nn.Conv2d(3, 3, 3).cuda()\n",
            line=6, message="`cudnn.benchmark` follows the opposite of `--deterministic`, which is off by default",
        ),
        # From a mapping spread into the Trainer: the message quotes the call as written.
        Invalid(
            "import lightning as L\ncfg = {'max_epochs': 3, 'benchmark': True}\ntrainer = L.Trainer(**cfg)\n",
            line=3, message="`L.Trainer(**cfg)` turns cuDNN autotuning on (`benchmark` is true in `cfg`)",
        ),
        # From a parameter whose default turns autotuning on.
        Invalid(
            "import torch\n\ndef training_loop(rank=0, cudnn_benchmark=True):\n"
            "    device = torch.device('cuda', rank)\n    torch.backends.cudnn.benchmark = cudnn_benchmark\n\n"
            "if __name__ == '__main__':\n    training_loop()\n",
            line=5, message="(`cudnn_benchmark` is true by default)",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # A program that runs torch on the CPU by default never runs cuDNN (the RPL3xx
        # rules use the same notion); a library module no program reaches may run
        # anywhere, and Lightning's Trainer picks the GPU itself.
        found: dict[tuple[str, Span], tuple[FlagSet, list[str], Any]] = {}
        for program in program_usages(ctx):
            for _, path, usage in program.of(FlagSet, "cudnn.benchmark"):
                if program.value(usage) is not True:
                    continue
                trainer = usage.text.endswith("Trainer")
                if not (trainer or program.is_library or program.can_use_cuda) or cudnn_disabled(program):
                    continue  # on the CPU, or cuDNN turned off (`cudnn.enabled = False`)
                if not program.is_library and program.role is Role.DEMO and program.self_test:
                    continue  # a model file's self-test printing shapes: no kernel choice shows
                found.setdefault((path, usage.span), (usage, [], program))[1].extend(program.entry_points)
        for (path, span), (usage, entries, program) in found.items():
            trainer = usage.text.endswith("Trainer")
            source = usage.default_of if not trainer else None
            if source is not None:  # `cudnn.benchmark = cudnn_benchmark` (a parameter or constant)
                yield self.report(path, span, variant="default", name=source,
                                  setting=f"{usage.text} = {source}", entry_points=entries)
                continue
            if trainer and usage.spread is not None:  # `L.Trainer(**trainer_cfg)`
                yield self.report(path, span, variant="spread", setting=f"{usage.text}(**{usage.spread})",
                                  spread=usage.spread, entry_points=entries)
                continue
            if not trainer and usage.ref is not None:  # `cudnn.benchmark = not args.deterministic`
                # the first program that runs it decides the default (the value was true there)
                flag = program.option_name(usage.ref.name)
                value = program.lookup(usage.ref.name)
                yield self.report(
                    path, span, variant="option", target=usage.text, setting=f"{usage.text} = ...",
                    follows=f"the opposite of {flag}" if usage.ref.negated else flag,
                    state="on" if value else "off", option=usage.ref.name, entry_points=entries,
                )
                continue
            # quoted as written (`cudnn.benchmark = True` after `from torch.backends import cudnn`)
            if trainer or usage.text.endswith("flags"):  # a call: `cudnn.flags(benchmark=True)`
                setting = f"{usage.text.rsplit('.', 1)[-1] if trainer else usage.text}(benchmark=True)"
            else:
                setting = f"{usage.text} = True"
            yield self.report(path, span, setting=setting, entry_points=entries)


# ----------------------------------------------------------------------------- fix


@CudnnBenchmark.fix_planner
def _plan_cudnn_benchmark(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    module = planner.module(d.path)
    if module is None:
        return None

    if data_field(d, "spread") is not None:
        return None

    def apply(m: cst.Module) -> cst.Module:
        call = fixes.find_node(m, d.span, (cst.Call,))
        if call is not None:  # `Trainer(benchmark=True)`, `cudnn.flags(benchmark=True)`
            return fixes.replace_nodes(m, {id(call.node): lambda c: fixes.add_keyword(
                c, "benchmark", cst.Name("False"), replace=True)})  # type: ignore[arg-type]
        located = fixes.find_node(m, d.span, (cst.Attribute,))
        statement = located.statement() if located is not None else None
        if located is None or not isinstance(statement, cst.SimpleStatementLine):
            return m
        target = node_code(located.node)
        return fixes.replace_nodes(
            m, {id(statement): lambda s: fixes.set_assignment_value(s, cst.Name("False"), target)}  # type: ignore[arg-type]
        )

    return FixAction(d.path, ("benchmark", d.span), planner.applicability(d.code),
                   "Turn cuDNN autotuning off", apply)


@CudnnBenchmark.fix_prechecker
def _fix_available(planner: FixPlanner, d: Diagnostic) -> Optional[bool]:
    # The setting is rewritten where it is reported; not where a `**mapping` gives it:
    # `Trainer(**cfg, benchmark=False)` raises TypeError (the keyword given twice).
    return data_field(d, "spread") is None
