"""Planning fixes: which codemod each finding gets, bound to its target.

``attach_fixes`` (run by every check) maps a diagnostic to an *action*: a codemod from
:mod:`reprolint.fixes` bound to its target, planned from the finding's data (never its
message). The action is applied alone to the original module and the difference becomes
the diagnostic's ``Fix`` edits, so JSON and SARIF show exactly what ``fix`` would write.
A fix that would not parse is dropped. Each action is idempotent (it looks for its own
result before adding it), so a second ``fix`` changes nothing.

Applying the fixes to convergence, reading and writing files and notebooks is the
engine's (:mod:`reprolint.fixes.engine`, :mod:`reprolint.fixes.files`); its public names
are re-exported here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence

import libcst as cst

from reprolint import fixes
from reprolint.analysis.facts import Call, Draw, Guard, Import
from reprolint.catalog.rng import rng_catalog
from reprolint.fixes.edits import FixError, apply_edits, check_parses, diff_edits
from reprolint.fixes.engine import (
    _PROBLEMS,
    MAX_ROUNDS,
    FixReport,
    PlannedFix,
    fix_files,
    fix_texts,
    summary,
)
from reprolint.fixes.files import (
    FileChange,
    SourceFile,
    WriteError,
    read_source,
    remove_stale_temp_files,
    unified_diff,
    write_change,
)
from reprolint.fixes.notebook_edits import notebook_with_program, read_notebook_source
from reprolint.model import Applicability, Diagnostic, Edit, Fix, Span

if TYPE_CHECKING:
    from reprolint.analysis.program import Program
    from reprolint.checks.base import CheckContext

__all__ = [
    "MAX_ROUNDS",
    "FileChange",
    "FixError",
    "FixReport",
    "PlannedFix",
    "SourceFile",
    "WriteError",
    "apply_edits",
    "attach_fixes",
    "diff_edits",
    "fix_files",
    "fix_texts",
    "notebook_with_program",
    "read_notebook_source",
    "read_source",
    "remove_stale_temp_files",
    "summary",
    "unified_diff",
    "write_change",
]

STYLES = ("hooks", "inline")

# Python's own seeding calls per library id: (module to import, statement template).
_SEEDERS = {
    "random": ("random", "{m}.seed({seed})"),
    "numpy": ("numpy", "{m}.random.seed({seed})"),
    "torch": ("torch", "{m}.manual_seed({seed})"),
    "tensorflow": ("tensorflow", "{m}.random.set_seed({seed})"),
    "keras": ("keras", "{m}.utils.set_random_seed({seed})"),
}
_LIBRARY_ORDER = ("random", "numpy", "torch", "tensorflow", "keras")
HELPER_NAME = "seed_everything"


@dataclass(frozen=True)
class _Action:
    path: str
    key: tuple[Any, ...]
    applicability: Applicability
    title: str
    apply: Callable[[cst.Module], cst.Module] = field(compare=False, hash=False, repr=False)
    # The same fix for the other programs the finding concerns (their own entry points).
    also: tuple["_Action", ...] = field(default=(), compare=False, hash=False, repr=False)


def _together(actions: Sequence[Optional["_Action"]]) -> Optional["_Action"]:
    """One action for several programs: the first, carrying the others."""
    found = [a for a in actions if a is not None]
    seen: set[tuple[Any, ...]] = set()
    unique = []
    for action in found:
        if (action.path, *action.key) not in seen:
            seen.add((action.path, *action.key))
            unique.append(action)
    if not unique:
        return None
    return replace(unique[0], also=tuple(unique[1:])) if len(unique) > 1 else unique[0]


# ----------------------------------------------------------------------------- planning


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _field(d: Diagnostic, name: str) -> Any:
    """A field of the finding's data (what its message is rendered from): fixes read
    these, never the message text."""
    return d.data.get(name)


def _literal_seed(seed: int) -> cst.BaseExpression:
    return cst.Integer(str(seed))


class _Planner:
    """Plans and realises the actions for one checked project state."""

    def __init__(self, ctx: "CheckContext", sources: Mapping[str, str]) -> None:
        self.ctx = ctx
        self.sources = sources
        self.settings = ctx.settings
        self.seed = ctx.settings.seed
        self.style = ctx.settings.fix_style if ctx.settings.fix_style in STYLES else "hooks"
        self._modules: dict[str, Optional[cst.Module]] = {}
        self._realised: dict[tuple[Any, ...], tuple[Edit, ...]] = {}
        self._draws_on_import: dict[str, bool] = {}
        self._lines: dict[str, list[str]] = {}

    # -- helpers
    def module(self, path: str) -> Optional[cst.Module]:
        if path not in self._modules:
            source = self.sources.get(path)
            try:
                self._modules[path] = cst.parse_module(source) if source is not None else None
            except Exception:  # noqa: BLE001 - an unparsable file has no fixes
                self._modules[path] = None
        return self._modules[path]

    def realise(self, action: _Action) -> tuple[Edit, ...]:
        key = (action.path, *action.key)
        if key in self._realised:
            return self._realised[key]
        module = self.module(action.path)
        source = self.sources.get(action.path)
        edits: tuple[Edit, ...] = ()
        if module is not None and source is not None:
            try:
                code = action.apply(module).code
                if code != source:
                    check_parses(code, source, action.path, libcst_too=False)
                    edits = diff_edits(source, code)
            except FixError as exc:
                problems = _PROBLEMS.get()
                if problems is not None:
                    problems.append(f"{action.path}: fix dropped ({action.title}): {exc}")
            except LookupError:
                edits = ()
        self._realised[key] = edits
        return edits

    def plan(self, d: Diagnostic) -> Optional[_Action]:
        planner = _PLANNERS.get(d.code)
        if planner is None:
            return None
        return planner(self, d)

    def available(self, d: Diagnostic) -> bool:
        """Whether ``plan`` + ``realise`` would give ``d`` a fix, without computing it.

        Each rule's test answers from the facts, the programs and the finding's data (no libcst
        parse, no transform); a test that cannot tell (None) falls back to planning,
        which parses the file but still transforms nothing.
        """
        if _PLANNERS.get(d.code) is None:
            return False
        test = _AVAILABLE.get(d.code)
        answer = test(self, d) if test is not None else None
        if answer is None:
            answer = self.plan(d) is not None
        return answer

    def line(self, path: str, number: int) -> str:
        source = self.sources.get(path) or ""
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = source.splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def is_statement(self, path: str, span: Span) -> bool:
        """Whether the expression at ``span`` is a whole statement (its value is unused)."""
        before = self.line(path, span.start_line)[: span.start_col - 1].rstrip()
        after = self.line(path, span.end_line)[span.end_col - 1:].strip()
        if before and not before.endswith((";", ":")):
            return False
        return after == "" or after.startswith(("#", ";"))

    def entry_available(self, program: "Program") -> bool:
        """``entry_action`` gives a fix (hooks: any Python entry; inline: a library to seed)."""
        return self.style == "hooks" or bool(self.libraries(program))

    def applicability(self, code: str) -> Applicability:
        from reprolint.checks.base import get_rule

        rule = get_rule(code)
        return rule.fix_applicability if rule and rule.fix_applicability else Applicability.UNSAFE

    def site_id(self, path: str, located: fixes.Located) -> str:
        """A call site's name that survives edits elsewhere: file, scope, callee, index."""
        root = Path(self.settings.root or ".").resolve()
        try:
            name = Path(path).resolve().relative_to(root).as_posix()
        except ValueError:
            name = PurePosixPath(Path(path).as_posix()).name
        scope_node: cst.CSTNode = located.parents[0]
        names = []
        for parent in located.parents:
            if isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
                names.append(parent.name.value)
                scope_node = parent
        callee = _code(located.node.func) if isinstance(located.node, cst.Call) else "?"
        same = [
            n for n, _ in fixes.walk(scope_node)
            if isinstance(n, cst.Call) and _code(n.func) == callee
        ]
        index = next((i for i, n in enumerate(same) if n is located.node), 0)
        site = f"{name}:{'.'.join(names) or '<module>'}:{callee}"
        return site if index == 0 else f"{site}#{index + 1}"

    def has_install(self, path: str) -> bool:
        facts = self.ctx.facts.get(path)
        return facts is not None and any(
            getattr(e, "api", None) == "reprolint.runtime.install" for e in facts.events
        )

    # -- programs
    def programs_reaching(self, path: str, span: Span) -> list["Program"]:
        return [
            p for p in self.ctx.programs
            if any(o.path == path and o.draw.span == span and not o.seeded_before for o in p.draws)
        ]

    def libraries(self, program: "Program") -> list[str]:
        uses: set[str] = set()
        for module in program.modules:
            facts = self.ctx.facts.get(module)
            if facts is not None:
                uses |= facts.uses
        libs = {o.draw.library for o in program.draws} | {
            lib for lib in ("random", "numpy", "torch", "tensorflow") if lib in uses
        }
        if "keras" in uses and "tensorflow" not in libs:
            libs.discard("tensorflow")
            libs.add("keras")
        return [lib for lib in _LIBRARY_ORDER if lib in libs]

    def draws_on_import(self, path: str, seen: Optional[set[str]] = None) -> bool:
        """Whether importing the project module ``path`` draws (before any seed can run)."""
        if path in self._draws_on_import:
            return self._draws_on_import[path]
        seen = seen if seen is not None else set()
        seen.add(path)
        facts = self.ctx.facts.get(path)
        found = False
        in_guard = False
        for event in facts.events if facts else ():
            if isinstance(event, Guard):
                in_guard = event.begin
            elif in_guard:
                continue
            elif isinstance(event, Draw) and not event.deferred:
                found = True
            elif isinstance(event, Import):
                for module in self.ctx.index.package_chain(path, event.module):
                    if module not in seen and self.draws_on_import(module, seen):
                        found = True
            elif isinstance(event, Call):
                resolved = self.ctx.index.resolve_call(path, event.target)
                if resolved is not None:
                    fn = self.ctx.facts[resolved[0]].functions.get(resolved[1])
                    if fn is not None and any(
                        isinstance(e, Draw) and not e.deferred for e in fn.events
                    ):
                        found = True
            if found:
                break
        self._draws_on_import[path] = found
        return found

    def import_stop(self, entry: str) -> Callable[[cst.CSTNode], bool]:
        """True for a top-level import of a project module that draws when imported."""

        def modules(statement: cst.CSTNode) -> list[str]:
            out = []
            for node, _ in fixes.walk(statement):
                if isinstance(node, cst.Import):
                    out.extend(_code(a.name) for a in node.names)
                elif isinstance(node, cst.ImportFrom):
                    base = "." * len(node.relative) + (_code(node.module) if node.module else "")
                    out.append(base)
                    if not isinstance(node.names, cst.ImportStar):
                        sep = "." if node.module else ""
                        out.extend(f"{base}{sep}{_code(a.name)}" for a in node.names)
            return out

        def stop(statement: cst.CSTNode) -> bool:
            for dotted in modules(statement):
                for found in self.ctx.index.package_chain(entry, dotted):
                    if found != entry and self.draws_on_import(found):
                        return True
            return False

        return stop

    # -- the entry-point action shared by RPL101 and RPL105
    def entry_action(self, program: "Program", code: str) -> Optional[_Action]:
        entry = program.entry
        stop = self.import_stop(entry)
        seed = self.seed
        if self.style == "hooks":
            return _Action(
                entry, ("entry", "hooks", seed), self.applicability(code),
                "Seed every library at the entry point with `reprolint.runtime.install`",
                lambda m: ensure_install(m, seed, stop),
            )
        libs = tuple(self.libraries(program))
        if not libs:
            return None
        return _Action(
            entry, ("entry", "inline", seed, libs), self.applicability(code),
            f"Seed {', '.join(libs)} at the entry point with `{HELPER_NAME}({seed})`",
            lambda m: ensure_seed_helper(m, seed, libs, stop),
        )


