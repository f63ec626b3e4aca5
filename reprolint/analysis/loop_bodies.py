"""What the body of a loop over a listing does with each entry: the helpers
:class:`~reprolint.analysis.listing_order.ListingOrderFacts` judges loop bodies with (a
function that touches only the entry it is given, a rank check, a counter only printed,
a list only filled and returned) and the builtins that only compute a value."""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import (
    children, descendants, enclosing_function, mentions_of, string_literal, target_names, text_parts,
)

__all__ = [
    "CONSTANT_NAMES", "PATH_JOINS", "PURE_BUILTINS", "READS", "STATEFUL_LIBRARIES", "WRITES_TO_PATH",
    "argument_names", "carried_names",
    "stateless_call",
    "condition_queries", "formatted",
    "module_function", "names_read_outside", "only_filled", "only_in_messages", "touches_only", "walk_in_order",
]

# Builtins that only compute a value from their arguments.
PURE_BUILTINS = frozenset({
    "len", "set", "frozenset", "list", "tuple", "dict", "sorted", "str", "int", "float", "bool",
    "isinstance", "max", "min", "sum", "any", "all", "enumerate", "zip", "range", "abs", "round",
    "type",
})
# Names that are values, not variables: a call given them carries nothing between entries.
CONSTANT_NAMES = frozenset({"True", "False", "None"})
# Libraries whose calls change state of their own (a generator, a device, a graph): a call
# of theirs in a loop is not "one entry's business" whatever it is given.
STATEFUL_LIBRARIES = ("random", "numpy.random", "torch", "tensorflow", "jax", "keras", "tf_keras")
# ... except their file helpers: each fetches one URL to the file it is given, or writes
# the values it is given to the file it is given (no generator, device or graph state)
PER_FILE_CALLS = frozenset({
    "torchvision.datasets.utils.download_url", "torchvision.datasets.utils.download_and_extract_archive",
    "torchvision.datasets.utils.download_file_from_google_drive", "torch.hub.download_url_to_file",
    "torch.save", "tensorflow.io.write_file",
})


# Calls that join their arguments into a path (text): `os.path.join(out_dir, name)`.
PATH_JOINS = frozenset({"os.path.join", "posixpath.join", "ntpath.join"})
# Library writers that write the values they are given to the file their first argument
# names (no handle, no appending): one entry's own file where that path is the entry's.
WRITES_TO_PATH = frozenset({
    "scipy.io.wavfile.write", "soundfile.write", "torchaudio.save", "numpy.save", "numpy.savez",
    "numpy.savez_compressed", "numpy.savetxt", "cv2.imwrite", "imageio.imwrite", "imageio.v2.imwrite",
    "imageio.v3.imwrite", "matplotlib.pyplot.imsave", "skimage.io.imsave", "librosa.output.write_wav",
})


# torch's namespaces whose calls keep state of their own (devices, processes, optimisers,
# loaders, autograd, compilation), and its seeding and global switches (`torch.set_*`).
_TORCH_STATEFUL = (
    "torch.nn.modules", "torch.cuda", "torch.backends", "torch.distributed", "torch.optim", "torch.utils",
    "torch.random", "torch.manual_seed", "torch.seed", "torch.initial_seed", "torch.set_", "torch.use_",
    "torch.autograd", "torch.hub", "torch.multiprocessing", "torch.compile", "torch.jit", "torch.onnx",
    "torch.profiler", "torch.Generator",
)


def stateless_call(qn: str) -> bool:
    """A library call that changes no state of its library (see ``STATEFUL_LIBRARIES``).
    torch's tensor functions are such calls (``torch.from_numpy``, ``torch.stack``,
    ``F.interpolate``), except those that draw from its generator (the RNG catalog's:
    ``torch.randn``, ``F.dropout``, a layer's initial weights) and its stateful
    namespaces (``_TORCH_STATEFUL``)."""
    if qn in PER_FILE_CALLS:
        return True
    if qn.startswith("torch.") and not qn.startswith(_TORCH_STATEFUL):
        from reprolint.catalog.rng import rng_catalog

        module_or_layer = qn.startswith("torch.nn.") and not qn.startswith("torch.nn.functional.")
        return not module_or_layer and rng_catalog().draw(qn) is None
    return not qn.startswith(STATEFUL_LIBRARIES)


