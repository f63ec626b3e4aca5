"""What ``reprolint.analysis.calls.tf1`` and ``tf_versions`` say about the TensorFlow API,
checked on the installed TensorFlow 2:

* every name recorded as "TF1 only" (``GRAPH_NAMES``, ``TF1_ONLY_NAMES``) is gone from
  TF 2's top level and lives on under ``tf.compat.v1``; the removed namespaces
  (``tf.contrib``, ``tf.app``, ``tf.flags``, ``tf.layers``, ``tf.logging``) are gone from
  the top level, ``tf.contrib`` from ``tf.compat.v1`` too;
* a TF 2 from 2.8 has ``tf.config.experimental.enable_op_determinism`` (what RPL304
  advises there).

Runs in a fresh interpreter (TensorFlow's import). Skips when TensorFlow is not installed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reprolint.analysis.calls.tf1 import GRAPH_NAMES, TF1_ONLY_NAMES, TF1_PREFIXES

pytestmark = pytest.mark.slow

PROBE = """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf


def has(root, dotted):
    for part in dotted.split("."):
        if not hasattr(root, part):
            return False
        root = getattr(root, part)
    return True


names = json.loads(sys.argv[1])
spaces = json.loads(sys.argv[2])
print(json.dumps({
    "version": tf.__version__,
    "top": {n: has(tf, n) for n in names},
    "compat": {n: has(tf.compat.v1, n) for n in names},
    "spaces_top": {s: has(tf, s) for s in spaces},
    "contrib_compat": has(tf.compat.v1, "contrib"),
    "enable": has(tf, "config.experimental.enable_op_determinism"),
}))
"""


def _probe() -> dict:
    pytest.importorskip("tensorflow")
    names = list(GRAPH_NAMES + TF1_ONLY_NAMES)
    spaces = [p[len("tensorflow."):-1] for p in TF1_PREFIXES]
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(names), json.dumps(spaces)],
        capture_output=True, text=True, timeout=300, check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_tf1_only_names_are_gone_from_tf2_and_live_on_under_compat_v1() -> None:
    found = _probe()
    major = int(found["version"].split(".")[0])
    if major < 2:
        pytest.skip(f"TensorFlow {found['version']} is TF 1")
    assert [n for n, present in found["top"].items() if present] == []
    assert [n for n, present in found["compat"].items() if not present] == []
    assert [s for s, present in found["spaces_top"].items() if present] == []
    assert found["contrib_compat"] is False


def test_tf_from_2_8_has_enable_op_determinism() -> None:
    found = _probe()
    major, minor = (int(p) for p in found["version"].split(".")[:2])
    if (major, minor) < (2, 8):
        pytest.skip(f"TensorFlow {found['version']} is older than 2.8")
    assert found["enable"] is True


GRAPH_SEED_PROBE = """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf

v1 = tf.compat.v1
v1.disable_eager_execution()
v1.set_random_seed(42)  # on the default graph
inside = sys.argv[1] == "inside"
with tf.Graph().as_default():
    if inside:
        v1.set_random_seed(42)
    w = v1.random_normal([3])
    with v1.Session() as sess:
        print(json.dumps(sess.run(w).tolist()))
"""


def _graph_draws(where: str) -> str:
    pytest.importorskip("tensorflow")
    done = subprocess.run([sys.executable, "-c", GRAPH_SEED_PROBE, where],
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_a_graph_level_seed_does_not_reach_a_new_graph() -> None:
    """RPL101's "graph" variant: `tf.set_random_seed` before `with tf.Graph().as_default():`
    seeds the old default graph only; ops of the new graph draw a fresh seed each run,
    and seeding inside the block makes them repeat."""
    assert _graph_draws("outside") != _graph_draws("outside")
    assert _graph_draws("inside") == _graph_draws("inside")
