"""What a rule's fix is made of: an action (a codemod bound to its target) and the
planner that gives rules what they need to plan one for the current project state.

A rule with a fix registers its planner next to its detection, in its own module::

    @MyRule.fix_planner
    def _plan(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]: ...

The planner reads the finding's data (``d.data``, ``entry_points``), never its message.
:func:`reprolint.fixing.attach_fixes` asks the finding's rule for its action, applies it
alone to the original module and turns the difference into the diagnostic's edits.
Each action is idempotent (it looks for its own result before adding it).
"""

from __future__ import annotations

import contextvars
import re

from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Protocol, Sequence

import libcst as cst

from reprolint import fixes
from reprolint.analysis.facts import Call, Draw, Guard, Import
from reprolint.fixes.edits import FixError, check_parses, diff_edits
from reprolint.model import Applicability, Diagnostic, Edit, Span

if TYPE_CHECKING:
    from reprolint.analysis.context import CheckContext
    from reprolint.analysis.program import Program

__all__ = [
    "FIX_PROBLEMS",
    "STYLES",
    "FixAction",
    "FixPlanner",
    "RuleFixHooks",
    "binding",
    "data_field",
    "literal_seed",
    "has_statement",
    "node_code",
    "sorted_call",
    "together",
]

STYLES = ("hooks", "inline")
# "tensorflow1": TensorFlow 1, whose seeding call is `tf.set_random_seed` (it has no
# `tf.random.set_seed`); a program that runs TF 1 gets it (tf_seed_library)
LIBRARY_ORDER = ("random", "numpy", "torch", "tensorflow", "tensorflow1", "keras")


def tf_seed_library(program: "Program") -> str:
    """The seeding id of a program's TensorFlow: "tensorflow1" where it runs TF 1 (calls
    its API, or declares it: analysis.tf_versions.old_keras), else "tensorflow"."""
    return "tensorflow1" if program.old_keras == "tf1" else "tensorflow"

# Problems met while planning (fixes dropped because they would not parse), collected
# for the `fix` command's report; None outside a fix run.
FIX_PROBLEMS: contextvars.ContextVar[Optional[list[str]]] = contextvars.ContextVar(
    "reprolint_fix_problems", default=None
)


@dataclass(frozen=True)
class FixAction:
    path: str
    key: tuple[Any, ...]
    applicability: Applicability
    title: str
    apply: Callable[[cst.Module], cst.Module] = field(compare=False, hash=False, repr=False)
    # The same fix for the other programs the finding concerns (their own entry points).
    also: tuple["FixAction", ...] = field(default=(), compare=False, hash=False, repr=False)


def together(actions: Sequence[Optional["FixAction"]]) -> Optional["FixAction"]:
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
    if len(unique) == 1:
        return unique[0]
    # One fix: as safe as its least safe part.
    level = Applicability.UNSAFE if any(a.applicability is Applicability.UNSAFE for a in unique) else unique[0].applicability
    return replace(unique[0], applicability=level, also=tuple(unique[1:]))


# ----------------------------------------------------------------------------- planning


def node_code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def has_statement(block: cst.CSTNode, statement: str) -> bool:
    """Whether a line of ``block`` is the one-line ``statement`` (a trailing comment
    allowed). By line, not by text: ``random.seed(0)`` is not in a block that holds
    ``np.random.seed(0)``."""
    return any(line.strip().startswith(statement) for line in node_code(block).splitlines())


def data_field(d: Diagnostic, name: str) -> Any:
    """A field of the finding's data (what its message is rendered from): fixes read
    these, never the message text."""
    return d.data.get(name)


def literal_seed(seed: int) -> cst.BaseExpression:
    return cst.Integer(str(seed))


def binding(module: cst.Module, dotted: str) -> tuple[Optional[str], list[fixes.ImportItem]]:
    """How the module names ``dotted`` (``import dotted`` added where it has no name)."""
    name = fixes.module_binding(module, dotted)
    if name is not None:
        return name, []
    if dotted in fixes.top_level_bindings(module):
        return None, []  # the plain name means something else here
    return dotted, [fixes.ImportItem(dotted)]


