"""Program-level view of the op, flag and order facts, and the versions the rules assume.

:func:`program_usages` replays every program (and every library module no program
imports, as a program of its own) over the :class:`~reprolint.analysis.usage.Usage`
events, in the same execution order as :mod:`reprolint.analysis.program`: module top
levels at their imports, project calls at the call, the ``__main__`` block for the entry
only, bodies nobody calls after everything else. Each event is tagged with whether it
runs with the program's default options (the RPL104 machinery: a flag set under
``if args.deterministic:`` with ``store_true`` does not count).

The questions the rules ask (does the program use CUDA, where does it select it, is
deterministic mode on, which catalog entry does an op call match) live here, so that
each rule module only words its finding.
"""

from __future__ import annotations

import functools
import importlib.metadata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Optional

from reprolint import catalog_ops
from reprolint.analysis.facts import UNKNOWN, Call, Guard, Import, ModuleFacts
from reprolint.analysis.program import Program, ProgramIndex, evaluate
from reprolint.analysis.usage import Usage

if TYPE_CHECKING:
    from reprolint.checks.base import CheckContext

__all__ = [
    "OpMatch",
    "ProgramUsage",
    "match_op",
    "op_names",
    "program_usages",
    "tensor_method_names",
    "tf_version",
    "torch_version",
]

# Tensor methods whose names other libraries also use (`queue.put`, `ax.scatter`,
# `df.cumsum`, `np.ndarray.cumsum`): matched only through `torch.X(...)`, or with a
# torch-only keyword (see `_TORCH_ONLY_KEYWORDS`).
_AMBIGUOUS_METHODS = frozenset({"put", "scatter", "cumsum", "median", "bmm", "resize_", "__getitem__"})
_TORCH_ONLY_KEYWORDS = {"cumsum": "dim", "median": "dim"}

# Runtime facts a static check cannot decide (rules/README.md): entries that depend on
# them are not reported (documented blind spots); the others are decided or noted.
_UNDECIDABLE_TAGS = frozenset({
    "sparse-dense", "index-is-tensor-list", "quantized", "spatial-input", "cudnn-enabled",
    "fine-tuning-inference-mode", "indexed-slices-input", "cudnn-older-than-7.6",
})
TAG_NOTES = {
    "requires-grad": "when its input requires grad",
    "input-1d": "on a 1-D input",
    "input-nd": "on an input with more than one dimension",
    "floating-or-complex-dtype": "on floating-point or complex input",
    "src-is-tensor": "with a tensor `src`",
    "no-global-seed": "without an op seed or a global seed",
}
# Generic cuDNN entries: every conv net has them, so they are the evidence for RPL302
# (torch) and RPL304 (TF), not one finding per layer.
_GENERIC_CUDNN_IDS = frozenset({"conv-cuda", "conv-transpose-cuda", "cudnn-rnn", "cudnn-conv-pool-backprop"})


# ----------------------------------------------------------------------------- versions

def _latest(ops: tuple[catalog_ops.OpEntry, ...]) -> str:
    versions = [op.since for op in ops] + [op.until for op in ops if op.until is not None]
    major, minor, _ = max(versions)
    return f"{major}.{minor}"


def _installed(dist: str) -> Optional[str]:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=None)
def _default_torch_version() -> str:
    return _installed("torch") or _latest(catalog_ops.load_torch_ops())


@functools.lru_cache(maxsize=None)
def _default_tf_version() -> str:
    return _installed("tensorflow") or _installed("tensorflow-cpu") or _latest(catalog_ops.load_tf_ops())


def torch_version(settings: Any) -> str:
    """``torch-version`` from the configuration, else the installed torch, else the latest
    version the catalog knows (torch is never imported)."""
    configured = getattr(settings, "torch_version", None)
    return configured or _default_torch_version()


def tf_version() -> str:
    """The installed TensorFlow's version, else the latest the catalog knows."""
    return _default_tf_version()


def short(version: str) -> str:
    major, minor, _ = catalog_ops.parse_version(version)
    return f"{major}.{minor}"


# ----------------------------------------------------------------------------- catalog names

