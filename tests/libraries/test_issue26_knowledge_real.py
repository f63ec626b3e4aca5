"""Knowledge found missing on real code (issue 26), checked against the real libraries.

* RPL401: a set of NumPy strings (``np.str_``) iterates in ``PYTHONHASHSEED`` order like a
  set of ``str``; a set of NumPy ints does not.
* RPL402: ``tf.io.gfile.glob`` (``tf.gfile.Glob`` in TF 1.x) returns a folder's entries
  in the file system's order, unsorted, like ``glob.glob``.
* RPL101 / RPL105 messages: with Keras 2 (tf-keras, what ``tf.keras`` is up to TF 2.15),
  ``tf.random.set_seed`` alone leaves a ``Dense`` layer's initial weights different in two
  fresh processes (they take their seed from Python's ``random``), while it fixes the
  ``Dropout`` masks (TensorFlow's seed); ``random.seed`` fixes the weights.
* RPL306 (Keras): ``fit`` on arrays repeats in a fresh process with Python's ``random``
  and TensorFlow seeded and NumPy not (Keras 3 and tf-keras), and not with TensorFlow's
  seed alone.
* RPL204 catalog (``rules/tf.toml``): ``tf.compat.v1.layers.dense`` adds its bias with a
  ``BiasAdd`` op, and the gradient of ``tf.gather`` made dense is an
  ``UnsortedSegmentSum``; the ops whose GPU backward the catalog cites as
  nondeterministic. A CPU shows the op in the graph, not the GPU's nondeterminism (that
  stays the cited documentation's claim).
* RPL204 settings: ``interleave(..., deterministic=False)`` and
  ``parallel_interleave(..., sloppy=True)`` let a fast input's elements overtake a slow
  one's (thread timing); the defaults keep the round-robin order.

Each program runs in a fresh interpreter (its own hash seed, its own TensorFlow state).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _run(code: str, *args: str, env: "dict[str, str] | None" = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


# --------------------------------------------------------------------------- RPL401

SET_ORDER = """
import json, sys
import numpy as np
words = np.array([f"class_{i}" for i in range(40)])
ints = np.array(list(range(1000, 1040)))
print(json.dumps([[str(w) for w in set(words)], [int(i) for i in set(ints)]]))
"""


def test_a_set_of_numpy_strings_iterates_in_hash_seed_order_and_ints_do_not() -> None:
    pytest.importorskip("numpy")
    runs = [json.loads(_run(SET_ORDER, env={"PYTHONHASHSEED": str(seed)})) for seed in (1, 2, 1)]
    assert runs[0][0] == runs[2][0], "the same PYTHONHASHSEED gave another order"
    assert runs[0][0] != runs[1][0], "another PYTHONHASHSEED gave the same order of np.str_"
    assert runs[0][1] == runs[1][1], "a set of NumPy ints changed order with the hash seed"


# --------------------------------------------------------------------------- RPL402

GFILE_ORDER = """
import glob, json, os, sys
import tensorflow as tf
folder = sys.argv[1]
print(json.dumps({
    "gfile": [os.path.basename(p) for p in tf.io.gfile.glob(os.path.join(folder, "*.rec"))],
    "v1": [os.path.basename(p) for p in tf.compat.v1.gfile.Glob(os.path.join(folder, "*.rec"))],
    "listdir": [n for n in os.listdir(folder) if n.endswith(".rec")],
    "glob": [os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.rec"))],
}))
"""


def test_tf_gfile_glob_returns_the_file_systems_order_unsorted(tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    for i in range(60):  # created in an order that is neither sorted nor the hash order
        (tmp_path / f"shard-{(i * 37) % 60:03d}.rec").write_bytes(b"")
    orders = json.loads(_run(GFILE_ORDER, str(tmp_path)))
    if orders["listdir"] == sorted(orders["listdir"]):
        pytest.skip("this file system lists the folder sorted: the two orders cannot be told apart")
    assert orders["gfile"] == orders["v1"] == orders["listdir"] == orders["glob"]
    assert orders["gfile"] != sorted(orders["gfile"])


# --------------------------------------------------------------------------- Keras 2 seeds

KERAS2 = """
import json, random, sys
import tensorflow as tf
import tf_keras as keras
tf.random.set_seed(42)
if sys.argv[1] == "random":
    random.seed(42)
dense = keras.layers.Dense(4)
dense.build((None, 3))
mask = keras.layers.Dropout(0.5)(tf.ones([1, 64]), training=True)
print(json.dumps({"weights": dense.get_weights()[0].tolist(), "mask": mask.numpy().tolist()}))
"""


def test_keras2_tf_seed_alone_fixes_dropout_but_not_initial_weights() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("tf_keras")
    first, second = (json.loads(_run(KERAS2, "tf-only")) for _ in range(2))
    assert first["weights"] != second["weights"], "tf.random.set_seed alone fixed Keras 2 initial weights"
    assert first["mask"] == second["mask"], "tf.random.set_seed did not fix Keras 2 dropout masks"
    seeded = [json.loads(_run(KERAS2, "random")) for _ in range(2)]
    assert seeded[0]["weights"] == seeded[1]["weights"], "random.seed did not fix Keras 2 initial weights"


KERAS_FIT = """
import hashlib, random, sys
import numpy as np
import tensorflow as tf
keras = __import__(sys.argv[1])
if "random" in sys.argv[2]:
    random.seed(0)
if "tf" in sys.argv[2]:
    tf.random.set_seed(0)
x = np.arange(2000, dtype="float32").reshape(200, 10) / 2000.0
y = (np.arange(200) % 3).astype("int64")
model = keras.Sequential([keras.Input((10,)), keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dropout(0.5), keras.layers.Dense(3)])
model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, y, epochs=2, batch_size=16, shuffle=True, verbose=0)
print(hashlib.sha256(b"".join(w.tobytes() for w in model.get_weights())).hexdigest())
"""


@pytest.mark.parametrize("keras", ["keras", "tf_keras"])
def test_keras_fit_repeats_with_random_and_tf_seeded_and_numpy_not(keras: str) -> None:
    """RPL306 (Keras): `fit` on arrays draws from Python's `random` (initialisers' default
    seeds) and TensorFlow (shuffle, dropout), not from NumPy."""
    pytest.importorskip("tensorflow")
    pytest.importorskip(keras)
    both = {_run(KERAS_FIT, keras, "random,tf") for _ in range(2)}
    assert len(both) == 1, "a fit with random and TF seeded (NumPy not) did not repeat"
    tf_only = {_run(KERAS_FIT, keras, "tf") for _ in range(2)}
    assert len(tf_only) == 2, "a fit with only TF seeded repeated: `random` would not be needed"


# --------------------------------------------------------------------------- RPL204 ops

TF1_OPS = """
import inspect
import json
import tensorflow as tf
import tf_keras  # noqa: F401  (tf.compat.v1.layers are tf-keras's legacy layers)
from tf_keras.api._v1.keras.__internal__.legacy import layers as v1_layers
tf1 = tf.compat.v1
with tf.Graph().as_default() as graph:
    x = tf1.placeholder(tf.float32, [None, 3])
    dense_out = v1_layers.dense(x, 4)
    dense_ops = sorted({op.type for op in graph.get_operations()})
