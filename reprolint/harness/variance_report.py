"""Render a VarianceResult: text for people (rich), JSON for tools."""

from __future__ import annotations

import json
from typing import List, Optional, Sequence

from rich.console import Console
from rich.markup import escape

from reprolint.harness.variance import (
    WALL_TIME,
    Comparison,
    GroupStats,
    RunRecord,
    ValueStats,
    VarianceResult,
)

MAX_FAILURES_SHOWN = 3


def render_json(result: VarianceResult) -> str:
    return json.dumps(result.to_dict(), indent=2, default=str)


def run_label(run: RunRecord) -> str:
    return f"{run.group} run {run.index} (seed {run.seed})"


def run_line(run: RunRecord, position: int, total: int) -> str:
    """`[2/5] seeds run 2 (seed 2)  ✓ 3.1 s` (or ✗ and why)."""
    head = f"[{position}/{total}] {run_label(run)}"
    if run.ok:
        kept = " (kept from the earlier session)" if run.resumed else ""
        return f"{escape(head)}  [green]✓[/] {run.seconds:.1f} s{kept}"
    return f"{escape(head)}  [red]✗[/] {escape(run.failure)}"


def _num(value: Optional[float]) -> str:
    return "—" if value is None else f"{value:.5g}"


def _pct(value: float) -> str:
    return f"{value:.1f}%" if value >= 0.1 or value == 0 else f"{value:.2g}%"


def _seeds(group: GroupStats) -> str:
    if group.group == "fixed":
        return f"seed {group.seeds[0]}" if group.seeds else "one seed"
    if not group.seeds:
        return "seeds varied"
    if group.seeds == list(range(group.seeds[0], group.seeds[0] + len(group.seeds))):
        return f"seeds {group.seeds[0]}–{group.seeds[-1]}"
    return "seeds " + ", ".join(str(s) for s in group.seeds)


def _range_cell(value: ValueStats) -> str:
    text = _num(value.summary.range)
    if value.name == WALL_TIME and value.summary.range_pct is not None:
        text += f" ({_pct(value.summary.range_pct)})"
    return text


def columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> List[str]:
    """A plain table: the first column left-aligned, numbers right-aligned, never wrapped
    (a wrapped cell is unreadable; a long line in a terminal is only long)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return lines


def _value_lines(group: GroupStats) -> List[str]:
    rows = []
    for value in group.values:
        s = value.summary
        ci = "—" if s.std_ci is None else f"{_num(s.std_ci[0])}–{_num(s.std_ci[1])}"
        name = value.name + (f" ({value.missing} runs missing)" if value.missing else "")
        rows.append([name, _num(s.min), _num(s.max), _range_cell(value), _num(s.mean), _num(s.std), ci])
    return columns(["", "min", "max", "largest diff", "mean", "std", "std 90% CI"], rows)


def _detail_lines(group: GroupStats) -> List[str]:
    lines = []
    for c in group.per_class:
        if c.largest == 0:
            lines.append(f"{escape(c.name)}: identical in every run ({len(c.ranges)} classes)")
        else:
            lines.append(
                f"{escape(c.name)}: largest difference {_num(c.largest)} (class {escape(c.largest_class)})"
            )
    for ch in group.churn:
        c = ch.churn
        if c.max == 0:
            lines.append(f"{escape(ch.name)}: all {c.samples:,} identical in every run")
        else:
            lines.append(
                f"{escape(ch.name)}: {_pct(c.mean * 100)} change between two runs on average "
                f"(at most {_pct(c.max * 100)}); {_pct(c.unstable * 100)} of {c.samples:,} "
                "change in at least one run"
            )
    curve = group.loss_curve
    if curve is not None:
        if curve.identical:
            lines.append(f"loss per step: identical in every run ({curve.steps:,} step{'s' if curve.steps != 1 else ''})")
        else:
            lines.append(
                f"loss per step: runs differ from step {curve.first_differing_step}; largest spread "
                f"{_num(curve.max_spread)} at step {curve.max_spread_step} of {curve.steps:,}"
            )
    return lines


def _group_sentence(result: VarianceResult, group: GroupStats) -> str:
    """`accuracy differs by up to 0.03 (0.87 to 0.9)`, or that nothing differs."""
    value = group.value(result.headline)
    if not group.evidence:
        return (
            "nothing logged but the wall time (no optimizer steps or metrics); "
            "log with reprolint.runtime.metric()"
        )
    if group.no_variance:
        time = group.value(WALL_TIME)
        extra = ""
        if time is not None and time.summary.range_pct is not None:
            extra = f"; training time differs by up to {_pct(time.summary.range_pct)}"
        return "loss, metrics and predictions identical in every run" + extra
    if value is None:
        return "runs differ"
    s = value.summary
    if s.range == 0:
        return f"{escape(value.name)} identical in every run, other values differ"
    return f"{escape(value.name)} differs by up to {_num(s.range)} ({_num(s.min)} to {_num(s.max)})"


def _group_title(group: GroupStats) -> str:
    kind = "seeds varied" if group.group == "seeds" else "a fixed seed"
    failed = f", {group.failed} failed" if group.failed else ""
    return f"{group.runs} runs with {kind} ({_seeds(group)}{failed})"


def _comparison_lines(comparisons: Sequence[Comparison], scipy: bool) -> List[str]:
    header = ["", "Levene W", "p", "Mann-Whitney U", "p", "Cohen's d"] if scipy else ["", "Cohen's d"]
    rows = []
    for c in comparisons:
        t = c.tests
        cells = [_num(t.levene_w), _num(t.levene_p), _num(t.mann_whitney_u), _num(t.mann_whitney_p)]
        rows.append([c.name, *(cells if scipy else []), _num(t.cohens_d)])
    return columns(header, rows)


def _print_group(console: Console, group: GroupStats, indent: int) -> None:
    lines = [escape(line) for line in _value_lines(group)] if group.values else []
    for line in lines + _detail_lines(group):
        console.print(" " * indent + line, highlight=False)


def _failures(result: VarianceResult, console: Console) -> None:
    failed = [r for r in result.runs if not r.ok]
    for run in failed[:MAX_FAILURES_SHOWN]:
        console.print(f"  {escape(run_label(run))} {escape(run.failure)}", highlight=False)
    if len(failed) > MAX_FAILURES_SHOWN:
        console.print(f"  +{len(failed) - MAX_FAILURES_SHOWN} more failed runs", highlight=False)
    first = next((r for r in failed if r.stderr_tail), None)
    if first is not None:
        console.print(f"  last lines of its stderr ({first.run_dir}/stderr.txt):", highlight=False)
        for line in first.stderr_tail.splitlines():
            console.print(f"    {escape(line)}", highlight=False)


def _word(groups: Sequence[GroupStats]) -> str:
    if not any(g.evidence for g in groups):
        return "[bold yellow]INCONCLUSIVE[/]"
    if all(g.no_variance for g in groups):
        return "[bold green]NO VARIANCE[/]"
    return "[bold yellow]VARIANCE[/]"


def render_text(result: VarianceResult, console: Console) -> None:
    """The headline first, then a table per group, the group tests, and the records."""
    measured = [g for g in result.groups if g.runs]
    done = sum(1 for r in result.runs if r.ok)
    if result.verdict == "interrupted":
        console.print(
            f"[bold yellow]INTERRUPTED[/] after {done} of {result.planned} runs; "
            "run again with --resume to continue"
        )
    elif not measured:
        first = next((r for r in result.runs if not r.ok), None)
        what = f"{escape(run_label(first))} {escape(first.failure)}" if first else "no run completed"
        console.print(f"[bold red]FAILED[/]: {what}")
    elif len(measured) == 1:
        group = measured[0]
        console.print(f"{_word(measured)} over {_group_title(group)}: {_group_sentence(result, group)}")
    else:
        parts = []
        for group in measured:
            kind = "seeds varied" if group.group == "seeds" else "a fixed seed"
            parts.append(f"with {kind}, {_group_sentence(result, group)}")
        console.print(f"{_word(measured)}: " + "; ".join(parts))
    for message in result.self_seeded:
        console.print(f"  [yellow]note[/]: {escape(message)}", highlight=False)
    if result.self_seeded:
        console.print(
            "  vary it through the program's own option or environment: "
            '--seed-arg "--seed={seed}" or --seed-env NAME',
            highlight=False, markup=False,
        )
    if result.verdict == "failed" and measured:
        console.print(f"[bold red]{result.planned - done} of {result.planned} runs failed[/]:")
    if result.verdict != "measured":
        _failures(result, console)
    if len(measured) == 1:
        _print_group(console, measured[0], 2)
    else:
        for group in measured:
            console.print(f"{_group_title(group)}:", highlight=False)
            _print_group(console, group, 2)
    if result.comparisons:
        scipy = result.tests_unavailable is None
        console.print("seeds vs fixed:", highlight=False)
        for line in _comparison_lines(result.comparisons, scipy):
            console.print("  " + escape(line), highlight=False)
        if not scipy:
            console.print(f"  [yellow]note[/]: {escape(result.tests_unavailable or '')}", highlight=False)
    from reprolint.harness.backends.report_lines import execution_lines

    labels = [f"{r.group} run {r.index}" for r in result.runs]
    for line in execution_lines(result.execution, result.runs, labels, result.node_note):
        console.print("  " + escape(line), highlight=False)
    for message in result.warnings:
        console.print(f"[yellow]warning[/]: {escape(message)}", highlight=False)
    if result.plot:
        console.print(f"plot: {escape(result.plot)}", highlight=False)
    console.print(f"records: {escape(result.run_root)}/", highlight=False)
