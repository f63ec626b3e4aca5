"""Every claim in ``rules/rng.toml`` checked against the real library.

For a draw ("X draws from L's global RNG"): seed L, run X; seed L the same way, run X
again (same result, while every *other* global RNG is moved on, so only L can explain
it); seed L differently (different result). For a seeder ("S seeds L"): call S, draw from
L; same again; another seed (different draw). For a generator constructor: no seed
means a different stream each time, a seed the same one.

Each case skips only when its library is not installed. APIs that have no case here are
listed in their entry's ``unverified`` field; a meta-test keeps the two in step.
"""

from __future__ import annotations

import importlib
import itertools
import os
import random
import subprocess
import sys
import tempfile
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

from reprolint.catalog import load_catalog

from _rng_recipes import RECIPES, _keras_fit_shuffled, fit_arrays

CATALOG = load_catalog("rng")
_perturb_counter = itertools.count(1000)


# --------------------------------------------------------------------------- catalog cases


def _claims(section: str) -> Iterator[Tuple[dict, str, str]]:
    """(entry, api, recipe key) for each API an entry of ``section`` names."""
    for entry in CATALOG.get(section, []):
        if section == "method_draws":
            for method in entry["methods"]:
                yield entry, method, f"{entry['requires']}:{method}"
        else:
            for api in entry["api"]:
                yield entry, api, api


def _verified(section: str) -> List[Any]:
    cases = []
    for entry, api, key in _claims(section):
        if api in entry.get("unverified", ()):
            continue
        library = entry.get("library") or ",".join(entry.get("seeds", ()))
        keras = f"keras{entry['keras']}:" if "keras" in entry else ""
        name = key if section == "method_draws" else api  # `datasets:shuffle`, not `shuffle`
        cases.append(pytest.param(entry, api, key, id=f"{library}:{keras}{name}"))
    return cases


# --------------------------------------------------------------------------- the libraries


def _seed_library(library: str, seed: int) -> None:
    if library == "random":
        random.seed(seed)
    elif library == "numpy":
        importlib.import_module("numpy").random.seed(seed)
    elif library == "torch":
        importlib.import_module("torch").manual_seed(seed)
    elif library == "tensorflow":
        importlib.import_module("tensorflow").random.set_seed(seed)
    else:
        raise AssertionError(f"no way to seed {library!r} in this test: add one")


def _move_other_rngs(library: str) -> None:
    """Reseed every global RNG except ``library``'s with a value never used before."""
    value = next(_perturb_counter)
    for other, module in (("random", "random"), ("numpy", "numpy"), ("torch", "torch"), ("tensorflow", "tensorflow")):
        if other != library and module in sys.modules:
            _seed_library(other, value)


def _probe(library: str) -> Any:
    """One draw from ``library``'s global RNG."""
    if library == "random":
        return [random.random() for _ in range(3)]
    if library == "numpy":
        return importlib.import_module("numpy").random.rand(3)
    if library == "torch":
        return importlib.import_module("torch").rand(3)
    if library == "tensorflow":
        return importlib.import_module("tensorflow").random.uniform([3])
    raise AssertionError(f"no probe for {library!r}")


# Where the tests find an API the installed TensorFlow does not have under its own name.
# tf.compat.v1.layers are tf-keras's legacy layers (what TF wires in with
# TF_USE_LEGACY_KERAS=1; under Keras 3 the attribute raises).
_TF_KERAS_V1_LAYERS = "tf_keras.api._v1.keras.__internal__.legacy.layers"


def _keras2_name(api: str) -> str:
    """A Keras name as Keras 2 runs it: tf-keras (tf.keras before TF 2.16, keras 2.x)."""
    for prefix in ("tensorflow.keras.", "keras."):
        if api.startswith(prefix):
            return "tf_keras." + api[len(prefix):]
    return api


def _resolve_entry(entry: dict, api: str) -> Any:
    """The object an entry's API names, for the Keras the entry is about (`keras = N`)."""
    if "keras" in entry:
        from reprolint.catalog.rng import keras_major

        if int(entry["keras"]) == 2:
            pytest.importorskip("tf_keras")
            return _resolve(_keras2_name(api))
        if keras_major(api) != int(entry["keras"]):
            pytest.skip(f"`{api}` runs Keras {keras_major(api)} here")
    return _resolve(api)


