"""`--backend ray` on a real two-node Ray cluster started on 127.0.0.1 by these tests.

The head and a second `ray start --address` node (with a resource label of its own) run
on this machine; `--spread` puts the runs on both. Every test runs reprolint as a
process, as a user would, and compares with the local backend. Slow: Ray takes
seconds to start, LeNet-1 seconds to train.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

pytest.importorskip("ray")

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable
LENET1 = REPO / "corpus" / "train" / "lenet1_mnist.py"
SECOND_NODE = "second_node"  # the resource label only the second node has


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REPROLINT_", "RAY_"))}
    env.pop("PYTHONHASHSEED", None)
    env["PATH"] = str(Path(PY).parent) + os.pathsep + env.get("PATH", "")
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    # Explicit, so that a token a local `ray.init()` once left in ~/.ray (Ray's default for
    # new local clusters) cannot switch this test cluster's nodes to token auth.
    env["RAY_AUTH_MODE"] = "disabled"
    return env


def _ray_processes(temp_dir: str) -> List[str]:
    """Processes of this cluster (or any raylet / GCS server) still alive."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and (temp_dir in cmdline or "raylet" in cmdline.split(" ")[0] or "gcs_server" in cmdline.split(" ")[0]):
            found.append(f"{entry.name}: {cmdline[:120]}")
    return found


class Cluster:
    def __init__(self, address: str, temp_dir: str) -> None:
        self.address = address
        self.temp_dir = temp_dir


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    ray_cli = str(Path(PY).parent / "ray")
    temp_dir = tempfile.mkdtemp(prefix="rlray-", dir="/tmp")
    port = _free_port()
    address = f"127.0.0.1:{port}"
    env = _env()
    try:
        subprocess.run(
            [ray_cli, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
             "--num-cpus", "2", "--include-dashboard=false", "--disable-usage-stats", "--temp-dir", temp_dir],
            env=env, check=True, capture_output=True, timeout=120,
        )
        subprocess.run(
            [ray_cli, "start", "--address", address, "--node-ip-address", "127.0.0.1", "--num-cpus", "2",
             "--resources", json.dumps({SECOND_NODE: 1})],
            env=env, check=True, capture_output=True, timeout=120,
        )
        yield Cluster(address, temp_dir)
    finally:
        subprocess.run([ray_cli, "stop", "--force"], env=env, capture_output=True, timeout=120)
        deadline = time.monotonic() + 30
        while _ray_processes(temp_dir) and time.monotonic() < deadline:
            time.sleep(0.5)
        left = _ray_processes(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
        assert not left, f"Ray processes left behind: {left}"


def reprolint(cwd: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "reprolint", *args], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=timeout)


def _complete(run_dir: Path, *names: str) -> None:
    for name in names:
        assert (run_dir / name).is_file(), f"{run_dir / name} missing: {sorted(p.name for p in run_dir.iterdir())}"