# ----------------------------------------------------------------------------- module actions


def _has_top_level_call(module: cst.Module, name_suffix: str) -> bool:
    """Whether a top-level statement line calls something ending in ``name_suffix``."""
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                value = getattr(small, "value", None)
                if isinstance(value, cst.Call) and _code(value.func).endswith(name_suffix):
                    return True
    return False


def ensure_install(
    module: cst.Module, seed: int, stop: Optional[Callable[[cst.CSTNode], bool]] = None
) -> cst.Module:
    """``import reprolint.runtime`` + ``reprolint.runtime.install(seed=N)`` after the imports.

    Nothing changes when the module already calls ``install``.
    """
    if _has_top_level_call(module, "runtime.install"):
        return module
    call = fixes.parse_statements(f"reprolint.runtime.install(seed={seed})\n", module)
    module = fixes.insert_after_imports(module, call, stop)
    return fixes.add_imports(module, [fixes.ImportItem("reprolint.runtime")])


def _library_names(module: cst.Module, libs: Sequence[str]) -> tuple[dict[str, str], list[fixes.ImportItem]]:
    """How the module names each library (adding ``import lib`` where it has no name)."""
    bindings = fixes.top_level_bindings(module)
    names: dict[str, str] = {}
    imports = []
    for lib in libs:
        dotted = _SEEDERS[lib][0]
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
    for lib in _LIBRARY_ORDER:
        if lib in names:
            lines.append("    " + _SEEDERS[lib][1].format(m=names[lib], seed="seed"))
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
    names, imports = _library_names(module, libs)
    if not names:
        return module
    existing = next(
        (s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == HELPER_NAME),
        None,
    )
    if existing is not None:
        module = _extend_helper(module, existing, names)
        if not _has_top_level_call(module, HELPER_NAME):
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