def _resolve(api: str) -> Any:
    """The object a qualified name names; skips when its top-level package is missing.
    A TF 1.x name (`tf.random_uniform`, `tf.train.shuffle_batch`) runs as its
    `tf.compat.v1` twin, and `tf.compat.v1.layers.X` as tf-keras's legacy layer."""
    try:
        return _resolve_path(api)
    except (AttributeError, ImportError):
        if api.startswith("tensorflow.compat.v1.layers."):
            pytest.importorskip("tf_keras")
            return _resolve_path(_TF_KERAS_V1_LAYERS + "." + api.rsplit(".", 1)[1])
        if api.startswith("tensorflow.") and not api.startswith("tensorflow.compat."):
            return _resolve_path("tensorflow.compat.v1." + api[len("tensorflow."):])
        raise


def _resolve_path(api: str) -> Any:
    parts = api.rstrip(".*").split(".")
    obj: Any = pytest.importorskip(parts[0])
    for i, part in enumerate(parts[1:], start=1):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(".".join(parts[: i + 1]))
    return obj


def _fingerprint(value: Any) -> Any:
    """Something comparable with ==, exact to the bit."""
    if isinstance(value, (list, tuple)):
        return tuple(_fingerprint(v) for v in value)
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    elif hasattr(value, "numpy") and not isinstance(value, type):
        value = value.numpy()
    if hasattr(value, "tobytes") and hasattr(value, "dtype"):
        return (str(value.dtype), getattr(value, "shape", ()), value.tobytes())
    return repr(value)


# --------------------------------------------------------------------------- draws


@pytest.mark.parametrize("entry,api,key", _verified("draws") + _verified("method_draws"))
def test_draw_follows_its_librarys_global_seed(entry: dict, api: str, key: str) -> None:
    library = entry["library"]
    pytest.importorskip(library)
    target = _resolve_entry(entry, api) if ":" not in key else pytest.importorskip(key.split(":")[0])
    recipe = RECIPES[key]

    def run(seed: int) -> Any:
        _seed_library(library, seed)
        _move_other_rngs(library)
        return _fingerprint(recipe(target))

    first, again, other = run(1), run(1), run(2)
    assert first == again, f"`{api}` gave another result under the same {library} seed"
    assert first != other, f"`{api}` gave the same result under another {library} seed"


# --------------------------------------------------------------------------- seeders


def _trainer_seeds(trainer_cls: Any, seed: int) -> None:
    import tempfile

    import torch
    import transformers

    arguments = (
        transformers.Seq2SeqTrainingArguments
        if "Seq2Seq" in trainer_cls.__name__
        else transformers.TrainingArguments
    )
    with tempfile.TemporaryDirectory() as output_dir:
        args = arguments(output_dir=output_dir, seed=seed, report_to=[])
        trainer_cls(model=torch.nn.Linear(2, 2), args=args)


_SEED_CALLS: Dict[str, Callable[[Any, int], None]] = {
    "transformers.Trainer": _trainer_seeds,
    "transformers.Seq2SeqTrainer": _trainer_seeds,
    "transformers.trainer.Trainer": _trainer_seeds,
}


# Seeders that patch the process they run in, once: each run is a fresh interpreter that
# calls the seeder, then imports the library and draws from it.
_IN_A_CHILD = {"reprolint.runtime.install"}

_CHILD = '''
import importlib, sys
api, library, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
module, name = api.rsplit(".", 1)
getattr(importlib.import_module(module), name)(seed)
lib = importlib.import_module(library)
if library == "random":
    values = [lib.random() for _ in range(3)]
elif library == "tensorflow":
    values = lib.random.uniform([3]).numpy().tolist()
else:
    values = lib.rand(3).tolist() if library == "torch" else lib.random.rand(3).tolist()
print(repr(values))
'''


def _probe_in_a_child(api: str, library: str, seed: int) -> str:
    with tempfile.TemporaryDirectory() as record:
        env = dict(os.environ, REPROLINT_RECORD=os.path.join(record, "record.json"))
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, api, library, str(seed)],
            capture_output=True, text=True, env=env, timeout=300,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("entry,api,key", _verified("seeders"))
def test_seeder_seeds_each_library_it_names(entry: dict, api: str, key: str) -> None:
    seeder = _resolve(api)
    call = _SEED_CALLS.get(api, lambda f, seed: f(seed))
    for library in entry["seeds"]:
        if library in entry.get("unverified_seeds", ()):
            continue
        pytest.importorskip(library)

        def run(seed: int) -> Any:
            if api in _IN_A_CHILD:
                return _probe_in_a_child(api, library, seed)
            _seed_library(library, 12345)  # a state the seeder must overwrite
            call(seeder, seed)
            return _fingerprint(_probe(library))

        first, again, other = run(1), run(1), run(2)
        assert first == again, f"`{api}` does not make {library}'s draws repeat"
        assert first != other, f"`{api}` ignores its seed for {library}"