def test_variance_fixed_seed_on_two_nodes_gives_the_local_statistics(cluster: Cluster, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    command = ["--runs", "2", "--mode", "fixed", "--output-format", "json", "--", "python", str(LENET1)]
    start = time.monotonic()
    on_ray = reprolint(tmp_path, "variance", "--backend", "ray", "--address", cluster.address,
                       "--jobs", "2", "--spread", *command)
    ray_seconds = time.monotonic() - start
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    local = reprolint(tmp_path, "variance", *command)
    assert local.returncode == 0, local.stderr[-3000:]
    ray_data, local_data = json.loads(on_ray.stdout), json.loads(local.stdout)
    [ray_fixed], [local_fixed] = ray_data["groups"], local_data["groups"]
    # Zero spread on both backends: every logged value equal in every run.
    assert ray_fixed["no_variance"] and local_fixed["no_variance"]
    assert ray_fixed["runs"] == local_fixed["runs"] == 2
    # --spread: one run on each node, every run's node and device reported.
    nodes = {run["node"]["node_id"] for run in ray_data["runs"]}
    assert len(nodes) == 2 and None not in nodes
    assert ray_data["execution"]["spread"] and len(ray_data["execution"]["nodes"]) == 2
    assert all(run["node"]["libraries"].get("torch") for run in ray_data["runs"])
    # The records came back into the local session folder, complete.
    for run in ray_data["runs"]:
        _complete(tmp_path / run["run_dir"], "run.json", "trace.main.jsonl", "record.json", "stdout.txt")
    assert ray_seconds < 300


UNSEEDED = "import random\nprint('value', random.random())\n"
SEEDED = "import random\nrandom.seed(3)\nprint('value', random.random())\n"


@pytest.mark.parametrize("working_dir", ["upload", "shared"])
def test_verify_verdicts_equal_the_local_backend(cluster: Cluster, tmp_path: Path, working_dir: str) -> None:
    (tmp_path / "unseeded.py").write_text(UNSEEDED)
    (tmp_path / "seeded.py").write_text(SEEDED)
    ray = ["--backend", "ray", "--address", cluster.address, "--working-dir", working_dir, "--jobs", "2"]
    for script, status in (("seeded.py", 0), ("unseeded.py", 1)):
        local = reprolint(tmp_path, "verify", "--output-format", "json", "--", "python", script)
        on_ray = reprolint(tmp_path, "verify", *ray, "--output-format", "json", "--", "python", script)
        assert local.returncode == on_ray.returncode == status, on_ray.stderr[-3000:]
        data, local_data = json.loads(on_ray.stdout), json.loads(local.stdout)
        assert data["verdict"] == local_data["verdict"]
        assert data["execution"]["working_dir"] == working_dir
        # The run folders came back with what the local backend's hold.
        for run, local_run in zip(data["runs"], local_data["runs"]):
            files = sorted(p.name for p in (tmp_path / local_run["run_dir"]).iterdir())
            assert "stdout.txt" in files
            _complete(tmp_path / run["run_dir"], *files)
            assert (tmp_path / run["run_dir"] / "stdout.txt").read_text().startswith("value ")
    # With record/replay the unseeded script is reproducible on Ray too: run 1's record
    # reached the workers that replayed it.
    replayed = reprolint(tmp_path, "verify", *ray, "--replay", "--runs", "3", "--", "python", "unseeded.py")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr[-3000:]
    assert "REPRODUCIBLE with record/replay: 3 runs" in replayed.stdout


HANGS_ONCE = """
import os, pathlib, sys, time
from reprolint.runtime import metric
seed = int(os.environ["REPROLINT_SEED"])
flag = pathlib.Path(sys.argv[1])
if seed == 1 and not flag.exists():
    pathlib.Path(str(flag) + ".pid").write_text(str(os.getpid()))
    time.sleep(300)
metric("accuracy", 0.5 + seed / 100)
"""


def _ppid(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_killed_worker_is_a_crashed_run_and_resume_reruns_only_it(cluster: Cluster, tmp_path: Path) -> None:
    (tmp_path / "hangs_once.py").write_text(HANGS_ONCE)
    flag = tmp_path / "second-try"
    args = ["variance", "--runs", "2", "--backend", "ray", "--address", cluster.address, "--jobs", "2",
            "--output-format", "json", "--", "python", "hangs_once.py", str(flag)]
    proc = subprocess.Popen([PY, "-m", "reprolint", *args], cwd=tmp_path, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pid_file = Path(str(flag) + ".pid")
    deadline = time.monotonic() + 120
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pid_file.exists(), proc.stderr
    program = int(pid_file.read_text())
    worker = _ppid(_ppid(program))  # the program <- reprolint's guard <- the Ray worker
    assert "ray" in Path(f"/proc/{worker}/cmdline").read_bytes().decode(errors="replace").lower()
    os.kill(worker, signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err[-3000:]
    data = json.loads(out)
    runs = {run["index"]: run for run in data["runs"]}
    assert runs[1]["failure"].startswith("crashed: its Ray worker died"), runs[1]
    assert runs[2]["ok"] and runs[2]["metrics"] == {"accuracy": 0.52}
    # The program went with its worker.
    deadline = time.monotonic() + 10
    while Path(f"/proc/{program}").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not Path(f"/proc/{program}").exists()
    flag.write_text("")  # the second try finishes
    resumed = reprolint(tmp_path, *args[:-4], "--resume", *args[-4:])
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    again = {run["index"]: run for run in json.loads(resumed.stdout)["runs"]}
    assert not again[1]["resumed"] and again[1]["ok"] and again[1]["metrics"] == {"accuracy": 0.51}
    assert again[2]["resumed"]  # kept, not run again


SLEEPS = """
import os, sys, time
open(sys.argv[1] + "." + str(os.getpid()), "w").close()
time.sleep(300)
"""


def test_sigterm_stops_every_run_on_ray(cluster: Cluster, tmp_path: Path) -> None:
    (tmp_path / "sleeps.py").write_text(SLEEPS)
    proc = subprocess.Popen(
        [PY, "-m", "reprolint", "variance", "--runs", "2", "--backend", "ray", "--address", cluster.address,
         "--jobs", "2", "--output-format", "json", "--", "python", "sleeps.py", str(tmp_path / "pid")],
        cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("pid.*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    programs = [int(p.suffix[1:]) for p in tmp_path.glob("pid.*")]
    assert len(programs) == 2, proc.stderr
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err[-3000:]
    data = json.loads(out)
    assert data["verdict"] == "interrupted"
    assert sorted(r["failure"] for r in data["runs"]) == ["interrupted", "interrupted"]
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in programs) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(Path(f"/proc/{pid}").exists() for pid in programs)
