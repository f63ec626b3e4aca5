"""Dispatch by name: a call whose callee is picked by a name known only when the
program runs.

- ``models.__dict__[args.arch](...)``, ``vars(models)[name](...)``,
  ``getattr(models, name)(...)``: a member of a project module (a package's members
  include what its ``from .x import *`` brings in);
- ``MODELS[args.model](...)``: an entry of a dict literal of names to project functions or
  classes, in this module or imported from another (``from models import *``).

- ``hydra.utils.instantiate(cfg.model)``, ``instantiate_from_config(config.model)``: the
  project class or function a configuration node's ``_target_``/``target`` names, in the
  configuration the module loads on a default run (:func:`instantiated`).

The fact pass records such a call with the key's value tree (:func:`dispatched_calls`,
:func:`note_table`); each program's walk resolves it (:func:`expand`) to one call per
candidate, each under the condition ``<key> == "<name>"`` (a ``named`` comparison). With
a literal key or an option's default the program reaches exactly that candidate (the
others are on branches the default run skips); with a key no default decides, it may
reach any of them: each may run (its draws count), but none surely runs, so the rules
that report what a default run surely reaches (ops, listings, samplers:
``Program.skips``) leave them out.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, TypeVar

import libcst as cst

from reprolint.analysis import config_files
from reprolint.analysis.cst_helpers import descendants, find_argument, literal
from reprolint.analysis.module_facts import Call, Cond
from reprolint.analysis.values import UNKNOWN

if TYPE_CHECKING:
    from reprolint.analysis.module_facts import ModuleFacts
    from reprolint.analysis.project_index import ProgramIndex

__all__ = [
    "INSTANTIATE", "KEY", "REGISTERED", "dispatched_calls", "emit_calls", "emit_registry", "expand", "instantiated",
    "instantiated_node", "instantiated_usages", "instantiates", "is_dispatch", "module_member", "note_binding",
    "note_instantiator", "note_registered", "note_table", "registry_call",
]

# The binding that carries a dispatched call's key: (value tree, source text).
KEY = "?key"
_MEMBERS = ".*"  # target suffix: any member of the module before it
_ENTRIES = "[*]"  # target suffix: any entry of the dict table before it
_SUBMODULES = ".*."  # target infix: a member of any module of the package before it
_REGISTRY = "@registered"  # target: any function or class a registry decorator records
# target prefix of one registered candidate: it is in the registry only once the program
# has imported its module (the walker skips it before)
REGISTERED = "@:"


def module_member(
    collector: Any, func: cst.BaseExpression, getattr_args: tuple[int, ...] = (2, 3),
) -> Optional[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(owner, key) of a module member picked by a run-time name: ``owner.__dict__[key]``,
    ``vars(owner)[key]``, ``getattr(owner, key)`` (with as many arguments as
    ``getattr_args`` allows)."""
    if type(func) is cst.Subscript and len(func.slice) == 1 and type(func.slice[0].slice) is cst.Index:
        key = func.slice[0].slice.value  # type: ignore[attr-defined]
        held = func.value
        if type(held) is cst.Attribute and held.attr.value == "__dict__":
            return held.value, key
        if collector._builtin_call(held, "vars") and len(held.args) == 1:
            return held.args[0].value, key
        return None
    if collector._builtin_call(func, "getattr") and len(func.args) in getattr_args:  # type: ignore[attr-defined]
        return func.args[0].value, func.args[1].value  # type: ignore[attr-defined]
    return None


def _owner_and_key(collector: Any, func: cst.BaseExpression) -> Optional[tuple[cst.BaseExpression, cst.BaseExpression, bool]]:
    """(owner, key, is_module) of a module's member (:func:`module_member`; ``getattr``
    without a default) or ``owner[key]`` (a table's entry)."""
    member = module_member(collector, func, getattr_args=(2,))
    if member is not None:
        return (*member, True)
    if type(func) is cst.Subscript and len(func.slice) == 1 and type(func.slice[0].slice) is cst.Index \
            and type(func.value) is cst.Name:
        return func.value, func.slice[0].slice.value, False  # type: ignore[attr-defined]
    return None


