"""Facts of the random number generators: calls that seed a library's global generator
(:class:`~reprolint.analysis.module_facts.Seed`), draws from a global generator
(:class:`~reprolint.analysis.module_facts.Draw`, with the catalog's conditions on the
call's arguments), generator instances made without a seed or from entropy (RPL102),
and the values a module keeps as weights (``nn.Parameter(x)``, a registered buffer),
whose draws initialise them.

:class:`RngFacts` is mixed into the fact collector of :mod:`reprolint.analysis.facts`;
it uses the collector's state (the catalog, the import aliases, the names bound to
generators) and its helpers ``qualify``, ``text``, ``span``, ``emit``, ``entropy_of``,
``attr_ref``, ``current_conds``, ``located_conds`` and ``_u_op_value``.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis import config_files
from reprolint.analysis.calls import keras, pandas, reseeding
from reprolint.analysis.cst_helpers import attr_chain, child_fields, is_node, text_parts
from reprolint.analysis.cst_helpers import find_argument as call_argument, literal as _literal
from reprolint.analysis.module_facts import Draw, LocalFinding, ModuleFacts, Seed
from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.analysis.example_inputs import example_only_calls, is_example_function
from reprolint.analysis.overwritten import overwritten_layers
from reprolint.catalog.rng import ArgCondition, DrawApi, RngCatalog

__all__ = ["GRAPH_CLASSES", "RngFacts", "held_state"]


def _has_star(call: cst.Call) -> bool:
    return any(a.star for a in call.args)


def distribution_draws(c: Any, node: cst.Call) -> Optional[str]:
    """``<distribution>.sample()``/``.rsample()``: torch's global RNG when the receiver is
    visibly a ``torch.distributions`` object (``Categorical(probs).sample()``, or a name
    bound to such a call here or at module level); None otherwise (a replay buffer's or
    a space's own ``sample``)."""
    receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
    made_by: Optional[str] = None
    if isinstance(receiver, cst.Call):
        made_by = c.qualify(receiver.func)
    elif isinstance(receiver, cst.Name):
        made_by = next((qn for qn in (c._u_bound_qn.get((id(s), receiver.value)) for s in (c.scope, c.scopes[0]))
                        if qn is not None), None)
    return "torch" if made_by is not None and made_by.startswith("torch.distributions.") else None


# What decides a draw whose catalog entry names an `input`: the library it draws from, or None.
_INPUT_CHECKS = {**keras.INPUT_CHECKS, "pandas-frame": pandas.frame_sample_draws, "torch-distribution": distribution_draws}


_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def held_state(node: cst.Call, qn: Optional[str]) -> Optional[cst.BaseExpression]:
    """The value a module keeps as state that a checkpoint load restores: the tensor of
    ``nn.Parameter(x)``, or of ``self.register_buffer(name, x)`` (unless
    ``persistent=False``: such a buffer is not in the state dict)."""
    if qn in _PARAMETER_CLASSES:
        return node.args[0].value if node.args else None
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "register_buffer" and len(node.args) >= 2:
        persistent = next((a for a in node.args if a.keyword is not None and a.keyword.value == "persistent"), None)
        if persistent is None or _literal(persistent.value) is not False:
            return node.args[1].value
    return None


def _condition_holds(node: cst.Call, cond: ArgCondition, collector: Any = None) -> bool:
    arg = call_argument(node, cond.keyword, cond.position)
    if arg is None:
        value = cond.default
    elif cond.value == "keras-initializer" and collector is not None:
        value = keras.initializer_value(collector, arg.value)
    elif cond.value == "tf-dtype":
        value = _dtype_name(arg.value)
    else:
        value = _literal(arg.value)
    if value == UNKNOWN:
        return True  # not a literal: it may well hold (e.g. shuffle=is_train)
    if cond.excluded is not None and value in cond.excluded:
        return False
    if cond.values is None:
        return arg is not None or cond.excluded is not None
    return value in cond.values


def _dtype_name(node: cst.BaseExpression) -> Any:
    """A dtype argument's name: ``tf.bool`` / ``tf.dtypes.int32`` / ``np.int64`` /
    ``"int32"`` -> ``"bool"``/``"int32"``/``"int64"``; UNKNOWN for anything else."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, (cst.Name, cst.Attribute)):
        return node.attr.value
    value = _literal(node)
    return value if isinstance(value, str) else UNKNOWN


# `tf.Graph()`: a new graph, whose graph-level seed is unset (TF 1.x)
GRAPH_CLASSES = frozenset({"tensorflow.Graph", "tensorflow.compat.v1.Graph"})


def _hub_entry(node: cst.Call) -> str:
    """The entry a ``torch.hub.load(repo, model)`` call names, when it leaves
    ``pretrained`` to the entry's default ("" otherwise)."""
    if call_argument(node, "pretrained", None) is not None:
        return ""
    model = call_argument(node, "model", 1)
    value = _literal(model.value) if model is not None else None
    return value if isinstance(value, str) else ""


# Calls that make a number again of what they are given (text included).
_NUMBERS = frozenset({"int", "float", "abs", "round", "hash", "ord"})


class RngFacts:
    """The seed, draw and generator-instance handling of the fact collector."""

    aliases: dict[str, str]
    catalog: RngCatalog
    constructor_sites: dict[int, reseeding.Site]
    reseeded_holders: Optional[tuple[set[reseeding.Holder], dict[reseeding.Holder, list[cst.Call]]]]
    facts: ModuleFacts
    entropy_possible: bool
    entropy_roots: frozenset[str]
    generator_vars: set[str]
    graph_vars: set[str]
    hash_possible: bool
    overwrite_possible: bool
    in_text: int
    star_modules: list[str]
    uses: set[str]
    parameter_args: set[int]
    rng_vars: set[str]
    scopes: list[Any]
    top_draws: set[int]

    def is_generator(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Call):
            return self.qualify(receiver.func) in ("torch.Generator", "torch._C.Generator")  # type: ignore[attr-defined]
        chain = attr_chain(receiver)
        return chain is not None and chain[-1] in self.generator_vars

    def is_rng_instance(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Call):
            qn = self.qualify(receiver.func) or ""  # type: ignore[attr-defined]
            return qn in self.catalog.instances or qn == "numpy.random.Generator"
        chain = attr_chain(receiver)
        if chain is None:
            return False
        if chain[0] in self.aliases:  # a module attribute, not an instance
            return True
        return chain[-1] in self.rng_vars or chain[-1] in self.generator_vars

    def _new_graph(self, item: cst.BaseExpression) -> bool:
        """``tf.Graph().as_default()``, or ``g.as_default()`` of a name bound to ``tf.Graph()``."""
        if not (isinstance(item, cst.Call) and isinstance(item.func, cst.Attribute) and item.func.attr.value == "as_default"):
            return False
        receiver = item.func.value
        if isinstance(receiver, cst.Name):
            return receiver.value in self.graph_vars
        return isinstance(receiver, cst.Call) and self.qualify(receiver.func) in GRAPH_CLASSES  # type: ignore[attr-defined]

    def _global_draw_in(self, value: cst.BaseExpression) -> Optional[cst.Call]:
        """The global-RNG draw an assigned value is (`random.randint(1, 10000)`, through
        `int(...)`, or as the fallback of `args.seed or ...` and of either branch of a
        conditional expression), or None."""
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "int" and value.args:
            return self._global_draw_in(value.args[0].value)
        if isinstance(value, cst.IfExp):
            return self._global_draw_in(value.body) or self._global_draw_in(value.orelse)
        if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
            return self._global_draw_in(value.right)
        if isinstance(value, cst.Call):
            entry = self.catalog.draws.get(self.qualify(value.func) or "")  # type: ignore[attr-defined]
            if entry is not None and entry.kind == "draw" and not entry.method:
                return value
        return None

    def seed_draw_of(self, node: Optional[cst.BaseExpression]) -> Optional[cst.Call]:
        """The global-RNG draw a seed value holds: a name or attribute bound to one, or
        the draw itself."""
        if node is None:
            return None
        if isinstance(node, cst.Call):
            return self._global_draw_in(node)
        if isinstance(node, cst.Attribute):
            key = "." + node.attr.value  # `opt.manualSeed`, not a variable of that name
        elif isinstance(node, cst.Name):
            key = node.value
        else:
            return None
        for scope in reversed(self.scopes):
            if key in scope.drawn_seeds:
                return scope.drawn_seeds[key]
            if scope.kind == "function":
                break
        return self.scopes[0].drawn_seeds.get(key)

    def entropy_of(self, node: Optional[cst.CSTNode], depth: int = 0, text: bool = True) -> Optional[str]:
        """Describe the entropy source inside an expression (time, urandom, hash of str...).
        Text made from one is no seed (``"/tmp/runs/%i" % int(time.time())`` names a log
        folder), unless a number is made of it again (``int(str(time.time())[-5:])``:
        ``text`` is False under such a conversion)."""
        if node is None or depth > 12 or not self.entropy_possible:
            return None
        if depth == 0 and not (
            self.hash_possible or self.star_modules or not self.entropy_roots.isdisjoint(self.uses)
        ):
            # No call here can qualify to an entropy source, and so no name holds one
            # (entropy_vars only keeps what an earlier answer found).
            return None
        kind = type(node)  # type tests, not isinstance: see cst_helpers.CONCRETE
        if text and text_parts(node) is not None:
            return None
        if kind is cst.Call and type(node.func) is cst.Name and node.func.value in _NUMBERS:  # type: ignore[attr-defined]
            text = False
        if kind is cst.Call:
            qn = self.qualify(node.func)  # type: ignore[attr-defined]
            if qn is None and isinstance(node.func, cst.Name) and node.func.value == "hash":
                if not self.is_local("hash") and "hash" not in self.aliases:  # type: ignore[attr-defined]
                    first = node.args[0].value if node.args else None
                    if not isinstance(first, cst.Integer):
                        return f"`{self.text(node)}`"  # type: ignore[attr-defined]
            if qn is not None and qn in self.catalog.entropy:
                return f"`{self.text(node)}`"  # type: ignore[attr-defined]
            if qn is not None:
                # `datetime.now().timestamp()`: the entropy is in the receiver
                pass
        if kind is cst.Name or kind is cst.Attribute:
            # a name, or an attribute by its name (`opt.seed`: ".seed", not the variable `seed`)
            key = node.value if kind is cst.Name else "." + node.attr.value  # type: ignore[attr-defined]
            for scope in reversed(self.scopes):
                if key in scope.entropy_vars:
                    return scope.entropy_vars[key]
                if scope.kind == "function":
                    break
            module_scope = self.scopes[0]
            if key in module_scope.entropy_vars:
                return module_scope.entropy_vars[key]
            if kind is cst.Name:
                return None
            return self.entropy_of(node.value, depth + 1, text)  # type: ignore[attr-defined]
        for name in child_fields(type(node)):
            value = getattr(node, name)
            children = value if type(value) is tuple or type(value) is list else (value,)
            for child in children:
                if is_node(child):
                    found = self.entropy_of(child, depth + 1, text)
                    if found:
                        return found
        return None

    def attr_ref(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        """`args.seed` / `cfg.train.seed` -> "seed" (looked up in argparse defaults later)."""
        if isinstance(node, cst.Call) and node.args:  # int(args.seed)
            return self.attr_ref(node.args[0].value)
        if isinstance(node, cst.Attribute):
            return node.attr.value
        return config_files.config_key(node) if node is not None else None

    def seed(self, node: cst.Call, qn: str) -> Optional[bool]:
        """Record a seeding call; False when its arguments were walked here (a seed drawn
        inline, ``np.random.seed(np.random.randint(...))``: Python evaluates the
        arguments first, so the draw comes before the seeding)."""
        seeder = self.catalog.seeders[qn]
        arg = None
        if seeder.seed_arg is not None or seeder.keyword is not None:
            arg = call_argument(node, seeder.keyword, seeder.seed_arg)
        no_seed = (
            seeder.entropy_without_seed
            and not _has_star(node)
            and (arg is None or _literal(arg.value) is None)
        )
        return self.emit_seed(
            node, qn, seeder.seeds, arg.value if arg is not None else None, no_seed,
            entropy_if_none=seeder.entropy_without_seed or seeder.none_unseeds,
            entropy_until=f"{seeder.entropy_until_library}<{seeder.entropy_until}" if seeder.entropy_until else "",
        )

    def emit_seed(
        self, node: cst.Call, api: str, libs: tuple[str, ...], value: Optional[cst.BaseExpression], no_seed: bool,
        entropy_if_none: bool = False, entropy_until: str = "",
    ) -> Optional[bool]:
        """Record that ``node`` seeds ``libs`` with ``value`` (see :meth:`seed`); also for a
        method that seeds as a side effect (an ImageDataGenerator's ``fit(x, seed=s)``)."""
        drawn = self.seed_draw_of(value)  # type: ignore[attr-defined]
        inline = isinstance(value, cst.Call) and drawn is not None
        if inline:
            self.walk(node.func)  # type: ignore[attr-defined]
            for argument in node.args:
                self.walk(argument)  # type: ignore[attr-defined]
        self.emit(  # type: ignore[attr-defined]
            Seed(
                api=api,
                libs=libs,
                span=self.span(node),  # type: ignore[attr-defined]
                text=self.text(node.func),  # type: ignore[attr-defined]
                entropy=self.entropy_of(value),  # type: ignore[attr-defined]
                entropy_ref=self.attr_ref(value),  # type: ignore[attr-defined]
                no_seed=no_seed,
                conds=self.located_conds(),  # type: ignore[attr-defined]
                entropy_if_none=entropy_if_none,
                entropy_until=entropy_until,
                literal_seed=value is not None and _literal(value) not in (None, UNKNOWN),
                drawn_from=self.span(drawn) if drawn is not None else None,  # type: ignore[attr-defined]
                seed_name=value.value if type(value) is cst.Name else None,
            )
        )
        return False if inline else None

    def instance(self, node: cst.Call, qn: str) -> None:
        instance = self.catalog.instances[qn]
        text = self.text(node.func)  # type: ignore[attr-defined]
        arg = None
        if instance.seed_arg is not None or instance.keyword is not None:
            arg = call_argument(node, instance.keyword, instance.seed_arg)
        if arg is None and _has_star(node):
            return
        site = self.constructor_sites.get(id(node))
        if site is not None and id(node) in self.unread_values:  # type: ignore[attr-defined]
            return  # `rs = RandomState()` in a function that never reads `rs`: nothing draws from it
        if arg is None and site is not None and reseeding.seeded_before_use(site, lambda e: not self.entropy_of(e)):  # type: ignore[attr-defined]
            return  # `rs = RandomState()` then `rs.seed(1)`: nothing is drawn before the seed
        if arg is None and site is not None and self._reseeded_elsewhere(site):
            return  # `self.rng = Random()` in __init__, replaced by `Random(seed)` where it draws
        if arg is not None:
            entropy = self.entropy_of(arg.value)  # type: ignore[attr-defined]
            if entropy:
                self.facts.findings.append(
                    LocalFinding("RPL102", self.span(node), self._as_default({"call": text, "source": entropy, "variant": "entropy"}))  # type: ignore[attr-defined]
                )
            elif _literal(arg.value) is None and not instance.seed_required:
                self.facts.findings.append(
                    LocalFinding("RPL102", self.span(node), self._as_default({"call": text, "variant": "none"}))  # type: ignore[attr-defined]
                )
            elif not instance.seed_required and isinstance(ref := self._u_op_value(arg.value), OptionRef):  # type: ignore[attr-defined]
                # `default_rng(args.seed)`: seeded from OS entropy when the option's default
                # is None; the rule asks each program that runs this module for the default
                data = {"call": text, "value": self.text(arg.value), "option": ref.name, "variant": "option"}  # type: ignore[attr-defined]
                self.facts.findings.append(LocalFinding("RPL102", self.span(node), self._as_default(data)))  # type: ignore[attr-defined]
            return
        if instance.seed_required:
            return
        self.facts.findings.append(LocalFinding("RPL102", self.span(node), self._as_default({"call": text})))  # type: ignore[attr-defined]

    def _as_default(self, data: dict[str, Any]) -> dict[str, Any]:
        """An instance built as a parameter's default (``def walk(self, rand=random.Random()):``):
        the finding keeps the function, the parameter and its place (``default_of``)."""
        if self.default_of is not None:  # type: ignore[attr-defined]
            data["default_of"] = list(self.default_of)  # type: ignore[attr-defined]
        return data

    def _reseeded_elsewhere(self, site: reseeding.Site) -> bool:
        """A generator held in ``self.attr`` (or a module-level name) that a function of
        the module seeds in place or, for an attribute, replaces with a generator built
        from a seed (:func:`reseeding.reseeded_holders`)."""
        target, body, _ = site
        if "." in target:
            cls = self.current_class()  # type: ignore[attr-defined]
            if cls is None:
                return False
            holder: reseeding.Holder = (cls, target)
        elif body is self.module.body:  # type: ignore[attr-defined]
            holder = (None, target)
        else:
            return False
        if self.reseeded_holders is None:
            self.reseeded_holders = reseeding.reseeded_holders(self.module)  # type: ignore[attr-defined]
        seeded, replaced = self.reseeded_holders
        if holder in seeded:
            return True
        for call in replaced.get(holder, ()):  # attributes only (reseeding.reseeded_holders)
            instance = self.catalog.instances.get(self.qualify(call.func) or "")  # type: ignore[attr-defined]
            if instance is None:
                continue
            arg = call_argument(call, instance.keyword, instance.seed_arg)
            if arg is not None and _literal(arg.value) is not None and not self.entropy_of(arg.value):  # type: ignore[attr-defined]
                return True
        return False

    def _overwritten_layers(self) -> set[int]:
        """The module's layer constructions whose parameters are overwritten at once
        (analysis/overwritten.py), found on the first weight-initialising draw."""
        found: Optional[set[int]] = self.__dict__.get("_overwritten")
        if found is None:
            found = self.__dict__["_overwritten"] = overwritten_layers(self.module)  # type: ignore[attr-defined]
        return found

    def _example_only(self) -> dict[int, list[Any]]:
        """The module's calls whose value is only a model's example input (tracing,
        export: analysis/example_inputs.py), found on the first draw."""
        found: Optional[dict[int, list[Any]]] = self.__dict__.get("_examples")
        if found is None:
            found, self.__dict__["_idle_models"] = example_only_calls(self.module)  # type: ignore[attr-defined]
            self.__dict__["_examples"] = found
        return found

    def idle_model(self, node: cst.Call) -> bool:
        """A call that builds a model only run for nothing (a smoke test's ``model =
        get_model(13)``: analysis/example_inputs.py): the weights it draws reach no result."""
        self._example_only()
        return id(node) in self.__dict__["_idle_models"]

    def maybe_draw(self, node: cst.Call, draw: DrawApi, text: str) -> bool:
        """Record the draw ``node`` makes by ``draw``, unless its arguments or input say it
        makes none; whether the entry applies to the call (False: its input is not what
        the entry is about, another entry of the method may be)."""
        if self.in_text:
            return True  # `f"tcp://localhost:{random.randrange(49152, 65535)}"`: a name, not data
        callees = self._example_only().get(id(node))
        if callees and all(is_example_function(f, self.qualify) for f in callees):  # type: ignore[attr-defined]
            return True  # `torch.onnx.export(model, torch.randn(1, 3, 224, 224), path)`: a shape, not data
        if draw.deferred and id(node) in self.unread_values:  # type: ignore[attr-defined]
            return True  # `transform_train = Compose([RandomCrop(32)])`, never read: never applied
        if draw.method and draw.deferred and not draw.during_call and id(node) in self.dropped_values:  # type: ignore[attr-defined]
            # `rng.shuffle(docs)` as a statement: no `Dataset.shuffle`, whose new dataset it
            # would be (a library function's value dropped, `F.dropout(x, inplace=True)`,
            # may have drawn in place: not this case)
            return True
        library: Optional[str] = draw.library
        if draw.input is not None:
            library = _INPUT_CHECKS[draw.input](self, node)
            if library is None:
                return False  # e.g. `fit(dataset)`: the input brings its own order
        if (draw.unless or draw.when) and any(a.star == "**" for a in node.args):
            # keyword arguments unknown (`**kwargs`): cannot tell whether `generator=`,
            # `seed=`, `shuffle=True`... is given. A draw without conditions still draws
            # (`def linear(*args, **kwargs): return nn.Linear(*args, **kwargs)`).
            return True
        for cond in draw.unless:
            arg = call_argument(node, cond.keyword, cond.position)
            if (cond.default if arg is None else _literal(arg.value)) is not None:
                return True
        decided = []
        anyway = any(call_argument(node, c.keyword, c.position) is not None for c in draw.anyway)
        for cond in draw.when:
            if not anyway and not _condition_holds(node, cond, self):
                return True
            # `shuffle=not opt.serial_batches`: a flag the options decide draws where its
            # test holds, as a branch would (an evaluation script setting it to True)
            arg = call_argument(node, cond.keyword, cond.position)
            if cond.values == (True,) and arg is not None and _literal(arg.value) == UNKNOWN:
                tree = self.cond_tree(arg.value)  # type: ignore[attr-defined]
                if tree != ("unknown",):
                    decided.append((tree, True, arg.value))
        self.conds.extend(decided)  # type: ignore[attr-defined]
        try:
            conds = self.current_conds()  # type: ignore[attr-defined]
        finally:
            del self.conds[len(self.conds) - len(decided):]  # type: ignore[attr-defined]
        kind = "init" if draw.library == "torch" and id(node) in self.parameter_args else draw.kind
        if kind == "init" and self.overwrite_possible and id(node) in self._overwritten_layers():
            return True  # `fused = nn.Conv2d(...)`, then `fused.weight.copy_(w)`: values never used
        if len(self.scopes) == 1 and library in ("numpy", "random"):
            self.top_draws.add(id(node))
        self.emit(  # type: ignore[attr-defined]
            Draw(
                api=draw.api if not draw.method else f".{draw.api}",
                library=library,
                kind=kind,
                deferred=draw.deferred,
                span=self.span(node),  # type: ignore[attr-defined]
                text=text,
                conds=conds,
                hub_entry=_hub_entry(node) if draw.api == "torch.hub.load" else "",
            )
        )
        return True

    def note_hub_entry(self, name: str, params: dict[str, Any]) -> None:
        """``def yolov5s(pretrained=True, ...)`` at the top level of a ``hubconf.py``: what
        ``torch.hub.load(repo, "yolov5s")`` does when not told (ModuleFacts.hub_pretrained)."""
        if len(self.scopes) == 1 and self.facts.path.rpartition("/")[2] == "hubconf.py":  # type: ignore[attr-defined]
            default = params.get("pretrained")
            if isinstance(default, bool):
                self.facts.hub_pretrained[name] = default  # type: ignore[attr-defined]
