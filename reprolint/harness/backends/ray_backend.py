"""`--backend ray`: every run is a Ray task; the command still runs as its own process.

* The task starts the command through `_guard.py` (see there), with the environment the
  harness would give it here, rebuilt on the worker around the worker's own reprolint
  (its injected `sitecustomize`), so record/replay, traces and artifacts work as here.
* Files: when every node sees this working directory at the same path (a shared file
  system, or one machine), the runs read and write it in place (`shared`); otherwise
  the working directory and reprolint travel with each task as Ray's runtime
  environment (`working_dir`, `py_modules`), and the run's records come back as an
  archive into the local session folder (`upload`). `auto` asks every node first.
* `--spread` pins run k to node k mod n (node affinity, hard), so that n nodes each get
  their share of the runs and runs share a node only when there are more runs than nodes.
* Ray is imported here only, and only when the backend is asked for.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import shutil
import socket
import sys
import tarfile
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import reprolint
from reprolint.harness import process as _process
from reprolint.harness.backends import (
    BackendUnavailable, EndFn, Execution, ExecutionOptions, RunTask, StartFn, max_overlap,
)
from reprolint.harness.backends.nodeinfo import node_label

EXTRA_HINT = "the Ray backend needs Ray: pip install 'reprolint[ray]'"
GUARD = Path(__file__).resolve().parent / "_guard.py"
PROBE_FILE = ".backend-probe"
# Never shipped with the working directory (Ray also leaves out what .gitignore names).
UPLOAD_EXCLUDES = [".git", ".venv", ".venv-*", ".reprolint", "__pycache__", "*.pyc"]
# Set by the harness around the worker's reprolint, never copied from this machine.
_WORKER_OWN = ("PYTHONPATH", "REPROLINT_HOME")
_POLL = 0.25
_CANCEL_WAIT = 30.0  # seconds


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendUnavailable(EXTRA_HINT) from None
    return ray


def _ray_options(resources: Dict[str, float]) -> Dict[str, Any]:
    options: Dict[str, Any] = {"max_retries": 0}
    custom = {}
    for name, amount in resources.items():
        if name in ("num_cpus", "num_gpus", "memory"):
            options[name] = amount
        else:
            custom[name] = amount
    if custom:
        options["resources"] = custom
    return options


def _fits(node: Dict[str, Any], resources: Dict[str, float]) -> bool:
    have = node.get("Resources", {})
    names = {"num_cpus": "CPU", "num_gpus": "GPU", "memory": "memory"}
    return all(have.get(names.get(k, k), 0.0) >= v for k, v in resources.items() if v > 0)


class RayExecutor:
    def __init__(self, options: ExecutionOptions, session_root: Path) -> None:
        self.ray = import_ray()
        self.options = options
        self.root = session_root.resolve()
        self.cwd = os.getcwd()
        self.execution = Execution("ray", max(1, options.jobs), spread=options.spread, address=options.address)
        self._started_here = False
        # Ray's driver prints the cluster's error messages ("a worker died") on stdout,
        # where the report (maybe JSON) goes: onto stderr with them while Ray is joined.
        self._stdout = sys.stdout
        sys.stdout = sys.stderr
        try:
            self._connect()
        except BaseException:
            self.close()
            raise
        self._remote = self.ray.remote(_run_on_worker)
        self._intervals: Dict[str, List[Tuple[float, float]]] = {}
        self._submitted = 0

    def _connect(self) -> None:
        """Join (or start) Ray, find the nodes that fit a run, decide how files travel."""
        options = self.options
        self._init(upload=options.working_dir == "upload")
        self.nodes = sorted(
            (n for n in self.ray.nodes() if n.get("Alive") and _fits(n, options.run_resources)),
            key=lambda n: (not n.get("Resources", {}).get("node:__internal_head__"), n["NodeID"]),
        )
        if not self.nodes:
            raise BackendUnavailable(f"no node of the Ray cluster has the resources a run asks for ({_text(options.run_resources)})")
        self.files = options.working_dir if options.working_dir != "auto" else self._probe()
        if self.files == "upload" and options.working_dir == "auto":
            # Ray uploads local folders only for a whole job (ray.init), not per task.
            self._disconnect()
            self._init(upload=True)
        self.execution.working_dir = self.files

    def _init(self, upload: bool) -> None:
        if self.ray.is_initialized():
            if upload:  # a Ray the caller set up: its runtime environment stays theirs
                raise BackendUnavailable("--working-dir upload needs a Ray that reprolint starts or joins itself")
            return
        check_reachable(self.options.address)
        try:
            self.ray.init(
                address=self.options.address, include_dashboard=False, log_to_driver=False,
                logging_level="error", configure_logging=True,
                runtime_env=self._upload_env() if upload else None,
            )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.options.address or os.environ.get("RAY_ADDRESS") or "a new local Ray"
            raise BackendUnavailable(f"cannot start or join Ray ({where}): {exc}") from None
        self._started_here = True

    # -- where the files are -----------------------------------------------------------

    def _probe(self) -> str:
        """`shared` when every node sees this session folder at the same path."""
        token = secrets.token_hex(8)
        probe = self.root / PROBE_FILE
        probe.write_text(token, encoding="utf-8")
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        check = self.ray.remote(_sees_file)
        refs = [
            check.options(num_cpus=0, max_retries=0,
                          scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
                          ).remote(str(probe), token)
            for n in self.nodes
        ]
        try:
            seen = self.ray.get(refs, timeout=120)
        except Exception:  # a node that cannot answer cannot be trusted to share files
            seen = [False]
        finally:
            probe.unlink(missing_ok=True)
        return "shared" if all(seen) else "upload"

    def _upload_env(self) -> Dict[str, Any]:
        """The runtime environment of an upload: a staged copy of the project's regular
        files (Ray would follow links out of the project), and reprolint itself."""
        from reprolint.harness.backends.upload import stage_project

        staging = Path(tempfile.mkdtemp(prefix="reprolint-upload-"))
        self._staging = getattr(self, "_staging", []) + [staging]
        skipped = stage_project(Path(self.cwd), staging, UPLOAD_EXCLUDES)
        if skipped:
            shown = ", ".join(skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5 else "")
            sys.stderr.write(
                f"reprolint: warning: --working-dir upload ships regular files only; "
                f"{len(skipped)} symbolic link{'s' if len(skipped) != 1 else ''} left out: {shown}\n"
            )
        return {
            "working_dir": str(staging),
            "excludes": UPLOAD_EXCLUDES,
            "py_modules": [str(Path(reprolint.__file__).resolve().parent)],
        }

    # -- running -----------------------------------------------------------------------

    def _submit(self, task: RunTask) -> Any:
        options = _ray_options(self.options.run_resources)
        if self.options.spread:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            node = self.nodes[self._submitted % len(self.nodes)]
            options["scheduling_strategy"] = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
        self._submitted += 1
        payload = {
            "files": self.files,
            "cwd": self.cwd,
            "root": str(self.root),
            "key": task.key,
            "index": task.index,
            "command": list(task.command),
            "env": _env_delta(task.env),
            "artifacts": list(task.artifacts),
            "timeout": task.timeout,
            "inputs": {key: (self.root / key).read_bytes() for key in task.inputs
                       if self.files == "upload" and (self.root / key).is_file()},
        }
        return self._remote.options(**options).remote(payload)

    def run(self, tasks: Sequence[RunTask], on_start: StartFn, on_end: EndFn) -> List[Any]:
        from reprolint.harness.verify import RunOutcome

        queue = list(enumerate(tasks))
        running: Dict[Any, Tuple[int, RunTask]] = {}
        outcomes: Dict[int, Any] = {}

        def finish(position: int, task: RunTask, outcome: Any) -> None:
            outcomes[position] = outcome
            on_end(task, outcome)

        try:
            while queue or running:
                while queue and len(running) < self.execution.jobs:
                    position, task = queue.pop(0)
                    on_start(task)
                    running[self._submit(task)] = (position, task)
                ready, _ = self.ray.wait(list(running), num_returns=1, timeout=_POLL)
                for ref in ready:
                    position, task = running.pop(ref)
                    finish(position, task, self._collect(ref, task, RunOutcome))
        except KeyboardInterrupt as exc:
            for ref in running:
                self.ray.cancel(ref, force=True)  # kills the worker; the guard then stops the command
            # Cancelling is a message: wait until it has been acted on before leaving Ray.
            with contextlib.suppress(Exception):
                self.ray.wait(list(running), num_returns=len(running), timeout=_CANCEL_WAIT)
            for ref, (position, task) in running.items():
                outcome = RunOutcome(task.index, str(task.run_dir), interrupted=True)
                finish(position, task, outcome)
            exc.outcomes = [outcomes[i] for i in sorted(outcomes)]  # type: ignore[attr-defined]
            self._account(exc.outcomes)
            raise
        ordered = [outcomes[i] for i in sorted(outcomes)]
        self._account(ordered)
        return ordered

    def _collect(self, ref: Any, task: RunTask, outcome_type: Any) -> Any:
        """The run's outcome, with its records unpacked into the local session folder."""
        try:
            reply = self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            outcome = outcome_type(task.index, str(task.run_dir))
            outcome.crashed = _crash_reason(exc)
            task.run_dir.mkdir(parents=True, exist_ok=True)
            # With a shared working directory the program's output so far is here.
            outcome.stderr_tail = _process.tail(task.run_dir / "stderr.txt")
            return outcome
        data = reply["outcome"]
        started, ended = data.pop("_started"), data.pop("_ended")
        outcome = outcome_type(**data)
        outcome.run_dir = str(task.run_dir)
        if reply.get("archive") is not None:
            _unpack(reply["archive"], task.run_dir)
        label = node_label(outcome.node)
        self._intervals.setdefault(label, []).append((started, ended))
        return outcome

    def _account(self, outcomes: Sequence[Any]) -> None:
        overlap = max((max_overlap(v) for v in self._intervals.values()), default=0)
        self.execution.max_concurrent = max(self.execution.max_concurrent, overlap)
        for outcome in outcomes:
            if outcome.node:
                label = node_label(outcome.node)
                if label not in self.execution.nodes:
                    self.execution.nodes.append(label)

    def _disconnect(self) -> None:
        # Disconnects from a cluster it joined; stops the Ray it started here.
        if self._started_here and self.ray.is_initialized():
            self.ray.shutdown()
        self._started_here = False

    def close(self) -> None:
        self._disconnect()
        for staging in getattr(self, "_staging", []):
            shutil.rmtree(staging, ignore_errors=True)
        if sys.stdout is sys.stderr:
            sys.stdout = self._stdout


