"""What check reports for Keras programs (issue 14 item 6), as a user sees it: constant
initialisers and rate-0 dropout draw nothing, ``fit`` shuffles arrays by default but not a
``tf.data`` dataset, and which seeding call covers which draw per Keras version."""

from __future__ import annotations

import pytest

from reprolint.api import check_sources
from reprolint.catalog import rng as rng_catalog_module


def _rpl101(source: str) -> list[tuple[int, str]]:
    found = check_sources({"train.py": source})
    return sorted((d.span.start_line, d.message) for d in found if d.code == "RPL101")


_MODEL = "import keras\nimport numpy as np\n\nx = np.ones((8, 4), 'float32')\ny = np.ones((8,), 'float32')\n"


@pytest.mark.parametrize("layer", [
    "keras.layers.Dense(2, kernel_initializer='zeros')",
    "keras.layers.Dense(2, kernel_initializer='Zeros', bias_initializer='ones')",
    "keras.layers.Dense(4, kernel_initializer='identity')",
    "keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.1))",
    "keras.layers.Conv2D(2, 3, kernel_initializer=keras.initializers.Ones())",
    "keras.layers.Dense(2, kernel_initializer=keras.initializers.HeNormal(seed=1))",
    "keras.layers.Embedding(10, 2, embeddings_initializer='zeros')",
    "keras.layers.Dropout(0.0)",
    "keras.layers.Dropout(rate=0)",
    "keras.layers.GaussianNoise(0.0)",
])
def test_layers_that_draw_nothing_are_not_reported(layer: str) -> None:
    assert _rpl101(_MODEL + f"layer = {layer}\n") == []


@pytest.mark.parametrize("layer", [
    "keras.layers.Dense(2)",
    "keras.layers.Dense(2, kernel_initializer='he_normal')",
    "keras.layers.Dense(2, kernel_initializer='GlorotUniform')",
    "keras.layers.Embedding(10, 2)",
    "keras.layers.Dropout(0.5)",
    "keras.layers.GaussianNoise(0.1)",
])
def test_layers_with_a_random_seed_source_are_reported_as_pythons_random(layer: str) -> None:
    ((line, message),) = _rpl101(_MODEL + f"layer = {layer}\n")
    assert line == 6
    assert "the `random` module's global RNG" in message


def test_an_unseeded_initializer_argument_is_reported_once_where_it_is_made() -> None:
    source = _MODEL + "layer = keras.layers.Dense(\n    2,\n    kernel_initializer=keras.initializers.GlorotUniform(),\n)\n"
    ((line, message),) = _rpl101(source)
    assert line == 8
    assert "`keras.initializers.GlorotUniform(...)`" in message


def test_preprocess_input_is_not_a_model() -> None:
    source = _MODEL + "from keras.applications.vgg19 import preprocess_input\nz = preprocess_input(x)\n"
    assert _rpl101(source) == []


@pytest.mark.parametrize("call", [
    "model.fit(x, y, epochs=2)",
    "model.fit(x=x, y=y, epochs=2)",
    "model.fit(x, epochs=2, validation_split=0.1)",
    "model.fit(ds, epochs=2, shuffle=args_shuffle)",
])
def test_fit_on_arrays_shuffles_by_default_with_tensorflows_seed(call: str) -> None:
    source = (
        "import random\nimport keras\nimport numpy as np\n\nrandom.seed(0)\nnp.random.seed(0)\n"
        "x = np.ones((8, 4), 'float32')\ny = np.ones((8,), 'float32')\nds = x\nargs_shuffle = bool(x.size)\n"
        f"model = keras.Sequential([keras.layers.Dense(1)])\n{call}\n"
    )
    ((line, message),) = _rpl101(source)
    assert line == 12
    assert message.startswith("`model.fit(...)` shuffles with TensorFlow's global RNG")


