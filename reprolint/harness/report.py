"""Render a VerifyResult: text for people (rich), JSON for tools."""

from __future__ import annotations

import json
from typing import List, Optional

from rich.console import Console
from rich.markup import escape

from reprolint.harness.artifacts import summarize
from reprolint.harness.compare import Divergence, ProcessComparison, TensorDelta, TensorSetComparison
from reprolint.harness.verify import RunComparison, RunOutcome, VerifyResult

MAX_TENSORS_SHOWN = 3


def render_json(result: VerifyResult) -> str:
    return json.dumps(result.to_dict(), indent=2, default=str)


def _execution(result: VerifyResult, console: Console) -> None:
    """--jobs / --backend: how the runs ran, where, and whether differences follow the node."""
    from reprolint.harness.backends.report_lines import execution_lines

    labels = [f"run {r.index}" for r in result.runs]
    for line in execution_lines(result.execution, result.runs, labels, result.node_note):
        console.print(f"  {escape(line)}", highlight=False)
    if result.plot:
        console.print(f"plot: {result.plot}", highlight=False)


def run_line(run: RunOutcome, total: int) -> str:
    """`run 1/2  ✓ 3.1 s` (or ✗ and why)."""
    if run.ok:
        return f"run {run.index}/{total}  [green]✓[/] {run.seconds:.1f} s"
    return f"run {run.index}/{total}  [red]✗[/] {escape(run.failure())}"


def _fmt(value: Optional[float]) -> str:
    return "—" if value is None else f"{value:.6g}"


def _pair(a: float, b: float) -> str:
    """`a vs b` with as many digits as it takes to tell them apart."""
    for digits in (6, 10, 17):
        left, right = f"{a:.{digits}g}", f"{b:.{digits}g}"
        if left != right:
            break
    return f"{left} vs {right}"


def _loss_pair(a: Optional[float], b: Optional[float]) -> str:
    if a is None or b is None:
        return f"{_fmt(a)} vs {_fmt(b)}"
    return _pair(a, b)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _tensors(div: Divergence) -> str:
    return _tensor_list(div.tensors)


def _tensor_list(tensors: List[TensorDelta]) -> str:
    parts = []
    for t in tensors[:MAX_TENSORS_SHOWN]:
        if t.sum_a is not None and t.sum_b is not None:
            parts.append(f"{t.name} (Σ {_pair(t.sum_a, t.sum_b)})")
        else:
            parts.append(t.name)
    more = len(tensors) - MAX_TENSORS_SHOWN
    if more > 0:
        parts.append(f"+{more} more")
    return ", ".join(parts)


def divergence_sentence(div: Divergence) -> str:
    epoch = f" (epoch {div.epoch})" if div.epoch is not None else ""
    if div.what == "initial parameters":
        return "runs diverge before the first optimizer step: the initial parameters differ"
    if div.what == "loss":
        return (
            f"runs diverge at optimizer step {div.step}{epoch}: "
            f"the loss differs ({_loss_pair(div.loss_a, div.loss_b)})"
        )
    if div.what == "step count":
        return f"runs diverge at optimizer step {div.step}: one run stopped earlier"
    return f"runs diverge at optimizer step {div.step}{epoch}: the parameters after it differ"


def _process_lines(p: ProcessComparison, label: str) -> List[str]:
    lines: List[str] = []
    if p.divergence is not None:
        lines.append(f"{label}{divergence_sentence(p.divergence)}")
        if p.divergence.tensors:
            lines.append(f"  {label}first differing tensors: {escape(_tensors(p.divergence))}")
    if p.steps_a != p.steps_b:
        lines.append(f"  {label}optimizer steps: {p.steps_a} vs {p.steps_b}")
    if p.loss.steps:
        if p.loss.differing == 0:
            lines.append(f"  {label}loss per step: identical for all {_plural(p.loss.steps, 'step')}")
        else:
            lines.append(
                f"  {label}loss per step: identical for {p.loss.identical_prefix} of "
                f"{_plural(p.loss.steps, 'step')}, then differs ({_loss_pair(p.loss.first_a, p.loss.first_b)}); "
                f"{_plural(p.loss.differing, 'step')} differ{'s' if p.loss.differing == 1 else ''}"
            )
        differing_epochs = [e for e in p.loss.epochs if not e.equal]
        if differing_epochs:
            e = differing_epochs[0]
            lines.append(
                f"  {label}loss per epoch: {len(differing_epochs)} of {len(p.loss.epochs)} "
                f"epochs differ; epoch {e.epoch}: {_fmt(e.mean_a)} vs {_fmt(e.mean_b)}"
            )
    for m in p.metrics:
        if not m.equal:
            lines.append(f"  {label}metric {escape(m.name)}: {escape(m.summary)}")
    for t in p.traces:
        if not t.equal:
            lines.append(f"  {label}traced {escape(t.name)}: {escape(t.summary)}")
    for found in [*p.saved, *p.models]:
        if not found.equal:
            lines.append(f"  {label}{escape(tensor_set_sentence(found))}")
    return lines


def _tensor_set_name(found: TensorSetComparison) -> str:
    if found.kind == "saved":
        return f"the tensors saved by torch.save #{found.index} ({found.label})"
    return f"the state of model {found.label} at exit"


def tensor_set_sentence(found: TensorSetComparison) -> str:
    """`the tensors saved by torch.save #1 (model.pt): 1 of 4 tensors differ: fc.weight (Σ ...)`."""
    if found.missing:
        return f"{_tensor_set_name(found)}: present in only one of the runs"
    return (
        f"{_tensor_set_name(found)}: {len(found.differing)} of "
        f"{_plural(found.tensors, 'tensor')} differ: {_tensor_list(found.differing)}"
    )