with tf.Graph().as_default() as graph:
    params = tf1.get_variable("p", [10, 3])
    ids = tf1.placeholder(tf.int32, [None])
    (grad,) = tf.gradients(tf.reduce_sum(tf.gather(params, ids)), [params])
    before = {op.name for op in graph.get_operations()}
    dense_grad = tf.convert_to_tensor(grad)
    gather_grad_ops = sorted({op.type for op in graph.get_operations() if op.name not in before})
    kind = type(grad).__name__
conv = {}
for name in ("conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose"):
    rank = {"conv1d": 1, "conv3d": 3, "conv3d_transpose": 3}.get(name, 2)
    layer = getattr(v1_layers, name)
    position = list(inspect.signature(layer).parameters).index("use_bias")
    for bias in (True, False):
        with tf.Graph().as_default() as graph:
            x = tf1.placeholder(tf.float32, [None] + [8] * rank + [3])
            args = [x, 4, 3] + [inspect.signature(layer).parameters[p].default
                                for p in list(inspect.signature(layer).parameters)[3:position]] + [bias]
            layer(*args)
            conv[f"{name} {bias}"] = ["BiasAdd" in {op.type for op in graph.get_operations()}, position]
keras_layers = {}
for name, shape in (("Dense", [None, 3]), ("Conv2D", [None, 8, 8, 3])):
    layer = getattr(tf_keras.layers, name)
    params = list(inspect.signature(layer).parameters)
    for bias in (True, False):
        with tf.Graph().as_default() as graph:
            x = tf1.placeholder(tf.float32, shape)
            (layer(4, use_bias=bias) if name == "Dense" else layer(4, 3, use_bias=bias))(x)
            keras_layers[f"{name} {bias}"] = "BiasAdd" in {op.type for op in graph.get_operations()}
    keras_layers[name] = [params.index("use_bias"), params[:params.index("use_bias")]]
