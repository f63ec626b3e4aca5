"""Compare the traces of two runs: Chen et al.'s criteria plus parameters per step.

Pure functions over parsed traces; nothing here runs a program or prints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from reprolint.harness.traces import Digest, ProcessTrace, StepRecord, TensorSet


@dataclass
class TensorDelta:
    """A tensor whose digest differs; the sums say by how much, roughly."""

    name: str
    sum_a: Optional[float]
    sum_b: Optional[float]


@dataclass
class Divergence:
    """The first point where two runs differ. Step 0 means the initial parameters."""

    step: int
    epoch: Optional[int]
    what: str  # "initial parameters" | "parameters" | "loss" | "step count"
    tensors: List[TensorDelta] = field(default_factory=list)
    loss_a: Optional[float] = None
    loss_b: Optional[float] = None


@dataclass
class EpochLoss:
    epoch: int
    mean_a: Optional[float]
    mean_b: Optional[float]
    equal: bool


@dataclass
class LossComparison:
    steps: int  # steps compared (the shorter run)
    identical_prefix: int  # steps with equal loss before the first difference
    differing: int
    first_a: Optional[float] = None
    first_b: Optional[float] = None
    epochs: List[EpochLoss] = field(default_factory=list)


@dataclass
class ValueComparison:
    """A logged metric or traced value, compared exactly."""

    name: str
    equal: bool
    summary: str
    differing: int = 0
    total: int = 1


@dataclass
class TensorSetComparison:
    """One `torch.save` call (or one model alive at exit) of run 1 against run k's."""

    kind: str  # "saved" | "model"
    label: str  # the file (saved) or the model's class
    index: int  # 1-based: the n-th save of the run
    tensors: int
    equal: bool
    differing: List[TensorDelta] = field(default_factory=list)
    missing: bool = False  # the other run did not save it / has no such model


@dataclass
class ProcessComparison:
    """Run 1 against run k, for one process (`main`, `rank0`...)."""

    process: str
    steps_a: int
    steps_b: int
    tensors: int
    divergence: Optional[Divergence]
    loss: LossComparison
    metrics: List[ValueComparison] = field(default_factory=list)
    traces: List[ValueComparison] = field(default_factory=list)
    saved: List[TensorSetComparison] = field(default_factory=list)
    models: List[TensorSetComparison] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return (
            self.divergence is None
            and all(m.equal for m in self.metrics)
            and all(t.equal for t in self.traces)
            and all(s.equal for s in self.saved)
            and all(m.equal for m in self.models)
        )

    @property
    def evidence(self) -> int:
        """How many things were compared (0: nothing was traced in this process)."""
        return (
            self.steps_a + self.tensors + len(self.metrics) + len(self.traces)
            + len(self.saved) + len(self.models)
        )


