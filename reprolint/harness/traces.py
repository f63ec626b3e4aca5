"""Read the JSON-lines traces that `reprolint.runtime` writes (one file per process)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

Digest = Tuple[int, Optional[float]]  # (bit-pattern sum: exact, float64 sum: for people)


@dataclass
class StepRecord:
    """The state after one optimizer step."""

    n: int
    optimizer: int
    loss: Optional[float]
    epoch: Optional[int]
    digests: List[Digest]


@dataclass
class TensorSet:
    """Named tensor digests: one `torch.save` call, or one model alive at exit."""

    label: str  # the file saved to, or the model's class
    names: List[str]
    digests: List[Digest]


@dataclass
class ProcessTrace:
    """Everything one process of one run traced."""

    name: str
    names: Dict[int, List[str]] = field(default_factory=dict)
    initial: Dict[int, List[Digest]] = field(default_factory=dict)
    steps: List[StepRecord] = field(default_factory=list)
    traces: List[Tuple[Any, Dict[str, Any]]] = field(default_factory=list)
    metrics: List[Tuple[str, Any]] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    saved: List[TensorSet] = field(default_factory=list)
    models: List[TensorSet] = field(default_factory=list)
    # The program's own seeding calls after install(): (library, api, value, "file:line").
    seedings: List[Tuple[str, str, Any, Optional[str]]] = field(default_factory=list)

    def tensor_name(self, optimizer: int, index: int) -> str:
        names = self.names.get(optimizer, [])
        name = names[index] if index < len(names) else f"param{index}"
        return name if len(self.names) <= 1 else f"optimizer{optimizer}:{name}"


def parse_trace(name: str, lines: List[str]) -> ProcessTrace:
    """Build a ProcessTrace; a line cut short by a crash, or one that is not a record
    of the runtime's shape (written by the program, a field of the wrong type), is
    skipped (the latter counted in a warning), never an error."""
    trace = ProcessTrace(name)
    malformed = 0
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue  # cut short by a crash (or not JSON at all): as before, silently
        try:
            _add_record(trace, rec)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            malformed += 1
    if malformed:
        trace.warnings.append(f"{malformed} malformed line{'s' if malformed != 1 else ''} in the trace of {name} ignored")
    return trace


def _number_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _add_record(trace: ProcessTrace, rec: Any) -> None:
    """One trace record into `trace` (raises on a record of the wrong shape)."""
    if not isinstance(rec, dict):
        raise TypeError("not a record")
    kind = rec.get("k")
    if kind == "optimizer":
        trace.names[rec["opt"]] = list(rec.get("names", []))
    elif kind == "init":
        trace.initial.setdefault(rec["opt"], [tuple(d) for d in rec["d"]])  # type: ignore[misc]
    elif kind == "step":
        if not isinstance(rec["n"], int) or not _number_or_none(rec.get("loss")) or not isinstance(rec["d"], list):
            raise TypeError("not a step record")
        trace.steps.append(
            StepRecord(
                n=rec["n"],
                optimizer=rec.get("opt", 0),
                loss=rec.get("loss"),
                epoch=rec.get("epoch"),
                digests=[tuple(d) for d in rec["d"]],  # type: ignore[misc]
            )
        )
    elif kind == "trace":
        trace.traces.append((rec.get("step"), rec.get("values", {})))
    elif kind == "metric":
        trace.metrics.append((rec["name"], rec.get("value")))
    elif kind in ("saved", "model"):
        found = TensorSet(
            str(rec.get("file") if kind == "saved" else rec.get("name")),
            [str(n) for n in rec.get("names", [])],
            [tuple(d) for d in rec.get("d", [])],  # type: ignore[misc]
        )
        (trace.saved if kind == "saved" else trace.models).append(found)
    elif kind == "seeding":
        trace.seedings.append(
            (str(rec.get("library")), str(rec.get("api")), rec.get("value"), rec.get("site"))
        )
    elif kind == "warning":
        trace.warnings.append(rec.get("message", ""))


def load_run(run_dir: Path) -> Dict[str, ProcessTrace]:
    """The traces of one run, by process name (`main`, `rank0`, ...)."""
    traces = {}
    for path in sorted(run_dir.glob("trace.*.jsonl")):
        name = path.name[len("trace."):-len(".jsonl")]
        with open(path, encoding="utf-8", errors="replace") as f:
            traces[name] = parse_trace(name, f.read().splitlines())
    return traces


class LiveTrace:
    """Follows the main process's trace while it is written: steps so far, last loss.

    Reads only what was appended since the last poll; a line still being written is
    kept for the next poll.
    """

    def __init__(self, run_dir: Path, process: str = "main") -> None:
        self.path = run_dir / f"trace.{process}.jsonl"
        self.offset = 0
        self.partial = b""
        self.steps = 0
        self.loss: Optional[float] = None

    def poll(self) -> Tuple[int, Optional[float]]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read(1 << 20)
        except OSError:
            return self.steps, self.loss
        self.offset += len(data)
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            if not line.startswith(b'{"k":"step"'):
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            self.steps += 1
            if record.get("loss") is not None:
                self.loss = record["loss"]
        return self.steps, self.loss
