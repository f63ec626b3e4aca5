"""The record file: seed, entropy draws and the environment they were taken in (JSON)."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from reprolint._atomic import write_atomic

FORMAT_VERSION = 1

# Distributions whose version decides the random streams and kernels. Read from package
# metadata, so that recording them never imports the library itself.
TRACKED_DISTRIBUTIONS = ("torch", "numpy", "tensorflow", "keras", "jax", "jaxlib")


@dataclass
class Draw:
    """One value fed to an entropy-seeded constructor (or to `seed(site_id)`)."""

    index: int
    api: str
    site: str
    key: str
    value: int


@dataclass
class Record:
    """What `install()` recorded: enough to feed the same randomness back in replay."""

    seed: int
    mode: str = "record"
    format: int = FORMAT_VERSION
    created: str = ""
    argv: List[str] = field(default_factory=list)
    python: str = ""
    platform: str = ""
    python_hash_seed: Optional[str] = None
    libraries: Dict[str, str] = field(default_factory=dict)
    devices: List[str] = field(default_factory=list)
    flags: Dict[str, Any] = field(default_factory=dict)
    draws: List[Draw] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Record":
        data = json.loads(text)
        draws = [Draw(**d) for d in data.pop("draws", [])]
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(draws=draws, **known)


def library_versions() -> Dict[str, str]:
    """Versions of the installed libraries that decide random streams and kernels."""
    from importlib import metadata

    versions = {}
    for name in TRACKED_DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def device_names() -> List[str]:
    """Accelerator names, read only when CUDA is already initialised.

    Initialising CUDA ourselves would cost time, break forked DataLoader workers and
    happen before the program set CUBLAS_WORKSPACE_CONFIG, so otherwise this is empty
    and is filled in at exit.
    """
    torch = sys.modules.get("torch")
    if torch is None:
        return []
    try:
        if not torch.cuda.is_initialized():
            return []
        return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    except Exception:  # a broken driver must not stop the program
        return []


def new_record(seed: int, flags: Dict[str, Any]) -> Record:
    """A record of the current environment, with no draws yet."""
    return Record(
        seed=seed,
        created=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        argv=list(sys.argv),
        python=platform.python_version(),
        platform=platform.platform(),
        python_hash_seed=os.environ.get("PYTHONHASHSEED"),
        libraries=library_versions(),
        devices=device_names(),
        flags=dict(flags),
    )


def write_record(record: Record, path: Path) -> None:
    """Write atomically (temp file + rename): a crash never leaves half a record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, record.to_json().encode("utf-8"), prefix=".record-", suffix=".json")


def read_record(path: Path) -> Record:
    return Record.from_json(path.read_text(encoding="utf-8"))


def environment_differences(recorded: Record, current: Record) -> List[str]:
    """Human-readable differences that may make a replay diverge from its record."""
    problems = []
    if recorded.python != current.python:
        problems.append(f"Python {recorded.python} was recorded, this is {current.python}")
    if recorded.platform != current.platform:
        problems.append(f"platform {recorded.platform!r} was recorded, this is {current.platform!r}")
    for name in sorted(set(recorded.libraries) | set(current.libraries)):
        old, new = recorded.libraries.get(name), current.libraries.get(name)
        if old != new:
            problems.append(
                f"{name} {old or 'absent'} was recorded, this is {new or 'absent'}"
            )
    if recorded.python_hash_seed != current.python_hash_seed:
        problems.append(
            f"PYTHONHASHSEED was {recorded.python_hash_seed or 'unset'} in the record and is "
            f"{current.python_hash_seed or 'unset'} now (set and str iteration order may differ)"
        )
    if recorded.flags.get("deterministic") != current.flags.get("deterministic"):
        problems.append(
            f"deterministic={recorded.flags.get('deterministic')} was recorded, "
            f"this run uses deterministic={current.flags.get('deterministic')}"
        )
    if recorded.devices and current.devices and recorded.devices != current.devices:
        problems.append(f"devices {recorded.devices} were recorded, this run has {current.devices}")
    return problems