def _extend_helper(module: cst.Module, helper: cst.FunctionDef, names: Mapping[str, str]) -> cst.Module:
    body = helper.body
    if not isinstance(body, cst.IndentedBlock) or not helper.params.params:
        return module
    param = helper.params.params[0].name.value
    text = _code(helper)
    missing = []
    for lib in _LIBRARY_ORDER:
        if lib not in names:
            continue
        line = _SEEDERS[lib][1].format(m=names[lib], seed=param)
        if not re.search(r"(?<![\w.])" + re.escape(line.split("(")[0] + "("), text):
            missing.append(line)
    if not missing:
        return module
    added = fixes.parse_statements("\n".join(missing) + "\n", module)
    new = helper.with_changes(body=body.with_changes(body=(*body.body, *added)))
    return fixes.replace_nodes(module, {id(helper): lambda _: new})


# ----------------------------------------------------------------------------- per-rule planners


def _seed_value(planner: _Planner, path: str, located: fixes.Located) -> tuple[cst.BaseExpression, list[fixes.ImportItem]]:
    if planner.style == "hooks":
        site = planner.site_id(path, located)
        expr = cst.parse_expression(f'reprolint.runtime.seed("{site}")')
        return expr, [fixes.ImportItem("reprolint.runtime")]
    return _literal_seed(planner.seed), []