def sorted_call(expression: cst.BaseExpression, key: Optional[str] = None) -> cst.BaseExpression:
    """``sorted(expression)`` (with ``key=`` when given)."""
    wrapped = fixes.wrap_call(expression, "sorted")
    if key is not None and isinstance(wrapped, cst.Call) and len(wrapped.args) == 1:
        wrapped = fixes.add_keyword(wrapped, "key", cst.parse_expression(key))
    return wrapped


class RuleFixHooks(Protocol):
    """What the planner reads of a rule (a ``reprolint.checks.base.Rule`` class): its
    declared fix level and the hooks registered next to its detection."""

    fix_applicability: Optional[Applicability]
    plan_fix: Optional[Callable[..., Any]]
    fix_precheck: Optional[Callable[..., Optional[bool]]]
    fix_level: Optional[Callable[..., Any]]


class FixPlanner:
    """Plans and realises the actions for one checked project state.

    The rules are the caller's (the fixes never import them): ``rule_of`` gives a
    finding's rule by code, ``op_findings`` the op call sites of the check (the torch op
    rules' findings, RPL201/RPL202), from which the planner tells where deterministic
    mode can make a program fail.
    """

    def __init__(
        self,
        ctx: "CheckContext",
        sources: Mapping[str, str],
        rule_of: Callable[[str], Optional[RuleFixHooks]],
        op_findings: Callable[["CheckContext"], Iterable[Any]],
    ) -> None:
        self.ctx = ctx
        self.sources = sources
        self.rule_of = rule_of
        self.op_findings = op_findings
        self.settings = ctx.settings
        self.seed = ctx.settings.seed
        self.style = ctx.settings.fix_style if ctx.settings.fix_style in STYLES else "hooks"
        self._modules: dict[str, Optional[cst.Module]] = {}
        self._realised: dict[tuple[Any, ...], tuple[Edit, ...]] = {}
        self._draws_on_import: dict[str, bool] = {}
        self._lines: dict[str, list[str]] = {}
        self._lost_tails: dict[str, str] = {}

    # -- helpers
    def module(self, path: str) -> Optional[cst.Module]:
        if path not in self._modules:
            source = self.sources.get(path)
            try:
                self._modules[path] = cst.parse_module(source) if source is not None else None
            except Exception:  # noqa: BLE001 - an unparsable file has no fixes
                self._modules[path] = None
        return self._modules[path]

    def lost_tail(self, path: str, module: cst.Module, source: str) -> str:
        """The line ending libcst's round trip leaves off the end of ``source`` ("" when
        none). Measured: libcst 1.x drops the last line's ending of a file whose lines end
        in a lone "\r". (Other bytes it does not give back, form feeds, stay untouched:
        edits are diffed line by line against ``source``.)"""
        if path not in self._lost_tails:
            again = module.code
            ending = re.search(r"(?:\r\n|\r|\n)\Z", source)
            lost = ending is not None and not again.endswith(ending.group())
            self._lost_tails[path] = ending.group() if lost else ""
        return self._lost_tails[path]

    @staticmethod
    def realise_key(action: FixAction) -> tuple[Any, ...]:
        """What ``realise`` memoises an action's edits under."""
        return (action.path, *action.key)

    def realised(self, key: tuple[Any, ...]) -> bool:
        return key in self._realised

    def remember(self, key: tuple[Any, ...], edits: tuple[Edit, ...]) -> None:
        """Edits realised elsewhere (a worker process) for the action of ``key``."""
        self._realised[key] = edits

    def realise(self, action: FixAction) -> tuple[Edit, ...]:
        key = self.realise_key(action)
        if key in self._realised:
            return self._realised[key]
        module = self.module(action.path)
        source = self.sources.get(action.path)
        edits: tuple[Edit, ...] = ()
        if module is not None and source is not None:
            try:
                tail = self.lost_tail(action.path, module, source)
                code = action.apply(module).code
                if tail and not code.endswith(tail):
                    code += tail
                if code != source:
                    check_parses(code, source, action.path, libcst_too=False)
                    edits = diff_edits(source, code)
            except FixError as exc:
                problems = FIX_PROBLEMS.get()
                if problems is not None:
                    problems.append(f"{action.path}: fix dropped ({action.title}): {exc}")
            except LookupError:
                edits = ()
        self._realised[key] = edits
        return edits

    def plan(self, d: Diagnostic) -> Optional[FixAction]:
        """The fix the finding's rule plans for it (its ``plan_fix`` hook), or None."""
        rule = self.rule_of(d.code)
        if rule is None or rule.plan_fix is None or d.path not in self.sources:
            return None  # (no text: a file read as Python 2 is never rewritten)
        action = rule.plan_fix(self, d)
        return action if action is None or action.path in self.sources else None

    def available(self, d: Diagnostic) -> bool:
        """Whether ``plan`` + ``realise`` would give ``d`` a fix, without computing it.

        The rule's ``fix_precheck`` (next to its planner) answers from the facts, the programs and the finding's data (no libcst
        parse, no transform); a test that cannot tell (None) falls back to planning,
        which parses the file but still transforms nothing.
        """
        rule = self.rule_of(d.code)
        if rule is None or rule.plan_fix is None or d.path not in self.sources:
            return False
        test = rule.fix_precheck
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
        """The level the rule declares for its fix (its usual one)."""
        rule = self.rule_of(code)
        return rule.fix_applicability if rule and rule.fix_applicability else Applicability.UNSAFE

    def level(self, d: Diagnostic) -> Applicability:
        """The level of the fix for this finding: the rule's ``fix_level`` hook where the
        level depends on the program (``@MyRule.fix_leveller``), else the declared one."""
        rule = self.rule_of(d.code)
        hook = rule.fix_level if rule is not None else None
        return hook(self, d) if hook is not None else self.applicability(d.code)

    @staticmethod
    def safe_if(safe: bool) -> Applicability:
        """SAFE when every run of the fixed program is one the original could have
        produced; UNSAFE otherwise (see SPEC's fix section)."""
        return Applicability.SAFE if safe else Applicability.UNSAFE

    def runs_raising_op(self, entry: str) -> bool:
        """Whether the program of ``entry`` runs an op that has no deterministic
        implementation (an RPL202 site, or any TensorFlow program): deterministic mode
        can make it fail there."""
        memo = self.ctx.memo.setdefault("fix.raising_ops", {})
        if entry not in memo:
            program = next((p for p in self.ctx.programs if p.entry == entry), None)
            # TensorFlow's op determinism raises for ops it has no deterministic kernel
            # for, and no catalog here lists them: a TF program counts as one that may.
            tf = program is not None and bool({"tensorflow", "keras"} & set(self.libraries(program)))
            memo[entry] = tf or any(
                f.code == "RPL202" and (not f.entry_points or entry in f.entry_points)
                for f in self.op_findings(self.ctx)
            )
        return bool(memo[entry])

    def entry_level(self, entry: str) -> Applicability:
        """The level of seeding at ``entry``: ``install()`` (style hooks) also turns
        deterministic mode on, which can fail where an op without a deterministic
        implementation runs; ``seed_everything`` (inline) only seeds."""
        return self.safe_if(self.style != "hooks" or not self.runs_raising_op(entry))

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
        callee = node_code(located.node.func) if isinstance(located.node, cst.Call) else "?"
        same = [
            n for n, _ in fixes.walk(scope_node)
            if isinstance(n, cst.Call) and node_code(n.func) == callee
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
        if "tensorflow" in libs and tf_seed_library(program) == "tensorflow1":
            libs.discard("tensorflow")
            libs.add("tensorflow1")
        return [lib for lib in LIBRARY_ORDER if lib in libs]

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
                    out.extend(node_code(a.name) for a in node.names)
                elif isinstance(node, cst.ImportFrom):
                    base = "." * len(node.relative) + (node_code(node.module) if node.module else "")
                    out.append(base)
                    if not isinstance(node.names, cst.ImportStar):
                        sep = "." if node.module else ""
                        out.extend(f"{base}{sep}{node_code(a.name)}" for a in node.names)
            return out

        def stop(statement: cst.CSTNode) -> bool:
            for dotted in modules(statement):
                for found in self.ctx.index.package_chain(entry, dotted):
                    if found != entry and self.draws_on_import(found):
                        return True
            return False

        return stop