@pytest.mark.parametrize("call", [
    "model.fit(x, y, epochs=2, shuffle=False)",
    "model.fit(ds, epochs=2)",
    "model.fit(ds, epochs=2, shuffle=True)",
    "model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4), epochs=2)",
    "model.fit(ds.map(lambda a, b: (a, b)), epochs=2, shuffle=True)",
    "model.fit(x, epochs=2)",
])
def test_fit_without_a_visible_shuffle_of_arrays_is_not_a_draw(call: str) -> None:
    source = (
        "import random\nimport keras\nimport numpy as np\nimport tensorflow as tf\n\nrandom.seed(0)\nnp.random.seed(0)\n"
        "x = np.ones((8, 4), 'float32')\ny = np.ones((8,), 'float32')\n"
        "ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(8, seed=1).batch(4)\n"
        f"model = keras.Sequential([keras.layers.Dense(1)])\n{call}\n"
    )
    assert _rpl101(source) == []


def test_tf_random_set_seed_alone_does_not_seed_keras3_layers() -> None:
    source = (
        "import numpy as np\nimport tensorflow as tf\n\ntf.random.set_seed(0)\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.fit(np.ones((8, 1)), np.ones((8,)), epochs=1)\n"
    )
    ((line, message),) = _rpl101(source)
    assert line == 5
    assert "`random` module's global RNG" in message


def test_keras_set_random_seed_covers_layers_dropout_and_fit() -> None:
    source = (
        "import keras\nimport numpy as np\n\nkeras.utils.set_random_seed(0)\n"
        "model = keras.Sequential([keras.layers.Dense(4), keras.layers.Dropout(0.5), keras.layers.Dense(1)])\n"
        "model.fit(np.ones((8, 1)), np.ones((8,)), epochs=1)\n"
    )
    assert _rpl101(source) == []


@pytest.mark.parametrize("tensorflow,keras,expected", [
    ("2.21.0", "3.15.1", {"keras.": 3, "tensorflow.keras.": 3, "tf_keras.": 2}),
    ("2.15.1", "2.15.0", {"keras.": 2, "tensorflow.keras.": 2, "tf_keras.": 2}),
    (None, None, {"keras.": 3, "tensorflow.keras.": 3, "tf_keras.": 2}),
])
def test_the_keras_a_name_runs_follows_the_installed_versions(
    monkeypatch: pytest.MonkeyPatch, tensorflow: "str | None", keras: "str | None", expected: dict
) -> None:
    import importlib.metadata

    installed = {"tensorflow": tensorflow, "keras": keras}

    def version(dist: str) -> str:
        if installed.get(dist) is None:
            raise importlib.metadata.PackageNotFoundError(dist)
        return installed[dist]  # type: ignore[return-value]

    monkeypatch.setattr(importlib.metadata, "version", version)
    rng_catalog_module.keras_major.cache_clear()
    try:
        assert {prefix: rng_catalog_module.keras_major(prefix + "layers.Dropout") for prefix in expected} == expected
    finally:
        rng_catalog_module.keras_major.cache_clear()


_SEQUENCE = (
    "import keras\nimport numpy as np\nimport tensorflow as tf\n\ntf.random.set_seed(0)\n\n"
    "class Batches(keras.utils.PyDataset):\n    def __len__(self):\n        return 4\n\n"
    "    def __getitem__(self, i):\n        return np.ones((2, 1)), np.ones((2,))\n\n"
    "model = keras.Sequential([keras.layers.Dense(1, kernel_initializer='zeros')])\n"
)


def test_fit_on_a_pydataset_shuffles_its_batches_with_pythons_random() -> None:
    ((line, message),) = _rpl101(_SEQUENCE + "train = Batches()\nmodel.fit(train, epochs=2)\n")
    assert line == 16
    assert message.startswith("`model.fit(...)` shuffles with the `random` module's global RNG")


def test_fit_on_a_pydataset_without_shuffle_is_not_a_draw() -> None:
    assert _rpl101(_SEQUENCE + "model.fit(Batches(), epochs=2, shuffle=False)\n") == []


def test_keras2_fit_generator_on_a_flow_iterator_shuffles_with_pythons_random() -> None:
    source = (
        "import numpy as np\nimport tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n\n"
        "np.random.seed(0)\ntf.random.set_seed(0)\n"
        "train = ImageDataGenerator().flow_from_directory('data', seed=0)\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='zeros')])\n"
        "model.fit_generator(train, epochs=2)\n"
        "model.fit_generator(train, epochs=2, shuffle=False)\n"
        "model.fit_generator((b for b in [train[0]]), epochs=2)\n"
    )
    ((line, message),) = _rpl101(source)
    assert line == 9
    assert message.startswith("`model.fit_generator(...)` shuffles with the `random` module's global RNG")