def emit_calls(collector: Any, node: cst.Call) -> bool:
    """Emit the calls of a dispatch by name at ``node``; False when it is none."""
    calls = dispatched_calls(collector, node)
    for call in calls or ():
        collector.emit(call)
    return calls is not None


# Runners that parse absl flags and then call the program's main function.
_APP_RUNNERS = frozenset({
    "absl.app.run", "tensorflow.app.run", "tensorflow.compat.v1.app.run", "tensorflow.python.platform.app.run",
})
# Command-line runners that parse the arguments and call the function given first with
# them (read in each library's source): typer, tyro, jsonargparse, defopt, and sensai's
# logging wrappers (`logging.run_cli(main)` configures logging, then calls `main`).
_CLI_RUNNERS = frozenset({
    "typer.run", "tyro.cli", "jsonargparse.CLI", "jsonargparse.auto_cli", "defopt.run",
    "sensai.util.logging.run_cli", "sensai.util.logging.run_main",
})


def emit_app_run(collector: Any, node: cst.Call, qn: Optional[str]) -> bool:
    """``app.run(main)`` / ``tf.app.run()``: absl parses the flags, then calls the function
    it is given (the module's ``main`` when none is), so its body runs there; the same for
    the other command-line runners (``typer.run(main)``, ``logging.run_cli(main)``)."""
    if qn in _CLI_RUNNERS:
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return False
        target = collector.call_target(node.args[0].value)
        if target is not None:
            collector.emit(Call(target, collector.span(node), collector.text(node.func), None, None,
                                collector.current_conds(), ()))
        return True
    if qn not in _APP_RUNNERS:
        return False
    given = find_argument(node, "main", 0)
    target = collector.call_target(given.value if given is not None else cst.Name("main"))
    if target is not None:
        collector.emit(Call(target, collector.span(node), collector.text(node.func), None, None,
                            collector.current_conds(), ()))
    return True


def dispatched_calls(collector: Any, node: cst.Call) -> Optional[list[Call]]:
    """The calls a dispatch by name at ``node`` stands for, or None when ``node`` is no
    dispatch into project code. (Runs for every call: what a dispatch needs is made only
    once the call is one.)"""
    func = node.func
    if type(func) is cst.Attribute:
        # `module.Model(...)` of `module = importlib.import_module(...)`, or inline
        imported = collector.dict_value(func.value.value) if type(func.value) is cst.Name else func.value
        if _imports_by_name(collector, imported):
            return _imported_member_calls(collector, imported.args[0].value, func.attr.value, *_site(collector, node))
        return None
    found = _owner_and_key(collector, func)
    if found is None:
        return None
    owner, key, is_module = found
    if not is_module:
        table = collector.dict_value(owner.value)  # type: ignore[attr-defined]
        if table is not None:  # a dict written in this module: its entries are known here
            return _table_calls(collector, table, key, *_site(collector, node))
        if collector.is_local(owner.value):  # type: ignore[attr-defined]
            return None
    target = collector.call_target(owner)
    if target is None:
        return None
    span, text, conds, bindings = _site(collector, node)
    name = literal(key)
    if is_module and isinstance(name, str) and name.isidentifier():
        return [Call(f"{target}.{name}", span, text, None, None, conds, bindings)]
    keyed = (*bindings, (KEY, _key(collector, key)))
    return [Call(target + (_MEMBERS if is_module else _ENTRIES), span, text, None, None, conds, keyed)]


def _key(collector: Any, key: cst.BaseExpression) -> tuple[Any, str, Optional[str]]:
    """A dispatch key as its calls carry it: (value tree, text, the pattern every name
    it can make matches, or None). A key built from text around a value
    (``f"Generator{resolution}"``, ``"resnet" + depth``) names only the members that
    start and end with that text."""
    return collector.value_tree(key), collector.text(key), _name_pattern(key)


def _name_pattern(key: cst.BaseExpression) -> Optional[str]:
    if type(key) is cst.FormattedString:
        parts = [re.escape(p.value) if type(p) is cst.FormattedStringText else ".*" for p in key.parts]
        return "".join(parts) if any(type(p) is cst.FormattedStringText for p in key.parts) else None
    if type(key) is cst.BinaryOperation and type(key.operator) is cst.Add:
        left, right = literal(key.left), literal(key.right)
        if isinstance(left, str) and left != UNKNOWN:
            return re.escape(left) + ".*"
        if isinstance(right, str) and right != UNKNOWN:
            return ".*" + re.escape(right)
    return None