def _plan_unseeded_global(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    if _field(d, "variant") == "spawn":
        return None  # a spawned worker: the seed belongs inside it, with its rank
    programs = _reported_programs(planner, d)
    if not programs:
        return None
    program = programs[0]
    outcome = next(o for o in program.draws if o.path == d.path and o.draw.span == d.span)
    if outcome.later_seed is not None and outcome.later_seed[0] == d.path:
        move = _plan_move(planner, d, outcome.later_seed[1].span)
        if move is not None:
            return move
    actions = []
    for program in programs:
        action = None
        outcome = next(o for o in program.draws if o.path == d.path and o.draw.span == d.span)
        if planner.style == "inline" and program.seeds and outcome.later_seed is None:
            # The program has a seeding place already: the missing library goes there.
            partial = _partial_action(planner, program, d.code)
            if partial is not None and planner.realise(partial):
                action = partial
        actions.append(action or planner.entry_action(program, d.code))
    return _together(actions)


def _plan_move(planner: _Planner, d: Diagnostic, seed_span: Span) -> Optional[_Action]:
    module = planner.module(d.path)
    if module is None:
        return None

    def locate(m: cst.Module) -> Optional[tuple[cst.CSTNode, cst.CSTNode, cst.CSTNode]]:
        draw, seed = fixes.find_call(m, d.span), fixes.find_call(m, seed_span)
        if draw is None or seed is None:
            return None
        statement = seed.statement()
        suite = seed.suite_of(statement) if statement is not None else None
        if suite is None:
            return None
        chain = (*draw.parents, draw.node)
        anchor = next((chain[i] for i in range(1, len(chain)) if chain[i - 1] is suite), None)
        modules = {name for name, target in fixes.top_level_bindings(m).items() if target}
        if anchor is None or not fixes.can_move_before(suite.body, statement, anchor, modules):  # type: ignore[attr-defined]
            return None
        return suite, statement, anchor

    if locate(module) is None:
        return None

    def apply(m: cst.Module) -> cst.Module:
        found = locate(m)
        if found is None:
            return m
        suite, statement, anchor = found
        if suite is m:
            return fixes.move_before(m, statement, anchor)  # type: ignore[return-value]
        moved = fixes.move_before(suite, statement, anchor)  # on the original nodes
        return fixes.replace_nodes(m, {id(suite): lambda _: moved})

    return _Action(
        d.path, ("move", seed_span), planner.applicability(d.code),
        "Move the seeding call above the first draw", apply,
    )


def _partial_programs(planner: _Planner, d: Diagnostic) -> list["Program"]:
    """The programs whose first seeding call is the reported one and that draw from a
    library it leaves unseeded (a `set_seed` in a shared module concerns each)."""
    return [
        p for p in planner.ctx.programs
        if p.seeds and p.seeds[0].path == d.path and p.seeds[0].seed.span == d.span
        and any(o.library not in p.seeded_libraries and o.library in _SEEDERS for o in p.draws)
        and (not d.entry_points or p.entry in d.entry_points)
    ]


def _plan_partial(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    programs = _partial_programs(planner, d)
    if not programs:
        return None
    if planner.style == "hooks":
        return _together([planner.entry_action(p, d.code) for p in programs if not planner.has_install(p.entry)])
    # Inline: the missing libraries go next to the shared seeding call; a program that
    # still lacks one after this round gets it in the next.
    return _partial_action(planner, programs[0], d.code)


def _partial_action(planner: _Planner, program: "Program", code: str) -> Optional[_Action]:
    seeded = program.seeded_libraries
    missing = sorted({o.library for o in program.draws if o.library not in seeded})
    missing = [lib for lib in missing if lib in _SEEDERS]
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
            value = _code(arg.value) if arg is not None else None
        value = value or str(planner.seed)
        names, imports = _library_names(m, missing)
        text = _code(suite)
        lines = [
            _SEEDERS[lib][1].format(m=names[lib], seed=value) for lib in missing if lib in names
        ]
        lines = [line for line in lines if line not in text]
        if not lines:
            return m
        added = [fixes.insert.with_blank_lines(s, 0) for s in fixes.parse_statements("\n".join(lines) + "\n", m)]

        def extend(s: cst.CSTNode) -> cst.CSTNode:
            body = list(s.body)  # type: ignore[attr-defined]
            index = next(i for i, item in enumerate(body) if _code(item).strip() == _code(statement).strip())
            return s.with_changes(body=(*body[: index + 1], *added, *body[index + 1:]))

        if suite is m:
            new = extend(m)
        else:
            new = fixes.replace_nodes(m, {id(suite): extend})
        return fixes.add_imports(new, imports)  # type: ignore[arg-type]

    libs = ", ".join(missing)
    return _Action(
        path, ("partial", span, tuple(missing)), planner.applicability("RPL105"),
        f"Seed {libs} next to the other seeds", apply,
    )


def _seed_argument(call: cst.Call) -> tuple[Optional[str], Optional[int]]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in ("seed", "a", "x", "entropy"):
            return arg.keyword.value, None
    return None, 0


def _plan_entropy_seed(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    literal = _literal_seed(planner.seed)
    option = _field(d, "option")  # the argparse dest whose default is the entropy
    if option:
        return _plan_option_default(planner, d, str(option))
    if fixes.find_call(planner.module(d.path) or cst.Module([]), d.span) is None:
        return None

    def change(call: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(call, cst.Call)
        keyword, position = _seed_argument(call)
        return fixes.set_argument(call, literal, keyword=keyword, position=position)

    return _Action(
        d.path, ("entropy", d.span), planner.applicability(d.code),
        f"Seed with the configured seed ({planner.seed})",
        lambda m: fixes.rewrite(m, d.span, change),
    )


def _option_call(module: cst.Module, dest: str) -> Optional[cst.Call]:
    for node, _ in fixes.walk(module):
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("add_argument", "option")
        ):
            for arg in node.args:
                if arg.keyword is None and isinstance(arg.value, cst.SimpleString):
                    flag = arg.value.evaluated_value
                    if isinstance(flag, str) and flag.lstrip("-").replace("-", "_") == dest:
                        if fixes.find_argument(node, "default", None) is not None:
                            return node
    return None


def _plan_option_default(planner: _Planner, d: Diagnostic, dest: str) -> Optional[_Action]:
    candidates = [d.path] + [
        p for p, facts in planner.ctx.facts.items() if dest in facts.arg_entropy and p != d.path
    ]
    for path in candidates:
        module = planner.module(path)
        if module is None or _option_call(module, dest) is None:
            continue
        literal = _literal_seed(planner.seed)

        def apply(m: cst.Module) -> cst.Module:
            call = _option_call(m, dest)
            if call is None:
                return m
            return fixes.replace_nodes(
                m, {id(call): lambda c: fixes.add_keyword(c, "default", literal, replace=True)}
            )

        return _Action(
            path, ("option-default", dest), planner.applicability(d.code),
            f"Give `--{dest.replace('_', '-')}` the configured seed ({planner.seed}) as its default",
            apply,
        )
    return None


def _plan_conditional(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    blame = None
    for program in planner.ctx.programs:
        for outcome in program.seeds:
            if outcome.blame is not None and outcome.blame[0] == d.path and outcome.blame[1] == d.span:
                blame = outcome.blame
    module = planner.module(d.path)
    if blame is None or module is None:
        return None
    condition = blame[3]
    literal = _literal_seed(planner.seed)

    def seeding_copy(statement: cst.SimpleStatementLine, call: cst.Call) -> cst.CSTNode:
        """The reported statement with the configured seed: what the `else:` runs."""
        keyword, position = _seed_argument(call)
        new_call = fixes.set_argument(call, literal, keyword=keyword, position=position)
        return fixes.replace_nodes(cst.Module([statement]), {id(call): lambda _: new_call}).body[0]

    def locate(m: cst.Module) -> Optional[tuple[cst.If, cst.CSTNode]]:
        located = fixes.find_call(m, d.span)
        if located is None or not isinstance(located.node, cst.Call):
            return None
        statement = located.statement()
        if not isinstance(statement, cst.SimpleStatementLine):
            return None
        for parent in reversed(located.parents):
            if isinstance(parent, cst.If) and _code(parent.test).strip() == condition.strip():
                copy = seeding_copy(statement, located.node)
                if parent.orelse is None:
                    return parent, copy
                # Another guarded seeding call of the same `if` may have made its
                # `else:` already: this one joins it, unless it is there (then there is
                # nothing to fix). An `elif` is the user's logic.
                orelse = parent.orelse
                if not isinstance(orelse, cst.Else) or not isinstance(orelse.body, cst.IndentedBlock):
                    return None
                if _code(copy).strip() in _code(orelse):
                    return None
                return parent, copy
        return None

    if locate(module) is None:
        return None

    def apply(m: cst.Module) -> cst.Module:
        found = locate(m)
        if found is None:
            return m
        if_node, copy = found
        new_if = fixes.add_else_branch(if_node, [copy])  # type: ignore[list-item]
        return fixes.replace_nodes(m, {id(if_node): lambda _: new_if})

    return _Action(
        d.path, ("else", d.span), planner.applicability(d.code),
        f"Seed with the configured seed ({planner.seed}) when `{condition}` is false", apply,
    )


_METHOD_SEEDS = {"seed": "manual_seed", "seed_all": "manual_seed_all"}


def _plan_instance(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    module = planner.module(d.path)
    located = fixes.find_call(module, d.span) if module is not None else None
    if located is None or not isinstance(located.node, cst.Call):
        return None
    call = located.node
    callee = _code(call.func)
    if callee.split(".")[-1] == "SystemRandom" or str(_field(d, "variant")).startswith("env-"):
        return None  # ignores any seed by design / an environment's seed: no sound automatic fix
    value, imports = _seed_value(planner, d.path, located)
    method = callee.split(".")[-1]
    if method in _METHOD_SEEDS and isinstance(call.func, cst.Attribute) and not call.args:
        parent = located.parents[-1] if located.parents else None
        if not isinstance(parent, cst.Expr):
            return None  # its return value is used: replacing the call would change it

        def change(node: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            func = node.func.with_changes(attr=cst.Name(_METHOD_SEEDS[node.func.attr.value]))
            return node.with_changes(func=func, args=[cst.Arg(value=value)])
    else:

        def change(node: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(node, cst.Call)
            keyword, position = _seed_argument(node)
            return fixes.set_argument(node, value, keyword=keyword, position=position)

    # `reprolint.runtime.seed()` derives from the master seed that `install()` sets at
    # the entry point; without it a fresh one would be drawn. The fix installs it in
    # every program that runs this module and lacks it: one fix, in several files.
    entry_first = None
    others: list[Any] = []
    if planner.style == "hooks":
        missing = [
            p for p in planner.ctx.programs if d.path in p.modules and not planner.has_install(p.entry)
        ]
        others = [p for p in missing if p.entry != d.path]
        if len(others) < len(missing):
            entry_first = planner.import_stop(d.path)
    seed = planner.seed

    def apply(m: cst.Module) -> cst.Module:
        m = fixes.add_imports(fixes.rewrite(m, d.span, change), imports)
        return ensure_install(m, seed, entry_first) if entry_first is not None else m

    how = "a seed from `reprolint.runtime.seed`" if planner.style == "hooks" else f"the configured seed ({planner.seed})"
    action = _Action(
        d.path, ("instance", d.span, planner.style, entry_first is not None), planner.applicability(d.code),
        f"Pass {how} to `{callee}`", apply,
    )
    return _together([action, *(planner.entry_action(p, d.code) for p in others)])


def _plan_cudnn_benchmark(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    module = planner.module(d.path)
    if module is None:
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
        target = _code(located.node)
        return fixes.replace_nodes(
            m, {id(statement): lambda s: fixes.set_assignment_value(s, cst.Name("False"), target)}  # type: ignore[arg-type]
        )

    return _Action(d.path, ("benchmark", d.span), planner.applicability(d.code),
                   "Turn cuDNN autotuning off", apply)


# ----------------------------------------------------------------------------- determinism flags

CUBLAS_WORKSPACE_CONFIG = ":4096:8"  # reprolint.runtime's choice (see _determinism.py)


def _usage_program(planner: _Planner, d: Diagnostic, kinds: Optional[tuple[str, ...]] = None) -> Optional[tuple[Any, Any]]:
    """(ProgramUsage, Usage) of the program event a finding was reported at."""
    from reprolint.analysis.determinism import program_usages

    for program in program_usages(planner.ctx):
        if program.is_library and kinds is None:
            continue
        for path, usage, _ in program.events:
            if path == d.path and usage.span == d.span and (kinds is None or usage.kind in kinds):
                return program, usage
    return None


def _binding(module: cst.Module, dotted: str) -> tuple[Optional[str], list[fixes.ImportItem]]:
    """How the module names ``dotted`` (``import dotted`` added where it has no name)."""
    name = fixes.module_binding(module, dotted)
    if name is not None:
        return name, []
    if dotted in fixes.top_level_bindings(module):
        return None, []  # the plain name means something else here
    return dotted, [fixes.ImportItem(dotted)]


def _torch_lines(program: Any, torch: str, os_name: str) -> list[str]:
    """The torch determinism statements a program still lacks, in the order they must run."""
    lines = []
    cublas = any(
        usage.value is None or usage.value in (CUBLAS_WORKSPACE_CONFIG, ":16:8")
        for _, _, usage in program.of("env", "CUBLAS_WORKSPACE_CONFIG")
    )
    if not cublas:
        lines.append(f'{os_name}.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", "{CUBLAS_WORKSPACE_CONFIG}")')
    if program.deterministic() is None:
        lines.append(f"{torch}.use_deterministic_algorithms(True)")
    if not program.cudnn_deterministic() or program.deterministic() is None:
        lines.append(f"{torch}.backends.cudnn.deterministic = True")
        lines.append(f"{torch}.backends.cudnn.benchmark = False")
    return lines


def _turned_off(program: Any, d: Diagnostic) -> bool:
    """The program turns torch's deterministic mode off itself: its author's call (and
    any switch inserted above would be undone by it)."""
    return d.code == "RPL301" and any(
        program.value(usage) is False for _, _, usage in program.of("flag", "torch.deterministic")
    )


def _plan_determinism(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    """RPL301-RPL304: the determinism switches at the entry point, once per program.

    ``hooks``: ``reprolint.runtime.install()`` (it turns every switch on as the library
    is imported). ``inline``: the plain statements, right after the imports (before any
    statement can start CUDA); RPL301, RPL302 and RPL303 of one program share one
    action, so the block goes in once.
    """
    return _together([_determinism_action(planner, d, p) for p in _usage_programs(planner, d)])


def _usage_programs(planner: _Planner, d: Diagnostic) -> list[Any]:
    """Every program (not a library) that runs the reported line, the first one first:
    a flag missing in a shared trainer module concerns each entry point reaching it."""
    from reprolint.analysis.determinism import program_usages

    found = _usage_program(planner, d)
    if found is None:
        return []
    programs = [found[0]]
    for program in program_usages(planner.ctx):
        if program.is_library or program is found[0] or any(p.entry == program.entry for p in programs):
            continue
        if any(path == d.path and usage.span == d.span for path, usage, _ in program.events):
            programs.append(program)
    return programs


def _determinism_action(planner: _Planner, d: Diagnostic, program: Any) -> Optional[_Action]:
    entry = program.entry
    if planner.module(entry) is None or _turned_off(program, d):
        return None
    stop = planner.import_stop(entry)
    seed = planner.seed
    if planner.style == "hooks":
        if planner.has_install(entry):
            return None  # this program turns its switches on already
        return _Action(
            entry, ("entry", "hooks", seed), planner.applicability(d.code),
            "Seed every library at the entry point with `reprolint.runtime.install`",
            lambda m: ensure_install(m, seed, stop),
        )
    framework = "tensorflow" if d.code == "RPL304" else "torch"
    if d.code == "RPL303" and _field(d, "problem_kind") == "wrong-value":
        return None  # a wrong value the user chose: `setdefault` would not change it
    module = planner.module(entry)
    assert module is not None
    names = {}
    for dotted in (("tensorflow",) if framework == "tensorflow" else ("torch", "os")):
        name, _ = _binding(module, dotted)
        if name is None:
            return None
        names[dotted] = name
    if framework == "tensorflow":
        lines = [f"{names['tensorflow']}.config.experimental.enable_op_determinism()"]
    else:
        lines = _torch_lines(program, names["torch"], names["os"])
    if not lines:
        return None

    def apply(m: cst.Module) -> cst.Module:
        imports = [i for dotted in names for i in _binding(m, dotted)[1]]
        return fixes.add_imports(fixes.ensure_after_imports(m, lines, stop), imports)

    what = "TensorFlow op determinism" if framework == "tensorflow" else "torch's deterministic mode"
    return _Action(
        entry, ("determinism", framework, tuple(lines)), planner.applicability(d.code),
        f"Turn on {what} at the entry point", apply,
    )


def _determinism_available(planner: _Planner, d: Diagnostic) -> Optional[bool]:
    programs = [p for p in _usage_programs(planner, d) if not _turned_off(p, d)]
    if not programs:
        return False
    if planner.style == "hooks":
        return any(not planner.has_install(p.entry) for p in programs)
    if d.code == "RPL303" and _field(d, "problem_kind") == "wrong-value":
        return False
    return None  # whether the entry binds the names, and which lines are missing


def _plan_framework(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    """RPL306: ``Trainer(deterministic=True)``, ``TrainingArguments(full_determinism=True)``;
    a Keras program gets seeded at the entry point (``install()`` or ``seed_everything``)."""
    found = _usage_program(planner, d, ("lightning", "hf-args", "keras-fit"))
    if found is None:
        return None
    program, usage = found
    if usage.kind == "keras-fit":
        if program.program is None:
            return None
        if planner.style == "hooks":
            return planner.entry_action(program.program, d.code)
        entry = program.entry
        stop = planner.import_stop(entry)
        seed = planner.seed
        libs = ("random", "numpy", "tensorflow")
        return _Action(
            entry, ("entry", "inline", seed, libs), planner.applicability(d.code),
            f"Seed {', '.join(libs)} at the entry point with `{HELPER_NAME}({seed})`",
            lambda m: ensure_seed_helper(m, seed, libs, stop),
        )
    if usage.name.endswith(("HfArgumentParser", "LightningCLI")):
        return None  # the options come from the command line: the keyword is not the call's
    keyword = "deterministic" if usage.kind == "lightning" else "full_determinism"
    value = program.kw_value(usage, keyword)
    if value is True or value == "warn":
        return None  # only the seeding is missing: RPL101/RPL105 and `seed_everything`

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        return fixes.add_keyword(node, keyword, cst.Name("True"), replace=True)

    return _Action(
        d.path, ("framework", d.span, keyword), planner.applicability(d.code),
        f"Pass `{keyword}=True`", lambda m: fixes.rewrite(m, d.span, change),
    )


# ----------------------------------------------------------------------------- order


# Listings whose entries `sorted` cannot compare, and how to sort them instead.
_SORT_KEYS = {"os.scandir": "lambda entry: entry.name"}


def _sorted(expression: cst.BaseExpression, key: Optional[str] = None) -> cst.BaseExpression:
    wrapped = fixes.wrap_call(expression, "sorted")
    if key is not None and isinstance(wrapped, cst.Call) and len(wrapped.args) == 1:
        wrapped = fixes.add_keyword(wrapped, "key", cst.parse_expression(key))
    return wrapped


def _plan_listing(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    """RPL402: ``sorted(...)`` around the listing call (none for ``os.walk``, whose lists
    need sorting inside the loop)."""
    function = _field(d, "function")
    if function == "os.walk":
        return None
    key = _SORT_KEYS.get(str(function))
    return _Action(
        d.path, ("sorted", d.span), planner.applicability(d.code), "Wrap the listing in `sorted(...)`",
        lambda m: fixes.rewrite(m, d.span, lambda node: _sorted(node, key)),  # type: ignore[arg-type]
    )


def _plan_set_order(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    """RPL401: ``sorted(...)`` around the set (``list(s)`` becomes ``sorted(s)``)."""
    variant = _field(d, "variant")
    if variant == "pop":
        return None  # `s.pop()`: which element to take is the program's choice
    module = planner.module(d.path)
    if module is None:
        return None
    located = fixes.find_node(module, d.span, (cst.BaseExpression,))
    if located is None:
        return None
    node = located.node
    if isinstance(node, cst.Call) and variant is None:  # `f(s)` takes the set's order
        if _code(node.func) == "zip":
            return None  # which of the arguments is the set is not known here

        def change(call: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(call, cst.Call)
            if isinstance(call.func, cst.Name) and call.func.value in ("list", "sorted") and len(call.args) == 1:
                return call.with_changes(func=cst.Name("sorted"))
            positional = [a for a in call.args if a.keyword is None and not a.star]
            if not positional:
                return call
            target = positional[0]
            return call.with_changes(
                args=[a.with_changes(value=_sorted(a.value)) if a is target else a for a in call.args]
            )
    else:

        def change(expression: cst.CSTNode) -> cst.CSTNode:
            return _sorted(expression)  # type: ignore[arg-type]

    return _Action(
        d.path, ("sorted", d.span), planner.applicability(d.code), "Wrap the set in `sorted(...)`",
        lambda m: fixes.rewrite(m, d.span, change, (type(node),)),
    )


def _set_order_available(planner: _Planner, d: Diagnostic) -> Optional[bool]:
    if _field(d, "variant") == "pop":
        return False
    return not (_field(d, "variant") is None and _field(d, "function") == "zip")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.split(".")[-1]).lower()


def _plan_worker_seed(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    """RPL403: ``worker_init_fn=<a generated function that reseeds the dataset's own
    generators from the worker's seed>``."""
    attrs = tuple(_field(d, "attributes") or ())
    numpy_global = bool(_field(d, "numpy_global"))
    dataset = _field(d, "dataset")
    if not dataset or not attrs and not numpy_global:
        return None
    name = f"seed_{_snake(str(dataset))}_worker"
    stop = planner.import_stop(d.path)

    def apply(m: cst.Module) -> cst.Module:
        torch, imports = _binding(m, "torch")
        numpy = None
        if numpy_global:
            numpy, more = _binding(m, "numpy")
            imports += more
        if torch is None or numpy_global and numpy is None:
            return m
        source = fixes.worker_seed_source(name, torch, attrs, numpy)
        m = fixes.rewrite(
            m, d.span, lambda c: fixes.add_keyword(c, "worker_init_fn", cst.Name(name))  # type: ignore[arg-type]
        )
        return fixes.add_imports(fixes.ensure_function(m, name, source, stop), imports)

    return _Action(
        d.path, ("worker_init_fn", d.span), planner.applicability(d.code),
        f"Pass `worker_init_fn={name}`, which reseeds the dataset's generators per worker", apply,
    )


def _plan_set_epoch(planner: _Planner, d: Diagnostic) -> Optional[_Action]:
    """RPL404: ``sampler.set_epoch(epoch)`` first in the epoch loop.

    The sampler must be bound to a name (or ``self.<attr>``) and an epoch loop must
    follow it in the same function: the first ``for <name> in ...`` after it whose name
    contains "epoch", else the first ``for <name> in range(...)`` holding another loop.
    """
    if _field(d, "variant") is not None:
        return None  # seeded from the rank: the seed itself must change
    module = planner.module(d.path)
    if module is None:
        return None

    def locate(m: cst.Module) -> Optional[tuple[cst.For, str]]:
        located = fixes.find_call(m, d.span)
        if located is None:
            return None
        statement = located.statement()
        if not isinstance(statement, cst.SimpleStatementLine) or not isinstance(statement.body[0], cst.Assign):
            return None
        assign = statement.body[0]
        if assign.value is not located.node or len(assign.targets) != 1:
            return None
        target = _code(assign.targets[0].target)
        if not re.fullmatch(r"(self\.)?\w+", target):
            return None
        scope: cst.CSTNode = m
        for parent in located.parents:
            if isinstance(parent, (cst.FunctionDef, cst.Module)):
                scope = parent
        after = False
        epoch_loops, range_loops = [], []
        for node, parents in fixes.walk(scope):
            if node is statement:
                after = True
            if not after or not isinstance(node, cst.For) or not isinstance(node.target, cst.Name):
                continue
            if any(isinstance(p, cst.FunctionDef) and p is not scope for p in parents):
                continue
            if "epoch" in node.target.value.lower():
                epoch_loops.append(node)
            elif (
                isinstance(node.iter, cst.Call) and _code(node.iter.func) == "range"
                and any(isinstance(n, cst.For) for n, _ in fixes.walk(node.body))
            ):
                range_loops.append(node)
        loops = epoch_loops or range_loops
        if not loops:
            return None
        return loops[0], f"{target}.set_epoch({loops[0].target.value})"  # type: ignore[union-attr]

    found = locate(module)
    if found is None:
        return None

    def apply(m: cst.Module) -> cst.Module:
        located = locate(m)
        if located is None:
            return m
        loop, line = located
        return fixes.replace_nodes(m, {id(loop): lambda node: fixes.ensure_at_loop_top(node, line, m)})  # type: ignore[arg-type]

    return _Action(
        d.path, ("set_epoch", d.span), planner.applicability(d.code),
        f"Call `{found[1]}` at the start of each epoch", apply,
    )


_PLANNERS: dict[str, Callable[[_Planner, Diagnostic], Optional[_Action]]] = {
    "RPL101": _plan_unseeded_global,
    "RPL102": _plan_instance,
    "RPL103": _plan_entropy_seed,
    "RPL104": _plan_conditional,
    "RPL105": _plan_partial,
    "RPL203": _plan_cudnn_benchmark,
    "RPL301": _plan_determinism,
    "RPL302": _plan_determinism,
    "RPL303": _plan_determinism,
    "RPL304": _plan_determinism,
    "RPL306": _plan_framework,
    "RPL401": _plan_set_order,
    "RPL402": _plan_listing,
    "RPL403": _plan_worker_seed,
    "RPL404": _plan_set_epoch,
}


# ----------------------------------------------------------------------------- availability
#
# `check` in text, concise or GitHub format shows only whether a finding is fixable and
# at which level (the summary line). A planner that decides without parsing (RPL105,
# RPL306, RPL402, RPL403) answers that itself: its action, not yet applied, is the
# answer. The tests below are for planners that parse the file to decide; they answer
# from the facts and the finding's data without libcst, and None means "cannot tell
# cheaply" (the planner is asked: a parse, no transform). tests/test_fix_lazy.py checks
# on the corpus and every rule example that the answers equal what realising gives.


def _reported_programs(planner: _Planner, d: Diagnostic) -> list["Program"]:
    """The programs an RPL101 finding names (one finding, one fix)."""
    programs = planner.programs_reaching(d.path, d.span)
    return [p for p in programs if not d.entry_points or p.entry in d.entry_points]


def _unseeded_global_available(planner: _Planner, d: Diagnostic) -> Optional[bool]:
    if _field(d, "variant") == "spawn":
        return False  # the seed belongs inside the worker, with its rank: by hand
    programs = _reported_programs(planner, d)
    if not programs:
        return False
    if planner.entry_available(programs[0]):
        return True
    return None  # maybe a move of the seeding call in the same file


def _instance_available(planner: _Planner, d: Diagnostic) -> Optional[bool]:
    callee = _field(d, "call")
    if not callee:
        return None
    callee = str(callee)
    if callee.split(".")[-1] == "SystemRandom" or str(_field(d, "variant")).startswith("env-"):
        return False  # SystemRandom ignores seeds; an environment's seed goes in its first reset only
    no_arguments = _field(d, "variant") in (None, "reseed")  # `{call}()`
    if callee.split(".")[-1] in _METHOD_SEEDS and "." in callee and no_arguments:
        if not planner.is_statement(d.path, d.span):
            return False
    return True  # the call gets its seed (and, hooks, each program lacking it `install()`)


def _entropy_seed_available(planner: _Planner, d: Diagnostic) -> Optional[bool]:
    dest = _field(d, "option")
    if not dest:
        return True  # the reported call gets the configured seed
    return any(dest in facts.arg_entropy for facts in planner.ctx.facts.values())


_AVAILABLE: dict[str, Callable[[_Planner, Diagnostic], Optional[bool]]] = {
    "RPL101": _unseeded_global_available,
    "RPL102": _instance_available,
    "RPL103": _entropy_seed_available,
    "RPL203": lambda planner, d: True,
    "RPL301": _determinism_available,
    "RPL302": _determinism_available,
    "RPL303": _determinism_available,
    "RPL304": _determinism_available,
    "RPL401": _set_order_available,
}


def _realise_all(planner: _Planner, action: _Action) -> tuple[list[tuple[str, tuple[Edit, ...]]], list[str]]:
    """(path, edits) of an action and of the same fix for the other programs, one entry
    per file (two programs sharing an entry point share its edits), and the files where
    the fix could not be made (each planned action has something to do)."""
    files: dict[str, tuple[Edit, ...]] = {}
    failed: list[str] = []
    for one in (action, *action.also):
        edits = planner.realise(one)
        if edits and one.path not in files:
            files[one.path] = edits
        elif not edits and one.path not in failed:
            failed.append(one.path)
    return list(files.items()), [path for path in failed if path not in files]


def attach_fixes(
    diagnostics: Sequence[Diagnostic],
    ctx: "CheckContext",
    sources: Mapping[str, str],
    edits: bool = True,
) -> list[Diagnostic]:
    """The diagnostics with their ``fix`` planned (rules with a fix level only).

    ``edits=False``: only whether each finding has a fix and its level (what the text
    formats show); the fix carries the rule's title and no edits, and nothing is
    transformed (see ``_Planner.available``).
    """
    from reprolint.checks.base import get_rule

    planner: Optional[_Planner] = None
    out = []
    for d in diagnostics:
        rule = get_rule(d.code)
        if d.fix is not None or rule is None or rule.fix_applicability is None:
            out.append(d)
            continue
        title = (rule.fix_title or "").split("{")[0].strip() or "Fix"
        if rule.fix_applicability is Applicability.DISPLAY_ONLY:
            out.append(replace(d, fix=Fix(rule.fix_applicability, title)))
            continue
        planner = planner or _Planner(ctx, sources)
        if not edits:
            try:
                available = planner.available(d)
            except Exception:  # noqa: BLE001 - a planning bug must never break `check`
                if os.environ.get("REPROLINT_FIX_STRICT"):
                    raise
                available = False
            out.append(replace(d, fix=Fix(rule.fix_applicability, title)) if available else d)
            continue
        try:
            action = planner.plan(d)
            files, failed = _realise_all(planner, action) if action is not None else ([], [])
        except Exception:  # noqa: BLE001 - a planning bug must never break `check`
            if os.environ.get("REPROLINT_FIX_STRICT"):
                raise
            action, files, failed = None, [], []
        if action is None or not files:
            out.append(d)
            continue
        (path, changes), *more = files
        shown = next((c for p, c in files if p == d.path), ())
        title = action.title
        if more:
            where = ", ".join(p for p, _ in files)
            title = f"{title} (in each program that runs it: {where})"
        if failed and action.also:  # a finding several programs share, not fixable in all
            title = f"{title}; still needs a change by hand in {', '.join(failed)}"
        fix = PlannedFix(action.applicability, title, shown, path=path, changes=changes, more=tuple(more))
        out.append(replace(d, fix=fix))
    return out


# ----------------------------------------------------------------------------- applying


