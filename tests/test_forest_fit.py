"""A TensorFlow Decision Forests model's `fit` trains trees in Yggdrasil, deterministic by
the model's own `random_seed`: no Keras seeding or TF op-determinism finding for it. A
Keras network in the same program keeps its findings."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

FOREST = (
    "import tensorflow as tf\nimport tensorflow_decision_forests as tfdf\n\n"
    "data = tf.data.Dataset.from_tensor_slices(({'x': [1.0, 2.0]}, [0, 1])).batch(2)\n"
    "model = tfdf.keras.RandomForestModel()\n"
    "model.compile(metrics=['accuracy'])\n"
    "model.fit(data)\n"
)
NET = (
    "net = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='zeros')])\n"
    "net.compile(loss='mse')\n"
    "net.fit(tf.zeros((4, 1)), tf.zeros((4, 1)), epochs=1, shuffle=False)\n"
)


def test_a_forest_s_fit_needs_no_keras_seeds(tmp_path: Path) -> None:
    (tmp_path / "forest.py").write_text(FOREST)
    assert [d.code for d in check_paths([str(tmp_path)], jobs=1).diagnostics] == []


def test_a_network_beside_it_keeps_its_findings(tmp_path: Path) -> None:
    (tmp_path / "both.py").write_text(FOREST + NET)
    found = [(d.code, d.span.start_line) for d in check_paths([str(tmp_path)], jobs=1).diagnostics]
    assert found == [("RPL304", 1), ("RPL306", 10)]
