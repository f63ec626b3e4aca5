"""`--backend ray --address HOST:PORT` where nothing listens (issue 30, item 13): Ray's
`init` retried for more than ten minutes (and outlived SIGTERM). reprolint now tries the
address with a bounded timeout first and stops with a clear error, exit 2.

Ray is not needed: a stand-in `ray` module whose `init` never returns, as the real one
does against a dead address, is put first on PYTHONPATH.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

STAND_IN = '''
import time

def is_initialized():
    return False

def init(*args, **kwargs):
    time.sleep(3600)  # what ray.init does against an address where nothing listens

def nodes():
    return []

def shutdown():
    pass
'''


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends: nothing listens


def test_a_dead_address_is_a_clear_error_not_a_hang(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "ray").mkdir(parents=True)
    (fake / "ray" / "__init__.py").write_text(STAND_IN)
    port = _closed_port()
    env = {**os.environ, "CI": "1", "PYTHONPATH": str(fake)}
    done = subprocess.run(
        [sys.executable, "-m", "reprolint", "verify", "--backend", "ray", "--address", f"127.0.0.1:{port}",
         "--", sys.executable, "-c", "pass"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 2, done
    assert f"cannot join Ray at 127.0.0.1:{port}: nothing answers there" in done.stderr, done.stderr
