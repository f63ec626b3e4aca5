"""Seeding a program: the codemods and planning helpers the RNG rules share.

``reprolint.runtime.install(seed=N)`` (style ``hooks``) or a ``seed_everything(seed)``
helper (style ``inline``) at a program's entry point, the seeding statements per library,
and the seed a call site gets. Used by RPL101, RPL102, RPL105 and RPL306.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Mapping, Optional, Sequence

import libcst as cst

from reprolint import fixes
from reprolint.catalog.rng import rng_catalog
from reprolint.fixes.planning import (
    LIBRARY_ORDER,
    FixAction,
    FixPlanner,
    has_statement,
    literal_seed,
    node_code,
    tf_seed_library,
)
from reprolint.model import Diagnostic

if TYPE_CHECKING:
    from reprolint.analysis.program import Program

# Python's own seeding calls per library id: (module to import, statement template).
SEEDERS = {
    "random": ("random", "{m}.seed({seed})"),
    "numpy": ("numpy", "{m}.random.seed({seed})"),
    "torch": ("torch", "{m}.manual_seed({seed})"),
    "tensorflow": ("tensorflow", "{m}.random.set_seed({seed})"),
    "tensorflow1": ("tensorflow", "{m}.set_random_seed({seed})"),
    "keras": ("keras", "{m}.utils.set_random_seed({seed})"),
}
HELPER_NAME = "seed_everything"


def entry_action(planner: FixPlanner, program: "Program", code: str) -> Optional[FixAction]:
    """Seed every library of ``program`` at its entry point (RPL101, RPL105, RPL306)."""
    entry = program.entry
    stop = planner.import_stop(entry)
    seed = planner.seed
    if planner.style == "hooks":
        return FixAction(
            entry, ("entry", "hooks", seed), planner.entry_level(entry),
            "Seed every library at the entry point with `reprolint.runtime.install`",
            lambda m: ensure_install(m, seed, stop),
        )
    libs = tuple(planner.libraries(program))
    if not libs:
        return None
    return FixAction(
        entry, ("entry", "inline", seed, libs), planner.entry_level(entry),
        f"Seed {', '.join(libs)} at the entry point with `{HELPER_NAME}({seed})`",
        lambda m: ensure_seed_helper(m, seed, libs, stop),
    )


# ----------------------------------------------------------------------------- module actions


def has_top_level_call(module: cst.Module, name_suffix: str) -> bool:
    """Whether a top-level statement line calls something ending in ``name_suffix``."""
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                value = getattr(small, "value", None)
                if isinstance(value, cst.Call) and node_code(value.func).endswith(name_suffix):
                    return True
    return False


def ensure_install(
    module: cst.Module, seed: int, stop: Optional[Callable[[cst.CSTNode], bool]] = None
) -> cst.Module:
    """``import reprolint.runtime`` + ``reprolint.runtime.install(seed=N)`` after the imports.

    Nothing changes when the module already calls ``install``.
    """
    if has_top_level_call(module, "runtime.install"):
        return module
    call = fixes.parse_statements(f"reprolint.runtime.install(seed={seed})\n", module)
    module = fixes.insert_after_imports(module, call, stop)
    return fixes.add_imports(module, [fixes.ImportItem("reprolint.runtime")])


def library_names(module: cst.Module, libs: Sequence[str]) -> tuple[dict[str, str], list[fixes.ImportItem]]:
    """How the module names each library (adding ``import lib`` where it has no name)."""
    bindings = fixes.top_level_bindings(module)
    names: dict[str, str] = {}
    imports = []
    for lib in libs:
        dotted = SEEDERS[lib][0]
        name = fixes.module_binding(module, dotted)
        if name is None:
            if dotted in bindings and bindings[dotted] != dotted:
                continue  # the plain name means something else here: leave it to the user
            name = dotted
            imports.append(fixes.ImportItem(dotted))
        names[lib] = name
    return names, imports


def seed_helper_source(names: Mapping[str, str], name: str = HELPER_NAME) -> str:
    lines = [f"def {name}(seed):", '    """Seed every random generator this program uses."""']
    for lib in LIBRARY_ORDER:
        if lib in names:
            lines.append("    " + SEEDERS[lib][1].format(m=names[lib], seed="seed"))
    return "\n".join(lines) + "\n"


def ensure_seed_helper(
    module: cst.Module,
    seed: int,
    libs: Sequence[str],
    stop: Optional[Callable[[cst.CSTNode], bool]] = None,
) -> cst.Module:
    """A ``seed_everything(seed)`` for ``libs`` and a call to it after the imports.

    An existing top-level ``seed_everything`` function is reused: the libraries it does
    not seed yet are added to it, and it is called after the imports unless the module
    calls it already.
    """
    names, imports = library_names(module, libs)
    if not names:
        return module
    existing = next(
        (s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == HELPER_NAME),
        None,
    )
    if existing is not None:
        module = extend_helper(module, existing, names)
        if not has_top_level_call(module, HELPER_NAME):
            index = list(module.body).index(
                next(s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == HELPER_NAME)
            )
            call = fixes.parse_statements(f"{HELPER_NAME}({seed})\n", module)
            module = fixes.insert_statements(module, index + 1, call, blank_lines=2)
        return fixes.add_imports(module, imports)
    code = seed_helper_source(names) + f"\n\n{HELPER_NAME}({seed})\n"
    statements = fixes.parse_statements(code, module)
    module = fixes.insert_after_imports(module, statements, stop, blank_lines=2)
    return fixes.add_imports(module, imports)


def extend_helper(module: cst.Module, helper: cst.FunctionDef, names: Mapping[str, str]) -> cst.Module:
    body = helper.body
    if not isinstance(body, cst.IndentedBlock) or not helper.params.params:
        return module
    param = helper.params.params[0].name.value
    text = node_code(helper)
    missing = []
    for lib in LIBRARY_ORDER:
        if lib not in names:
            continue
        line = SEEDERS[lib][1].format(m=names[lib], seed=param)
        if not re.search(r"(?<![\w.])" + re.escape(line.split("(")[0] + "("), text):
            missing.append(line)
    if not missing:
        return module
    added = fixes.parse_statements("\n".join(missing) + "\n", module)
    new = helper.with_changes(body=body.with_changes(body=(*body.body, *added)))
    return fixes.replace_nodes(module, {id(helper): lambda _: new})


# ----------------------------------------------------------------------------- per-rule planners


def seed_value(planner: FixPlanner, path: str, located: fixes.Located) -> tuple[cst.BaseExpression, list[fixes.ImportItem]]:
    if planner.style == "hooks":
        site = planner.site_id(path, located)
        expr = cst.parse_expression(f'reprolint.runtime.seed("{site}")')
        return expr, [fixes.ImportItem("reprolint.runtime")]
    return literal_seed(planner.seed), []


def seed_argument(call: cst.Call) -> tuple[Optional[str], Optional[int]]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in ("seed", "a", "x", "entropy"):
            return arg.keyword.value, None
    return None, 0


def partial_action(planner: FixPlanner, program: "Program", code: str) -> Optional[FixAction]:
    seeded = program.seeded_libraries
    missing = sorted({o.library for o in program.draws if o.library not in seeded})
    tf = tf_seed_library(program)
    missing = [tf if lib == "tensorflow" else lib for lib in missing if lib in SEEDERS]
    if not missing:
        return None
    first = program.seeds[0].seed
    path = program.seeds[0].path
    seeder = rng_catalog().seeders.get(first.api)
    span = first.span

    def apply(m: cst.Module) -> cst.Module:
        located = fixes.find_call(m, span)
        if located is None or not isinstance(located.node, cst.Call):
            return m
        statement = located.statement()
        suite = located.suite_of(statement) if statement is not None else None
        if suite is None or not isinstance(statement, cst.SimpleStatementLine):
            return m
        value = None
        if seeder is not None and (seeder.seed_arg is not None or seeder.keyword):
            arg = fixes.find_argument(located.node, seeder.keyword, seeder.seed_arg)
            value = node_code(arg.value) if arg is not None else None
        value = value or str(planner.seed)
        names, imports = library_names(m, missing)
        lines = [
            SEEDERS[lib][1].format(m=names[lib], seed=value) for lib in missing if lib in names
        ]
        lines = [line for line in lines if not has_statement(suite, line)]
        if not lines:
            return m
        added = [fixes.insert.with_blank_lines(s, 0) for s in fixes.parse_statements("\n".join(lines) + "\n", m)]

        def extend(s: cst.CSTNode) -> cst.CSTNode:
            body = list(s.body)  # type: ignore[attr-defined]
            index = next(i for i, item in enumerate(body) if node_code(item).strip() == node_code(statement).strip())
            return s.with_changes(body=(*body[: index + 1], *added, *body[index + 1:]))

        if suite is m:
            new = extend(m)
        else:
            new = fixes.replace_nodes(m, {id(suite): extend})
        return fixes.add_imports(new, imports)  # type: ignore[arg-type]

    libs = ", ".join(missing)
    return FixAction(
        path, ("partial", span, tuple(missing)), planner.safe_if(True),  # libraries never seeded
        f"Seed {libs} next to the other seeds", apply,
    )


def reported_programs(planner: FixPlanner, d: Diagnostic) -> list["Program"]:
    """The programs an RPL101 finding names (one finding, one fix)."""
    programs = planner.programs_reaching(d.path, d.span)
    return [p for p in programs if not d.entry_points or p.entry in d.entry_points]
