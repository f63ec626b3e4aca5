"""`install()`: one record/replay session per process."""

from __future__ import annotations

import atexit
import os
import secrets
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from reprolint.runtime import _determinism, _hashseed, _seeding, _trace, environment
from reprolint.runtime._entropy import EntropyStream
from reprolint.runtime._imports import when_imported
from reprolint.runtime._record import (
    Draw,
    Record,
    device_names,
    environment_differences,
    new_record,
    read_record,
    write_record,
)

MODES = ("record", "replay", "off")
RUNS_DIR = Path(".reprolint") / "runs"


class ReplayMismatchWarning(UserWarning):
    """The replayed run's environment or draws differ from the record."""


class Session:
    """The state of one `install()`: mode, master seed, entropy stream, record file."""

    def __init__(
        self,
        mode: str,
        master: int,
        deterministic: bool,
        record_path: Optional[Path],
        record: Record,
        replayed: Optional[Record],
        implicit: bool,
        from_harness: bool,
    ) -> None:
        self.mode = mode
        self.master = master
        self.deterministic = deterministic
        self.record_path = record_path
        self.record = record
        self.replayed = replayed
        self.implicit = implicit
        self.from_harness = from_harness
        self.pid = os.getpid()
        self._write_lock = threading.Lock()
        self.stream = EntropyStream(
            master,
            replayed=replayed.draws if replayed is not None else None,
            on_draw=self._on_draw,
            on_missing=self._on_missing,
        )

    def draw(self, api: str, site: Optional[str], bits: int) -> int:
        return self.stream.draw(api, site or "<unknown>", bits)

    def _on_draw(self, draw: Draw) -> None:
        self.record.draws.append(draw)
        # Rewritten at every draw: draws are rare (constructors), and a crashed run
        # then still leaves a complete record behind.
        self.save()

    def _on_missing(self, key: str) -> None:
        _warn_replay(f"the record holds no draw `{key}`; a fresh seed derived from the "
                     "recorded master seed is used (did the program change since it was recorded?)")

    def save(self) -> None:
        if self.record_path is None or self.mode == "off" or os.getpid() != self.pid:
            return
        with self._write_lock:
            if self.mode == "record":
                write_record(self.record, self.record_path)

    def at_exit(self) -> None:
        if os.getpid() != self.pid:
            return
        devices = device_names()
        if devices and not self.record.devices:
            self.record.devices = devices
            if self.replayed is not None and self.replayed.devices and self.replayed.devices != devices:
                _warn_replay(
                    f"devices {self.replayed.devices} were recorded, this run used {devices}"
                )
        self.save()


_session: Optional[Session] = None
_lock = threading.RLock()


def current() -> Optional[Session]:
    return _session