def walk_in_order(node: cst.CSTNode) -> Any:
    """Pre-order, children in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def argument_names(call: cst.Call, qualify: Any) -> set[str]:
    """The variables a call's arguments read: not modules (``os.path.join(root, f)``), not
    keywords, not ``True``/``False``/``None``, not attribute names (``Image.ANTIALIAS``)."""
    return {name for a in call.args for name in variables_read(a.value, qualify)}


def variables_read(node: cst.BaseExpression, qualify: Any) -> set[str]:
    """The variables an expression reads (see :func:`argument_names`); ``qualify`` names
    what an import binds (None: every name is a variable)."""
    return _variables(list(descendants(node)), qualify)


def _variables(nodes: list[cst.CSTNode], qualify: Any) -> set[str]:
    """The variables among ``nodes`` (a walk of an expression): see :func:`variables_read`."""
    attrs = {id(c.attr) for c in nodes if isinstance(c, cst.Attribute)}
    return {
        c.value for c in nodes
        if isinstance(c, cst.Name) and id(c) not in attrs and c.value not in CONSTANT_NAMES
        and (qualify is None or qualify(c) is None)
    }


def formatted(node: cst.CSTNode, qualify: Any = None) -> set[int]:
    """The ids of the nodes under ``node`` whose value only becomes text: inside an
    f-string's fields, ``str(...)``, the arguments of ``"...".format(...)`` and the right
    side of ``"..." % ...`` (:func:`~reprolint.analysis.cst_helpers.text_parts`), and,
    where ``qualify`` names calls, the parts ``os.path.join`` joins into a path. Text
    carries nothing from one entry to the next."""
    out: set[int] = set()
    for child in descendants(node):
        if id(child) in out:
            continue
        inner = text_parts(child)
        if inner is None and type(child) is cst.Call and type(child.func) is cst.Name and child.func.value == "str":  # type: ignore[attr-defined]
            inner = [a.value for a in child.args]  # type: ignore[attr-defined]
        if inner is None and qualify is not None and type(child) is cst.Call \
                and qualify(child.func) in PATH_JOINS:  # type: ignore[attr-defined]
            inner = [a.value for a in child.args]  # type: ignore[attr-defined]
        for part in inner or ():
            out.update(id(n) for n in descendants(part))
    return out


def carried_names(node: cst.BaseExpression, qualify: Any) -> set[str]:
    """The variables an expression reads (as :func:`variables_read`) other than those it
    only formats into text (``"sox {} -r {}".format(path, str(args.rate))``: ``path``
    only, if it is used elsewhere too)."""
    text = formatted(node, qualify)
    return _variables([c for c in descendants(node) if id(c) not in text], qualify)


def _text_only(body: cst.CSTNode, name: str) -> bool:
    """Whether every read of ``name`` in ``body`` only becomes text (see :func:`formatted`)."""
    text = formatted(body)
    mentions = [c for c in descendants(body) if type(c) is cst.Name and c.value == name]
    return bool(mentions) and all(id(c) in text for c in mentions)


def _read_only(body: cst.CSTNode, name: str) -> bool:
    """Whether ``body`` only reads values out of ``name`` (``args["crop_size"]``,
    ``cfg.out_dir``): every mention starts a chain of subscripts and attributes that is
    read, never assigned or deleted, and whose end is not called as a method
    (``args.update(...)``, ``args.seen.append(x)``)."""
    parents: dict[int, cst.CSTNode] = {}
    stores: set[int] = set()  # attribute/subscript nodes written (`name.x = ...`, `del name[k]`)
    mentions = []
    for child in descendants(body):
        for sub in children(child):
            parents[id(sub)] = child
        if type(child) is cst.Name and child.value == name:
            mentions.append(child)
        if isinstance(child, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = [t.target for t in child.targets] if isinstance(child, cst.Assign) else [child.target]
            stores.update(id(t) for t in targets)
        elif isinstance(child, cst.Del):
            stores.add(id(child.target))
    if not mentions:
        return False
    for mention in mentions:
        # climb the chain of reads `name["a"].b[0]`: none of its links may be written, and
        # its end may not be called (`name.update(...)`, `name.seen.append(x)`: may change it)
        top: cst.CSTNode = mention
        parent = parents.get(id(top))
        while isinstance(parent, (cst.Subscript, cst.Attribute)) and parent.value is top:
            if id(parent) in stores:
                return False
            top, parent = parent, parents.get(id(parent))
        if top is mention or (isinstance(parent, cst.Call) and parent.func is top):
            return False
    return True


def module_function(module: cst.Module, name: str) -> Optional[cst.FunctionDef]:
    """The function ``name`` defined once at the top level of ``module``."""
    found = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    return found[0] if len(found) == 1 else None


# Library calls that read what they are given and change nothing (a checkpoint, an array,
# an image, a path's parts): given one entry's values, they carry nothing to the next.
READS = frozenset({
    "torch.load", "numpy.load", "numpy.loadtxt", "json.load", "json.loads", "pickle.load", "yaml.safe_load",
    "PIL.Image.open", "cv2.imread", "os.path.join", "os.path.basename", "os.path.splitext", "os.path.exists",
    "os.path.isfile", "os.path.getsize", "open", "io.open",
    # image readers: one file's pixels, whatever was read before
    "matplotlib.pyplot.imread", "matplotlib.image.imread", "imageio.imread", "imageio.v2.imread",
    "imageio.v3.imread", "skimage.io.imread", "scipy.misc.imread",
    # audio readers: one file's samples (`librosa.load(path, sr)` resamples them to `sr`)
    "librosa.load", "soundfile.read", "scipy.io.wavfile.read", "torchaudio.load",
})


def touches_only(
    callee: cst.FunctionDef, call: cst.Call, local: set[str], qualify: Any = None,
    module: Optional[cst.Module] = None, depth: int = 2, shows: bool = False,
    fixed: Optional[Callable[[cst.BaseExpression], bool]] = None,
) -> bool:
    """Whether a function of this module, called as ``call`` in a loop, changes nothing
    but what it is given of this iteration: every call and every attribute/subscript
    assignment in it starts from one of its own local names or from a parameter bound
    to this iteration's values (``def resize(image, size): return image.resize(size)``
    called as ``resize(img, size)``), or is a library read given only those (``torch.load(
    path)``: ``qualify`` names it), or calls another function of ``module`` given only
    those that itself touches nothing else (``depth`` calls deep: a face crop that calls
    a coordinate helper); no global. ``shows``: ``print`` counts as touching nothing
    (a loop over a listing: the order of lines shown is no result). ``fixed``: whether a
    value given at the call is the same for every entry and cannot be changed (a literal,
    a constant, an option's value): a parameter bound to one carries nothing either."""
    params = positional_parameters(callee)
    bound: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            return False
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
        elif index < len(params):
            bound[params[index]] = arg.value
    # parameters given this iteration's values only (`os.path.join(folder, "notes.in")`)
    per_entry = {
        name for name, value in bound.items()
        for read in [variables_read(value, qualify)] if read and read <= local
    }
    # ... or a value that is the same for every entry and that nothing changes (`value=255`)
    if fixed is not None:
        per_entry |= {name for name, value in bound.items() if name not in per_entry and fixed(value)}
    # ... or that the callee never uses, nor any function of the module it passes it to
    per_entry |= unused_parameters(callee, module) - per_entry
    # parameters the callee only formats into text (`str(sample_rate)` in a command line):
    # whatever value they are given, they carry nothing from one entry to the next
    per_entry |= {name for name in params if name not in per_entry and _text_only(callee.body, name)}
    # ... or only reads values out of (a configuration dict or namespace every call shares)
    per_entry |= {name for name in params if name not in per_entry and _read_only(callee.body, name)}
    own: set[str] = set()  # the callee's own names: they live one call
    for child in descendants(callee.body):
        if isinstance(child, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in child.targets] if isinstance(child, cst.Assign) else [child.target]
            for target in targets:
                own.update(n.value for n in target_names(target))
        elif isinstance(child, (cst.For, cst.CompFor)):
            own.update(n.value for n in target_names(child.target))  # `for line in fin:`
        elif isinstance(child, cst.WithItem) and child.asname is not None:
            own.update(n.value for n in target_names(child.asname.name))  # type: ignore[arg-type]
    for child in descendants(callee.body):
        if isinstance(child, (cst.Global, cst.Nonlocal, cst.Yield, cst.Await)):
            return False
        roots: list[cst.BaseExpression] = []
        if isinstance(child, cst.Call):
            func = child.func
            qn = qualify(func) if qualify is not None else None
            if (qn or (func.value if isinstance(func, cst.Name) else "")) in READS:
                continue  # a read changes nothing, whatever it is given
            if qn is not None and stateless_call(qn) \
                    and {n for a in child.args for n in carried_names(a.value, qualify)} <= own | per_entry:
                continue  # a library function given only this call's values (`os.path.split(p)`)
            if isinstance(func, cst.Name):
                if func.value in PURE_BUILTINS or (shows and func.value == "print"):
                    continue
                inner = module_function(module, func.value) if module is not None and depth > 0 else None
                given = {n for a in child.args for n in carried_names(a.value, qualify)}
                if inner is None or not given <= own | per_entry \
                        or not touches_only(inner, child, own | per_entry, qualify, module, depth - 1, shows):
                    return False
                continue
            roots.append(func)
        elif isinstance(child, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in child.targets] if isinstance(child, cst.Assign) else [child.target]
            roots.extend(t for t in targets if isinstance(t, (cst.Attribute, cst.Subscript)))
        for root in roots:
            while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
                if isinstance(root, cst.Call) and qualify is not None and (
                    qualify(root.func) in READS
                    or not (qualify(root.func) or STATEFUL_LIBRARIES[0]).startswith(STATEFUL_LIBRARIES)
                ):
                    # a method of what a read or a library function returned
                    # (`torch.load(path).get("metric")`, `unicodedata.normalize(...)
                    # .encode()`): a value of this call's own (the call itself is judged
                    # on its own above)
                    break
                root = root.value if not isinstance(root, cst.Call) else root.func
            else:
                if string_literal(root):
                    continue  # `" ".join(tokens)`: a method of a literal makes a new value
                if not isinstance(root, cst.Name) or not (root.value in own or root.value in per_entry):
                    return False
    return True


def positional_parameters(function: cst.FunctionDef) -> list[str]:
    """The names a positional argument binds, in order (``self`` included)."""
    return [p.name.value for p in (*function.params.posonly_params, *function.params.params)]


def unused_parameters(function: cst.FunctionDef, module: Optional[cst.Module], depth: int = 2) -> set[str]:
    """The positional parameters of ``function`` that it never uses: not mentioned at all,
    or only passed, by place, to functions of ``module`` (``depth`` calls deep) whose own
    parameter at that place is unused in turn (``def resizes(p, fn): resize(p, fn)``
    with ``def resize(p, fn)`` never reading ``p``)."""
    uses: dict[str, list[Optional[tuple[cst.FunctionDef, str]]]] = {name: [] for name in positional_parameters(function)}
    # a name given by place to a function of the module -> (that function, its parameter);
    # the walk is pre-order, so a call is seen before its arguments
    passed: dict[int, tuple[cst.FunctionDef, str]] = {}
    for node in descendants(function.body):
        if type(node) is cst.Call and type(node.func) is cst.Name and module is not None and depth > 0:
            inner = module_function(module, node.func.value)
            if inner is not None:
                inner_params = positional_parameters(inner)
                for place, arg in enumerate(node.args[:len(inner_params)]):
                    if type(arg.value) is cst.Name and arg.keyword is None and not arg.star:
                        passed[id(arg.value)] = (inner, inner_params[place])
        elif type(node) is cst.Name and node.value in uses:
            uses[node.value].append(passed.get(id(node)))
    inner_unused: dict[int, set[str]] = {}

    def unused_there(place: Optional[tuple[cst.FunctionDef, str]]) -> bool:
        if place is None:
            return False
        inner, param = place
        if id(inner) not in inner_unused:
            inner_unused[id(inner)] = unused_parameters(inner, module, depth - 1)
        return param in inner_unused[id(inner)]

    return {name for name, places in uses.items() if all(unused_there(place) for place in places)}


def condition_queries(body: cst.CSTNode) -> set[int]:
    """Calls without arguments in the test of an ``if`` whose result is only read as an
    attribute or compared for equality with a literal (``PartialState().is_main_process``,
    ``dist.get_rank() == 0``): a process or rank check reads state; given nothing of the
    entry, it carries nothing from one entry to the next. (``random.random() < 0.1`` is a
    draw, not a check.)"""
    found: set[int] = set()

    def query(node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and not node.args

    for child in descendants(body):
        if not isinstance(child, (cst.If, cst.IfExp)):
            continue
        for part in descendants(child.test):
            if isinstance(part, cst.Attribute) and query(part.value):
                found.add(id(part.value))
            elif isinstance(part, cst.Comparison) and query(part.left) and len(part.comparisons) == 1 \
                    and isinstance(part.comparisons[0].operator, (cst.Equal, cst.NotEqual)) \
                    and isinstance(part.comparisons[0].comparator, (cst.Integer, cst.SimpleString)):
                found.add(id(part.left))
    return found


def only_in_messages(
    body: cst.CSTNode, name: str, entries: set[str], allowed: Optional[set[int]] = None,
) -> bool:
    """Every use of ``name`` in ``body`` is inside a ``print(...)`` call that does not show
    an entry (``print(i + 1, "of", total)``, not ``print(i, f)``: that pairs positions with
    files), or in the test of an ``if`` whose body only prints (a progress counter), or is
    one of the uses ``allowed`` names (by id)."""
    allowed = set(allowed or ())
    for child in descendants(body):
        if isinstance(child, cst.Call) and isinstance(child.func, cst.Name) and child.func.value == "print":
            if not any(mentions_of(child, entry) for entry in entries):
                allowed.update(id(c) for c in descendants(child))
        elif isinstance(child, cst.If) and child.orelse is None and isinstance(child.body, cst.IndentedBlock) and all(
            isinstance(stmt, cst.SimpleStatementLine) and all(
                isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                and isinstance(small.value.func, cst.Name) and small.value.func.value == "print"
                for small in stmt.body
            )
            for stmt in child.body.body
        ):
            allowed.update(id(c) for c in descendants(child.test))
    return all(id(c) in allowed for c in descendants(body) if isinstance(c, cst.Name) and c.value == name)


def only_filled(module: cst.Module, ret: cst.Return, name: str) -> bool:
    """In the function around ``ret``, ``name`` is only bound, grown (``append``/
    ``extend``/``insert``, ``+=``), mapped entry by entry (``files = [f.replace(root, "")
    for f in files]``, which keeps the order) and returned: nothing shuffles, slices or
    reads it there."""
    function = enclosing_function(module, ret)
    if function is None:
        return False
    uses = bound = grown = 0
    for child in descendants(function.body):
        if isinstance(child, cst.Name) and child.value == name:
            uses += 1
        elif isinstance(child, cst.Assign):
            bound += sum(1 for t in child.targets if isinstance(t.target, cst.Name) and t.target.value == name)
            value = child.value
            if type(value) is cst.ListComp and value.for_in.inner_for_in is None \
                    and type(value.for_in.iter) is cst.Name and value.for_in.iter.value == name:
                grown += 1  # the comprehension's read of the list it maps
        elif isinstance(child, cst.Call) and isinstance(child.func, cst.Attribute) \
                and child.func.attr.value in ("append", "extend", "insert") \
                and isinstance(child.func.value, cst.Name) and child.func.value.value == name:
            grown += 1
        elif isinstance(child, cst.AugAssign) and isinstance(child.target, cst.Name) and child.target.value == name:
            grown += 1  # `result += zip(...)`
    return uses == bound + grown + 1


def names_read_outside(scope: cst.CSTNode, loop: Optional[cst.CSTNode], stores: bool = True) -> set[str]:
    """Names read in ``scope`` outside ``loop`` (attribute and keyword names excluded;
    ``stores=False`` leaves out the names a statement binds as a whole target too: ``x =
    ...``, ``x: int = ...``, ``for x in``, ``with ... as x``; augmented assignments,
    deletions, nested functions and comprehensions read)."""
    found: set[str] = set()
    skip: set[int] = set()
    stack: list[cst.CSTNode] = [scope]
    while stack:
        current = stack.pop()
        if current is loop or id(current) in skip:
            continue
        if isinstance(current, cst.Attribute):
            skip.add(id(current.attr))
        elif isinstance(current, cst.Arg) and current.keyword is not None:
            skip.add(id(current.keyword))
        elif isinstance(current, cst.Name):
            found.add(current.value)
        elif not stores and isinstance(current, (cst.AssignTarget, cst.AnnAssign, cst.For)):
            skip.update(id(n) for n in target_names(current.target))
        elif not stores and isinstance(current, cst.AsName):
            skip.update(id(n) for n in target_names(current.name))  # type: ignore[arg-type]
        stack.extend(children(current))
    return found