def _comparison_lines(c: RunComparison, multi_process: bool) -> List[str]:
    lines: List[str] = []
    for p in c.processes:
        label = f"{p.process}: " if multi_process else ""
        lines.extend(_process_lines(p, label))
    for a in c.artifacts:
        word, detail = summarize(a)
        if word != "identical":
            lines.append(f"  {escape(a.artifact)}: {escape(detail)}")
    for name in c.unpaired:
        lines.append(f"  process {escape(name)} traced in only one of the runs")
    if c.output_is_criterion and c.output is not None and not c.output.equal:
        lines.append(
            f"  program output differs at line {c.output.first_line}: "
            f"{escape(repr(c.output.line_a))} vs {escape(repr(c.output.line_b))}"
        )
    return lines


def _identical_summary(result: VerifyResult) -> str:
    c = result.comparisons[0]
    parts = []
    steps = sum(p.steps_a for p in c.processes)
    tensors = sum(p.tensors for p in c.processes)
    if steps:
        parts.append(_plural(steps, "step"))
    if tensors:
        parts.append(_plural(tensors, "tensor"))
    if steps:
        parts.append("loss")
    metrics = sum(len(p.metrics) for p in c.processes)
    if metrics:
        parts.append(f"{metrics} metric{'s' if metrics != 1 else ''}")
    traced = sum(len(p.traces) for p in c.processes)
    if traced:
        parts.append(f"{traced} traced value{'s' if traced != 1 else ''}")
    if c.artifacts:
        n = sum(a.tensors for a in c.artifacts)
        parts.append(f"{len(c.artifacts)} artifact{'s' if len(c.artifacts) != 1 else ''}"
                     + (f" ({_plural(n, 'tensor')})" if n else ""))
    saved = [found for p in c.processes for found in p.saved]
    if saved:
        n = sum(found.tensors for found in saved)
        parts.append(f"{_plural(len(saved), 'torch.save call')} ({_plural(n, 'tensor')})")
    models = [found for p in c.processes for found in p.models]
    if models:
        n = sum(found.tensors for found in models)
        parts.append(f"{_plural(len(models), 'model')} at exit ({_plural(n, 'tensor')})")
    if c.output_is_criterion and c.output is not None and not c.output.empty:
        parts.append("program output")
    ranks = [p.process for p in c.processes if p.process.startswith("rank")]
    if ranks:
        parts.append(f"{len(ranks)} ranks")
    return ", ".join(parts)


def _spread(result: VerifyResult) -> str:
    if result.time_spread_pct is None:
        return ""
    times = ", ".join(f"{r.seconds:.1f} s" for r in result.runs)
    return f"time spread {result.time_spread_pct:.1f}% ({times})"


def render_text(result: VerifyResult, console: Console) -> None:
    """The verdict first, then the evidence, then where the records are."""
    total = len(result.runs)
    if result.verdict in ("failed", "interrupted"):
        run = next((r for r in result.runs if not r.ok), None)
        if result.verdict == "interrupted":
            console.print("[bold yellow]INTERRUPTED[/]: verify was stopped; the runs did not complete")
        elif run is not None:
            console.print(f"[bold red]FAILED[/]: run {run.index} {escape(run.failure())}")
        if run is not None and run.stderr_tail:
            console.print(f"  last lines of its stderr ({run.run_dir}/stderr.txt):")
            for line in run.stderr_tail.splitlines():
                console.print(f"    {escape(line)}", highlight=False)
        _execution(result, console)
        console.print(f"records kept under {result.run_root}/", highlight=False)
        return
    if result.verdict == "reproducible":
        what = _identical_summary(result)
        spread = _spread(result)
        mode = " with record/replay" if result.replay else ""
        console.print(
            f"[bold green]REPRODUCIBLE[/]{mode}: {total} runs bit-identical ({what})"
            + (f"; {spread}" if spread else "")
        )
        timing = next(
            (c.output for c in result.comparisons
             if c.output_is_criterion and c.output is not None and c.output.timing_differs),
            None,
        )
        if timing is not None:
            console.print(
                f"  program output: timing differs (ignored), first at line {timing.timing_line}",
                highlight=False,
            )
    elif result.verdict == "inconclusive":
        console.print(
            "[bold yellow]INCONCLUSIVE[/]: nothing to compare (no optimizer steps, metrics, "
            "traced values, artifacts or output); log with reprolint.runtime.metric() or "
            "pass --artifact FILE"
        )
    else:
        multi = len(result.comparisons) > 1
        headline_done = False
        for c in result.comparisons:
            if c.identical:
                continue
            multi_process = len(c.processes) > 1
            lines = _comparison_lines(c, multi_process)
            prefix = f"run {c.other} vs run 1: " if multi else ""
            if not headline_done:
                # The first difference found is the headline (a divergence when there is
                # one, else a metric, an artifact or the output).
                first = lines[0].strip() if lines else "the runs differ"
                console.print(f"[bold red]NOT REPRODUCIBLE[/]: {prefix}{first}")
                rest = lines[1:]
                headline_done = True
            else:
                console.print(f"{prefix}differs")
                rest = lines
            for line in rest:
                console.print(line if line.startswith("  ") else f"  {line}", highlight=False)
        spread = _spread(result)
        if spread:
            console.print(f"  {spread}", highlight=False)
        if result.static_hints:
            console.print(
                f"  likely causes from a static check: {escape(', '.join(result.static_hints))}"
                "  (reprolint check)",
                highlight=False,
            )
        for line in result.diagnosis_lines:
            console.print(f"  {escape(line)}", highlight=False)
    _execution(result, console)
    for message in result.warnings:
        console.print(f"[yellow]warning[/]: {escape(message)}", highlight=False)
    console.print(f"records: {result.run_root}/", highlight=False)