def _imports_by_name(collector: Any, node: Any) -> bool:
    """``importlib.import_module(<one argument>)``."""
    if type(node) is not cst.Call or len(node.args) != 1 or node.args[0].star:
        return False
    func = node.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else None
    return last == "import_module" and collector.qualify(func) == "importlib.import_module"


def _site(collector: Any, node: cst.Call) -> tuple[Any, str, tuple[Cond, ...], tuple[tuple[str, Any], ...]]:
    """Where a dispatched call is, as its calls carry it: span, text, conditions, bindings."""
    return collector.span(node), collector.text(node.func), collector.current_conds(), collector._bindings(node)


def _imported_member_calls(
    collector: Any, spec: cst.BaseExpression, member: str, span: Any, text: str,
    conds: tuple[Cond, ...], bindings: tuple[tuple[str, Any], ...],
) -> Optional[list[Call]]:
    """``importlib.import_module(<spec>).<member>(...)``: with a literal module name, that
    module's member; with ``"models." + name`` or ``f"models.{name}"``, the member of
    each module of the package ``models`` under ``name == "<module>"``."""
    name = literal(spec)
    if isinstance(name, str) and name != UNKNOWN:
        return [Call(f"{name}.{member}", span, text, None, None, conds, bindings)]
    prefix: Any = None
    key: Optional[cst.BaseExpression] = None
    if type(spec) is cst.BinaryOperation and type(spec.operator) is cst.Add:
        prefix, key = literal(spec.left), spec.right  # UNKNOWN does not end with "."
    elif type(spec) is cst.FormattedString and len(spec.parts) == 2 \
            and type(spec.parts[0]) is cst.FormattedStringText and type(spec.parts[1]) is cst.FormattedStringExpression:
        prefix, key = spec.parts[0].value, spec.parts[1].expression
    if not isinstance(prefix, str) or not prefix.endswith(".") or key is None:
        return None
    keyed = (*bindings, (KEY, (collector.value_tree(key), collector.text(key))))
    return [Call(f"{prefix[:-1]}{_SUBMODULES}{member}", span, text, None, None, conds, keyed)]


def _table_calls(
    collector: Any, table: cst.BaseExpression, key: cst.BaseExpression, span: Any, text: str,
    conds: tuple[Cond, ...], bindings: tuple[tuple[str, Any], ...],
) -> Optional[list[Call]]:
    pairs = ((name, target) for name, value in _entries(table) for target in [collector.call_target(value)] if target)
    calls = [
        Call(target, span, text, None, None, (*conds, cond), bindings)
        for target, cond in _picks(collector.value_tree(key), collector.text(key), pairs)
    ]
    return calls or None


_Candidate = TypeVar("_Candidate")


def _picks(tree: Any, key_text: str, pairs: Iterable[tuple[str, _Candidate]]) -> Iterator[tuple[_Candidate, Cond]]:
    """Each candidate of ``pairs`` (name, candidate), in the order first named, with the
    condition under which the dispatch picks it: the key is one of the names that pick it
    (several when a module-level name stands for another: `mae_vit_base = mae_vit_base_dec512`).
    A key whose value is none of the names picks one the analysis does not see (a name
    made at run time): any candidate may run, none surely does."""
    picks: dict[_Candidate, list[str]] = {}
    for name, candidate in pairs:
        picks.setdefault(candidate, []).append(name)
    names = tuple(name for found in picks.values() for name in found)
    for candidate, found in picks.items():
        text = f"{key_text} == {found[0]!r}" if len(found) == 1 else f"{key_text} in {tuple(found)!r}"
        yield candidate, Cond(("cmp", tree, "named", tuple(found), names), True, text)


def _entries(table: cst.BaseExpression) -> Iterator[tuple[str, cst.BaseExpression]]:
    """The ``"name": callee`` entries of a dict literal (``{...}`` or ``dict(name=...)``)
    whose callee is a name or a dotted name."""
    if type(table) is cst.Dict:
        for element in table.elements:
            if type(element) is cst.DictElement:
                name = literal(element.key)
                if isinstance(name, str) and name != UNKNOWN and type(element.value) in (cst.Name, cst.Attribute):
                    yield name, element.value
    elif type(table) is cst.Call and type(table.func) is cst.Name and table.func.value == "dict":  # type: ignore[attr-defined]
        for arg in table.args:  # type: ignore[attr-defined]
            if arg.keyword is not None and type(arg.value) in (cst.Name, cst.Attribute):
                yield arg.keyword.value, arg.value


