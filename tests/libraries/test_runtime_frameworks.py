"""reprolint.runtime on real Keras and JAX programs: install() makes them repeat, record
then replay gives the recorded run back, and without it the same program does not repeat.

Each program runs in a fresh interpreter (install() patches the process). Skips when
Keras/TensorFlow or JAX is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, Optional

import pytest

pytestmark = pytest.mark.slow

KERAS = """
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
PROLOGUE
import json
import numpy as np
import keras

x = np.linspace(-1.0, 1.0, 64 * 4, dtype="float32").reshape(64, 4)
y = (np.sin(3 * x).sum(axis=1) > 0).astype("float32")
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dropout(0.3),
    keras.layers.Dense(1),
])
model.compile(optimizer="sgd", loss="mse")
history = model.fit(x, y, epochs=2, batch_size=16, verbose=0)  # fit shuffles by default
from tensorflow.python.framework import config as tf_config  # no public getter

print(json.dumps({
    "loss": [float(v) for v in history.history["loss"]],
    "weights": [w.tolist() for w in model.get_weights()],
    "op_determinism": bool(tf_config.is_op_determinism_enabled()),
}))
"""

JAX = """
PROLOGUE
import json
import random
import jax
import jax.numpy as jnp

# The key comes from Python's random module (a common way to vary runs): the runtime
# seeds and records that, so the JAX program repeats with it.
key = jax.random.PRNGKey(random.randrange(2**31))
w = jax.random.normal(key, (4,))
x = jnp.linspace(-1.0, 1.0, 32).reshape(8, 4)
loss = lambda w: jnp.sum((x @ w - 1.0) ** 2)
for _ in range(3):
    w = w - 0.05 * jax.grad(loss)(w)
print(json.dumps({"w": [float(v) for v in w]}))
"""


def _run(tmp_path: Path, template: str, prologue: str, env: Optional[Dict[str, str]] = None) -> dict:
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(template).replace("PROLOGUE", prologue))
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("REPROLINT_")}
    full_env["PYTHONHASHSEED"] = "0"
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=full_env,
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


INSTALL = "import reprolint.runtime\nreprolint.runtime.install(SEED)"


@pytest.mark.parametrize("library,template", [("keras", KERAS), ("jax", JAX)])
def test_verify_differs_as_written_and_is_bit_identical_with_install(
    tmp_path: Path, library: str, template: str, monkeypatch, capsys
) -> None:
    pytest.importorskip(library)
    from reprolint.harness.cli import main as verify_main

    monkeypatch.chdir(tmp_path)
    for var in [v for v in os.environ if v.startswith("REPROLINT_")]:
        monkeypatch.delenv(var)
    for name, prologue in (("written.py", ""), ("fixed.py", INSTALL.replace("SEED", "seed=0"))):
        (tmp_path / name).write_text(textwrap.dedent(template).replace("PROLOGUE", prologue))
    assert verify_main(["verify", "--", sys.executable, "written.py"]) == 1
    written = capsys.readouterr().out
    assert written.startswith("NOT REPRODUCIBLE: program output differs"), written
    assert verify_main(["verify", "--", sys.executable, "fixed.py"]) == 0
    fixed = capsys.readouterr().out
    assert fixed.startswith("REPRODUCIBLE: 2 runs bit-identical"), fixed


@pytest.mark.parametrize("library,template", [("keras", KERAS), ("jax", JAX)])
def test_install_seed_decides_the_run(tmp_path: Path, library: str, template: str) -> None:
    pytest.importorskip(library)
    seven = _run(tmp_path, template, INSTALL.replace("SEED", "7"))
    eight = _run(tmp_path, template, INSTALL.replace("SEED", "8"))
    assert seven != eight
    if library == "keras":
        # install(deterministic=True), the default, turns on TF op determinism.
        assert seven["op_determinism"] is True


@pytest.mark.parametrize("library,template", [("keras", KERAS), ("jax", JAX)])
def test_replay_gives_the_recorded_run_back(tmp_path: Path, library: str, template: str) -> None:
    pytest.importorskip(library)
    record = str(tmp_path / "rec" / "record.json")
    prologue = INSTALL.replace("SEED", "")
    recorded = _run(tmp_path, template, prologue, {"REPROLINT_RECORD": record})
    replayed = _run(tmp_path, template, prologue, {"REPROLINT_RECORD": record, "REPROLINT_MODE": "replay"})
    assert replayed == recorded
    fresh = _run(tmp_path, template, prologue, {"REPROLINT_RECORD": str(tmp_path / "other.json")})
    assert fresh != recorded  # a new recording draws a new master seed
    saved = json.loads(Path(record).read_text())
    versions = json.dumps(saved.get("environment", saved))
    assert library in versions, "the record does not name the framework's version"
