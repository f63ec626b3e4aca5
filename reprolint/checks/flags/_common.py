"""What the determinism-flag rules share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, Optional

from reprolint.analysis.usage_events import FlagSet, HeadOnlyOptimizer, TrainStep

if TYPE_CHECKING:
    from reprolint.analysis.program import Program
    from reprolint.analysis.usage_events import CudaWork
    from reprolint.checks.base import Finding, Rule


def report_per_cuda_site(rule: Rule, programs: Iterable[Program], switch: Optional[str] = None) -> Iterator[Finding]:
    """One finding of ``rule`` per CUDA site (the first line that puts a program's torch
    work on the GPU by default, else the first one an option selects: the message says
    which, `.cuda()` when run with `--cuda`), naming every program that reaches it: a
    shared `dist_util.dev()` is one problem of each training script. Programs that run
    torch on the CPU whatever their options are passed over. ``switch``: the FlagSet the
    rule is about; one the program sets only under a condition its defaults make false
    (``if args.deterministic:``) gives the ``set_only`` variant, which names the condition
    and points at the setting; a program that sets it wherever asking for CUDA leads
    (both under ``if args.use_gpu:``) is passed over."""
    from reprolint.analysis.usage_events import FlagSet
    from reprolint.checks.base import Related

    if switch:
        # `if use_gpu: cudnn.deterministic = True; device = "cuda"`: asking for CUDA sets it
        programs = [p for p in programs if not p.set_whenever_cuda_is_asked(FlagSet, switch)]
    for path, usage, asked, group in cuda_sites(programs):
        entries = list(dict.fromkeys(e for p in group for e in p.entry_points))
        roles = {p.entry: p.role.value for p in group}
        what = usage.name if asked is None else f"{usage.name} when run with {asked}"
        only = next((s for s in (p.set_only_when(FlagSet, switch) for p in group) if s), None) if switch else None
        extra: dict = {}
        if only is not None:
            extra = {
                "variant": "set_only", "condition": only[2],
                "related": [Related(only[0], only[1].span, f"set here only when `{only[2]}`")],
            }
        yield rule.report(
            path, usage.span, what=what, roles=roles, entry_points=entries,
            **({"cuda_option": asked.strip("`")} if asked else {}), **extra,
        )


def cuda_sites(programs: Iterable[Program]) -> list[tuple[str, CudaWork, Optional[str], list[Program]]]:
    """The programs grouped by CUDA site: (path, the usage, how to ask for it when an
    option selects it, the programs), in first-seen order. Programs that run torch on the
    CPU whatever their options are left out."""
    sites: dict[tuple[str, object], tuple[str, CudaWork, Optional[str], list[Program]]] = {}
    for program in programs:
        found = program.cuda_when_asked()
        if found is None:
            continue
        (_, path, usage), asked = found
        sites.setdefault((path, usage.span), (path, usage, asked, []))[3].append(program)
    return list(sites.values())


def cudnn_disabled(program: Program) -> bool:
    """The default run turns cuDNN off (``torch.backends.cudnn.enabled = False``, an
    option whose default is false: ``= args.enable_cudnn`` with ``store_true``) and never
    back on: torch runs its own convolution kernels, and cuDNN's switches decide nothing."""
    values = [program.value(usage) for _, _, usage in program.of(FlagSet, "cudnn.enabled")]
    return bool(values) and all(value is False for value in values)


def trains_head_only(program: Program) -> bool:
    """Linear probing (analysis/head_only.py): the default run builds an optimizer given
    only the head of a model frozen but for it, and no other optimizer, so no layer
    before the head trains and no backward kernel of theirs runs."""
    heads = {(path, usage.span) for _, path, usage in program.of(HeadOnlyOptimizer)}
    return bool(heads) and all(
        (path, usage.span) in heads for _, path, usage in program.of(TrainStep) if usage.builds_optimizer
    )
