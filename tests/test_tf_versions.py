"""Issue 25 item 8 (TF/Keras half) and issue 26 item 5: the TensorFlow a program runs on
(declared, else the TF1 API it calls, else the default) decides what RPL304 and RPL204
say, what `fix` inserts and what JSON carries. Before TF 2.1 there is no op-determinism
switch: RPL304 stays silent and RPL204 reports the GPU kernels op by op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprolint.analysis.declared import declarations
from project_files import write

# A TF1 graph-mode training loop: placeholders, a TF1 optimizer, a Session.
TF1 = (
    "import numpy as np\nimport tensorflow as tf\n\n"
    "x = tf.placeholder(tf.float32, [None, 4])\n"
    "w = tf.Variable(tf.zeros([4, 1]))\n"
    "loss = tf.reduce_mean(tf.matmul(x, w))\n"
    "train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
    "with tf.Session() as sess:\n"
    "    for step in range(10):\n"
    "        sess.run(train_op, {x: np.ones((2, 4), 'float32')})\n"
)
# The same loop training a convolution (cuDNN) on a 4-D input; the layer has no bias
# (test_a_tf1_conv_layer_with_its_bias_is_reported_for_the_bias is the one with a bias).
TF1_CONV = TF1.replace("[None, 4]", "[None, 8, 8, 1]").replace(
    "w = tf.Variable(tf.zeros([4, 1]))\nloss = tf.reduce_mean(tf.matmul(x, w))\n",
    "h = tf.layers.conv2d(x, 4, 3, use_bias=False)\nloss = tf.reduce_mean(h)\n",
).replace("np.ones((2, 4), 'float32')", "np.ones((2, 8, 8, 1), 'float32')")
# A Keras program that runs on TF 1 and TF 2 alike.
KERAS = (
    "import tensorflow as tf\n\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
    "model.compile(optimizer='sgd', loss='mse')\n"
    "model.fit(x, y, epochs=2)\n"
)
COMPAT = (
    "import tensorflow.compat.v1 as tf\n\n"
    "tf.disable_v2_behavior()\n"
    "x = tf.placeholder(tf.float32, [None, 4])\n"
    "loss = tf.reduce_sum(tf.layers.dense(x, 2))\n"
    "step = tf.train.AdamOptimizer(0.1).minimize(loss)\n"
    "with tf.Session() as sess:\n"
    "    sess.run(step)\n"
)


def rpl304(cli, project: Path) -> dict:
    result = cli("check", "--no-cache", "--select", "RPL304", "--output-format", "json", str(project))
    (item,) = json.loads(result.out)
    return item


@pytest.mark.parametrize(
    "name, text, library, written",
    [
        ("requirements.txt", "tensorflow-gpu==1.15.5\n", "tensorflow", "tensorflow-gpu==1.15.5"),
        ("requirements.txt", "tensorflow-cpu>=2.4,<2.5\n", "tensorflow", "tensorflow-cpu>=2.4,<2.5"),
        ("requirements.txt", "tf-nightly==2.16.0.dev20231101\n", "tensorflow", "tf-nightly==2.16.0.dev20231101"),
        ("setup.py", "setup(install_requires=['tensorflow>=1.12,<2'])\n", "tensorflow", "tensorflow>=1.12,<2"),
        ("environment.yml", "dependencies:\n  - tensorflow-gpu=1.14.0\n", "tensorflow", "tensorflow-gpu==1.14.0"),
        ("pyproject.toml", "[project]\nname='x'\ndependencies = ['keras>=3.0']\n", "keras", "keras>=3.0"),
        ("requirements.txt", "tf_keras==2.16.0\n", "tf-keras", "tf_keras==2.16.0"),
        ("Pipfile", "[packages]\ntensorflow = '==2.12.0'\n", "tensorflow", "tensorflow==2.12.0"),
    ],
)
def test_tensorflow_and_keras_declarations_are_read(tmp_path: Path, name: str, text: str, library: str, written: str) -> None:
    write(tmp_path, {name: text, ".git/HEAD": ""})
    (found,) = [d for d in declarations([str(tmp_path)]) if d.library == library]
    assert found.written == written


def rpl204(cli, project: Path) -> dict:
    result = cli("check", "--no-cache", "--select", "RPL204,RPL304", "--output-format", "json", str(project))
    (item,) = json.loads(result.out)  # one finding: RPL204's, none of RPL304
    assert item["code"] == "RPL204"
    return item


def test_declared_tf1_gets_tf1_advice_and_json_says_where(cli, tmp_path: Path) -> None:
    """TF 1.15 has no op-determinism switch: no RPL304; its cuDNN convolution is reported
    by RPL204 with the one switch TF 1.14-2.0 has."""
    project = write(tmp_path, {"requirements.txt": "tensorflow==1.15\n", "train.py": TF1_CONV, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert "`tf.layers.conv2d(...)` (its gradient) is nondeterministic on GPU in TensorFlow 1.15, declared as " \
        "`tensorflow==1.15` in requirements.txt: it is deterministic only with `TF_CUDNN_DETERMINISTIC=1`" in item["message"]
    assert "enable_op_determinism" not in item["message"]  # no such call in TF 1
    assert item["assumed"]["version"] == {
        "library": "tensorflow", "version": "1.15", "kind": "declared",
        "source": "declared as `tensorflow==1.15` in requirements.txt",
    }


def test_undeclared_tf1_code_is_taken_as_tf1_from_the_api_it_calls(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"train.py": TF1_CONV, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert "in TensorFlow 1.x, from the TF1 API this program calls (`tf.placeholder`, train.py line 4)" in item["message"]
    assert item["assumed"]["version"]["kind"] == "tf1-api"


def test_tf1_api_in_a_notebook_names_the_notebook_not_a_line_of_its_joined_cells(cli, tmp_path: Path) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": src}
             for src in ("import numpy as np\nimport tensorflow as tf\n", TF1_CONV.split("\n", 2)[2])]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    project = write(tmp_path, {"train.ipynb": json.dumps(notebook), ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert "from the TF1 API this program calls (`tf.placeholder`, train.ipynb)" in item["message"]


def test_a_range_open_to_tf1_and_tf2_is_narrowed_by_the_tf1_api(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"requirements.txt": "tensorflow>=1.12\n", "train.py": TF1_CONV, ".git/HEAD": ""})
    item = rpl204(cli, project)
    # the range admits 1.12 and 1.13, which have no switch: the release is not claimed,
    # and the switch is said to come with 1.14
    assert "TensorFlow 1.x, declared as `tensorflow>=1.12` in requirements.txt, narrowed to 1.x" in item["message"]
    assert "`TF_CUDNN_DETERMINISTIC=1` (cuDNN convolutions and pooling only; TF 1.14 on, no switch before)" in item["message"]


def test_tf1_known_only_from_its_api_claims_the_switch_only_from_1_14(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"train.py": TF1_CONV, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert item["message"].endswith(
        "it is deterministic only with `TF_CUDNN_DETERMINISTIC=1` (cuDNN convolutions and pooling only; "
        "TF 1.14 on, no switch before), which this program never turns on"
    )


def test_tf1_convolutions_are_one_finding_per_program_with_the_others_related(cli, tmp_path: Path) -> None:
    train = TF1_CONV.replace(
        "loss = tf.reduce_mean(h)\n",
        "h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], 'VALID')\nh = tf.layers.conv2d(h, 4, 3, use_bias=False)\nloss = tf.reduce_mean(h)\n",
    )
    project = write(tmp_path, {"requirements.txt": "tensorflow-gpu==1.14.0\n", "train.py": train, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert item["line"] == 5
    assert [(r["line"], r["message"]) for r in item["related"]] == [
        (6, "`tf.nn.max_pool(...)` also runs cuDNN"), (7, "`tf.layers.conv2d(...)` also runs cuDNN"),
    ]


def test_nothing_declared_and_no_tf1_api_is_the_default_version(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"train.py": KERAS, ".git/HEAD": ""})
    item = rpl304(cli, project)
    source = item["assumed"]["version"]["source"]
    assert source in ("installed", "the newest catalogued, nothing declared")
    if source != "installed":
        assert "(TensorFlow 2.x, the newest catalogued, nothing declared)" in item["message"]
        # a TensorFlow 2 of unknown release may be 2.1-2.7: both switches are named
        assert item["message"].endswith(
            "call `tf.config.experimental.enable_op_determinism()` at its start "
            "(TF 2.8 on; on 2.1-2.7 set `TF_DETERMINISTIC_OPS=1` instead)"
        )
    assert "call `tf.config.experimental.enable_op_determinism()` at its start" in item["message"]


def test_tf_2_4_is_told_to_set_tf_deterministic_ops(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"requirements.txt": "tensorflow==2.4.1\n", "train.py": KERAS, ".git/HEAD": ""})
    item = rpl304(cli, project)
    assert "(TensorFlow 2.4, declared as `tensorflow==2.4.1` in requirements.txt)" in item["message"]
    assert "set `TF_DETERMINISTIC_OPS=1` before its first op" in item["message"]
    # and the variable is accepted there
    write(project, {"train.py": "import os\nos.environ['TF_DETERMINISTIC_OPS'] = '1'\n" + KERAS})
    assert "RPL304" not in cli("check", "--no-cache", "--select", "RPL304", str(project)).out


def test_tf_1_15_with_its_only_switch_set_is_not_reported(cli, tmp_path: Path) -> None:
    train = "import os\nos.environ['TF_CUDNN_DETERMINISTIC'] = '1'\n" + TF1_CONV
    project = write(tmp_path, {"requirements.txt": "tensorflow-gpu==1.15.0\n", "train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL204,RPL304", "--output-format", "json", str(project)).out
    assert json.loads(out) == []


def test_tf_deterministic_ops_set_under_tf1_is_said_to_be_unread(cli, tmp_path: Path) -> None:
    train = "import os\nos.environ['TF_DETERMINISTIC_OPS'] = '1'\n" + TF1_CONV
    project = write(tmp_path, {"requirements.txt": "tensorflow-gpu==1.15.0\n", "train.py": train, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert "the `TF_DETERMINISTIC_OPS` it sets is read by stock TensorFlow from 2.1" in item["message"]


def test_compat_v1_graph_code_under_a_tf2_declaration_is_tf2(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"requirements.txt": "tensorflow==2.12.0\n", "train.py": COMPAT, ".git/HEAD": ""})
    item = rpl304(cli, project)
    assert "(TensorFlow 2.12, declared as `tensorflow==2.12.0` in requirements.txt)" in item["message"]
    assert "call `tf.config.experimental.enable_op_determinism()` at its start" in item["message"]
    assert "it runs TF1 graph code through `tf.compat.v1` (`tf.disable_v2_behavior`, train.py line 3)" in item["message"]
    assert item["assumed"]["version"]["compat_v1"] == "`tf.disable_v2_behavior`, train.py line 3"


@pytest.mark.parametrize(
    "declared, inserted, absent",
    [
        ("tensorflow==2.12.0", "tf.config.experimental.enable_op_determinism()", "TF_DETERMINISTIC_OPS"),
        ("tensorflow==2.4.1", 'os.environ["TF_DETERMINISTIC_OPS"] = "1"', "enable_op_determinism"),
    ],
)
def test_the_inline_fix_inserts_what_the_version_supports(cli, tmp_path: Path, declared: str, inserted: str, absent: str) -> None:
    project = write(tmp_path, {"requirements.txt": declared + "\n", "train.py": KERAS, ".git/HEAD": ""})
    result = cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", "--select", "RPL304", str(project))
    assert result.status == 0
    fixed = (project / "train.py").read_text()
    assert inserted in fixed and absent not in fixed
    assert fixed.index(inserted) < fixed.index("model.fit")
    assert "RPL304" not in cli("check", "--no-cache", "--select", "RPL304", str(project)).out


def test_tf_before_1_14_is_reported_without_a_fix(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"requirements.txt": "tensorflow-gpu==1.12.0\n", "train.py": TF1_CONV, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert "in TensorFlow 1.12, declared as `tensorflow-gpu==1.12.0` in requirements.txt: no switch of this " \
        "version makes it deterministic; instead: TF >= 1.14 with TF_CUDNN_DETERMINISTIC=1" in item["message"]
    assert item["fix"] is None


def test_rpl204_under_tf1_names_the_tf1_version_and_no_tf2_switch(cli, tmp_path: Path) -> None:
    train = TF1 + "s = tf.math.unsorted_segment_sum(x, ids, 3)\n"
    project = write(tmp_path, {"requirements.txt": "tensorflow==1.15\n", "train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL204", "--output-format", "json", str(project)).out
    (item,) = json.loads(out)
    assert "in TensorFlow 1.15, declared as `tensorflow==1.15` in requirements.txt" in item["message"]
    assert "enable_op_determinism" not in item["message"]
    assert item["assumed"]["version"]["version"] == "1.15"


def test_rpl204_under_tf_2_12_names_enable_op_determinism(cli, tmp_path: Path) -> None:
    train = KERAS + "s = tf.math.unsorted_segment_sum(x, ids, 3)\n"
    project = write(tmp_path, {"requirements.txt": "tensorflow==2.12.0\n", "train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL204", str(project)).out
    assert "in TensorFlow 2.12, declared as `tensorflow==2.12.0` in requirements.txt: it is deterministic only with " \
        "`tf.config.experimental.enable_op_determinism()`, which" in out  # a known release: no range


@pytest.mark.parametrize(("declared", "said"), [
    ("tensorflow==2.12.0", "op determinism gives it no deterministic GPU kernel"),
    ("tensorflow==2.4.0", "`TF_DETERMINISTIC_OPS=1` gives it no deterministic GPU kernel"),
])
def test_rpl204_of_an_op_without_a_deterministic_kernel_claims_no_more(cli, tmp_path: Path, declared: str, said: str) -> None:
    # whether a release raises for `sparse_dense_matmul` under the switch or leaves it
    # nondeterministic is not claimed: only that no deterministic kernel runs
    train = KERAS + "s = tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(x), x)\n"
    project = write(tmp_path, {"requirements.txt": declared + "\n", "train.py": train, ".git/HEAD": ""})
    out = " ".join(cli("check", "--no-cache", "--select", "RPL204", str(project)).out.split())
    assert said in out and "stays nondeterministic" not in out


def test_rpl204_under_an_unknown_tf2_names_both_switches(cli, tmp_path: Path) -> None:
    train = KERAS + "s = tf.math.unsorted_segment_sum(x, ids, 3)\n"
    project = write(tmp_path, {"requirements.txt": "tensorflow\n", "train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL204", "--output-format", "json", str(project)).out
    (item,) = json.loads(out)
    if item["assumed"]["version"]["kind"] == "catalog":
        assert "it is deterministic only with `tf.config.experimental.enable_op_determinism()` " \
            "(TF 2.8 on; `TF_DETERMINISTIC_OPS=1` on 2.1-2.7; for this op from TF 2.7), which this program never turns on" in item["message"]


def test_an_unversioned_declaration_is_named_not_called_nothing_declared(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"requirements.txt": "tensorflow\n", "train.py": KERAS, ".git/HEAD": ""})
    item = rpl304(cli, project)
    if item["assumed"]["version"]["source"] != "installed":
        assert "the newest catalogued; `tensorflow` in requirements.txt states no version" in item["message"]
        assert "nothing declared" not in item["message"]


def test_a_declared_multi_backend_keras_2_2_runs_on_tf1(cli, tmp_path: Path) -> None:
    train = (
        "import keras\nmodel = keras.models.Sequential([keras.layers.Conv2D(4, 3), keras.layers.Dense(1)])\n"
        "model.compile('sgd', 'mse')\nmodel.fit(x, y)\n"
    )
    project = write(tmp_path, {"requirements.txt": "keras==2.2.4\n", "train.py": train, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert "in TensorFlow 1.x, from `keras==2.2.4` in requirements.txt (multi-backend Keras up to 2.2.5 runs on TensorFlow 1 only)" in item["message"]
    assert "enable_op_determinism" not in item["message"]
    assert item["assumed"]["version"]["kind"] == "keras-declared"


def test_a_declared_keras_3_runs_on_tf_2_16_or_newer(cli, tmp_path: Path) -> None:
    train = "import keras\nmodel = keras.models.Sequential([keras.layers.Dense(1)])\nmodel.compile('sgd', 'mse')\nmodel.fit(x, y)\n"
    project = write(tmp_path, {"requirements.txt": "keras>=3.0\n", "train.py": train, ".git/HEAD": ""})
    item = rpl304(cli, project)
    assert "from `keras>=3.0` in requirements.txt (Keras 3's TensorFlow backend needs TensorFlow 2.16)" in item["message"]
    assert "call `tf.config.experimental.enable_op_determinism()` at its start" in item["message"]


def test_tf1_bias_add_is_one_finding_per_program_and_no_rpl304(cli, tmp_path: Path) -> None:
    train = TF1.replace(
        "loss = tf.reduce_mean(tf.matmul(x, w))\n",
        "h = tf.layers.dense(x, 8)\nh = tf.layers.dense(h, 8)\nz = tf.layers.dense(h, 1, use_bias=False)\nloss = tf.reduce_mean(z)\n",
    )
    project = write(tmp_path, {"setup.py": "setup(install_requires=['tensorflow>=1.8,<2.0'])\n", "train.py": train, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert item["line"] == 6  # the first dense layer with a bias; the other one is related, not the one without
    assert [(r["line"], r["message"]) for r in item["related"]] == [(7, "`tf.layers.dense(...)` also adds a bias with `bias_add`")]
    assert "`tf.layers.dense(...)` (its gradient) is nondeterministic on GPU in TensorFlow 1.15, declared as " \
        "`tensorflow>=1.8,<2.0` in setup.py" in item["message"]  # not 1.99


@pytest.mark.parametrize("call", ["tf.layers.conv2d(x, 4, 3)", "tf.layers.conv2d(x, 4, 3, (1, 1), 'valid', 'channels_last', (1, 1), None, True)"])
def test_a_tf1_conv_layer_with_its_bias_is_reported_for_the_bias(cli, tmp_path: Path, call: str) -> None:
    """The layer adds its bias with bias_add, whose gradient TF_CUDNN_DETERMINISTIC does
    not cover: set or not, the message says no switch of TF 1.15 makes it deterministic."""
    train = "import os\nos.environ['TF_CUDNN_DETERMINISTIC'] = '1'\n" + TF1_CONV.replace(
        "tf.layers.conv2d(x, 4, 3, use_bias=False)", call)
    project = write(tmp_path, {"requirements.txt": "tensorflow==1.15\n", "train.py": train, ".git/HEAD": ""})
    item = rpl204(cli, project)
    assert item["message"].startswith(
        "`tf.layers.conv2d(...)` (its gradient) is nondeterministic on GPU in TensorFlow 1.15, declared as "
        "`tensorflow==1.15` in requirements.txt: no switch of this version makes it deterministic"
    )
    # and with use_bias=False, the switch it sets covers the convolution: no finding
    write(project, {"train.py": train.replace(call, "tf.layers.conv2d(x, 4, 3, use_bias=False)")})
    assert "RPL204" not in cli("check", "--no-cache", "--select", "RPL204", str(project)).out


def test_keras_fit_on_tf1_is_said_to_miss_the_graph_seed_not_random(cli, tmp_path: Path) -> None:
    """TensorFlow 1's tf.keras draws from the graph seed only, and has no
    `keras.utils.set_random_seed`: RPL306 names what TF 1 has."""
    train = (
        "import numpy as np\nimport tensorflow as tf\n\n"
        "config = tf.ConfigProto()\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='zeros', input_shape=(4,))])\n"
        "model.compile(optimizer='sgd', loss='mse')\n"
        "model.fit(np.zeros((8, 4)), np.zeros(8), epochs=2)\n"
    )
    project = write(tmp_path, {"train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL306", "--output-format", "json", str(project)).out
    (item,) = json.loads(out)
    assert item["message"] == (
        "`model.fit(...)` leaves training nondeterministic: the program never seeds NumPy (`np.random.seed`), "
        "from which Keras on TensorFlow 1 draws its shuffling and never seeds TensorFlow's graph "
        "(`tf.set_random_seed`), which tf.keras's initial weights and dropout follow"
    )
    # multi-backend Keras on TF 1 draws everything through NumPy: seeding it is enough
    standalone = (
        "import numpy as np\nimport tensorflow as tf\nfrom keras.models import Sequential\n"
        "from keras.layers import Dense\n\nconfig = tf.ConfigProto()\nnp.random.seed(0)\n"
        "model = Sequential([Dense(1, input_shape=(4,))])\nmodel.compile(optimizer='sgd', loss='mse')\n"
        "model.fit(np.zeros((8, 4)), np.zeros(8), epochs=2)\n"
    )
    write(project, {"train.py": standalone})
    assert json.loads(cli("check", "--no-cache", "--select", "RPL306", "--output-format", "json", str(project)).out) == []
    write(project, {"train.py": standalone.replace("np.random.seed(0)\n", "")})
    (item,) = json.loads(cli("check", "--no-cache", "--select", "RPL306", "--output-format", "json", str(project)).out)
    assert item["message"].endswith(
        "the program never seeds NumPy (`np.random.seed`), from which Keras on TensorFlow 1 draws the seeds of "
        "its weights and dropout and its shuffling"
    )
    # the same program on TF 2 (no TF 1 name): Keras 2's initialisers also take Python's `random`
    write(project, {"train.py": train.replace("config = tf.ConfigProto()\n", "")})
    (item,) = json.loads(cli("check", "--no-cache", "--select", "RPL306", "--output-format", "json", str(project)).out)
    assert "never calls `keras.utils.set_random_seed` and never seeds TensorFlow and `random`" in item["message"]


@pytest.mark.parametrize(
    "keras_import, layer, library",
    [
        ("from keras.layers import Dense", "Dense(1, input_shape=(4,))", "NumPy's"),  # multi-backend Keras
        ("from tensorflow.keras.layers import Dense", "Dense(1, input_shape=(4,))", "TensorFlow's"),  # tf.keras
    ],
)
def test_keras_draws_on_tf1_come_from_the_generators_of_tf1s_keras(
    cli, tmp_path: Path, keras_import: str, layer: str, library: str
) -> None:
    train = (
        f"import numpy as np\nimport tensorflow as tf\n{keras_import}\n"
        "from tensorflow.keras.models import Sequential\n\n"
        "session = tf.Session()\n"
        f"model = Sequential([{layer}])\n"
        "model.compile(optimizer='sgd', loss='mse')\n"
        "model.save('m.h5')\n"
    )
    project = write(tmp_path, {"train.py": train, ".git/HEAD": ""})
    (item,) = json.loads(cli("check", "--no-cache", "--select", "RPL101", "--output-format", "json", str(project)).out)
    assert item["message"].startswith(f"`Dense(...)` initialises weights from {library} global RNG")
    # without the TF 1 API the catalog's answer holds: Keras of today seeds from `random`
    write(project, {"train.py": train.replace("session = tf.Session()\n", "")})
    (item,) = json.loads(cli("check", "--no-cache", "--select", "RPL101", "--output-format", "json", str(project)).out)
    assert "NumPy's" not in item["message"]


def test_the_inline_seeding_fix_writes_the_seeding_call_tf1_has(cli, tmp_path: Path) -> None:
    """TensorFlow 1 has no `tf.random.set_seed`: a TF 1 program is seeded with
    `tf.set_random_seed`, a TF 2 one keeps `tf.random.set_seed`."""
    tf1 = TF1.replace("w = tf.Variable(tf.zeros([4, 1]))", "w = tf.Variable(tf.random_normal([4, 1]))")
    project = write(tmp_path, {"train.py": tf1, ".git/HEAD": ""})
    cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", "--no-cache", str(project / "train.py"))
    fixed = (project / "train.py").read_text()
    assert "    tf.set_random_seed(seed)\n" in fixed and "tf.random.set_seed" not in fixed
    tf2 = "import tensorflow as tf\n\nw = tf.Variable(tf.random.normal([4, 1]))\ntf.saved_model.save(tf.Module(), 'out')\n"
    write(project, {"train.py": tf2})
    cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", "--no-cache", str(project / "train.py"))
    assert "    tf.random.set_seed(seed)\n" in (project / "train.py").read_text()


def test_a_tflearn_fit_is_not_keras(cli, tmp_path: Path) -> None:
    """TFLearn's `DNN.fit` in a module that uses TensorFlow trains TFLearn's way: no Keras
    seeding finding (RPL306) and no Keras fit shuffle (RPL101); the same call on a
    compiled Keras model is both."""
    train = (
        "import numpy as np\nimport tensorflow as tf\nimport tflearn\n\n"
        "net = tflearn.regression(tflearn.fully_connected(tflearn.input_data([None, 4]), 2))\n"
        "model = tflearn.DNN(net)\n"
        "model.fit(np.zeros((8, 4)), np.zeros((8, 2)), n_epoch=2, shuffle=True)\n"
    )
    project = write(tmp_path, {"train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL101,RPL306", "--output-format", "json", str(project)).out
    assert json.loads(out) == []
    keras = train.replace("model = tflearn.DNN(net)\n", "model = tf.keras.Sequential([tf.keras.layers.Dense(2)])\nmodel.compile(loss='mse')\n")
    write(project, {"train.py": keras.replace(", n_epoch=2", ", epochs=2")})
    codes = {d["code"] for d in json.loads(cli("check", "--no-cache", "--select", "RPL101,RPL306", "--output-format", "json", str(project)).out)}
    assert "RPL306" in codes or "RPL101" in codes


KERAS_TRAIN = (
    "import numpy as np\nimport tensorflow as tf\nfrom keras.models import Sequential\n"
    "from keras.layers import Dense\n\n"
    "model = Sequential([Dense(1, input_shape=(4,))])\nmodel.compile(optimizer='sgd', loss='mse')\n"
    "model.fit(np.zeros((8, 4)), np.zeros(8), epochs=2)\nmodel.save('m.h5')\n"
)


@pytest.mark.parametrize(
    "requirements, library",
    [
        ("tensorflow==1.15.0\n", "NumPy's"),  # TF 1 declared, no TF 1 name called
        ("tensorflow-gpu>=1.12,<2.0\n", "NumPy's"),
        ("tensorflow==2.1.0\nkeras==2.3.1\n", "NumPy's"),  # multi-backend Keras on TF 2
        ("tensorflow==2.12.0\n", "the `random` module's"),  # the Keras of today: its look-alike
        ("tensorflow>=1.15\n", "the `random` module's"),  # open to TF 2, and no TF 1 name: today's
    ],
)
def test_keras_draws_follow_the_keras_the_project_declares(cli, tmp_path: Path, requirements: str, library: str) -> None:
    """One notion of the Keras of the past (analysis.tf_versions.old_keras) for every rule:
    a project that declares TensorFlow 1 or a multi-backend Keras (before 2.4) draws its
    initial weights and `fit` shuffles through NumPy, though it calls no TF 1 name."""
    project = write(tmp_path, {"train.py": KERAS_TRAIN, "requirements.txt": requirements, ".git/HEAD": ""})
    found = json.loads(cli("check", "--no-cache", "--select", "RPL101,RPL306", "--output-format", "json", str(project)).out)
    first = next(d for d in found if d["code"] == "RPL101")
    assert first["message"].startswith(f"`Dense(...)` initialises weights from {library} global RNG")
    if library == "NumPy's":
        assert [r["message"] for r in first["related"]] == ["`model.fit` also shuffles with NumPy's global RNG"]
        assert [d["code"] for d in found] == ["RPL101"]  # one cause, one finding: no RPL306
        write(project, {"train.py": KERAS_TRAIN.replace("\nmodel = ", "\nnp.random.seed(0)\nmodel = ")})
        assert json.loads(cli("check", "--no-cache", "--select", "RPL101,RPL306", "--output-format", "json", str(project)).out) == []


def test_a_declared_multi_backend_keras_fit_names_numpy(cli, tmp_path: Path) -> None:
    """RPL306 on multi-backend Keras over TF 2 names NumPy, not `keras.utils.set_random_seed`
    (which it does not have)."""
    project = write(tmp_path, {"train.py": KERAS_TRAIN, "requirements.txt": "tensorflow==2.1.0\nkeras==2.3.1\n", ".git/HEAD": ""})
    (item,) = json.loads(cli("check", "--no-cache", "--select", "RPL306", "--output-format", "json", str(project)).out)
    assert item["message"].endswith(
        "the program never seeds NumPy (`np.random.seed`), from which multi-backend Keras (before 2.4) draws "
        "the seeds of its weights and dropout and its shuffling"
    )


def test_a_declared_tf1_program_is_seeded_with_tf1s_call(cli, tmp_path: Path) -> None:
    """A project that declares TensorFlow 1 gets `tf.set_random_seed` from the fix though
    its code calls no TF 1-only name."""
    train = "import tensorflow as tf\n\nw = tf.Variable(tf.random.normal([4, 1]))\ntf.train.Saver().save(None, 'out')\n"
    project = write(tmp_path, {"train.py": train, "requirements.txt": "tensorflow==1.15.0\n", ".git/HEAD": ""})
    cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", "--no-cache", str(project / "train.py"))
    fixed = (project / "train.py").read_text()
    assert "tf.set_random_seed(seed)" in fixed and "tf.random.set_seed" not in fixed


def test_rpl304_needs_a_kernel_the_switch_changes_and_names_it(cli, tmp_path: Path) -> None:
    """A TF 2 program that trains through plain arithmetic (a linear regression with raw
    ops) runs GPU kernels that repeat without op determinism: no RPL304. The same loop
    through a convolution, or a Keras model, is reported with that place related."""
    plain = (
        "import tensorflow as tf\n\n"
        "w = tf.Variable(tf.zeros([4, 1]))\nb = tf.Variable(0.0)\nopt = tf.optimizers.SGD(0.1)\n"
        "for x, y in tf.data.Dataset.from_tensor_slices((tf.ones([8, 4]), tf.ones([8, 1]))).batch(2):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))\n"
        "    opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))\n"
    )
    project = write(tmp_path, {"requirements.txt": "tensorflow==2.12.0\n", "train.py": plain, ".git/HEAD": ""})
    assert json.loads(cli("check", "--no-cache", "--select", "RPL304", "--output-format", "json", str(project)).out) == []
    conv = plain.replace("tf.matmul(x, w)", "tf.reduce_sum(tf.nn.conv2d(tf.reshape(x, [-1, 2, 2, 1]), tf.ones([1, 1, 1, 1]), 1, 'SAME'))")
    write(project, {"train.py": conv})
    item = rpl304(cli, project)
    assert [(r["line"], r["message"]) for r in item["related"]] == [
        (8, "`tf.nn.conv2d(...)` runs here, through kernels the switch makes deterministic")]
    keras = (
        "import numpy as np\nimport tensorflow as tf\n\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])\n"
        "model.compile(optimizer='sgd', loss='mse')\nmodel.fit(np.ones((8, 4)), np.ones(8), epochs=2)\n"
    )
    write(project, {"train.py": keras})
    item = rpl304(cli, project)
    assert [r["line"] for r in item["related"]] == [6]