@functools.lru_cache(maxsize=1)
def op_names() -> frozenset[str]:
    """Every qualified name of the torch and TF op catalogs (``Tensor.X`` for methods)."""
    names: set[str] = set()
    for op in (*catalog_ops.load_torch_ops(), *catalog_ops.load_tf_ops()):
        names.update(op.names)
    return frozenset(names)


@functools.lru_cache(maxsize=1)
def tensor_method_names() -> frozenset[str]:
    """Method names matched on any receiver in a torch module (``x.index_add_(...)``)."""
    return frozenset(
        name[len("Tensor."):] for name in op_names() if name.startswith("Tensor.")
    )


@functools.lru_cache(maxsize=1)
def tf_setting_names() -> frozenset[str]:
    return frozenset(
        name for s in catalog_ops.load_tf_settings() if s.form == "use" for name in s.names
    )


# ----------------------------------------------------------------------------- op matching

@dataclass(frozen=True)
class OpMatch:
    entry: catalog_ops.OpEntry
    notes: tuple[str, ...]  # runtime conditions the message mentions


def _catalog_value(value: Any) -> Any:
    return catalog_ops.UNKNOWN if value == UNKNOWN else value


def match_op(
    usage: Usage, version: str, *, cuda: bool, training: bool, framework: str = "torch",
    tf_unseeded_det: bool = False,
) -> list[OpMatch]:
    """Catalog entries a recorded op call matches in a program with these properties."""
    name = usage.name
    method = name[len("Tensor."):] if name.startswith("Tensor.") else None
    if method in _AMBIGUOUS_METHODS:
        keyword = _TORCH_ONLY_KEYWORDS.get(method)
        if keyword is None or not usage.has_kw(keyword):
            return []
    args = tuple(_catalog_value(a) for a in usage.args)
    kwargs = {k: _catalog_value(v) for k, v in usage.kwargs}
    found = []
    for entry in catalog_ops.lookup(name, version):
        if entry.framework != framework or entry.id in _GENERIC_CUDNN_IDS:
            continue
        if set(entry.runtime) & _UNDECIDABLE_TAGS:
            continue
        if entry.cuda_only and not cuda:
            continue
        if entry.backward_only and not training:
            continue
        if not _conditions_hold(entry, name, args, kwargs, usage.flag):
            continue
        if "src-is-tensor" in entry.runtime and not _src_may_be_tensor(args, kwargs):
            continue
        if "no-global-seed" in entry.runtime and not tf_unseeded_det:
            continue
        notes = tuple(TAG_NOTES[t] for t in entry.runtime if t in TAG_NOTES and t != "src-is-tensor")
        found.append(OpMatch(entry, notes))
    return found


def _conditions_hold(entry: catalog_ops.OpEntry, name: str, args: tuple, kwargs: dict, star: bool) -> bool:
    for condition in entry.when:
        outcome = condition.evaluate(name, args, kwargs)
        if outcome is False:
            return False
        if outcome is None:
            position = condition.position_for(name)
            passed = condition.arg in kwargs or (position is not None and position < len(args))
            if not passed and not star:
                return False  # decided by a default we do not know: stay silent
    return True


def _src_may_be_tensor(args: tuple, kwargs: dict) -> bool:
    if "value" in kwargs or "reduce" in kwargs and "src" not in kwargs:
        return "src" in kwargs
    src = kwargs.get("src", args[2] if len(args) > 2 else catalog_ops.UNKNOWN)
    return not isinstance(src, (int, float)) or isinstance(src, bool)


# ----------------------------------------------------------------------------- programs