def note_binding(collector: Any, name: str, value: cst.BaseExpression, is_dict: bool) -> None:
    """A name bound to a module imported by a run-time name (``module =
    importlib.import_module(f"models.{args.model}")``) is kept with the collector's dict
    literals, for the calls of its members; a module-level dict is recorded as a table."""
    if _imports_by_name(collector, value):
        collector.scope.dicts[name] = value
    note_table(collector, name, value if is_dict else None)
    if collector.scope is collector.scopes[0]:
        target = collector.call_target(value) if type(value) is cst.Name else None
        if target is not None and target.startswith(":"):  # `mae_vit_base = mae_vit_base_dec512`
            collector.facts.aliases[name] = target
        else:
            collector.facts.aliases.pop(name, None)


def note_table(collector: Any, name: str, value: Optional[cst.BaseExpression]) -> None:
    """Record a module-level dict of names to project callables (``MODELS = {"vae":
    VanillaVAE, ...}``), for the modules that import it; None: the name is rebound to
    something else."""
    if collector.scope is not collector.scopes[0]:
        return
    entries = () if value is None else tuple(
        (key, target) for key, callee in _entries(value)
        for target in [collector.call_target(callee)] if target is not None
    )
    if entries:
        collector.facts.tables[name] = entries
    else:
        collector.facts.tables.pop(name, None)


# ----------------------------------------------------------------------------- per program

def is_dispatch(event: Call) -> bool:
    target = event.target
    return target.endswith((_MEMBERS, _ENTRIES)) or _SUBMODULES in target or target == _REGISTRY


def expand(index: "ProgramIndex", path: str, event: Call) -> Iterator[tuple[Call, tuple[str, str]]]:
    """One (call, resolved callee) per candidate of a dispatched call made in ``path``,
    each under the condition that the key names it."""
    key = next((value for name, value in event.bindings if name == KEY), None)
    if key is None:
        return
    tree, key_text, pattern = key if len(key) == 3 else (*key, None)
    bindings = tuple((name, value) for name, value in event.bindings if name != KEY)
    target = event.target
    if target == _REGISTRY:
        candidates = [
            (name, REGISTERED + qualname, module)
            for module, facts in index.facts.items() for name, qualname in facts.registered.items()
        ]
    elif _SUBMODULES in target:
        package, _, member = target.partition(_SUBMODULES)
        candidates = [(name, f"{package}.{name}.{member}", path) for name in _submodules(index, path, package)]
    elif target.endswith(_MEMBERS):
        owner = target[: -len(_MEMBERS)]
        module = None if owner.startswith(":") else index.resolve_module(path, owner)
        members = _members(index, module, set()) if module else {}
        candidates = [(name, f"{owner}.{member}", path) for name, member in members.items()]
    else:
        candidates = list(_table(index, path, target[: -len(_ENTRIES)]))
    if pattern is not None:  # `getattr(models, f"Generator{resolution}")`: only the Generator* members
        candidates = [c for c in candidates if re.fullmatch(pattern, c[0])]
    # one call per function or class: the names that pick the same one are one candidate
    # (a body runs once, under its first call's conditions)
    targets: dict[tuple[str, str], str] = {}
    pairs = []
    for name, target, where in candidates:
        resolved = index.resolve_call(where, target.replace(REGISTERED, ":", 1))
        if resolved is not None:
            targets.setdefault(resolved, target)
            pairs.append((name, resolved))
    for resolved, cond in _picks(tree, key_text, pairs):
        yield dataclasses.replace(event, target=targets[resolved], conds=(*event.conds, cond), bindings=bindings), resolved


def _submodules(index: "ProgramIndex", path: str, package: str) -> list[str]:
    """The names of the modules in the folder of the project package ``package``."""
    init = index.resolve_module(path, package)
    if init is None or not init.endswith("__init__.py"):
        return []
    folder = init[: -len("__init__.py")]
    return sorted(
        p[len(folder):-3] for p in index.facts
        if p.startswith(folder) and p.endswith(".py") and "/" not in p[len(folder):] and p != init
    )


