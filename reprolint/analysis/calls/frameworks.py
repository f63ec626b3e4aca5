"""High-level trainers: Lightning, Hugging Face, Accelerate (what they select and set)."""

from __future__ import annotations

from typing import Any, Optional

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import literal as _literal, literal_kwargs
from reprolint.analysis.usage_events import (
    CudaWork, FlagSet, HfTrainer, HfTrainingArgs, LightningTrainer, TrainStep, keyword_value,
)

LIGHTNING_TRAINERS = frozenset({
    "lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer",
    "lightning.pytorch.trainer.Trainer", "pytorch_lightning.trainer.Trainer",
})
FABRIC = frozenset({"lightning.Fabric", "lightning.fabric.Fabric", "lightning_fabric.Fabric"})
HF_ARGS = frozenset({
    "transformers.TrainingArguments", "transformers.Seq2SeqTrainingArguments",
    "transformers.training_args.TrainingArguments",
})
HF_TRAINERS = frozenset({
    "transformers.Trainer", "transformers.Seq2SeqTrainer", "transformers.trainer.Trainer",
    "trl.SFTTrainer",
})


LIGHTNING_FROM_ARGS = frozenset(f"{t}.from_argparse_args" for t in LIGHTNING_TRAINERS)
LIGHTNING_CLI = frozenset({
    "lightning.pytorch.cli.LightningCLI", "lightning.pytorch.LightningCLI",
    "pytorch_lightning.cli.LightningCLI", "pytorch_lightning.utilities.cli.LightningCLI",
    "lightning.pytorch.utilities.cli.LightningCLI",
})
# The Trainer options the determinism rules read.
_TRAINER_KEYS = ("deterministic", "benchmark", "accelerator", "gpus")


def _namespace(node: Any) -> bool:
    """``vars(args)``, ``args.__dict__``: an argparse namespace spread into keywords."""
    import libcst as cst

    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "vars":
        return True
    return isinstance(node, cst.Attribute) and node.attr.value == "__dict__"


def _dict_items(c: Any, node: Any) -> Any:
    """(key, value node) of a dict literal (``{...}``, ``dict(k=v)``, or a name bound to
    one); None when the mapping is not visible."""
    import libcst as cst

    if isinstance(node, cst.Name):
        node = c.dict_value(node.value)
    if isinstance(node, cst.Dict):
        items = []
        for element in node.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(_literal(element.key), str):
                return None
            items.append((_literal(element.key), element.value))
        return items
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "dict":
        if any(a.keyword is None for a in node.args):
            return None
        return [(a.keyword.value, a.value) for a in node.args]
    return None


def _trainer_kwargs(c: Any, node: Any, namespace: bool = False) -> tuple[tuple[str, Any], ...]:
    """The Trainer's keyword literals, with what ``**`` spreads: a visible dict literal's
    items; an argparse namespace's options (``**vars(args)``, ``from_argparse_args(args)``)
    as :class:`OptionRef`, the keys it has no option for staying at Lightning's defaults;
    anything else makes the keys the rules read unknown."""
    import libcst as cst

    from reprolint.analysis.config_files import config_path
    from reprolint.analysis.values import UNKNOWN, ConfigKey, OptionRef

    lits = dict(literal_kwargs(node))
    spread: dict[str, Any] = {}

    def from_namespace() -> None:
        for key in _TRAINER_KEYS:
            if key in c.facts.arg_defaults:
                spread[key] = OptionRef(key)

    if namespace:
        from_namespace()
    for arg in node.args:
        if arg.star != "**":
            continue
        items = _dict_items(c, arg.value)
        if items is not None:
            for key, value in items:
                literal = _literal(value)
                if literal == UNKNOWN and isinstance(value, cst.Attribute):
                    literal = OptionRef(value.attr.value)
                spread[key] = literal
        elif _namespace(arg.value):
            from_namespace()
        elif c.facts.config_sources and config_path(arg.value):
            # a mapping of the configuration the module loads (`**config["trainer_params"]`):
            # its keys, or the Trainer's defaults where the files hold none
            for key in _TRAINER_KEYS:
                spread.setdefault(key, ConfigKey(key))
        else:
            for key in _TRAINER_KEYS:
                spread.setdefault(key, UNKNOWN)
    return tuple({**spread, **lits}.items())