@dataclass
class ProgramUsage:
    """One program's (or library module's) Usage events in execution order."""

    entry: str
    program: Optional[Program]  # None for a library module checked on its own
    modules: list[str] = field(default_factory=list)
    events: list[tuple[str, Usage, bool]] = field(default_factory=list)  # (path, event, default path)
    arg_defaults: dict[str, Any] = field(default_factory=dict)

    @property
    def is_library(self) -> bool:
        return self.program is None

    @property
    def entry_points(self) -> tuple[str, ...]:
        """The entry point, as findings list it (none for a library module)."""
        return () if self.is_library else (self.entry,)

    def lookup(self, name: str) -> Any:
        return self.arg_defaults.get(name, UNKNOWN)

    def of(self, kind: str, name: Optional[str] = None, default_only: bool = True) -> Iterator[tuple[int, str, Usage]]:
        """(position, path, event) of the events of one kind, in execution order."""
        for position, (path, usage, default) in enumerate(self.events):
            if usage.kind != kind or (name is not None and usage.name != name):
                continue
            if default_only and not default:
                continue
            yield position, path, usage

    def first(self, kind: str, name: Optional[str] = None, default_only: bool = True) -> Optional[tuple[int, str, Usage]]:
        return next(self.of(kind, name, default_only), None)

    def has(self, kind: str, name: Optional[str] = None, default_only: bool = True) -> bool:
        return self.first(kind, name, default_only) is not None

    def uses(self, library: str, facts: dict[str, ModuleFacts]) -> bool:
        return any(library in facts[path].uses for path in self.modules)

    def value(self, usage: Usage) -> Optional[bool]:
        """A flag's value with the default options: True, False or None (unknown)."""
        if usage.ref is not None:
            negate = usage.ref.startswith("!")
            value = self.lookup(usage.ref.lstrip("!"))
            if value == UNKNOWN:
                return None
            return (not value) if negate else bool(value)
        if usage.value == UNKNOWN:
            return None
        return usage.value is True or usage.value in ("warn", "error")

    def kw_value(self, usage: Usage, key: str) -> Any:
        """A keyword's literal (``"@name"`` options resolved with their defaults)."""
        value = usage.kw(key)
        if isinstance(value, str) and value.startswith("@"):
            return self.lookup(value[1:])
        return value

    # ---------------------------------------------------------------- questions
    @property
    def cuda(self) -> Optional[tuple[str, Usage]]:
        """The first line that puts torch work on CUDA, with the default options."""
        if self.hides_gpu("torch"):
            return None
        found = self.first("cuda")
        return (found[1], found[2]) if found else None

    def hides_gpu(self, framework: str) -> bool:
        for _, _, usage in self.of("cpu-only"):
            if usage.name in (framework, "any"):
                return True
        for _, _, usage in self.of("env"):
            if usage.name == "CUDA_VISIBLE_DEVICES" and usage.value in ("", "-1"):
                return True
            if framework == "jax" and usage.name in ("JAX_PLATFORMS", "JAX_PLATFORM_NAME") and usage.value == "cpu":
                return True
        return False

    @property
    def entry_event(self) -> Optional[tuple[str, Usage]]:
        for path, usage, _ in self.events:
            if usage.kind == "entry" and path == self.entry:
                return path, usage
        return None

    @property
    def trains(self) -> bool:
        return self.has("train", "torch")

    @property
    def framework_trainer(self) -> bool:
        """Lightning's or Hugging Face's Trainer runs the loop (RPL306 owns its flags)."""
        return self.has("lightning") or self.has("hf-trainer")

    def deterministic(self) -> Optional[tuple[str, Usage, bool]]:
        """(path, event, warn_only) of what turns torch's deterministic mode on, if anything."""
        for _, path, usage in self.of("flag", "torch.deterministic"):
            value = self.value(usage)
            if value is None or value:
                return path, usage, usage.flag
        for _, path, usage in self.of("flag", "hf.full-determinism"):
            return path, usage, False
        for _, path, usage in self.of("lightning"):
            value = self.kw_value(usage, "deterministic")
            if value is True or value == "warn" or value == UNKNOWN:
                return path, usage, value == "warn"
        for _, path, usage in self.of("hf-args"):
            value = self.kw_value(usage, "full_determinism")
            if value is True or value == UNKNOWN:
                return path, usage, False
        return None

    def cudnn_deterministic(self) -> bool:
        for _, _, usage in self.of("flag", "cudnn.deterministic"):
            value = self.value(usage)
            if value is None or value:
                return True
        return self.deterministic() is not None