def _members(index: "ProgramIndex", module: str, seen: set[str]) -> dict[str, str]:
    """A module's public functions and classes, with those its star imports bring in, and
    its module-level names for one of them (``mae_vit_base = mae_vit_base_dec512``):
    name -> the function or class it is."""
    if module in seen or len(seen) > 16:
        return {}
    seen.add(module)
    facts = index.facts[module]
    names = {q: q for q, fn in facts.functions.items() if fn.qualname == q and "." not in q and not q.startswith("_")}
    names.update((c, c) for c in facts.classes if "." not in c and not c.startswith("_"))
    names.update(
        (alias, target[1:]) for alias, target in facts.aliases.items()
        if not alias.startswith("_") and target[1:] in names
    )
    for star in facts.star_imports:
        found = index.resolve_module(module, star)
        if found is not None:
            for name, member in _members(index, found, seen).items():
                names.setdefault(name, member)
    return names


def _table(index: "ProgramIndex", path: str, owner: str) -> Iterator[tuple[str, str, str]]:
    """(key, target, module the target is written in) of the dict table ``owner`` names
    from ``path``: a name of this module or of its star imports (``:MODELS``), or an
    imported name (``models.MODELS``)."""
    if owner.startswith(":"):
        name = owner[1:]
        modules = [path]
        for star in index.facts[path].star_imports:
            found = index.resolve_module(path, star)
            if found is not None:
                modules.append(found)
    else:
        module_name, _, name = owner.rpartition(".")
        found = index.resolve_module(path, module_name) if module_name else None
        modules = [found] if found is not None else []
    for module in modules:
        facts: "ModuleFacts" = index.facts[module]
        table = facts.tables.get(name)
        if table:
            for key, target in table:
                yield key, target, module
            return


# ----------------------------------------------------------------------------- registries

# Factories that build a registered model by its name (``timm.create_model(args.model)``,
# ``build_model(name)``): their first argument (or this keyword) is the registered name.
_FACTORY = re.compile(r"^(create|build|get|make)_(model|network|net|backbone|encoder|detector|classifier)$")
_FACTORY_VERBS = ("create_", "build_", "get_", "make_")
_FACTORY_KEYWORDS = ("model_name", "name", "arch", "model")
# Decorators that record a model under a name (not `register_notrace_module`, `register_buffer`...)
_REGISTERING = re.compile(r"^register(_(model|module|backbone|network|net|arch|architecture|detector|classifier))?$")


def emit_registry(collector: Any, node: cst.Call) -> None:
    """Emit the registry call of a factory call (before what the call itself is: a
    library's draw, or the project's own factory)."""
    registered = registry_call(collector, node)
    if registered is not None:
        collector.emit(registered)


def registry_call(collector: Any, node: cst.Call) -> Optional[Call]:
    """``create_model(args.model, ...)``: the registered function or class the name picks
    (:func:`note_registered`), under ``<key> == "<name>"`` per candidate."""
    func = node.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else None
    if last is None or not last.startswith(_FACTORY_VERBS) or not _FACTORY.match(last):
        return None
    key = next((a.value for a in node.args if a.keyword is None and not a.star), None)
    if key is None:
        key = next((a.value for a in node.args if a.keyword is not None and a.keyword.value in _FACTORY_KEYWORDS), None)
    if key is None:
        return None
    keyed = ((KEY, _key(collector, key)),)
    return Call(_REGISTRY, collector.span(node), collector.text(func), None, None, collector.current_conds(), keyed)


def note_registered(collector: Any, node: Any) -> None:
    """A module-level function or class with a registering decorator (``@register_model``,
    ``@MODELS.register_module()``, ``@registry.register("name")``): recorded under the name
    it registers (the decorator's literal argument, else its own name)."""
    if collector.scope is not collector.scopes[0]:
        return
    for decorator in node.decorators:
        dec = decorator.decorator
        callee = dec.func if type(dec) is cst.Call else dec
        last = callee.attr.value if type(callee) is cst.Attribute else callee.value if type(callee) is cst.Name else ""
        if not _REGISTERING.match(last):
            continue
        name = literal(dec.args[0].value) if type(dec) is cst.Call and dec.args and dec.args[0].keyword is None else None
        collector.facts.registered[name if isinstance(name, str) and name != UNKNOWN else node.name.value] = node.name.value


