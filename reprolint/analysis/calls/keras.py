"""Keras knowledge the RNG facts need: what an initialiser argument draws, and what
``model.fit(x, ...)`` shuffles.

Both were measured on the real libraries (Keras 3.15 and tf-keras 2.21, TensorFlow 2.21;
``tests/libraries``):

* a layer draws its initial weights only through a random initialiser: ``"zeros"``,
  ``"ones"``, ``"identity"``, ``Constant(...)`` and an initialiser made with ``seed=`` draw
  nothing from a global RNG;
* ``fit`` shuffles NumPy arrays and tensors by default (``shuffle=True``), with
  TensorFlow's global seed; it ignores ``shuffle`` for a ``tf.data.Dataset``, a Python
  generator and a torch ``DataLoader``, which bring their own order (and raise when also
  given ``y=``); a ``keras.utils.PyDataset``/``Sequence`` has its batch order shuffled
  with Python's ``random`` (decided when the program builds it from a class of the same
  module);
* Keras 2's ``ImageDataGenerator(...).flow*(...)`` without ``seed=`` shuffles its samples
  (``shuffle=True`` by default) and draws its random augmentations from NumPy's global RNG;
  its ``fit(x, seed=s)`` seeds that RNG (``np.random.seed(s)``).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import find_argument, literal as _literal

# Libraries whose models also have a ``fit`` method (RPL306 must not take them for Keras).
OTHER_FIT_LIBRARIES = frozenset({
    "sklearn", "statsmodels", "xgboost", "lightgbm", "catboost", "prophet", "pmdarima", "lifelines",
    "umap", "hdbscan", "gensim", "sktime", "pomegranate", "hmmlearn",
    # TFLearn's `DNN(net).fit(X, Y, n_epoch=...)` trains a TensorFlow graph of its own:
    # not Keras (a blind judge found RPL306 naming Keras there)
    "tflearn",
})
KERAS_FIT_KEYWORDS = frozenset({
    "epochs", "steps_per_epoch", "validation_split", "validation_steps", "initial_epoch",
    "validation_freq",
})


def forest_model(qualname: str) -> bool:
    """A TensorFlow Decision Forests model (``tfdf.keras.GradientBoostedTreesModel``...):
    a Keras model whose ``fit`` trains trees in Yggdrasil's C++ learners, which are
    deterministic by the model's own ``random_seed`` (default 123456; read in the
    tensorflow-decision-forests 1.12.0 wrappers: "Learners are expected to be
    deterministic by the random seed"), not with TensorFlow's kernels or seeds."""
    return qualname.startswith("tensorflow_decision_forests.")


def estimator_model(qualname: str) -> bool:
    """A TensorFlow Estimator (``tf.estimator.DNNClassifier``, TF 1's
    ``tf.contrib.learn``/``tf.contrib.boosted_trees`` estimators, whose ``fit`` came
    before ``train``): its ``fit``/``train`` runs a TF graph fed by an ``input_fn``,
    whose shuffling is TensorFlow's (queues or ``tf.data``, seeded by the graph seed),
    not Keras's ``fit`` over NumPy arrays."""
    if ".keras." in qualname:
        return False
    return qualname.startswith((
        "tensorflow.contrib.", "tensorflow.estimator.", "tensorflow.compat.v1.estimator.", "tensorflow_estimator.",
    ))


__all__ = [
    "INPUT_CHECKS", "estimator_model", "KERAS_FIT_KEYWORDS", "OTHER_FIT_LIBRARIES", "forest_model", "RANDOM_INITIALIZERS", "fit_draws", "fit_generator_draws", "flow_draws", "flow_draws_tf",
    "initializer_value", "note_assignment",
]

