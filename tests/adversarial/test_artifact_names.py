"""Artifact records never share a name (issue 30, item 6): `--artifact out/model.bin
--artifact out__model.bin` kept both under `out__model.bin`, so a file that differed
every run was compared with a constant one and verify said REPRODUCIBLE.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reprolint.harness.verify import artifact_record_name

PROGRAM = (
    "import os\n"
    "os.makedirs('out', exist_ok=True)\n"
    "open('out/model.bin', 'wb').write(os.urandom(16))\n"  # differs every run
    "open('out__model.bin', 'wb').write(b'constant')\n"
)


def test_two_artifacts_of_one_flattened_name_are_both_compared(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(PROGRAM)
    env = {**os.environ, "CI": "1"}
    env.pop("REPROLINT_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "reprolint", "verify", "--artifact", "out/model.bin", "--artifact",
         "out__model.bin", "--", sys.executable, "train.py"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 1, done
    assert done.stdout.startswith("NOT REPRODUCIBLE: out/model.bin: file contents differ"), done.stdout
    assert "out/model.bin" in done.stdout, done.stdout


@pytest.mark.parametrize("values", [
    ["out/model.bin", "out__model.bin", "out%2Fmodel.bin"],
    [".", "..", "%2E", "...", "./"],
    ["a" * 300, "a" * 301, "a" * 200 + "~"],
    ["x\\y", "x/y", "x%5Cy"],
])
def test_record_names_are_injective_and_plain(values: list[str]) -> None:
    names = [artifact_record_name(v) for v in values]
    assert len(set(names)) == len(values), names
    for name in names:
        assert "/" not in name and name not in (".", "..") and len(name.encode()) <= 255, name
