"""The events the fact collector records for the op, flag and order rules (RPL2xx-RPL4xx).

Each event is a frozen dataclass: a subclass of :class:`Usage` (``name``, ``span``,
``text``, ``conds``) with the fields of its own kind, named for what they hold. The
collector (:mod:`reprolint.analysis.usage` and the call handlers of
:mod:`reprolint.analysis.calls`) records them in the ordered event lists beside seeds and
draws; the one execution walker gives them in execution order and rules ask a program for
them by class (``program.of(LoaderBuilt)``). They are plain data, so the cache stores and
rebuilds them (:mod:`reprolint.cache_codec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.model import Span

__all__ = [
    "CheckpointLoad",
    "CudaWork",
    "CudnnLayer",
    "DistributedWrapper",
    "EnvSet",
    "FlagSet",
    "GpuHidden",
    "GpuSelected",
    "HashSeedEnforced",
    "HeadOnlyOptimizer",
    "HfTrainer",
    "HfTrainingArgs",
    "KerasFit",
    "LightningTrainer",
    "EnvironmentDraw",
    "ListingOrderTaken",
    "LoaderBuilt",
    "ModuleStart",
    "OpCall",
    "RankSeed",
    "SamplerBuilt",
    "SetEpochCall",
    "SetOrderTaken",
    "TfApi",
    "TfSetting",
    "TimedCode",
    "TrainStep",
    "USAGE_TYPES",
    "Usage",
    "keyword_value",
]


@dataclass(frozen=True)
class Usage:
    """One fact for the RPL2xx-RPL4xx rules, in execution order among the other events.

    ``name`` is what the subclass says it is (a flag, a variable, a qualified call...);
    ``text`` the source of the call (its callee) or of the line, for messages; ``conds``
    the branch conditions on the way to it.
    """

    name: str
    span: Span
    text: str
    conds: tuple[Any, ...] = ()


def keyword_value(kwargs: tuple[tuple[str, Any], ...], name: str, default: Any = None) -> Any:
    """The value of keyword ``name`` in a call's ``(keyword, value)`` pairs (``default``
    when it is not passed)."""
    for key, value in kwargs:
        if key == name:
            return value
    return default


@dataclass(frozen=True)
class _KeywordCall(Usage):
    """A call whose keyword arguments the rules read: literal values, :data:`UNKNOWN`
    otherwise, or an :class:`OptionRef` for an ``args.<name>`` option."""

    kwargs: tuple[tuple[str, Any], ...] = ()

    def kw(self, name: str, default: Any = None) -> Any:
        """The value passed as keyword ``name`` (``default`` when it is not passed)."""
        return keyword_value(self.kwargs, name, default)

    def has_kw(self, name: str) -> bool:
        return any(key == name for key, _ in self.kwargs)


# ----------------------------------------------------------------------------- where


@dataclass(frozen=True)
class ModuleStart(Usage):
    """The module's first statement: where program-level findings go (``name`` empty)."""


@dataclass(frozen=True)
class TimedCode(Usage):
    """A call that times code (``timeit``, ``torch.utils.benchmark``, a timing CUDA event):
    the program is a benchmark. ``name``: the call."""


@dataclass(frozen=True)
class SetOrderTaken(Usage):
    """An RPL401 site (order taken from a set of strings), where its code runs."""

    # `<function>.<parameter>`s the set is text through: a site only where every call of
    # the programs passes text there (checks/order/set_iteration_order.passed_text)
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnvironmentDraw(Usage):
    """An environment's unseeded ``reset()`` or an action space's ``sample()`` (RPL102's
    environment sites), where its code runs."""


@dataclass(frozen=True)
class ListingOrderTaken(Usage):
    """An RPL402 site (a directory listing used in file-system order), where its code
    runs: the rule reports the sites a program runs on its default path."""


# ----------------------------------------------------------------------------- devices


@dataclass(frozen=True)
class CudaWork(Usage):
    """A line that puts torch work on a CUDA device; ``name`` says what, for messages."""


@dataclass(frozen=True)
class GpuSelected(Usage):
    """A TF or JAX line that selects a GPU; ``name``: the framework (``tf``, ``jax``)."""


@dataclass(frozen=True)
class GpuHidden(Usage):
    """The program hides the GPU; ``name``: ``tf``, ``jax`` or ``any``."""


