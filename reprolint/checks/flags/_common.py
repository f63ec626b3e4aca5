"""What the determinism-flag rules share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

if TYPE_CHECKING:
    from reprolint.analysis.program import Program
    from reprolint.analysis.usage_events import CudaWork
    from reprolint.checks.base import Finding, Rule


def report_per_cuda_site(rule: Rule, programs: Iterable[Program]) -> Iterator[Finding]:
    """One finding of ``rule`` per CUDA site (the first line that puts a program's torch
    work on the GPU by default), naming every program that reaches it: a shared
    `dist_util.dev()` is one problem of each training script. Programs that run torch
    on the CPU by default are passed over."""
    sites: dict[tuple[str, object], tuple[str, CudaWork, list[Program]]] = {}
    for program in programs:
        cuda = program.cuda
        if cuda is None:
            continue
        path, usage = cuda
        sites.setdefault((path, usage.span), (path, usage, []))[2].append(program)
    for path, usage, group in sites.values():
        entries = list(dict.fromkeys(e for p in group for e in p.entry_points))
        roles = {p.entry: p.role.value for p in group}
        yield rule.report(path, usage.span, what=usage.name, roles=roles, entry_points=entries)