def test_keras2_messages_say_what_tf_random_set_seed_seeds_and_what_it_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Measured on tf-keras (tests/libraries/test_issue26_knowledge_real.py): with only
    # tf.random.set_seed(42), two fresh processes build different Dense weights.
    import importlib.metadata

    installed = {"tensorflow": "2.14.1", "keras": "2.14.0"}  # tf.keras is Keras 2

    def version(dist: str) -> str:
        if dist not in installed:
            raise importlib.metadata.PackageNotFoundError(dist)
        return installed[dist]

    monkeypatch.setattr(importlib.metadata, "version", version)
    rng_catalog_module.keras_major.cache_clear()
    rng_catalog_module.rng_catalog.cache_clear()  # its draws are filtered by Keras version
    source = (
        "import numpy as np\nimport tensorflow as tf\n\ntf.random.set_seed(42)\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(16), tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(1)])\n"
        "model.compile('adam', 'mse')\nmodel.fit(np.ones((8, 1)), np.ones((8,)), epochs=1)\n"
    )
    try:
        found = {d.code: d for d in check_sources({"train.py": source})}
    finally:
        rng_catalog_module.keras_major.cache_clear()
        rng_catalog_module.rng_catalog.cache_clear()
    # one cause, one finding: RPL101 at the Dense layer says what the program seeds
    assert "RPL105" not in found
    unseeded = found["RPL101"]
    assert "the program seeds TensorFlow (first with `tf.random.set_seed`, train.py:4), not `random`" in unseeded.message
    assert "NumPy" not in unseeded.message
    assert unseeded.span.start_line == 5
    assert "`tf.keras.layers.Dense(...)` initialises weights from the `random` module's global RNG" in unseeded.message
    related = " ".join(r.message for r in unseeded.related)
    assert "Dropout" not in related  # Keras 2 dropout masks follow TensorFlow's seed, which is set
    assert "not TensorFlow" not in unseeded.message  # the TF seed is set: nothing is said against it


def _codes(source: str) -> list[tuple[int, str]]:
    return sorted((d.span.start_line, d.code) for d in check_sources({"train.py": source}))


_GAN = (
    "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"
    "keras.utils.set_random_seed(1)\nSWITCH\n"
    "disc = keras.Sequential([keras.layers.Dense(1)])\ndisc.compile(optimizer='adam', loss='mse')\n"
    "for step in range(10):\n    disc.CALL(np.random.normal(size=(4, 3)), np.zeros((4, 1)))\n"
)


@pytest.mark.parametrize(("call", "switch", "expected"), [
    ("train_on_batch", "", [(1, "RPL304")]),  # a gradient step per call: it trains
    ("train_on_batch", "tf.config.experimental.enable_op_determinism()", []),
    ("predict_on_batch", "", []),  # runs the model, trains nothing
])
def test_train_on_batch_makes_a_tensorflow_training_program(call: str, switch: str, expected: list) -> None:
    assert _codes(_GAN.replace("CALL", call).replace("SWITCH", switch)) == expected


_ESTIMATOR = (
    "import numpy as np\nimport tensorflow as tf\nfrom CLASS\n"
    "model = MODEL\n"
    "fn = tf.estimator.inputs.numpy_input_fn(x={'x': np.ones((8, 2))}, y=np.ones(8), shuffle=False)\n"
    "model.fit(input_fn=fn, max_steps=10)\n"
)


@pytest.mark.parametrize(("imported", "model", "rpl306"), [
    ("tensorflow.contrib.boosted_trees.estimator_batch.estimator import GradientBoostedDecisionTreeClassifier",
     "GradientBoostedDecisionTreeClassifier(learner_config=None, examples_per_layer=8)", False),
    ("tensorflow.contrib.learn import DNNClassifier", "DNNClassifier(hidden_units=[4])", False),
    ("tensorflow.keras.models import Sequential", "Sequential()", True),  # Keras's own fit
])
def test_an_estimators_fit_is_not_kerass(imported: str, model: str, rpl306: bool) -> None:
    source = _ESTIMATOR.replace("CLASS", imported).replace("MODEL", model)
    assert ("RPL306" in {code for _, code in _codes(source)}) is rpl306