def install(
    seed: Optional[int] = None,
    *,
    deterministic: bool = True,
    mode: Optional[str] = None,
    record_dir: Union[str, "os.PathLike[str]", None] = None,
    patch: bool = False,
    hash_seed: bool = True,
    _implicit: bool = False,
    _from_harness: bool = False,
) -> int:
    """Make this process's randomness recorded (or replayed) and its kernels deterministic.

    Call it once, at the entry point, before the first random draw. `mode` is taken from
    the argument, else `REPROLINT_MODE` (`record`, `replay` or `off`), else `record`.

    * record: the master seed is `seed`, else `REPROLINT_SEED`, else fresh OS entropy
      (recorded, so even an unseeded program can be replayed). Python `random`, NumPy's
      global RNG, torch (CPU and every CUDA device), TensorFlow and Keras are seeded
      with it as they are imported. `np.random.default_rng()`, `random.Random()`,
      `np.random.SeedSequence()`, `np.random.RandomState()` and `torch.seed()` called
      without a seed get seeds derived from it, each recorded in order. The record is
      JSON, written to `REPROLINT_RECORD`, else `<record_dir>/record.json`, else
      `.reprolint/runs/<id>/record.json`; under torchrun each rank writes its own
      (`record.rank<N>.json`).
    * replay: the record is read from the same place (or the newest one under
      `.reprolint/runs/`); its seed and draws are fed back. A different environment
      (versions, platform, devices, flags, PYTHONHASHSEED) is a warning, not an error.
    * off: nothing is seeded or recorded (determinism flags still apply).

    `deterministic=True` turns on `torch.use_deterministic_algorithms(True)`, cuDNN
    deterministic/no benchmark, `CUBLAS_WORKSPACE_CONFIG` (if CUDA is not yet
    initialised, else a warning) and TF op determinism, and warns if PYTHONHASHSEED is
    unset. `patch=True` also replaces, on CUDA tensors, the ops that have no
    deterministic CUDA kernel in the running torch (`reprolint.runtime.patch()`).

    `hash_seed=True` (opt out with `False` or `REPROLINT_HASH_SEED=off`): called at the
    top level of the main module while `PYTHONHASHSEED` is unset, in a program that
    takes an order from a set of strings (what `reprolint check` reports as RPL401), the
    interpreter is executed again, once, with the same command line and
    `PYTHONHASHSEED=0` (what ran before `install()` runs again; the process id stays).
    A program read from stdin cannot be restarted: a warning says what to set.

    Returns the master seed in use (0 in `off` mode).
    """
    global _session
    if not (_implicit or _from_harness) and _session is None:
        _hashseed.maybe_reexec(sys._getframe(1), hash_seed)
    with _lock:
        if _session is not None:
            if _session.from_harness or not _session.implicit:
                if not _session.from_harness:
                    warnings.warn(
                        "reprolint: install() was already called in this process; "
                        "this call is ignored",
                        RuntimeWarning,
                        stacklevel=2,
                    )
                return _session.master
        flags: Dict[str, Any] = {"deterministic": bool(deterministic)}
        inherited = _inherited_session()
        if inherited is not None:
            # A process started by a recorded one (torchrun rank, spawned DataLoader
            # worker, subprocess): same master seed and mode, no record of its own
            # unless it is a distributed rank.
            chosen, master, record_path = inherited
            replayed = _load_replay(record_path, quiet=True) if chosen == "replay" else None
            if replayed is not None:
                master = replayed.seed
        else:
            chosen = _resolve_mode(mode)
            replayed = None
            record_path = _record_path(record_dir, chosen)
            if chosen == "replay":
                replayed = _load_replay(record_path)
                if replayed is None:
                    chosen = "record"
                    record_path = _record_path(record_dir, "record")
            if chosen == "replay":
                assert replayed is not None
                master = replayed.seed
            elif chosen == "record":
                master = _choose_seed(seed)
            else:
                master = 0
        record = new_record(master, flags)
        record.mode = chosen
        # Shared, so that flags applied later (at torch's import) reach the record.
        record.flags = flags
        session = Session(
            chosen, master, bool(deterministic), record_path, record, replayed,
            implicit=_implicit, from_harness=_from_harness,
        )
        _session = session
        _publish_session(chosen, master, record_path)
    if deterministic:
        _determinism.set_cublas_workspace(flags)
        if inherited is None and _determinism.hash_seed_unset():
            # Once, in the main process, at exit (the check costs a parse of the
            # program): only when its results can depend on str hash order.
            atexit.register(_determinism.warn_if_hash_order_matters, _determinism.main_script())
    if chosen != "off":
        import random

        # verify --diagnose seeds one library at a time (REPROLINT_LIBRARIES).
        only = {lib for lib in os.environ.get(environment.LIBRARIES, "").split(",") if lib} if _from_harness else set()

        def wanted(lib: str) -> bool:
            return not only or lib in only

        if wanted("random"):
            _seeding.seed_python(random, master, _draw)
        if wanted("numpy"):
            when_imported("numpy.random", lambda m: _seeding.seed_numpy(m, master, _draw))
        if wanted("torch"):
            when_imported("torch", lambda m: _seeding.seed_torch(m, master, _draw))
        if wanted("tensorflow"):
            when_imported("tensorflow", lambda m: _seeding.seed_tensorflow(m, master))
        if wanted("keras"):
            when_imported("keras", lambda m: _seeding.seed_keras(m, master))
    if deterministic:
        when_imported("torch", lambda m: _determinism.apply_torch(m, flags))
        when_imported("tensorflow", lambda m: _determinism.apply_tensorflow(m, flags))
    if patch:
        when_imported("torch", lambda m: flags.__setitem__("patched_ops", _patch_ops()))
    if replayed is not None:
        for problem in environment_differences(replayed, record):
            _warn_replay(problem)
    session.save()
    atexit.register(session.at_exit)
    return master


def _patch_ops() -> List[str]:
    from reprolint.runtime.patches import patch

    return patch()


