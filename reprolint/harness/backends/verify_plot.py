"""`reprolint verify --plot FILE.png`: run 1's loss curve against every other run's,
with the first divergence marked (matplotlib, the `plot` extra, like `variance --plot`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional, Tuple

from reprolint.harness._plot import require
from reprolint.harness.traces import load_run


def _losses(run_dir: str) -> List[Tuple[int, float]]:
    """(step, loss) of the main process (else the first traced process)."""
    traces = load_run(Path(run_dir))
    trace = traces.get("main") or next(iter(traces.values()), None)
    if trace is None:
        return []
    steps = [s for s in trace.steps if s.loss is not None]
    return [(s.n, float(s.loss)) for s in steps]  # type: ignore[arg-type]


def _divergence(result: Any, other: int) -> Optional[int]:
    comparison = next((c for c in result.comparisons if c.other == other), None)
    if comparison is None:
        return None
    for process in comparison.processes:
        if process.divergence is not None:
            return int(process.divergence.step)
    return None


def plot_verify(result: Any, path: str) -> str:
    """Write the PNG (verify.VerifyResult -> loss per optimizer step) and return its path."""
    plt = require()
    fig, ax = plt.subplots(figsize=(9, 4.2), constrained_layout=True)
    runs = [r for r in result.runs if r.ok]
    drawn = False
    for i, run in enumerate(runs):
        points = _losses(run.run_dir)
        if not points:
            continue
        drawn = True
        ax.plot([p[0] for p in points], [p[1] for p in points], linewidth=1.4 if i == 0 else 1.0,
                linestyle="-" if i == 0 else "--", label=f"run {run.index}")
        step = _divergence(result, run.index)
        if step is not None:
            ax.axvline(step, color="#d62728", linewidth=1.0, alpha=0.8)
            text = "differs from the start (initial parameters)" if step == 0 else f"diverges at step {step}"
            ax.annotate(f"run {run.index} {text}", xy=(step, 1.0),
                        xycoords=("data", "axes fraction"), xytext=(4, -14),
                        textcoords="offset points", color="#d62728", fontsize=8)
    if drawn:
        ax.legend(loc="upper right")
    else:
        ax.text(0.5, 0.5, "no optimizer steps traced", ha="center", va="center", transform=ax.transAxes)
    verdict = {"reproducible": "bit-identical", "differs": "not reproducible"}.get(result.verdict, result.verdict)
    command = " ".join(result.command)
    ax.set_title(f"reprolint verify ({verdict}): {command if len(command) <= 80 else command[:77] + '...'}",
                 fontsize=10)
    ax.set_xlabel("optimizer step")
    ax.set_ylabel("training loss")
    ax.grid(True, alpha=0.3)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