@dataclass(frozen=True)
class CudnnLayer(Usage):
    """Evidence that cuDNN runs: a conv/RNN/BatchNorm layer or a vision model
    (``name``: its qualified name)."""


# ----------------------------------------------------------------------------- switches


@dataclass(frozen=True)
class FlagSet(Usage):
    """A determinism switch set; ``name`` is one of ``FLAG_NAMES``
    (:mod:`reprolint.analysis.usage`)."""

    value: Any = UNKNOWN  # the literal it is set to
    ref: Optional[OptionRef] = None  # set from this option instead (``value`` unknown)
    warn_only: bool = False  # ``use_deterministic_algorithms(True, warn_only=True)``
    # the parameter or module constant whose default ``value`` is (for the message)
    default_of: Optional[str] = None
    # set by what a call's ``**mapping`` spreads, not by a keyword of its own (the code
    # of the mapping: ``trainer_cfg``); the call cannot be given the keyword again
    spread: Optional[str] = None


@dataclass(frozen=True)
class GraphScope(Usage):
    """Start (``begin``) or end of ``with tf.Graph().as_default():``: TF 1.x keeps the
    graph-level seed on each graph, so a ``tf.set_random_seed`` made before the block
    does not reach the ops built in the new graph (and is back after it)."""

    begin: bool = True


@dataclass(frozen=True)
class SeedScope(Usage):
    """Start (``begin``) or end of a function that runs though no call the analysis sees
    reaches it (one passed on: ``multi_proc_run(fun=trainer.train_model)``). Its seeds
    count for what it draws itself, until it ends: a seeding helper nobody calls seeds
    nothing the program draws elsewhere."""

    begin: bool = True


@dataclass(frozen=True)
class EnvSet(Usage):
    """``os.environ[name] = value`` and friends; ``name``: the variable."""

    value: Optional[str] = None  # None: not known


@dataclass(frozen=True)
class HashSeedEnforced(Usage):
    """The program enforces ``PYTHONHASHSEED``: ``name`` ``exec`` (it re-executes itself)
    or ``check`` (it reads ``sys.flags.hash_randomization``)."""


# ----------------------------------------------------------------------------- ops


@dataclass(frozen=True)
class OpCall(_KeywordCall):
    """A call of a catalogued op (``name``: its qualified name, ``Tensor.<method>`` for a
    tensor method); arguments as literal values, :data:`UNKNOWN` otherwise."""

    args: tuple[Any, ...] = ()
    splat: bool = False  # a ``*``/``**`` argument: any keyword may be passed
    # What the collector saw about the call that the catalog's runtime conditions
    # depend on: "index-width-1" (a gather whose index has width 1 along ``dim``: its
    # backward scatter-add writes each input element at most once; "index-distinct": the
    # index's lines along ``dim`` come from a sort or a permutation, same effect), "no-grad-input"
    # (no gradient flows through it: its input is a registered buffer, or it is a TF
    # call in top-level code outside the GradientTape blocks of an eager program),
    # "index-unique" (an ``index_add_``/``index_select``/``index_copy_`` whose 1-D index visibly repeats
    # no value: ``mask.nonzero().squeeze(-1)``, ``torch.unique``, ``arange``, ``randperm``;
    # no two atomic adds land on one element, so the sum is the same on every run),
    # "output-size-one" (an adaptive average pooling to size 1 on every axis, which
    # torch computes as a mean: its backward is MeanBackward, not the pooling kernel),
    # "scalar-repeats" (``repeat_interleave`` with a Python int for ``repeats``, a literal
    # or integer arithmetic of plain reads such as ``self.num_heads // self.num_kv_heads``:
    # from torch 2.1 an expand and a copy, whose backward is a plain sum), "cpu-tensor"
    # (its input or another tensor it is given is moved to the CPU right there, ``.cpu()``:
    # the tensors of one op share a device, so its kernel is the CPU one).
    facts: tuple[str, ...] = ()
    # (class, attribute) for a layer built straight into an attribute of ``self`` in a
    # method (``self.avgpool = nn.AdaptiveAvgPool2d((7, 7))``): it runs only where code
    # reads the attribute (Program.unread_layer)
    layer: tuple[str, ...] = ()