losses = {}
for name in ("sparse_softmax_cross_entropy", "softmax_cross_entropy"):
    with tf.Graph().as_default() as graph:
        logits = tf1.placeholder(tf.float32, [None, 5])
        labels = tf1.placeholder(tf.int64, [None]) if name.startswith("sparse") else tf1.placeholder(tf.float32, [None, 5])
        getattr(tf1.losses, name)(labels, logits)
        losses[name] = sorted({op.type for op in graph.get_operations()})
print(json.dumps({"dense": dense_ops, "gather_grad": gather_grad_ops, "gather_grad_kind": kind, "conv": conv,
                  "losses": losses, "keras_layers": keras_layers}))
"""


def test_tf1_dense_adds_its_bias_with_bias_add_and_a_gather_gradient_is_a_segment_sum() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("tf_keras")
    ops = json.loads(_run(TF1_OPS))
    assert "BiasAdd" in ops["dense"], ops["dense"]
    assert ops["gather_grad_kind"] == "IndexedSlices"
    assert "UnsortedSegmentSum" in ops["gather_grad"], ops["gather_grad"]
    # rules/tf.toml bias-add-backprop-before-2-1: the TF1 conv layers add their bias with
    # BiasAdd unless use_bias=False, passed by keyword or at the position catalogued
    from reprolint.catalog.ops import load_tf_ops

    (entry,) = [e for e in load_tf_ops() if e.id == "bias-add-backprop-before-2-1"]
    positions = dict(entry.when[0].positions)
    for name in ("conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose"):
        assert ops["conv"][f"{name} True"] == [True, positions[f"tensorflow.compat.v1.layers.{name}"]], name
        assert ops["conv"][f"{name} False"][0] is False, name
    # Keras 2's Dense and Conv2D (tf-keras) add their bias with BiasAdd unless use_bias=False;
    # use_bias is catalogued at Dense's position and at Conv2D's before `groups`, which
    # Keras added in 2.3 (TF 2.3): the catalogued layers are those of TF < 2.1
    for name in ("Dense", "Conv2D"):
        assert ops["keras_layers"][f"{name} True"] is True and ops["keras_layers"][f"{name} False"] is False, name
        index, before = ops["keras_layers"][name]
        for qualified in (f"tensorflow.keras.layers.{name}", f"keras.layers.{name}"):
            assert positions[qualified] == index - ("groups" in before), (qualified, before)
    # softmax-xent-before-2-6 and the later entries: the TF 1 losses run the fused kernels
    assert "SparseSoftmaxCrossEntropyWithLogits" in ops["losses"]["sparse_softmax_cross_entropy"]
    assert "SoftmaxCrossEntropyWithLogits" in ops["losses"]["softmax_cross_entropy"]


# --------------------------------------------------------------------------- RPL204 interleave

INTERLEAVE_ORDERS = """
import json, time
import tensorflow as tf

def slow(x):
    if int(x) < 10:  # the first input's elements take longer
        time.sleep(0.3)
    return x

def inner(i):
    return tf.data.Dataset.range(i * 10, i * 10 + 3).map(lambda x: tf.py_function(slow, [x], tf.int64))