# What ``keras.initializers.get(name)`` makes a random initialiser of (Keras 2 and 3 agree).
RANDOM_INITIALIZERS = frozenset({
    "glorot_uniform", "glorot_normal", "he_uniform", "he_normal", "lecun_uniform",
    "lecun_normal", "random_uniform", "random_normal", "truncated_normal",
    "variance_scaling", "orthogonal", "orthogonal_initializer", "uniform", "normal",
})
_INITIALIZER_MODULES = ("keras.initializers.", "tensorflow.keras.initializers.", "tf_keras.initializers.",
                        "tensorflow.initializers.", "tensorflow.compat.v1.keras.initializers.")


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def initializer_value(c: Any, expr: cst.BaseExpression) -> Any:
    """An initialiser argument as a name the catalog compares: a string literal as written
    (``"GlorotUniform"`` reads ``"glorot_uniform"``); ``keras.initializers.X(...)`` by X's
    name, ``"seeded"`` with ``seed=``, ``"drawn-at-argument"`` when the catalog reports the
    initialiser's own construction (the layer then draws nothing more); anything else
    unknown."""
    from reprolint.analysis.values import UNKNOWN

    literal = _literal(expr)
    if isinstance(literal, str) and literal != UNKNOWN:
        return _snake(literal)
    if not isinstance(expr, cst.Call):
        return UNKNOWN
    qualname = c.qualify(expr.func) or ""
    if not qualname.startswith(_INITIALIZER_MODULES):
        return UNKNOWN
    for arg in expr.args:
        if arg.keyword is not None and arg.keyword.value == "seed" and _literal(arg.value) is not None:
            return "seeded"
    if c.catalog.draw(qualname) is not None:
        return "drawn-at-argument"
    return _snake(qualname.rsplit(".", 1)[1])


# ------------------------------------------------------------------------- fit inputs

_DATASET_CALLS = (
    "tensorflow.data.", "tensorflow_datasets.load", "tensorflow.keras.utils.image_dataset_from_directory",
    "tensorflow.keras.utils.text_dataset_from_directory", "tensorflow.keras.utils.timeseries_dataset_from_array",
    "tensorflow.keras.utils.audio_dataset_from_directory", "tensorflow.keras.preprocessing.image_dataset_from_directory",
    "tensorflow.keras.preprocessing.text_dataset_from_directory", "keras.utils.image_dataset_from_directory",
    "keras.utils.text_dataset_from_directory", "keras.utils.timeseries_dataset_from_array",
    "keras.utils.audio_dataset_from_directory", "keras.preprocessing.image_dataset_from_directory",
    "torch.utils.data.DataLoader",
)
# Methods that only a tf.data.Dataset (or a torch/grain loader) chains.
_DATASET_METHODS = frozenset({"batch", "prefetch", "padded_batch", "repeat", "cache", "unbatch", "from_tensor_slices"})
# Methods a dataset keeps being a dataset through (also on other receivers: not decisive alone).
_DATASET_PASSTHROUGH = frozenset({"map", "shuffle", "take", "skip", "filter", "with_options", "apply", "zip"})
_ARRAY_KEYWORDS = ("y", "validation_split", "sample_weight")
# Keras 2's ImageDataGenerator iterators are Sequences (Keras 3 dropped the class).
_SEQUENCE_METHODS = frozenset({"flow", "flow_from_directory", "flow_from_dataframe"})
# Base classes whose instances fit() shuffles batch by batch with Python's random.
_SEQUENCE_BASES = frozenset({
    f"{root}.utils.{name}" for root in ("keras", "tensorflow.keras", "tf_keras") for name in ("Sequence", "PyDataset")
})


def _input_kind(c: Any, expr: cst.BaseExpression, seen: int = 0) -> str:
    """``"dataset"`` (brings its own order: a tf.data chain, ``*_dataset_from_directory``,
    ``tfds.load``, a ``DataLoader``, a generator), ``"sequence"`` (an instance of a class of
    this module based on ``keras.utils.PyDataset``/``Sequence``), or ``"unknown"``."""
    if isinstance(expr, cst.Name):
        return getattr(c, "keras_inputs", {}).get(expr.value, "unknown")
    if isinstance(expr, cst.GeneratorExp):
        return "dataset"
    if not isinstance(expr, cst.Call):
        return "unknown"
    qualname = c.qualify(expr.func) or ""
    if qualname.startswith(_DATASET_CALLS):
        return "dataset"
    if isinstance(expr.func, cst.Name) and _SEQUENCE_BASES & set(c.facts.classes.get(expr.func.value, ())):
        return "sequence"
    if isinstance(expr.func, cst.Attribute):
        if expr.func.attr.value in _DATASET_METHODS:
            return "dataset"
        if expr.func.attr.value in _SEQUENCE_METHODS:
            return "sequence"
        if expr.func.attr.value in _DATASET_PASSTHROUGH and seen < 8:
            return _input_kind(c, expr.func.value, seen + 1)
    return "unknown"