def _spread_of(c: Any, node: Any, key: str) -> Optional[str]:
    """The code of the ``**mapping`` that gives the call ``key``, when no keyword does."""
    if any(arg.keyword is not None and arg.keyword.value == key for arg in node.args):
        return None
    spread = [arg.value for arg in node.args if arg.star == "**"]
    giving = [v for v in spread if any(k == key for k, _ in _dict_items(c, v) or ())]
    chosen = (giving or spread)[-1:]  # the last one wins, as in the call
    return c.text(chosen[0]) if chosen else None


def lightning_on_cuda(kwargs: tuple[tuple[str, Any], ...]) -> bool:
    """Whether a Lightning Trainer given these keywords may put its work on CUDA: unless
    ``accelerator="cpu"``, ``gpus=0`` or ``gpus=None`` keeps it on the CPU."""
    return keyword_value(kwargs, "accelerator") != "cpu" and keyword_value(kwargs, "gpus", 1) not in (0, None)


def _lightning_trainer(c: Any, node: Any, qualname: str, lits: tuple[tuple[str, Any], ...]) -> None:
    from reprolint.analysis.values import OptionRef

    if lightning_on_cuda(lits):
        c._u_emit(CudaWork, f"`{c.text(node.func)}(...)`", node)
    c._u_emit(LightningTrainer, qualname, node, kwargs=lits)
    benchmark = keyword_value(lits, "benchmark")
    if benchmark is True:
        c._u_emit(FlagSet, "cudnn.benchmark", node, value=True, spread=_spread_of(c, node, "benchmark"))
    elif isinstance(benchmark, OptionRef):
        from reprolint.analysis.values import UNKNOWN

        c._u_emit(FlagSet, "cudnn.benchmark", node, value=UNKNOWN, ref=benchmark)


@on_call(*LIGHTNING_TRAINERS, *FABRIC)
def _lightning(c: Any, site: CallSite) -> None:
    node = site.node
    lits = _trainer_kwargs(c, node)
    if site.qualname in LIGHTNING_TRAINERS:
        _lightning_trainer(c, node, site.qualname, lits)
    else:
        if keyword_value(lits, "accelerator") != "cpu" and keyword_value(lits, "gpus", 1) not in (0, None):
            c._u_emit(CudaWork, f"`{c.text(node.func)}(...)`", node)


@on_call(*LIGHTNING_FROM_ARGS)
def _lightning_from_args(c: Any, site: CallSite) -> None:
    """``Trainer.from_argparse_args(args)``: the options the parser defines (Lightning's
    own, from ``add_argparse_args``, keep Lightning's defaults: not deterministic)."""
    _lightning_trainer(c, site.node, site.qualname.rsplit(".", 1)[0], _trainer_kwargs(c, site.node, namespace=True))


@on_call(*LIGHTNING_CLI)
def _lightning_cli(c: Any, site: CallSite) -> None:
    """``LightningCLI(Model, Data)`` builds the Trainer from the command line and config with
    Lightning's defaults, overridden by ``trainer_defaults={...}``."""
    from reprolint.analysis.values import UNKNOWN

    defaults = site.kwargs.get("trainer_defaults")
    lits: tuple[tuple[str, Any], ...] = ()
    if defaults is not None:
        items = _dict_items(c, defaults)
        if items is None:
            lits = tuple((key, UNKNOWN) for key in _TRAINER_KEYS)
        else:
            lits = tuple((key, _literal(value)) for key, value in items)
    # the event is named after the CLI: `deterministic=` is not its keyword (fix: none)
    _lightning_trainer(c, site.node, site.qualname, lits)
    c._u_emit(TrainStep, "torch", site.node)
    # It calls seed_everything(seed_everything_default) before building the model; the
    # default (True) draws a seed and saves it in the run's config.yaml.
    seed = site.kwargs.get("seed_everything_default")
    if seed is None or _literal(seed) is not False:
        from reprolint.analysis.facts import Seed

        c.emit(Seed(
            api="lightning.seed_everything", libs=("random", "numpy", "torch"), span=c.span(site.node),
            text=c.text(site.node.func), entropy=c.entropy_of(seed) if seed is not None else None,
            entropy_ref=c.attr_ref(seed) if seed is not None else None, no_seed=False,
            conds=c.current_conds(),
        ))