def seed(site_id: str) -> int:
    """A seed for one call site (e.g. `"data.py:30"`), derived from the master seed.

    Rewritten call sites use it: `np.random.default_rng(reprolint.runtime.seed("data.py:30"))`.
    The value is recorded, replayed in replay mode, and lies in [0, 2**32) so that every
    seeding API accepts it. Each call at the same site gets the next value of that
    site's sequence. Without a prior `install()`, one runs with its defaults.
    """
    session = _session
    if session is None:
        install(_implicit=True)
        session = _session
        assert session is not None
    if session.mode == "off":
        return 0
    return session.draw("seed", site_id, 32)


def _draw(api: str, site: Optional[str], bits: int) -> int:
    session = _session
    assert session is not None  # patches are installed by install() only
    return session.draw(api, site, bits)


def _resolve_mode(mode: Optional[str]) -> str:
    chosen = mode or os.environ.get(environment.MODE) or "record"
    chosen = chosen.strip().lower()
    if chosen not in MODES:
        raise ValueError(f"reprolint: unknown mode {chosen!r}; expected one of {', '.join(MODES)}")
    return chosen


def _choose_seed(seed: Optional[int]) -> int:
    if seed is not None:
        return int(seed)
    from_env = os.environ.get(environment.SEED)
    if from_env:
        try:
            return int(from_env)
        except ValueError:
            raise ValueError(f"reprolint: REPROLINT_SEED must be an integer, not {from_env!r}") from None
    # 32 bits: short enough to copy into REPROLINT_SEED; every derived seed is hashed.
    return secrets.randbits(32)


def _rank_suffixed(path: Path) -> Path:
    """Every torchrun rank runs install(); each keeps its own record."""
    rank = os.environ.get("RANK")
    if rank is None or os.environ.get("WORLD_SIZE", "1") == "1":
        return path
    return path.with_name(f"{path.stem}.rank{rank}{path.suffix}")


def _record_path(record_dir: Any, mode: str) -> Optional[Path]:
    if mode == "off":
        return None
    from_env = os.environ.get(environment.RECORD)
    if from_env:
        return _rank_suffixed(Path(from_env))
    if record_dir is not None:
        return _rank_suffixed(Path(record_dir) / "record.json")
    if mode == "replay":
        return _newest_record()
    run_id = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    return _rank_suffixed(RUNS_DIR / run_id / "record.json")


def _newest_record() -> Optional[Path]:
    candidates = [p for p in RUNS_DIR.glob("*/record.json")]
    candidates += list(RUNS_DIR.glob("*/run-1/record.json"))
    if not candidates:
        return None
    return _rank_suffixed(max(candidates, key=lambda p: p.stat().st_mtime))


def _load_replay(path: Optional[Path], quiet: bool = False) -> Optional[Record]:
    if path is None or not path.is_file():
        if quiet:
            return None
        _warn_replay(f"no record to replay at {path or RUNS_DIR}; recording a new one instead")
        return None
    try:
        return read_record(path)
    except (OSError, ValueError, TypeError) as exc:
        _warn_replay(f"the record {path} cannot be read ({exc}); recording a new one instead")
        return None


def _warn_replay(message: str) -> None:
    text = f"reprolint replay: {message}"
    warnings.warn(text, ReplayMismatchWarning, stacklevel=3)
    _trace.note_warning(text)


_SESSION_ENV = environment.SESSION


def _publish_session(mode: str, master: int, record_path: Optional[Path]) -> None:
    """Tell child processes which session they belong to (they inherit the environment)."""
    rank = os.environ.get("RANK", "")
    os.environ[_SESSION_ENV] = f"{os.getpid()}:{master}:{mode}:{rank}:{record_path or ''}"


def _inherited_session() -> Optional[Tuple[str, int, Optional[Path]]]:
    """(mode, master seed, record path) of the session this process was started from."""
    value = os.environ.get(_SESSION_ENV)
    if not value:
        return None
    try:
        pid, master, mode, rank, path = value.split(":", 4)
        if int(pid) == os.getpid() or mode not in MODES:
            return None
        master_seed = int(master)
    except ValueError:
        return None
    my_rank = os.environ.get("RANK", "")
    if my_rank and my_rank != rank and path:
        # A distributed rank started by the launcher: it keeps its own record.
        return mode, master_seed, _rank_suffixed(Path(path))
    return mode, master_seed, None