def note_assignment(c: Any, names: list[str], value: cst.BaseExpression) -> None:
    """Remember the names bound to a fit input of a known kind (``train_ds =
    tf.data.Dataset...``); a later assignment of anything else forgets them."""
    if "tensorflow" not in c.uses and "keras" not in c.uses:
        return
    from reprolint.analysis.calls import tf_pipelines

    tf_pipelines.note_assignment(c, names, value)
    generators: dict[str, bool] = c.__dict__.setdefault("image_generators", {})
    augments = image_generator(c, value)
    for name in names:
        if augments is None:
            generators.pop(name, None)
        else:
            generators[name] = augments
    inputs: dict[str, str] = c.__dict__.setdefault("keras_inputs", {})
    kind = _input_kind(c, value)
    for name in names:
        if kind == "unknown":
            inputs.pop(name, None)
        else:
            inputs[name] = kind


def fit_draws(c: Any, node: cst.Call) -> Optional[str]:
    """The library whose global RNG ``model.fit(...)`` shuffles with, or None: nothing for
    an input that brings its own order; Python's ``random`` for a PyDataset/Sequence built
    here, TensorFlow's for arrays (visible by ``y=``/``validation_split=``, which only arrays
    accept), unless ``shuffle=False``; otherwise only with ``shuffle=True`` written."""
    args = [a for a in node.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    if not c._u_keras_fit(node, keywords):
        return None  # another library's `fit` (scikit-learn, TFLearn...): RPL306's test too
    x = keywords.get("x", args[0].value if args else None)
    kind = _input_kind(c, x) if x is not None else "unknown"
    if kind == "dataset":
        return None
    shuffle = keywords.get("shuffle", args[8].value if len(args) > 8 else None)
    if shuffle is not None and _literal(shuffle) is False:
        return None
    if kind == "sequence":
        return "random"
    has_y = len(args) > 1 or any(k in keywords for k in _ARRAY_KEYWORDS)
    return "tensorflow" if shuffle is not None or has_y else None


def fit_generator_draws(c: Any, node: cst.Call) -> Optional[str]:
    """Keras 2's ``fit_generator(generator, ..., shuffle=True)``: a Sequence's batch order
    (an ImageDataGenerator ``flow*`` iterator, a PyDataset/Sequence class of this module)
    is shuffled with Python's ``random``; a plain generator is not shuffled."""
    args = [a for a in node.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    generator = keywords.get("generator", keywords.get("x", args[0].value if args else None))
    shuffle = keywords.get("shuffle")
    if generator is None or (shuffle is not None and _literal(shuffle) is False):
        return None
    return "random" if _input_kind(c, generator) == "sequence" else None


# ------------------------------------------------------------------------- ImageDataGenerator

# Keras 2's ImageDataGenerator (tf-keras 2.21 still ships it; Keras 3 keeps it only as
# keras._legacy). Its constructor's parameters, in order, and those that draw a random
# transformation for every image when not 0/False/None (measured on tf-keras 2.21).
_IMAGE_GENERATOR_PARAMS = (
    "featurewise_center", "samplewise_center", "featurewise_std_normalization", "samplewise_std_normalization",
    "zca_whitening", "zca_epsilon", "rotation_range", "width_shift_range", "height_shift_range",
    "brightness_range", "shear_range", "zoom_range", "channel_shift_range", "fill_mode", "cval",
    "horizontal_flip", "vertical_flip",
)
_AUGMENTATIONS = frozenset({
    "rotation_range", "width_shift_range", "height_shift_range", "brightness_range", "shear_range",
    "zoom_range", "channel_shift_range", "horizontal_flip", "vertical_flip",
})
_IMAGE_GENERATORS = frozenset(
    f"{root}.preprocessing.image.ImageDataGenerator"
    for root in ("keras", "tensorflow.keras", "tf_keras", "keras_preprocessing", "tensorflow.compat.v1.keras")
) | {"keras_preprocessing.image.ImageDataGenerator", "keras.preprocessing.image.image_data_generator.ImageDataGenerator"}
# (shuffle, seed) positions of each flow method (after self).
_FLOW_POSITIONS = {"flow": (3, 5), "flow_from_directory": (6, 7), "flow_from_dataframe": (10, 11)}


def image_generator(c: Any, expr: cst.BaseExpression) -> Optional[bool]:
    """For ``ImageDataGenerator(...)`` (or a name bound to one): whether it draws random
    augmentations (a ``**`` splat counts as drawing); None for anything else."""
    if isinstance(expr, (cst.Name, cst.Attribute)):
        name = expr.value if isinstance(expr, cst.Name) else expr.attr.value
        return getattr(c, "image_generators", {}).get(name)
    if not isinstance(expr, cst.Call) or (c.qualify(expr.func) or "") not in _IMAGE_GENERATORS:
        return None
    for index, arg in enumerate(expr.args):
        if arg.star:
            return True
        name = arg.keyword.value if arg.keyword is not None else (
            _IMAGE_GENERATOR_PARAMS[index] if index < len(_IMAGE_GENERATOR_PARAMS) else ""
        )
        if name in _AUGMENTATIONS and _literal(arg.value) not in (0, 0.0, False, None):
            return True
    return False


def flow_draws(c: Any, node: cst.Call) -> Optional[str]:
    """``ImageDataGenerator(...).flow*(...)``: NumPy's global RNG, which permutes the samples
    each epoch (``shuffle=True``, the default) and draws the random augmentations, unless
    ``seed=`` is given (measured on tf-keras 2.21: ``np.random.seed`` fixes the batches, an
    unseeded run changes them, ``seed=`` fixes them alone). None for another receiver, or
    ``shuffle=False`` on a generator without augmentations."""
    if not isinstance(node.func, cst.Attribute) or node.func.attr.value not in _FLOW_POSITIONS:
        return None
    augments = image_generator(c, node.func.value)
    if augments is None:
        return None
    shuffle_at, seed_at = _FLOW_POSITIONS[node.func.attr.value]
    args = [a.value for a in node.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    seed = keywords.get("seed", args[seed_at] if len(args) > seed_at else None)
    if seed is not None and _literal(seed) is not None:
        return None
    shuffle = keywords.get("shuffle", args[shuffle_at] if len(args) > shuffle_at else None)
    if not augments and shuffle is not None and _literal(shuffle) is False:
        return None
    return "numpy"


def fit_seed(c: Any, node: cst.Call) -> Optional[cst.BaseExpression]:
    """``datagen.fit(x, seed=0)`` on an ImageDataGenerator: the seed it gives NumPy's global
    RNG (Keras 2's ``fit(x, augment=False, rounds=1, seed=None)`` calls
    ``np.random.seed(seed)`` when ``seed`` is not None, before it computes the featurewise
    statistics; keras_preprocessing 1.0-1.1 and tf-keras 2.21). None for another call,
    or for a seed left out or written as None."""
    if not isinstance(node.func, cst.Attribute) or node.func.attr.value != "fit":
        return None
    if image_generator(c, node.func.value) is None:
        return None
    if any(a.star for a in node.args):
        return None
    seed = find_argument(node, "seed", 3)
    if seed is None or _literal(seed.value) is None:
        return None
    return seed.value


def flow_draws_tf(c: Any, node: cst.Call) -> Optional[str]:
    """The same for a program that imports TensorFlow; left to :func:`flow_draws` when it
    also imports ``keras`` (one draw per call)."""
    return None if "keras" in c.uses else flow_draws(c, node)


def fit_generator_draws_tf(c: Any, node: cst.Call) -> Optional[str]:
    """:func:`fit_generator_draws` for a program that imports TensorFlow; left to the
    ``keras`` entry when it also imports ``keras`` (one draw per call)."""
    return None if "keras" in c.uses else fit_generator_draws(c, node)


# What decides a draw whose entry names an `input`: the library it draws from, or None.
INPUT_CHECKS: dict[str, Callable[[Any, cst.Call], Optional[str]]] = {
    "keras-fit": fit_draws, "keras-fit-generator": fit_generator_draws,
    "keras-fit-generator-tf": fit_generator_draws_tf,
    "keras-image-flow": flow_draws, "keras-image-flow-tf": flow_draws_tf,
}