def _replay(index: ProgramIndex, entry: str, program: Optional[Program]) -> ProgramUsage:
    usage = ProgramUsage(entry, program)
    if program is not None:
        usage.arg_defaults = dict(program.arg_defaults)
    else:
        usage.arg_defaults = dict(index.facts[entry].arg_defaults)
    ran_modules: set[str] = set()
    ran_functions: set[tuple[str, str]] = set()
    lookup = usage.lookup

    def on_default_path(conds: tuple[Any, ...]) -> bool:
        for tree, polarity, _ in conds:
            value = evaluate(tree, lookup)
            if value is not None and value != polarity:
                return False
        return True

    def run_module(path: str, as_main: bool = False) -> None:
        if path in ran_modules:
            return
        ran_modules.add(path)
        usage.modules.append(path)
        in_guard = False
        for event in index.facts[path].events:
            if isinstance(event, Guard):
                in_guard = event.begin
                continue
            if in_guard and not as_main:
                continue
            run_event(path, event, ())

    def run_function(path: str, qualname: str, conds: tuple[Any, ...], depth: int) -> None:
        key = (path, qualname)
        if key in ran_functions or depth > 60:
            return
        ran_functions.add(key)
        for event in index.facts[path].functions[qualname].events:
            run_event(path, event, conds, depth + 1)

    def run_event(path: str, event: Any, outer: tuple[Any, ...], depth: int = 0) -> None:
        if isinstance(event, Import):
            for module in index.package_chain(path, event.module):
                run_module(module)
            return
        if isinstance(event, Usage):
            usage.events.append((path, event, on_default_path(outer + event.conds)))
            return
        if isinstance(event, Call):
            resolved = index.resolve_call(path, event.target)
            if resolved is None:
                return
            file, qualname = resolved
            if file not in ran_modules:
                run_module(file)
            run_function(file, qualname, outer + event.conds, depth)

    run_module(entry, as_main=True)
    done = 0
    while done < len(usage.modules):
        path = usage.modules[done]
        done += 1
        for qualname, fn in list(index.facts[path].functions.items()):
            if fn.qualname == qualname:
                run_function(path, qualname, (), 0)
    return usage


def program_usages(ctx: "CheckContext") -> list[ProgramUsage]:
    """Every program of the check, then every module no program reaches (cached on ctx)."""
    cached = ctx.__dict__.get("_program_usages")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    out = [_replay(ctx.index, p.entry, p) for p in ctx.programs]
    reached = {path for u in out for path in u.modules}
    for path in sorted(ctx.facts):
        if path not in reached:
            out.append(_replay(ctx.index, path, None))
            reached.update(out[-1].modules)
    ctx.__dict__["_program_usages"] = out
    return out


def report_location(usage: ProgramUsage, preferred: Optional[tuple[str, Usage]]) -> Optional[tuple[str, Usage]]:
    """Where a program-level finding goes: ``preferred`` (the line that selects the GPU),
    else the entry point's first statement."""
    return preferred or usage.entry_event


# ----------------------------------------------------------------------------- TensorFlow

@dataclass(frozen=True)
class TfDeterminism:
    on: bool  # op determinism is requested in a way this TF version honours
    via: Optional[str]  # how ("enable_op_determinism()", "TF_DETERMINISTIC_OPS=1")
    cudnn_only: bool  # only TF_CUDNN_DETERMINISTIC is set


def tf_determinism(program: ProgramUsage, version: str) -> TfDeterminism:
    flags = {f.name: f for f in catalog_ops.load_tf_flags()}
    call = flags.get("tensorflow.config.experimental.enable_op_determinism")
    if program.has("flag", "tf.op-determinism") and (call is None or call.honoured_by(version)):
        return TfDeterminism(True, "`tf.config.experimental.enable_op_determinism()`", False)
    cudnn_only = False
    for _, _, usage in program.of("env"):
        flag = flags.get(usage.name)
        if flag is None or flag.form != "env":
            continue
        value = usage.value
        if value is not None and str(value).lower() not in flag.values:
            continue
        if not flag.honoured_by(version):
            continue
        if usage.name == "TF_CUDNN_DETERMINISTIC":
            cudnn_only = True
            continue
        return TfDeterminism(True, f"`{usage.name}={value}`", False)
    return TfDeterminism(False, None, cudnn_only)


@functools.lru_cache(maxsize=1)
def tf_settings_by_name() -> dict[str, catalog_ops.TfSetting]:
    return {name: s for s in catalog_ops.load_tf_settings() for name in s.names}
