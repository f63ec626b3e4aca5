"""Folders in use are not taken away (issue 30, item 14): pruning old sessions
(`REPROLINT_KEEP_RUNS`) deleted a session still running, whose verdict then blamed the
wrong thing; `clean` during a running `check` left an untagged cache folder, after which
checks ran uncached and `clean` refused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from reprolint.cache import FactsCache, is_cache_folder

WAITS = (
    "import os, time\n"
    "open('started', 'w').close()\n"
    "while not os.path.exists('go'):\n"
    "    time.sleep(0.05)\n"
    "print('done')\n"
)


def _env() -> dict[str, str]:
    env = {**os.environ, "CI": "1", "REPROLINT_KEEP_RUNS": "1"}
    env.pop("REPROLINT_DEBUG", None)
    return env


def test_pruning_leaves_a_running_session_alone(tmp_path: Path) -> None:
    (tmp_path / "wait.py").write_text(WAITS)
    slow = subprocess.Popen([sys.executable, "-m", "reprolint", "verify", "--output-format", "json", "--",
                             sys.executable, "wait.py"], cwd=tmp_path, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while not (tmp_path / "started").exists() and time.time() < deadline:
            time.sleep(0.05)
        running = sorted((tmp_path / ".reprolint" / "runs").iterdir())
        assert len(running) == 1
        # Another session meanwhile, keeping one session: it must not prune the running one.
        quick = subprocess.run([sys.executable, "-m", "reprolint", "verify", "--", sys.executable, "-c", "pass"],
                               cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=120)
        assert "records: .reprolint/runs/" in quick.stdout, quick  # (nothing to compare: exit 2)
        assert running[0].is_dir(), "the running session was pruned"
        removed = subprocess.run([sys.executable, "-m", "reprolint", "clean", "--runs"], cwd=tmp_path,
                                 env=_env(), capture_output=True, text=True, timeout=120)
        assert removed.returncode == 0 and running[0].is_dir(), removed
    finally:
        (tmp_path / "go").touch()
        out, err = slow.communicate(timeout=120)
    assert slow.returncode == 0, err
    assert json.loads(out)["verdict"] == "reproducible", out


def test_clean_during_a_check_leaves_no_untagged_cache(tmp_path: Path) -> None:
    folder = tmp_path / ".reprolint_cache"
    cache = FactsCache(folder, "salt", root=tmp_path)
    cache.store("ab" + "0" * 62, {"facts": None, "error": ["x", 1, 1], "suppressions": []})
    assert is_cache_folder(folder)
    shutil.rmtree(folder)  # `reprolint clean` while the check still writes
    cache.store("cd" + "0" * 62, {"facts": None, "error": ["x", 1, 1], "suppressions": []})
    assert not os.path.lexists(folder) or is_cache_folder(folder)
    (tmp_path / "train.py").write_text("import random\nrandom.random()\n")
    later = subprocess.run([sys.executable, "-m", "reprolint", "check", "."], cwd=tmp_path, env=_env(),
                           capture_output=True, text=True, timeout=120)
    assert "the cache is not used" not in later.stderr, later
    cleaned = subprocess.run([sys.executable, "-m", "reprolint", "clean"], cwd=tmp_path, env=_env(),
                             capture_output=True, text=True, timeout=120)
    assert cleaned.returncode == 0, cleaned