# ----------------------------------------------------------------------------- configured targets

# target: what the configuration node an instantiation call is given names
# (``hydra.utils.instantiate(cfg.model)``)
INSTANTIATE = "@instantiate"
_INSTANTIATORS = frozenset({"hydra.utils.instantiate", "hydra.utils.call", "hydra.utils._internal.instantiate"})
_TARGET_KEYS = ("_target_", "target")
# modules that can turn a dotted name into the object it names
_IMPORTERS = frozenset({"importlib", "hydra", "pydoc"})


def emit_instantiation(collector: Any, node: cst.Call) -> bool:
    """``hydra.utils.instantiate(cfg.model, ...)`` of a loaded configuration's node: one
    call whose target the program phase reads from the configuration (:func:`instantiated`);
    False when ``node`` is none."""
    func = node.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else None
    if last not in ("instantiate", "call") or not node.args or (collector.qualify(func) or "") not in _INSTANTIATORS:
        return False
    bindings = collector._bindings(node)
    if not any(name == config_files.CONFIG for name, _ in bindings):
        return False
    collector.emit(Call(INSTANTIATE, collector.span(node), collector.text(func), None, None,
                        collector.current_conds(), bindings))
    return True


def note_instantiator(collector: Any, node: cst.FunctionDef, function: Any) -> None:
    """A project function that builds what its first parameter's ``target`` key names
    (``def instantiate_from_config(config): ... get_obj_from_str(config["target"])``), in a
    module that can import by a dotted name (importlib, hydra, pydoc)."""
    if not _IMPORTERS & collector.uses:
        return
    params = [p.name.value for p in (*node.params.posonly_params, *node.params.params)]
    params = params[1:] if params[:1] in (["self"], ["cls"]) else params
    if not params:
        return
    function.instantiates = any(_reads_target(inner, params[0]) for inner in descendants(node.body))


def _reads_target(node: cst.CSTNode, name: str) -> bool:
    """``name["target"]``, ``name.target`` (or ``_target_``)."""
    if type(node) not in (cst.Subscript, cst.Attribute) or type(node.value) is not cst.Name \
            or node.value.value != name:  # type: ignore[attr-defined]
        return False
    key = config_files.config_key(node) if type(node) is cst.Subscript else node.attr.value  # type: ignore[arg-type, attr-defined]
    return key in _TARGET_KEYS


def instantiates(index: "ProgramIndex", event: Call, resolved: Optional[tuple[str, str]]) -> bool:
    """Whether ``event`` builds what a configuration node it is given names."""
    if event.target == INSTANTIATE:
        return True
    if resolved is None or not any(name == config_files.CONFIG for name, _ in event.bindings):
        return False
    function = index.facts[resolved[0]].functions.get(resolved[1])
    return function is not None and function.instantiates


def instantiated_node(index: "ProgramIndex", path: str, event: Call) -> Optional[dict]:
    """The configuration node an instantiation call is given, as the module's configuration
    reads on a default run (what :func:`instantiated` and :func:`instantiated_usages` read)."""
    keys = next((value[1] for name, value in event.bindings if name == config_files.CONFIG), None)
    facts = index.facts[path]
    node = config_files.config_node(path, tuple(facts.config_sources), facts.arg_defaults, keys) if keys else None
    return node if isinstance(node, dict) else None


def instantiated_usages(event: Call, node: Optional[dict]) -> Iterator[Any]:
    """What the rules read of a library object an instantiation builds: a Lightning
    Trainer its node names by ``_target_`` (Hydra's `configs/trainer/default.yaml`), with
    the node's keywords, and its CUDA work unless the node keeps it on the CPU."""
    from reprolint.analysis.calls.frameworks import LIGHTNING_TRAINERS, lightning_on_cuda
    from reprolint.analysis.usage_events import CudaWork, LightningTrainer

    if node is None or node.get("_target_") not in LIGHTNING_TRAINERS:
        return
    values = {
        name: value for name, value in node.items()
        if isinstance(name, str) and not name.startswith("_") and (value is None or isinstance(value, (str, int, float, bool)))
    }
    for name, bound in event.bindings:  # the call's own keywords override the node's
        if not name.startswith(("#", "?")):
            values[name] = bound[1] if bound[0] == "const" else UNKNOWN
    kwargs = tuple(values.items())
    if lightning_on_cuda(kwargs):
        yield CudaWork(f"`{event.text}(...)`", event.span, event.text, event.conds)
    yield LightningTrainer(node["_target_"], event.span, event.text, event.conds, kwargs=kwargs)