_NONE_AS_ENTROPY = [
    case for case in _verified("seeders")
    if (case.values[0].get("entropy_without_seed") or case.values[0].get("none_unseeds"))
    and case.values[1] not in _IN_A_CHILD
]


@pytest.mark.parametrize("entry,api,key", _NONE_AS_ENTROPY)
def test_seeder_given_none_leaves_draws_unrepeatable(entry: dict, api: str, key: str) -> None:
    """What RPL103 says of `np.random.seed(args.seed)` with `--seed` defaulting to None:
    the seeder given None does not make the library's draws repeat."""
    seeder = _resolve(api)
    for library in entry["seeds"]:
        if library in entry.get("unverified_seeds", ()):
            continue
        pytest.importorskip(library)

        def run() -> Any:
            _seed_library(library, 12345)  # the same state before each call
            os.environ.pop("PL_GLOBAL_SEED", None)  # what Lightning's seeder leaves behind
            seeder(None)
            return _fingerprint(_probe(library))

        until = entry.get("entropy_until")
        package = entry.get("entropy_until_library")
        if until and package and _installed_at_least(package, until):
            # from that version on it takes a fixed seed instead (Lightning >= 2.2: 0)
            assert run() == run(), f"`{api}(None)` is no fixed seed in {package} >= {until}"
        else:
            assert run() != run(), f"`{api}(None)` made {library}'s draws repeat"


def _installed_at_least(package: str, version: str) -> bool:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from reprolint.catalog.ops import parse_version

    for name in (package, f"pytorch-{package}"):
        try:
            return parse_version(installed(name)) >= parse_version(version)
        except PackageNotFoundError:
            continue
    return False


# --------------------------------------------------------------------------- generator constructors


def _stream(instance: Any) -> Any:
    """A few values from a freshly made generator, whatever its kind."""
    for method in ("random", "standard_normal"):
        if hasattr(instance, method):
            return [getattr(instance, method)() for _ in range(3)]
    if hasattr(instance, "generate_state"):  # numpy SeedSequence
        return instance.generate_state(4)
    if hasattr(instance, "random_raw"):  # numpy bit generators
        return instance.random_raw(4)
    import jax

    return jax.random.uniform(instance, (3,))


@pytest.mark.parametrize("entry,api,key", _verified("instances"))
def test_generator_constructor_is_seeded_by_its_argument(entry: dict, api: str, key: str) -> None:
    make = _resolve(api)
    if api.startswith("torch.") and api.endswith("seed"):
        torch = pytest.importorskip("torch")
        # Reseeds the global generator from OS entropy and returns the seed it used.
        used = make()
        first = _fingerprint(torch.rand(3))
        make()
        assert _fingerprint(torch.rand(3)) != first, f"`{api}` did not reseed from entropy"
        torch.manual_seed(used)
        assert _fingerprint(torch.rand(3)) == first, f"`{api}` did not return the seed it used"
        return
    if entry.get("seed_arg") is None and entry.get("keyword") is None:
        # Takes no seed (SystemRandom): even given one, each instance reads OS entropy.
        streams = {_fingerprint(_stream(make(7))), _fingerprint(_stream(make(7))), _fingerprint(_stream(make()))}
        assert len(streams) == 3, f"`{api}` repeated a stream: something seeds it"
        return
    seeded = [_fingerprint(_stream(make(7))) for _ in range(2)]
    assert seeded[0] == seeded[1], f"`{api}(7)` twice gave two streams"
    assert _fingerprint(_stream(make(8))) != seeded[0], f"`{api}` ignores its seed"
    if not entry.get("seed_required", False):
        fresh = [_fingerprint(_stream(make())) for _ in range(2)]
        assert fresh[0] != fresh[1], f"`{api}()` without a seed repeats: not from entropy"


# --------------------------------------------------------------------------- the catalog and the cases agree


def test_every_claim_has_a_real_library_case_or_is_marked_unverified() -> None:
    missing, stale = [], []
    for section in ("draws", "method_draws"):
        for entry, api, key in _claims(section):
            listed = api in entry.get("unverified", ())
            if not listed and key not in RECIPES:
                missing.append(api)
            if listed and key in RECIPES:
                stale.append(api)
    for section in ("seeders", "instances"):
        for entry, api, _key in _claims(section):
            unknown = set(entry.get("unverified", ())) - set(entry["api"])
            assert not unknown, f"`unverified` names APIs its entry does not: {sorted(unknown)}"
    assert not missing, f"no real-library case and not marked `unverified`: {missing}"
    assert not stale, f"marked `unverified` but a case exists (drop the mark): {stale}"


# --------------------------------------------------------------------------- environments