source = tf.data.Dataset.range(2)
orders = {
    "deterministic": source.interleave(inner, cycle_length=2, block_length=1, num_parallel_calls=2),
    "deterministic_false": source.interleave(
        inner, cycle_length=2, block_length=1, num_parallel_calls=2, deterministic=False),
    "not_sloppy": source.apply(tf.data.experimental.parallel_interleave(inner, cycle_length=2)),
    "sloppy": source.apply(tf.data.experimental.parallel_interleave(inner, cycle_length=2, sloppy=True)),
}
print(json.dumps({k: [int(v) for v in ds.as_numpy_iterator()] for k, ds in orders.items()}))
"""


def test_interleave_without_determinism_hands_elements_over_as_they_are_ready() -> None:
    pytest.importorskip("tensorflow")
    orders = json.loads(_run(INTERLEAVE_ORDERS))
    round_robin = [0, 10, 1, 11, 2, 12]
    assert orders["deterministic"] == orders["not_sloppy"] == round_robin
    # the fast input's elements overtake the slow one's: the order follows thread timing
    assert orders["deterministic_false"] != round_robin, orders
    assert orders["sloppy"] != round_robin, orders
    assert sorted(orders["sloppy"]) == sorted(orders["deterministic_false"]) == sorted(round_robin)


# --------------------------------------------------------------------------- RPL304 evidence

KERAS_APPLICATIONS = """
import json
import keras
from reprolint.catalog.ops import load_tf_ops
(entry,) = [e for e in load_tf_ops() if e.id == "keras-applications-cudnn-conv"]
out = {}
for name in entry.names:
    obj = keras
    for part in name.split(".")[1:] if name.startswith("keras.") else name.split(".")[2:]:
        obj = getattr(obj, part)
    if obj.__name__ not in out:
        model = obj(weights=None, include_top=False)
        out[obj.__name__] = sorted({type(layer).__name__ for layer in model.layers if "Conv" in type(layer).__name__})
    out[name] = obj.__name__
print(json.dumps(out))
"""


def test_every_catalogued_keras_application_is_a_convolutional_network() -> None:
    """rules/tf.toml keras-applications-cudnn-conv (RPL304's evidence): each name is a
    Keras application whose model, built without weights, has convolution layers, so
    training or taking gradients through it runs cuDNN's convolution backprop."""
    pytest.importorskip("tensorflow")
    pytest.importorskip("keras")
    built = json.loads(_run(KERAS_APPLICATIONS, env={"PYTHONPATH": str(Path(__file__).resolve().parents[2])}))
    from reprolint.catalog.ops import load_tf_ops

    (entry,) = [e for e in load_tf_ops() if e.id == "keras-applications-cudnn-conv"]
    assert len(entry.names) == 158
    for name in entry.names:
        convs = built[built[name]]
        assert {"Conv2D", "DepthwiseConv2D", "SeparableConv2D"} & set(convs), (name, convs)


# --------------------------------------------------------------------------- RPL204

SCATTER_AT_MASK = """
import json
import numpy as np
import tensorflow as tf
rng = np.random.default_rng(0)
mask = tf.constant(rng.random((6, 7)) > 0.4)
coords = tf.where(mask)
updates = tf.constant(rng.random((int(coords.shape[0]),)), tf.float32)
dense = tf.scatter_nd(coords, updates, tf.shape(mask, out_type=tf.int64))
rows = [tuple(r) for r in coords.numpy().tolist()]
print(json.dumps({
    "unique": len(rows) == len(set(rows)),
    "each_once": bool(np.array_equal(tf.gather_nd(dense, coords).numpy(), updates.numpy())),
    "select_form": tf.where(mask, 1, 0).shape.as_list(),
}))
"""


def test_tf_where_of_a_mask_gives_each_coordinate_once() -> None:
    # RPL204 leaves out a scatter_nd at `tf.where(mask)`: its coordinates name each true
    # element once, so every update lands alone; the three-argument `tf.where` is a select
    pytest.importorskip("tensorflow")
    found = json.loads(_run(SCATTER_AT_MASK))
    assert found == {"unique": True, "each_once": True, "select_form": [6, 7]}


def test_an_image_generators_fit_with_a_seed_seeds_numpys_global_rng() -> None:
    # stop 58: `ImageDataGenerator.fit(x, seed=s)` runs `np.random.seed(s)` (the seeder
    # calls/keras.fit_seed records); without a seed it leaves NumPy's state alone
    pytest.importorskip("tensorflow")
    tf_keras = pytest.importorskip("tf_keras")
    import numpy as np

    x = np.linspace(0.0, 1.0, 8 * 4 * 4, dtype="float32").reshape(8, 4, 4, 1)
    generator = tf_keras.preprocessing.image.ImageDataGenerator(featurewise_center=True)
    np.random.seed(123)
    generator.fit(x, seed=7)
    after_fit = np.random.rand(4)
    np.random.seed(7)
    assert np.array_equal(after_fit, np.random.rand(4)), "fit(x, seed=7) did not seed NumPy with 7"
    np.random.seed(123)
    expected = np.random.rand(4)
    np.random.seed(123)
    generator.fit(x)
    assert np.array_equal(np.random.rand(4), expected), "fit(x) without a seed moved NumPy's generator"