def instantiated(
    index: "ProgramIndex", path: str, event: Call, node: Optional[dict]
) -> Iterator[tuple[Call, tuple[str, str]]]:
    """The project class or function that the configuration node an instantiation call is
    given (:func:`instantiated_node`) names by its ``_target_`` (``target``) key, called
    with the node's values (``params:`` for ``target``)."""
    if node is None:
        return
    key = next((k for k in _TARGET_KEYS if isinstance(node.get(k), str)), None)
    if key is None:
        return
    target = node[key]
    resolved = index.resolve_call(path, target)
    if resolved is None:
        return
    values = node.get("params") if key == "target" else node
    passed = tuple(
        (name, ("const", value)) for name, value in (values.items() if isinstance(values, dict) else ())
        if isinstance(name, str) and name.isidentifier() and not name.startswith("_") and name != key
        and (value is None or isinstance(value, (str, int, float, bool)))
    )
    given = tuple((name, value) for name, value in event.bindings if not name.startswith(("#", "?")))
    yield dataclasses.replace(event, target=target, bindings=(*passed, *given)), resolved


# ----------------------------------------------------------------------------- commands

# Command-line dispatchers: each function one is given is a command a user runs.
_DISPATCHERS = frozenset({"jsonargparse.CLI", "jsonargparse.auto_cli", "fire.Fire"})
_COMMAND_LIBRARIES = frozenset({"click", "typer"})


def note_commands(collector: Any, node: cst.Call, qn: Optional[str]) -> None:
    """The functions a command-line dispatcher runs as commands, recorded as call targets
    (``ModuleFacts.commands``): ``jsonargparse.CLI(fn)``, ``CLI([train, evaluate])``,
    ``CLI({"pretrain": pretrain, "finetune": {"lora": lora}})`` (or a name bound to such a
    dict), ``fire.Fire(...)`` alike. Each is a program of its own where the module that
    dispatches runs (api: the module that defines the command becomes an entry point)."""
    if qn not in _DISPATCHERS or not node.args or node.args[0].keyword is not None:
        return
    for target in _command_targets(collector, node.args[0].value, 0):
        if target not in collector.facts.commands:
            collector.facts.commands.append(target)


def note_command_decorator(collector: Any, node: cst.FunctionDef) -> None:
    """A module-level function decorated as a command of a click group or typer app
    (``@cli.command()``, ``@app.command("train")``)."""
    if collector.scope is not collector.scopes[0] or not _COMMAND_LIBRARIES & collector.uses:
        return
    for decorator in node.decorators:
        dec = decorator.decorator
        callee = dec.func if type(dec) is cst.Call else dec
        if type(callee) is cst.Attribute and callee.attr.value == "command":
            collector.facts.commands.append(":" + node.name.value)
            return


def _command_targets(collector: Any, value: cst.BaseExpression, depth: int) -> list[str]:
    kind = type(value)
    if depth > 4:
        return []
    if kind is cst.Name:
        for scope in (collector.scope, collector.scopes[0]):
            bound = scope.dicts.get(value.value)  # type: ignore[attr-defined]
            if bound is not None:
                return _command_targets(collector, bound, depth + 1)
    if kind is cst.Name or kind is cst.Attribute:
        target = collector.call_target(value)
        return [target] if target is not None else []
    if kind is cst.List or kind is cst.Tuple:
        return [t for e in value.elements for t in _command_targets(collector, e.value, depth + 1)]  # type: ignore[attr-defined]
    if kind is cst.Dict:
        return [
            t for e in value.elements if type(e) is cst.DictElement  # type: ignore[attr-defined]
            for t in _command_targets(collector, e.value, depth + 1)
        ]
    return []
