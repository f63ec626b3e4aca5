"""Helpers for runtime tests: install() patches process-wide state, so programs that
call it run in a fresh interpreter, never in the pytest process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, Optional

import pytest


class Ran:
    def __init__(self, proc: "subprocess.CompletedProcess[str]") -> None:
        self.returncode = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self) -> dict:
        """The last stdout line, as JSON (programs print their observations there)."""
        return json.loads(self.out.strip().splitlines()[-1])

    def __repr__(self) -> str:
        return f"Ran(rc={self.returncode}, out={self.out[-2000:]!r}, err={self.err[-2000:]!r})"


@pytest.fixture
def run_python(tmp_path: Path):
    """Run a Python program (source text) in tmp_path with extra environment variables."""

    def run(source: str, env: Optional[Dict[str, Optional[str]]] = None, name: str = "prog.py") -> Ran:
        script = tmp_path / name
        script.write_text(textwrap.dedent(source))
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("REPROLINT_")}
        # A fixed hash seed whatever the outer environment has (the suite must pass under any
        # PYTHONHASHSEED); a test that needs it unset passes {"PYTHONHASHSEED": None}.
        full_env["PYTHONHASHSEED"] = "0"
        for key, value in (env or {}).items():
            if value is None:
                full_env.pop(key, None)
            else:
                full_env[key] = value
        proc = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, env=full_env,
            capture_output=True, text=True, timeout=120,
        )
        result = Ran(proc)
        assert proc.returncode == 0, result
        return result

    return run