@on_call(*HF_ARGS)
def _hf_args(c: Any, site: CallSite) -> None:

    lits = literal_kwargs(site.node)
    c._u_emit(HfTrainingArgs, site.qualname, site.node, kwargs=lits)
    if not (keyword_value(lits, "use_cpu") is True or keyword_value(lits, "no_cuda") is True):
        c._u_emit(CudaWork, f"`{c.text(site.node.func)}(...)`", site.node)


@on_call("transformers.HfArgumentParser", "transformers.hf_argparser.HfArgumentParser")
def _hf_argument_parser(c: Any, site: CallSite) -> None:
    """``HfArgumentParser((..., TrainingArguments))``: the TrainingArguments come from the
    command line with their defaults (``full_determinism`` False), like an option default."""
    import libcst as cst

    if not site.node.args:
        return
    first = site.node.args[0].value
    classes = [e.value for e in first.elements] if isinstance(first, (cst.Tuple, cst.List)) else [first]
    # a dataclass of the module's own deriving from TrainingArguments counts as one
    # (`class TrainingArguments(transformers.TrainingArguments): cache_dir: ...`)
    own = c.facts.classes
    if any(c.qualify(cls) in HF_ARGS or (
        isinstance(cls, cst.Name) and any(base in HF_ARGS for base in own.get(cls.value, ()))
    ) for cls in classes):
        # named after the parser: `full_determinism=` is not its keyword (fix: none)
        c._u_emit(HfTrainingArgs, site.qualname, site.node, kwargs=())
        c._u_emit(CudaWork, "`HfArgumentParser(... TrainingArguments ...)`", site.node)


@on_call(*HF_TRAINERS)
def _hf_trainer(c: Any, site: CallSite) -> None:
    c._u_emit(HfTrainer, site.qualname, site.node)
    c._u_emit(CudaWork, f"`{c.text(site.node.func)}(...)`", site.node)
    c._u_emit(TrainStep, "torch", site.node)


@on_call("accelerate.Accelerator")
def _accelerator(c: Any, site: CallSite) -> None:
    if _literal(site.kwargs.get("cpu")) is not True:
        c._u_emit(CudaWork, "`Accelerator()`", site.node)


# timm's optimizer factory and loss scalers (what DeiT-style trainers call instead of
# `torch.optim.X(...)` and `loss.backward()`): a training step, like a torch optimizer.
@on_call(
    "timm.optim.create_optimizer", "timm.optim.create_optimizer_v2",
    "timm.optim.optim_factory.create_optimizer", "timm.optim.optim_factory.create_optimizer_v2",
    "timm.utils.NativeScaler", "timm.utils.cuda.NativeScaler", "timm.utils.ApexScaler",
)
def _timm_training(c: Any, site: CallSite) -> None:
    c._u_emit(TrainStep, "torch", site.node)


# A JAX training step: gradients of a loss, an optax optimizer (its update, the
# transformations it chains) or Flax's TrainState. Not what evaluation code calls too:
# optax's losses and tree helpers, Flax's checkpoint and sharding utilities
# (`flax.training.checkpoints.restore_checkpoint`, `common_utils.shard`).
_JAX_TRAIN_PREFIXES = (
    "jax.grad", "jax.value_and_grad", "optax.", "flax.training.train_state.", "flax.training.dynamic_scale.",
)
_OPTAX_NOT_TRAINING = frozenset({
    "losses", "tree_utils", "tree", "global_norm", "softmax_cross_entropy",
    "softmax_cross_entropy_with_integer_labels", "safe_softmax_cross_entropy", "sigmoid_binary_cross_entropy",
    "sigmoid_focal_loss", "l2_loss", "squared_error", "huber_loss", "log_cosh", "cosine_distance",
    "cosine_similarity", "hinge_loss", "kl_divergence", "convex_kl_divergence", "smooth_labels", "ctc_loss",
    "ctc_loss_with_forward_probs", "poly_loss_cross_entropy", "multiclass_hinge_loss", "perceptron_loss",
    "sparsemax_loss", "ranking_losses",
})


def jax_training_step(qualified: str) -> bool:
    """A call that trains in a JAX program (see _JAX_TRAIN_PREFIXES)."""
    return qualified.startswith(_JAX_TRAIN_PREFIXES) and not (
        qualified.startswith("optax.") and qualified.split(".")[1] in _OPTAX_NOT_TRAINING
    )
