"""`reprolint variance --plot`: loss curves of every run and a strip plot per group.

matplotlib is an optional extra (`pip install 'reprolint[plot]'`); `require()` says so
before any run starts, rather than after an hour of training.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

from reprolint.harness.variance import FINAL_LOSS, WALL_TIME, VarianceResult

MATPLOTLIB_MISSING = "--plot needs matplotlib, which is not installed: pip install 'reprolint[plot]'"
COLORS = {"seeds": "#1f77b4", "fixed": "#d62728"}
LABELS = {"seeds": "seeds varied", "fixed": "fixed seed"}


class PlotUnavailable(RuntimeError):
    """matplotlib is missing."""


def require() -> Any:
    """matplotlib.pyplot on the non-interactive backend; PlotUnavailable if missing."""
    try:
        import matplotlib
    except ImportError as exc:
        raise PlotUnavailable(MATPLOTLIB_MISSING) from exc
    matplotlib.use("Agg")  # no display needed, and never opens a window
    import matplotlib.pyplot as plt

    return plt


def _offsets(n: int, width: float = 0.25) -> List[float]:
    """Evenly spread horizontal offsets: a strip plot without random jitter."""
    if n <= 1:
        return [0.0] * n
    return [-width + 2 * width * i / (n - 1) for i in range(n)]


def plot(result: VarianceResult, path: str) -> str:
    """Write the PNG and return its path."""
    plt = require()
    fig, (curves, strips) = plt.subplots(
        1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [2.2, 1]}, constrained_layout=True
    )
    labelled = set()
    for run in result.runs:
        if not run.ok or not run.losses:
            continue
        steps = [i + 1 for i, loss in enumerate(run.losses) if loss is not None]
        losses = [loss for loss in run.losses if loss is not None]
        group = result.group(run.group)
        count = f" ({group.runs} runs)" if group is not None else ""
        label = None if run.group in labelled else LABELS[run.group] + count
        labelled.add(run.group)
        curves.plot(steps, losses, color=COLORS[run.group], alpha=0.55, linewidth=1.1, label=label)
    curves.set_xlabel("optimizer step")
    curves.set_ylabel("training loss")
    curves.set_title("loss per optimizer step, every run")
    curves.grid(True, alpha=0.3)
    if labelled:
        curves.legend(loc="upper right")
    else:
        curves.text(0.5, 0.5, "no optimizer steps traced", ha="center", va="center",
                    transform=curves.transAxes)

    name = result.headline
    groups = [g for g in result.groups if g.value(name) is not None]
    for x, group in enumerate(groups):
        value = group.value(name)
        assert value is not None
        xs = [x + o for o in _offsets(len(value.values))]
        strips.scatter(xs, value.values, color=COLORS[group.group], s=36, alpha=0.8, zorder=3)
        strips.hlines(value.summary.mean, x - 0.35, x + 0.35, color="black", linewidth=1.2, zorder=2,
                      label="mean" if x == 0 else None)
    strips.set_xticks(range(len(groups)))
    strips.set_xticklabels([f"{LABELS[g.group]}\n(n={g.runs})" for g in groups])
    strips.set_xlim(-0.6, len(groups) - 0.4)
    strips.set_title(f"{name} per run" if name in (FINAL_LOSS, WALL_TIME) else f"final {name} per run")
    strips.grid(True, axis="y", alpha=0.3)
    if groups:
        strips.legend(loc="best", fontsize=8)
    strips.ticklabel_format(axis="y", useOffset=False)
    command = " ".join(result.command)
    fig.suptitle(f"reprolint variance: {command if len(command) <= 90 else command[:87] + '...'}",
                 fontsize=10)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