@dataclass(frozen=True)
class TfSetting(_KeywordCall):
    """A TF construct from ``tf.toml``'s settings (``name``: its qualified name), with the
    keywords its conditions read (``deterministic``, ``num_threads``, ``sloppy``)."""

    value: Any = None  # what an ``Options`` attribute is assigned


@dataclass(frozen=True)
class TfApi(Usage):
    """A call of the TensorFlow 1 API (``name``: its qualified name): ``tf1`` when the
    name exists only in TF 1.x (``tf.Session``, ``tf.placeholder``, ``tf.contrib.*``,
    ``tf.app.run``), else TF1 graph code that TF2 runs through ``tf.compat.v1``."""

    tf1: bool = False
    # the multi-backend Keras API only Keras up to 2.2.5 offers with its TensorFlow backend
    # (``keras.backend.image_dim_ordering``), which runs on TensorFlow 1 only
    old_keras: bool = False


# ----------------------------------------------------------------------------- training


@dataclass(frozen=True)
class TrainStep(Usage):
    """A training step; ``name``: the framework (``torch``, ``tf``, ``jax``)."""

    builds_optimizer: bool = False  # ``torch.optim.X(...)``: parameters are updated
    # ``torch.autograd.grad``: gradients of inputs (classifier guidance), no update
    input_gradients: bool = False
    in_loop: bool = False  # written inside a loop


@dataclass(frozen=True)
class HeadOnlyOptimizer(Usage):
    """An optimizer given only the head of a model frozen but for it (linear probing:
    analysis/head_only.py): no layer before the head trains."""


@dataclass(frozen=True)
class CheckpointLoad(Usage):
    """A torch checkpoint load (``load_state_dict``, ``torch.load``, ``from_pretrained``,
    an unpickled network)."""


@dataclass(frozen=True)
class LightningTrainer(_KeywordCall):
    """Lightning's ``Trainer(...)`` (or ``LightningCLI``): its keywords (deterministic,
    benchmark, ...)."""


@dataclass(frozen=True)
class HfTrainingArgs(_KeywordCall):
    """``TrainingArguments(...)`` (or an ``HfArgumentParser`` of them): its keywords
    (full_determinism, use_cpu, ...)."""


@dataclass(frozen=True)
class HfTrainer(Usage):
    """``transformers.Trainer(...)``."""


@dataclass(frozen=True)
class KerasFit(Usage):
    """``model.fit(...)`` in a Keras module."""


# ----------------------------------------------------------------------------- data order


@dataclass(frozen=True)
class RankSeed(Usage):
    """A torch or global seeding call whose seed depends on the process rank.

    ``params``: when the rank is only parameters of the enclosing function that have a
    literal default (``def random_seed(seed=42, rank=0)``), their names: the seed varies
    by rank only where a call passes them."""

    params: tuple[str, ...] = ()


@dataclass(frozen=True)
class DistributedWrapper(Usage):
    """A wrapper that broadcasts rank 0's weights (DDP, ``FSDP(sync_module_states=True)``,
    ``accelerator.prepare``)."""


@dataclass(frozen=True)
class SamplerBuilt(Usage):
    """``DistributedSampler(...)``."""

    shuffle: Any = True  # the literal passed (True when left out)
    rank_seeded: bool = False  # ``seed=`` depends on the process rank


@dataclass(frozen=True)
class SetEpochCall(Usage):
    """``sampler.set_epoch(...)`` with a non-literal argument: written in a loop, or in a
    function body (a helper the epoch loop calls: ``train_one_epoch(..., epoch)``)."""

    varying_in_loop: bool = False
    varying_in_function: bool = False


@dataclass(frozen=True)
class LoaderBuilt(Usage):
    """``DataLoader(...)``."""

    dataset: str = ""  # the project call that made the dataset ("" when not known)
    num_workers: Any = 0  # literal, or a function parameter's default
    workers_ref: Optional[OptionRef] = None  # ``num_workers=args.<ref>``
    worker_init_fn: bool = False  # a ``worker_init_fn`` is given


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found.extend(_subclasses(sub))
    return found


# Every event class: the walker's test for "a usage" is one set lookup on the exact type.
USAGE_TYPES: frozenset[type] = frozenset([Usage, *_subclasses(Usage)])
