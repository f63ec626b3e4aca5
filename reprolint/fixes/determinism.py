"""The determinism switches at a program's entry point: what RPL301-RPL304 plan.

``hooks``: ``reprolint.runtime.install()`` (it turns every switch on as the library is
imported). ``inline``: the plain statements right after the imports.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint import fixes
from reprolint.fixes.planning import FixAction, FixPlanner, binding, data_field, together
from reprolint.fixes.seeding import ensure_install
from reprolint.analysis.usage_events import EnvSet, FlagSet
from reprolint.model import Applicability, Diagnostic

CUBLAS_WORKSPACE_CONFIG = ":4096:8"  # reprolint.runtime's choice (see _determinism.py)


def usage_program(planner: FixPlanner, d: Diagnostic, kinds: Optional[tuple[type, ...]] = None) -> Optional[tuple[Any, Any]]:
    """(ProgramUsage, Usage) of the program event a finding was reported at (``kinds``:
    one of these event classes)."""
    from reprolint.analysis.determinism import program_usages

    for program in program_usages(planner.ctx):
        if program.is_library and kinds is None:
            continue
        for path, usage, _ in program.events:
            if path == d.path and usage.span == d.span and (kinds is None or type(usage) in kinds):
                return program, usage
    return None


def _torch_lines(program: Any, torch: str, os_name: str) -> list[str]:
    """The torch determinism statements a program still lacks, in the order they must run."""
    lines = []
    cublas = any(
        usage.value is None or usage.value in (CUBLAS_WORKSPACE_CONFIG, ":16:8")
        for _, _, usage in program.of(EnvSet, "CUBLAS_WORKSPACE_CONFIG")
    )
    if not cublas:
        lines.append(f'{os_name}.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", "{CUBLAS_WORKSPACE_CONFIG}")')
    if program.deterministic() is None:
        lines.append(f"{torch}.use_deterministic_algorithms(True)")
    if not program.cudnn_deterministic() or program.deterministic() is None:
        lines.append(f"{torch}.backends.cudnn.deterministic = True")
        lines.append(f"{torch}.backends.cudnn.benchmark = False")
    return lines


def _tf_lines(planner: FixPlanner, program: Any) -> tuple[str, ...]:
    """RPL304's statements for the TensorFlow the program runs on
    (:func:`reprolint.analysis.tf_versions.tf_switch`): ``enable_op_determinism()`` from
    2.8, ``TF_DETERMINISTIC_OPS=1`` for 2.1-2.7 (RPL304 reports nothing older)."""
    from reprolint.analysis.tf_versions import program_tf, tf_switch

    switch = tf_switch(program_tf(planner.ctx, program))
    return switch.lines if switch is not None else ()


def turned_off(program: Any, d: Diagnostic) -> bool:
    """The program turns torch's deterministic mode off itself: its author's call (and
    any switch inserted above would be undone by it)."""
    return d.code == "RPL301" and any(
        program.value(usage) is False for _, _, usage in program.of(FlagSet, "torch.deterministic")
    )


def plan_determinism(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """RPL301-RPL304: the determinism switches at the entry point, once per program.

    ``hooks``: ``reprolint.runtime.install()`` (it turns every switch on as the library
    is imported). ``inline``: the plain statements, right after the imports (before any
    statement can start CUDA); RPL301, RPL302 and RPL303 of one program share one
    action, so the block goes in once.
    """
    return together([determinism_action(planner, d, p) for p in usage_programs(planner, d)])


def usage_programs(planner: FixPlanner, d: Diagnostic) -> list[Any]:
    """Every program (not a library) that runs the reported line, the first one first:
    a flag missing in a shared trainer module concerns each entry point reaching it."""
    from reprolint.analysis.determinism import program_usages

    found = usage_program(planner, d)
    if found is None:
        return []
    programs = [found[0]]
    for program in program_usages(planner.ctx):
        if program.is_library or program is found[0] or any(p.entry == program.entry for p in programs):
            continue
        if any(path == d.path and usage.span == d.span for path, usage, _ in program.events):
            programs.append(program)
    return programs


def determinism_action(planner: FixPlanner, d: Diagnostic, program: Any) -> Optional[FixAction]:
    entry = program.entry
    if planner.module(entry) is None or turned_off(program, d):
        return None
    stop = planner.import_stop(entry)
    seed = planner.seed
    if planner.style == "hooks":
        if planner.has_install(entry):
            return None  # this program turns its switches on already
        return FixAction(
            entry, ("entry", "hooks", seed), determinism_level(planner, d, [program]),
            "Seed every library at the entry point with `reprolint.runtime.install`",
            lambda m: ensure_install(m, seed, stop),
        )
    framework = "tensorflow" if d.code == "RPL304" else "torch"
    if d.code == "RPL303" and data_field(d, "problem_kind") == "wrong-value":
        return None  # a wrong value the user chose: `setdefault` would not change it
    module = planner.module(entry)
    assert module is not None
    template: tuple[str, ...] = ()
    if framework == "tensorflow":
        # what the TensorFlow this program runs on supports
        template = _tf_lines(planner, program)
        if not template:
            return None
        needed = tuple(dotted for dotted, key in (("tensorflow", "{tf}"), ("os", "{os}")) if any(key in t for t in template))
    else:
        needed = ("torch", "os")
    names = {}
    for dotted in needed:
        name, _ = binding(module, dotted)
        if name is None:
            return None
        names[dotted] = name
    if framework == "tensorflow":
        lines = [t.format(tf=names.get("tensorflow", ""), os=names.get("os", "")) for t in template]
    else:
        lines = _torch_lines(program, names["torch"], names["os"])
    if not lines:
        return None

    def apply(m: cst.Module) -> cst.Module:
        imports = [i for dotted in names for i in binding(m, dotted)[1]]
        return fixes.add_imports(fixes.ensure_after_imports(m, lines, stop), imports)

    what = "TensorFlow op determinism" if framework == "tensorflow" else "torch's deterministic mode"
    return FixAction(
        entry, ("determinism", framework, tuple(lines)), determinism_level(planner, d, [program]),
        f"Turn on {what} at the entry point", apply,
    )


def determinism_level(planner: FixPlanner, d: Diagnostic, programs: Optional[list[Any]] = None) -> Applicability:
    """RPL301-RPL303: safe unless an op without a deterministic implementation runs in
    the program (deterministic mode makes it raise). RPL304: unsafe (TensorFlow's op
    determinism raises for ops it cannot make deterministic, which no catalog lists)."""
    if d.code == "RPL304":
        return Applicability.UNSAFE
    if programs is None:
        programs = usage_programs(planner, d)
    return planner.safe_if(not any(planner.runs_raising_op(p.entry) for p in programs))


def determinism_available(planner: FixPlanner, d: Diagnostic) -> Optional[bool]:
    programs = [p for p in usage_programs(planner, d) if not turned_off(p, d)]
    if not programs:
        return False
    if planner.style == "hooks":
        return any(not planner.has_install(p.entry) for p in programs)
    if d.code == "RPL303" and data_field(d, "problem_kind") == "wrong-value":
        return False
    return None  # whether the entry binds the names, and which lines are missing
