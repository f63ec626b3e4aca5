"""What check reports for TensorFlow input pipelines (issue 14 item 6), as a user sees it.

RPL204: TF1 queue batching with several enqueue threads (``tf.train.batch``/
``shuffle_batch`` with ``num_threads`` above 1, ``batch_join``/``shuffle_batch_join`` over
several tensor tuples, the estimator input functions' ``num_threads``) and
``parallel_interleave(sloppy=True)`` hand elements over in
thread-completion order; one thread, the default, does not. RPL101: a Keras 2
``ImageDataGenerator`` iterator without ``seed=`` shuffles and augments with NumPy's global
RNG. (Measured on the real libraries, tests/libraries/test_tf_pipelines_real.py, except the
estimator functions, which TF 2.16 removed: their docstring says so.)"""

from __future__ import annotations

import pytest

from reprolint.api import check_sources

_TF1 = (
    "import argparse\nimport tensorflow as tf\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--threads', type=int, default=THREADS)\n"
    "args = parser.parse_args()\n"
    "queue = tf.train.string_input_producer(['a.tfrecords'], seed=1)\n"
    "x = queue.dequeue()\n"
)


def _found(source: str, code: str, threads: int = 4) -> list[tuple[int, str]]:
    found = check_sources({"train.py": _TF1.replace("THREADS", str(threads)) + source})
    return [(d.span.start_line, d.message) for d in found if d.code == code]


@pytest.mark.parametrize("call,threads", [
    ("tf.train.batch([x], 32, num_threads=16)", "16"),
    ("tf.train.batch([x], 32, 8)", "8"),
    ("tf.compat.v1.train.batch([x], batch_size=32, num_threads=2)", "2"),
    ("tf.train.shuffle_batch([x], 32, 1000, 100, num_threads=4, seed=3)", "4"),
    ("tf.train.shuffle_batch([x], 32, 1000, 100, 6)", "6"),
    ("tf.train.batch([x], 32, num_threads=args.threads)", "4"),  # the option's default
    ("tf.train.batch_join([[x], [x], [x]], 32)", "3"),
    ("tf.train.shuffle_batch_join([[x] for _ in range(5)], 32, 100, 10, seed=3)", "5"),
    ("tf.train.batch_join([[x] for _ in range(args.threads)], 32)", "4"),
    ("tf.estimator.inputs.numpy_input_fn({'x': x}, None, 32, 1, False, 1000, 4)", "4"),
    ("tf.compat.v1.estimator.inputs.pandas_input_fn(frame, shuffle=False, num_threads=2)", "2"),
])
def test_several_enqueue_threads_are_reported(call: str, threads: str) -> None:
    found = _found(f"batch = {call}\n", "RPL204")
    assert len(found) == 1
    line, message = found[0]
    assert line == 9
    assert f"its {threads} enqueue threads race" in message


def test_a_reader_list_bound_to_a_name_counts_its_threads() -> None:
    found = _found("readers = [[x] for _ in range(4)]\nbatch = tf.train.batch_join(readers, 32)\n", "RPL204")
    assert [(line, "its 4 enqueue threads" in message) for line, message in found] == [(10, True)]


@pytest.mark.parametrize("call", [
    "tf.train.batch([x], 32)",
    "tf.train.batch([x], 32, num_threads=1)",
    "tf.compat.v1.train.batch([x], 32, 1)",
    "tf.train.shuffle_batch([x], 32, 1000, 100, seed=3)",
    "tf.train.batch([x], 32, num_threads=args.threads)",  # its default is 1 here
    "tf.train.batch_join([[x]], 32)",
    "tf.train.batch([x], 32, num_threads=n_threads)",  # unknown: not reported
    "tf.estimator.inputs.numpy_input_fn({'x': x}, shuffle=False)",
    "tf.estimator.inputs.pandas_input_fn(frame, shuffle=False, num_threads=1)",
])
def test_one_or_an_unknown_number_of_threads_is_not_reported(call: str) -> None:
    assert _found(f"n_threads = int(input())\nbatch = {call}\n", "RPL204", threads=1) == []


def test_a_function_default_counts() -> None:
    source = "def inputs(n=8):\n    return tf.train.batch([x], 32, num_threads=n)\n\nbatch = inputs()\n"
    assert [line for line, _ in _found(source, "RPL204")] == [10]


def test_sloppy_parallel_interleave() -> None:
    source = (
        "files = tf.data.Dataset.list_files('*.tfrecords', shuffle=False)\n"
        "a = files.apply(tf.data.experimental.parallel_interleave(tf.data.TFRecordDataset, 4, sloppy=True))\n"
        "b = files.apply(tf.data.experimental.parallel_interleave(tf.data.TFRecordDataset, 4))\n"
    )
    found = _found(source, "RPL204")
    assert [line for line, _ in found] == [10]
    assert "`sloppy=True`" in found[0][1]


# --------------------------------------------------------------------------- ImageDataGenerator

_KERAS = (
    "import numpy as np\n"
    "from tensorflow.keras.preprocessing.image import ImageDataGenerator\n\n"
    "x = np.load('x.npy')\ny = np.load('y.npy')\n"
)


def _rpl101(source: str) -> list[int]:
    found = check_sources({"train.py": _KERAS + source})
    return [d.span.start_line for d in found if d.code == "RPL101"]


@pytest.mark.parametrize("source", [
    "it = ImageDataGenerator(rescale=1 / 255).flow(x, y, batch_size=32)\n",  # shuffle=True default
    "it = ImageDataGenerator(rotation_range=20).flow(x, y, 32, False)\n",  # augments
    "gen = ImageDataGenerator(horizontal_flip=True)\nit = gen.flow_from_directory('train', shuffle=False)\n",
    "gen = ImageDataGenerator(0, 0, 0, 0, 0, 1e-6, 30)\nit = gen.flow(x, y, shuffle=False)\n",  # rotation, positional
    "gen = ImageDataGenerator()\nit = gen.flow_from_dataframe(frame, 'images')\n",
])
def test_an_unseeded_image_iterator_draws_from_numpy(source: str) -> None:
    assert _rpl101(source) == [len(_KERAS.splitlines()) + len(source.splitlines())]


@pytest.mark.parametrize("source", [
    "it = ImageDataGenerator(rotation_range=20).flow(x, y, seed=1)\n",
    "it = ImageDataGenerator(rotation_range=20).flow(x, y, 32, True, None, 7)\n",  # seed, positional
    "it = ImageDataGenerator(rescale=1 / 255).flow_from_directory('val', shuffle=False)\n",
    "it = ImageDataGenerator(zoom_range=0.0, horizontal_flip=False).flow(x, y, shuffle=False)\n",
    "np.random.seed(0)\nit = ImageDataGenerator(rotation_range=20).flow(x, y)\n",
    "class P:\n    def flow(self, a):\n        return a\n\n\nit = P().flow(x)\n",
])
def test_a_seeded_or_fixed_image_iterator_is_not_reported(source: str) -> None:
    assert _rpl101(source) == []
