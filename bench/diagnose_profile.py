"""Time of `verify --diagnose` and `profile` against the plain runs (issue 27).

    python bench/diagnose_profile.py [--save]

The program is a temporal-conv sequence task like the one the issue timed (a causal
1-D conv net on synthetic sequences), built the way such programs are: its data made
by tens of thousands of small tensor ops before the first training step, the model
left unseeded. Rows: one plain run (`python tcn.py`), `verify` (two runs, traced),
`verify --diagnose` (the two runs, then two per control), `profile --steps 2`
(two recorded runs and a locating one). Each row is timed once, in a fresh working
folder; ratios are to the plain run. Goals: profile <= 5x the plain run (issue 27 item
5); --diagnose costs what its budget line says (2 runs per control), no more.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "diagnose_profile.txt"

TCN = """\
import torch
from torch import nn


class Causal(nn.Module):
    def __init__(self, cin, cout, dilation):
        super().__init__()
        self.pad = (3 - 1) * dilation
        self.conv = nn.Conv1d(cin, cout, 3, dilation=dilation)

    def forward(self, x):
        return torch.relu(self.conv(nn.functional.pad(x, (self.pad, 0))))


def sequences(n, length):
    # One small op after another, as data loaders written by hand do.
    rows = []
    for i in range(n):
        t = torch.arange(length, dtype=torch.float32) / length
        rows.append(torch.sin(t * (1 + i % 7)) + 0.1 * torch.cos(t * (i % 5)))
    x = torch.stack(rows).unsqueeze(1)
    return x, (x.mean(dim=2) > 0).long().squeeze(1)


if __name__ == "__main__":
    x, y = sequences(6000, 64)
    model = nn.Sequential(Causal(1, 16, 1), Causal(16, 16, 2), Causal(16, 16, 4), nn.Flatten(), nn.Linear(16 * 64, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i in range(0, len(x), 256):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x[i:i + 256]), y[i:i + 256])
            loss.backward()
            opt.step()
    print("loss", round(loss.item(), 6))
"""


def timed(args: list, cwd: Path) -> tuple:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--save", action="store_true", help=f"write the report to {RESULTS}")
    opts = parser.parse_args()
    rows = []
    reprolint = [sys.executable, "-m", "reprolint"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "tcn.py").write_text(TCN)
        plain, _ = timed([sys.executable, "tcn.py"], folder)
        rows.append(("plain run", plain, ""))
        seconds, done = timed([*reprolint, "verify", "--", sys.executable, "tcn.py"], folder)
        rows.append(("verify (2 runs)", seconds, done.stdout.splitlines()[0] if done.stdout else done.stderr[-200:]))
        seconds, done = timed([*reprolint, "verify", "--diagnose", "--", sys.executable, "tcn.py"], folder)
        budget = next((line for line in done.stderr.splitlines() if line.startswith("diagnose:")), "")
        cause = next((line.strip() for line in done.stdout.splitlines() if line.strip().startswith("1. ")), "")
        rows.append(("verify --diagnose", seconds, f"{budget.split(':')[1].split('(')[0].strip()}; {cause}"))
        seconds, done = timed([*reprolint, "profile", "--steps", "2", "--", sys.executable, "tcn.py"], folder)
        rows.append(("profile --steps 2", seconds, done.stdout.splitlines()[0] if done.stdout else done.stderr[-200:]))
    lines = [f"{'row':<20} {'seconds':>8} {'x plain':>8}  what it said"]
    for name, seconds, said in rows:
        lines.append(f"{name:<20} {seconds:8.1f} {seconds / plain:8.1f}  {said[:150]}")
    report = "\n".join(lines) + "\n"
    print(report, end="")
    if opts.save:
        RESULTS.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