CONNECT_TIMEOUT = 10.0  # seconds to reach a cluster's address before giving up


def check_reachable(address: Optional[str], timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise BackendUnavailable unless something answers at `address` (`host:port` or
    `ray://host:port`) within `timeout` seconds: `ray.init` retries a dead address for
    many minutes, and ignores SIGTERM meanwhile. `auto`, `local` and no address (a new
    local Ray, or RAY_ADDRESS) are left to Ray."""
    if not address or address in ("auto", "local"):
        return
    target = address.split("://", 1)[1] if "://" in address else address
    host, _, port = target.rstrip("/").rpartition(":")
    if not host or not port.isdigit():
        return  # not host:port: Ray says what it makes of it
    host = host.strip("[]")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = "timed out" if isinstance(exc, socket.timeout) else (exc.strerror or str(exc))
        raise BackendUnavailable(
            f"cannot join Ray at {address}: nothing answers there within {timeout:g} s ({reason}); "
            "start the cluster (`ray start --head`) or check --address"
        ) from None


def _text(resources: Dict[str, float]) -> str:
    return ",".join(f"{k}={v:g}" for k, v in resources.items())


def _crash_reason(exc: BaseException) -> str:
    name = type(exc).__name__
    if name in ("WorkerCrashedError", "NodeDiedError", "LocalRayletDiedError"):
        return f"its Ray worker died while the command ran ({name}); the command was stopped with it"
    if name == "TaskCancelledError":
        return "its Ray task was cancelled"
    first = str(exc).strip().splitlines()
    return f"the Ray task failed ({name}: {first[-1] if first else ''})"


def _env_delta(env: Dict[str, str]) -> Dict[str, Optional[str]]:
    """What the harness changed in this machine's environment: set there on the worker.
    None: unset."""
    delta: Dict[str, Optional[str]] = {
        k: v for k, v in env.items() if os.environ.get(k) != v and k not in _WORKER_OWN
    }
    for name in os.environ:
        if name not in env:
            delta[name] = None
    return delta


def _pack(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(folder, arcname=".")
    return buffer.getvalue()


def _unpack(archive: bytes, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(folder, filter="data")


# -- on the worker ------------------------------------------------------------------------


def _sees_file(path: str, token: str) -> bool:
    try:
        return Path(path).read_text(encoding="utf-8") == token
    except OSError:
        return False


def _run_on_worker(payload: Dict[str, Any]) -> Dict[str, Any]:
    """One run, inside a Ray task: the command in its own process, its records packed."""
    import ray

    from reprolint.harness.backends.nodeinfo import describe
    from reprolint.harness.verify import run_once

    driver_root = payload["root"]
    scratch: Optional[Path] = None
    if payload["files"] == "shared":
        os.chdir(payload["cwd"])
        root = Path(driver_root)
    else:  # in Ray's copy of the working directory; records in a scratch folder
        scratch = Path(tempfile.mkdtemp(prefix="reprolint-run-"))
        root = scratch / "session"
        for key, data in payload["inputs"].items():
            (root / key).parent.mkdir(parents=True, exist_ok=True)
            (root / key).write_bytes(data)
    run_dir = root / payload["key"]
    run_dir.mkdir(parents=True, exist_ok=True)
    env = _process.harness_env(dict(os.environ))
    for name, value in payload["env"].items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value.replace(driver_root, str(root))
    command = [sys.executable, "-S", str(GUARD), str(os.getpid()), "--", *payload["command"]]
    started = time.time()
    try:
        outcome = run_once(command, payload["index"], run_dir, env, payload["artifacts"], payload["timeout"])
        outcome.node = describe(env, ray.get_runtime_context().get_node_id())
        data = asdict(outcome)
        data["_started"], data["_ended"] = started, time.time()
        archive = _pack(run_dir) if scratch is not None else None
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return {"outcome": data, "archive": archive}