def same_float(a: Optional[float], b: Optional[float]) -> bool:
    """Exact equality, where NaN equals NaN (a NaN loss in both runs is reproduced)."""
    if a is None or b is None:
        return a is b
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def same_value(a: Any, b: Any) -> bool:
    """Deep exact equality of JSON values (floats compared exactly, NaN == NaN)."""
    if isinstance(a, float) and isinstance(b, float):
        return same_float(a, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _differing_tensors(
    trace: ProcessTrace, optimizer: int, a: List[Digest], b: List[Digest]
) -> List[TensorDelta]:
    deltas = []
    for i, (da, db) in enumerate(zip(a, b)):
        if da[0] != db[0]:  # the exact bit-pattern digest decides
            deltas.append(TensorDelta(trace.tensor_name(optimizer, i), da[1], db[1]))
    if len(a) != len(b):
        deltas.append(TensorDelta(f"({len(a)} tensors vs {len(b)})", None, None))
    return deltas


def _epoch_losses(a: List[StepRecord], b: List[StepRecord]) -> List[EpochLoss]:
    def by_epoch(steps: List[StepRecord]) -> Dict[int, List[float]]:
        out: Dict[int, List[float]] = {}
        for s in steps:
            if s.epoch is not None and s.loss is not None:
                out.setdefault(s.epoch, []).append(s.loss)
        return out

    ea, eb = by_epoch(a), by_epoch(b)
    epochs = []
    for epoch in sorted(set(ea) | set(eb)):
        la, lb = ea.get(epoch), eb.get(epoch)
        mean_a = sum(la) / len(la) if la else None
        mean_b = sum(lb) / len(lb) if lb else None
        equal = la is not None and lb is not None and len(la) == len(lb) and all(
            same_float(x, y) for x, y in zip(la, lb)
        )
        epochs.append(EpochLoss(epoch, mean_a, mean_b, equal))
    return epochs


def compare_losses(a: List[StepRecord], b: List[StepRecord]) -> LossComparison:
    """Loss per step (exact) and per epoch (all of the epoch's losses equal)."""
    steps = min(len(a), len(b))
    prefix = 0
    while prefix < steps and same_float(a[prefix].loss, b[prefix].loss):
        prefix += 1
    differing = sum(1 for x, y in zip(a, b) if not same_float(x.loss, y.loss))
    result = LossComparison(steps=steps, identical_prefix=prefix, differing=differing)
    if prefix < steps:
        result.first_a, result.first_b = a[prefix].loss, b[prefix].loss
    result.epochs = _epoch_losses(a, b)
    return result


def first_divergence(a: ProcessTrace, b: ProcessTrace) -> Optional[Divergence]:
    """Initial parameters, then per step: the loss of the step, then the parameters after it."""
    for optimizer in sorted(set(a.initial) | set(b.initial)):
        ia, ib = a.initial.get(optimizer, []), b.initial.get(optimizer, [])
        tensors = _differing_tensors(a, optimizer, ia, ib)
        if tensors:
            return Divergence(0, None, "initial parameters", tensors)
    for sa, sb in zip(a.steps, b.steps):
        if not same_float(sa.loss, sb.loss):
            tensors = _differing_tensors(a, sa.optimizer, sa.digests, sb.digests)
            return Divergence(sa.n, sa.epoch, "loss", tensors, sa.loss, sb.loss)
        tensors = _differing_tensors(a, sa.optimizer, sa.digests, sb.digests)
        if tensors or sa.optimizer != sb.optimizer:
            return Divergence(sa.n, sa.epoch, "parameters", tensors, sa.loss, sb.loss)
    if len(a.steps) != len(b.steps):
        n = min(len(a.steps), len(b.steps)) + 1
        return Divergence(n, None, "step count")
    return None


def _describe(a: Any, b: Any) -> Tuple[str, int, int]:
    """A short summary of how two logged values differ: (text, differing, total)."""
    if isinstance(a, list) and isinstance(b, list):
        total = max(len(a), len(b))
        differing = sum(1 for x, y in zip(a, b) if not same_value(x, y)) + abs(len(a) - len(b))
        if differing == 0:
            return f"{total} values identical", 0, total
        return f"{differing} of {total} differ", differing, total
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        differing_keys = [k for k in keys if not same_value(a.get(k), b.get(k))]
        if not differing_keys:
            return f"{len(keys)} values identical", 0, len(keys)
        shown = ", ".join(differing_keys[:5]) + (", ..." if len(differing_keys) > 5 else "")
        return f"{len(differing_keys)} of {len(keys)} differ ({shown})", len(differing_keys), len(keys)
    if same_value(a, b):
        return f"{_short(a)} in both", 0, 1
    return f"{_short(a)} vs {_short(b)}", 1, 1


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def compare_values(
    a: List[Tuple[str, Any]], b: List[Tuple[str, Any]]
) -> List[ValueComparison]:
    """Compare logged values by name, in the order they were logged."""
    series_a: Dict[str, List[Any]] = {}
    series_b: Dict[str, List[Any]] = {}
    for name, value in a:
        series_a.setdefault(name, []).append(value)
    for name, value in b:
        series_b.setdefault(name, []).append(value)
    results = []
    for name in list(dict.fromkeys([n for n, _ in a] + [n for n, _ in b])):
        va, vb = series_a.get(name, []), series_b.get(name, [])
        if len(va) != len(vb):
            results.append(
                ValueComparison(name, False, f"logged {len(va)} times vs {len(vb)}", 1, 1)
            )
            continue
        # Report the first logging of the value that differs (e.g. the first epoch).
        for index, (x, y) in enumerate(zip(va, vb)):
            text, differing, total = _describe(x, y)
            if differing:
                where = f" (logging {index + 1} of {len(va)})" if len(va) > 1 else ""
                results.append(ValueComparison(name, False, text + where, differing, total))
                break
        else:
            text, _, total = _describe(va[-1], vb[-1])
            results.append(ValueComparison(name, True, text, 0, total))
    return results


def compare_traced(
    a: List[Tuple[Any, Dict[str, Any]]], b: List[Tuple[Any, Dict[str, Any]]]
) -> List[ValueComparison]:
    """Values logged with `trace(step, **values)`: each name's series, step by step."""
    def series(records: List[Tuple[Any, Dict[str, Any]]]) -> Dict[str, List[Tuple[Any, Any]]]:
        out: Dict[str, List[Tuple[Any, Any]]] = {}
        for step, values in records:
            for key, value in values.items():
                out.setdefault(key, []).append((step, value))
        return out

    sa, sb = series(a), series(b)
    results = []
    for name in list(dict.fromkeys(list(sa) + list(sb))):
        xa, xb = sa.get(name, []), sb.get(name, [])
        for (step_a, va), (step_b, vb) in zip(xa, xb):
            if step_a != step_b or not same_value(va, vb):
                text, differing, total = _describe(va, vb)
                results.append(
                    ValueComparison(name, False, f"differs from step {step_a}: {text}", differing, total)
                )
                break
        else:
            if len(xa) != len(xb):
                results.append(
                    ValueComparison(name, False, f"traced at {len(xa)} steps vs {len(xb)}", 1, 1)
                )
            else:
                results.append(ValueComparison(name, True, f"identical at {len(xa)} step{'s' if len(xa) != 1 else ''}", 0, len(xa)))
    return results


def compare_tensor_sets(kind: str, a: List[TensorSet], b: List[TensorSet]) -> List[TensorSetComparison]:
    """The n-th set of run 1 against the n-th of run k (file names may hold a date)."""
    results = []
    for index in range(max(len(a), len(b))):
        if index >= len(a) or index >= len(b):
            present = (a if index < len(a) else b)[index]
            results.append(TensorSetComparison(kind, present.label, index + 1, len(present.names), False, missing=True))
            continue
        x, y = a[index], b[index]
        deltas = []
        for i, (da, db) in enumerate(zip(x.digests, y.digests)):
            if da[0] != db[0]:
                name = x.names[i] if i < len(x.names) else f"tensor{i}"
                deltas.append(TensorDelta(name, da[1], db[1]))
        if len(x.digests) != len(y.digests) or x.names != y.names:
            deltas.append(TensorDelta(f"({len(x.digests)} tensors vs {len(y.digests)})", None, None))
        results.append(TensorSetComparison(kind, x.label, index + 1, len(x.names), not deltas, deltas))
    return results


def compare_process(a: ProcessTrace, b: ProcessTrace) -> ProcessComparison:
    """Run 1's trace of one process against run k's."""
    return ProcessComparison(
        process=a.name,
        steps_a=len(a.steps),
        steps_b=len(b.steps),
        tensors=sum(len(v) for v in a.names.values()),
        divergence=first_divergence(a, b),
        loss=compare_losses(a.steps, b.steps),
        metrics=compare_values(a.metrics, b.metrics),
        traces=compare_traced(a.traces, b.traces),
        saved=compare_tensor_sets("saved", a.saved, b.saved),
        models=compare_tensor_sets("model", a.models, b.models),
    )