def _seed_every_global(seed: int) -> None:
    for library in ("random", "numpy", "torch"):
        if library == "random" or library in sys.modules:
            _seed_library(library, seed)


def test_environment_reset_without_seed_is_not_reached_by_global_seeds() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    assert [e["methods"] for e in CATALOG["environment_draws"]] == [
        ["reset"], ["action_space.sample", "observation_space.sample"]
    ]

    def first_observation(**reset: Any) -> Any:
        _seed_every_global(0)  # what seed_everything does: it must not matter
        env = gymnasium.make("CartPole-v1")
        observation, _ = env.reset(**reset)
        later, _ = env.reset()  # continues the stream the first reset seeded
        return _fingerprint([observation, later])

    assert first_observation() != first_observation(), "reset() repeated: not from entropy"
    assert first_observation(seed=1) == first_observation(seed=1)
    assert first_observation(seed=1) != first_observation(seed=2)


@pytest.mark.parametrize("space", ["action_space", "observation_space"])
def test_space_sample_is_seeded_by_its_own_seed_only(space: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")

    def actions(space_seed: Any = None) -> Any:
        _seed_every_global(0)
        env = gymnasium.make("CartPole-v1")
        env.reset(seed=0)  # seeding the environment does not seed its spaces
        if space_seed is not None:
            getattr(env, space).seed(space_seed)
        return _fingerprint([getattr(env, space).sample() for _ in range(32)])

    assert actions() != actions(), f"{space}.sample() repeated without its seed"
    assert actions(1) == actions(1)
    assert actions(1) != actions(2)


# --------------------------------------------------------------------------- what the Keras detection rests on


def _keras_modules() -> List[Any]:
    modules = [pytest.importorskip("keras")]
    try:
        modules.append(importlib.import_module("tf_keras"))
    except ImportError:
        pass
    return modules


def test_the_random_initializer_names_check_reads_are_kerass_own() -> None:
    """`reprolint.analysis.calls.keras.RANDOM_INITIALIZERS` (what makes a layer's
    `kernel_initializer="..."` a draw) is every name `keras.initializers.get` turns into an
    initialiser that moves Python's `random`, in Keras 3 and in Keras 2 (tf-keras); the
    constant ones ("zeros", "ones", "identity", "constant") move nothing."""
    from reprolint.analysis.calls.keras import RANDOM_INITIALIZERS

    candidates = sorted(RANDOM_INITIALIZERS | {"zeros", "ones", "identity", "constant", "zero", "one"})
    for keras in _keras_modules():
        drawing = set()
        for name in candidates:
            if not _known_initializer(keras, name):
                continue  # not a name this Keras knows (e.g. "orthogonal_initializer" in Keras 2)
            state = random.getstate()  # Keras 3 draws the seed when get() makes the object
            keras.initializers.get(name)((4, 4))
            if random.getstate() != state:
                drawing.add(name)
        known = {name for name in candidates if _known_initializer(keras, name)}
        assert drawing == RANDOM_INITIALIZERS & known, keras.__name__


def _known_initializer(keras: Any, name: str) -> bool:
    try:
        keras.initializers.get(name)
    except (ValueError, KeyError):
        return False
    return True


@pytest.mark.parametrize("layer", ["Dense", "Conv2D"])
@pytest.mark.parametrize("initializer", ["zeros", "ones", "Constant", "Zeros", "Identity", "seeded"])
def test_a_layer_with_a_constant_or_seeded_initializer_draws_nothing(layer: str, initializer: str) -> None:
    """What the catalog's `value = "keras-initializer"` conditions rest on (both Keras)."""
    if layer == "Conv2D" and initializer == "Identity":
        pytest.skip("the identity initialiser takes 2-D kernels only")
    for keras in _keras_modules():
        if initializer == "seeded":
            value: Any = keras.initializers.GlorotUniform(seed=3)
        elif initializer[0].isupper():
            value = getattr(keras.initializers, initializer)(*((0.1,) if initializer == "Constant" else ()))
        else:
            value = initializer
        if layer == "Dense":
            made, shape = keras.layers.Dense(4, kernel_initializer=value), (None, 4)
        else:
            made, shape = keras.layers.Conv2D(4, 1, kernel_initializer=value), (None, 3, 3, 4)
        state = random.getstate()
        made.build(shape)
        assert random.getstate() == state, f"{keras.__name__} {layer}({initializer}) drew from `random`"


@pytest.mark.parametrize("rate", [0, 0.0])
def test_keras3_dropout_and_noise_with_rate_zero_draw_nothing(rate: float) -> None:
    keras = pytest.importorskip("keras")
    if not keras.__version__.startswith("3."):
        pytest.skip("Keras 3 only")
    import numpy as np

    for make in (lambda: keras.layers.Dropout(rate), lambda: keras.layers.Dropout(rate=rate),
                 lambda: keras.layers.GaussianNoise(rate), lambda: keras.layers.GaussianDropout(rate)):
        state = random.getstate()
        layer = make()
        out = layer(np.ones((16,), "float32"), training=True)
        assert random.getstate() == state
        assert np.array_equal(np.asarray(out), np.ones((16,), "float32"))


def _fit_order(keras: Any, seed: int, **inputs: Any) -> Any:
    _seed_library("tensorflow", seed)
    _move_other_rngs("tensorflow")
    return _fingerprint(_keras_fit_shuffled(keras, **inputs))


@pytest.mark.parametrize("kind", ["dataset", "generator"])
def test_fit_ignores_shuffle_for_inputs_that_bring_their_own_order(kind: str) -> None:
    """What `fit_draws` rests on: fit(dataset) and fit(generator) give the same weights
    under any seed, even with shuffle=True (Keras 3, and Keras 2 when tf-keras is there)."""
    tf = pytest.importorskip("tensorflow")
    x, y = fit_arrays()

    def inputs() -> Dict[str, Any]:
        if kind == "dataset":
            return {"x": tf.data.Dataset.from_tensor_slices((x, y)).batch(8), "shuffle": True}
        return {"x": ((x[i:i + 8], y[i:i + 8]) for i in range(0, 64, 8)), "steps_per_epoch": 8, "shuffle": True}

    for keras in _keras_modules():
        assert _fit_order(keras, 1, **inputs()) == _fit_order(keras, 2, **inputs()), keras.__name__


def test_fit_shuffles_arrays_by_default_with_tensorflows_seed_in_keras_2_too() -> None:
    pytest.importorskip("tensorflow")
    tf_keras = pytest.importorskip("tf_keras")
    x, y = fit_arrays()
    first = _fit_order(tf_keras, 1, x=x, y=y, batch_size=8)
    assert _fit_order(tf_keras, 1, x=x, y=y, batch_size=8) == first
    assert _fit_order(tf_keras, 2, x=x, y=y, batch_size=8) != first
    assert _fit_order(tf_keras, 2, x=x, y=y, batch_size=8, shuffle=False) == _fit_order(
        tf_keras, 1, x=x, y=y, batch_size=8, shuffle=False
    )


def test_fit_shuffles_a_pydataset_batch_order_with_pythons_random() -> None:
    """The Sequence/PyDataset case of `fit_draws` ("random"): its batch order follows
    `random.seed`, not TensorFlow's seed (Keras 3, and Keras 2 when tf-keras is there)."""
    pytest.importorskip("tensorflow")
    x, y = fit_arrays()
    for keras in _keras_modules():
        base = getattr(keras.utils, "PyDataset", None) or keras.utils.Sequence

        class Batches(base):  # type: ignore[misc, valid-type]
            def __len__(self) -> int:
                return 8

            def __getitem__(self, index: int) -> Any:
                return x[index * 8:(index + 1) * 8], y[index * 8:(index + 1) * 8]

        def order(python_seed: int, tf_seed: int) -> Any:
            _seed_library("tensorflow", tf_seed)
            _move_other_rngs("tensorflow")
            random.seed(python_seed)
            return _fingerprint(_keras_fit_shuffled(keras, x=Batches()))

        first = order(1, 1)
        assert order(1, 2) == first, f"{keras.__name__}: a PyDataset's order follows TensorFlow's seed"
        assert order(2, 1) != first, f"{keras.__name__}: a PyDataset's order does not follow `random`"


# --------------------------------------------------------------------------- what the scikit-learn entries rest on


def test_each_sklearn_estimator_the_catalog_names_defaults_to_the_global_rng() -> None:
    """An estimator listed as drawing from NumPy's global RNG unless given `random_state=`
    must default to `random_state=None` (Perceptron, which defaults to 0, does not draw)."""
    pytest.importorskip("sklearn")
    import inspect

    fixed = {}
    for entry in CATALOG["draws"]:
        if [c.get("keyword") for c in entry.get("unless", [])] != ["random_state"]:
            continue
        for api in entry["api"]:
            if not api.startswith("sklearn.") or api in entry.get("unverified", ()):
                continue
            made = _resolve(api)
            if not isinstance(made, type):
                continue
            default = inspect.signature(made).parameters["random_state"].default
            if default is not None:
                fixed[api] = default
    assert not fixed, f"random_state defaults to a fixed value (no global draw): {fixed}"
