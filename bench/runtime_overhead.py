"""Overhead of reprolint.runtime on a CPU training loop, as ratios to the plain loop.

    python bench/runtime_overhead.py [--steps 200] [--rounds 3] [--save]

Each install() configuration runs in a fresh interpreter (install() patches
process-wide state); configurations are interleaved round by round so that a noisy
neighbour slows them all alike.
Goals (issue 5): record/replay <= 2%, tracing <= 10% of the step time.

Configurations:
  plain            the loop, nothing from reprolint
  record           install() in record mode, deterministic=False: the cost of recording
  replay           install() in replay mode, deterministic=False: the cost of replaying
  record+determ    install() with its defaults (adds use_deterministic_algorithms etc.)
  trace            the step tracer of `reprolint verify` (digests after every step),
                   timed in one process with its hooks toggled on and off
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

CONFIGS = ("plain", "record", "replay", "record+determ", "trace")
MODELS = ("lenet5", "mlp")
BLOCK = 25  # steps per block when tracing is toggled on and off
RESULTS = Path(__file__).resolve().parent / "results" / "runtime_overhead.txt"


def build(model_name: str):  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    if model_name == "lenet5":
        model = nn.Sequential(
            nn.Conv2d(1, 6, 5, padding=2), nn.Tanh(), nn.AvgPool2d(2),
            nn.Conv2d(6, 16, 5), nn.Tanh(), nn.AvgPool2d(2), nn.Flatten(),
            nn.Linear(400, 120), nn.Tanh(), nn.Linear(120, 84), nn.Tanh(), nn.Linear(84, 10),
        )
        x, y = torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))
    else:
        # A step of a few hundred microseconds: the worst case for per-step overhead.
        model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
        x, y = torch.randn(32, 32), torch.randint(0, 2, (32,))
    return model, x, y


def worker(config: str, model_name: str, steps: int, workdir: str) -> Dict[str, object]:
    """Runs in a fresh interpreter: set up one configuration and time the steps."""
    os.chdir(workdir)
    setup = 0.0
    if config in ("record", "replay", "record+determ"):
        import reprolint.runtime

        os.environ["REPROLINT_RECORD"] = os.path.join(workdir, "record.json")
        start = time.perf_counter()
        reprolint.runtime.install(
            seed=1 if config != "replay" else None,
            mode="replay" if config == "replay" else "record",
            deterministic=config == "record+determ",
        )
        setup = time.perf_counter() - start
    elif config == "trace":
        from reprolint.runtime import _trace

        start = time.perf_counter()
        _trace.enable(workdir)
        setup = time.perf_counter() - start
    import torch

    torch.set_num_threads(1)  # steadier timings; the ratio is what matters
    if config in ("plain", "trace"):
        torch.manual_seed(1)
    model, x, y = build(model_name)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def step() -> float:
        start = time.perf_counter()
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return time.perf_counter() - start

    for _ in range(20):  # warm up allocators and kernels
        step()
    if config == "trace":
        # Same process, same model: blocks with the step hooks on and off, alternating,
        # so that the ratio is not at the mercy of another process's timing.
        from reprolint.runtime import _trace

        tracer = _trace.current()
        assert tracer is not None
        on: List[float] = []
        off: List[float] = []
        for block in range(2 * max(1, steps // BLOCK)):
            if block % 2:
                tracer.detach_optimizer_hooks()
            else:
                tracer.attach_optimizer_hooks()
            (off if block % 2 else on).extend(step() for _ in range(BLOCK))
        lines = sum(1 for _ in open(os.path.join(workdir, "trace.main.jsonl")))
        return {"times": on, "untraced": off, "setup": setup, "trace_lines": lines}
    return {"times": [step() for _ in range(steps)], "setup": setup}


def run_worker(config: str, model_name: str, steps: int, workdir: str) -> Dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPROLINT_")}
    env.setdefault("PYTHONHASHSEED", "0")
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", config, model_name, str(steps), workdir],
        capture_output=True, text=True, env=env, check=True,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--save", action="store_true", help=f"also write {RESULTS.name}")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        config, model_name, steps, workdir = args.worker
        print(json.dumps(worker(config, model_name, int(steps), workdir)))
        return 0

    times: Dict[tuple, List[float]] = {}
    setups: Dict[tuple, List[float]] = {}
    untraced: Dict[str, List[float]] = {}
    trace_lines: Dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for round_index in range(args.rounds):
            for model_name in MODELS:
                # The replay worker replays what this round's record worker recorded.
                workdir = os.path.join(tmp, f"{model_name}-{round_index}")
                os.makedirs(workdir)
                for config in CONFIGS:
                    result = run_worker(config, model_name, args.steps, workdir)
                    times.setdefault((model_name, config), []).extend(result["times"])  # type: ignore[arg-type]
                    setups.setdefault((model_name, config), []).append(result["setup"])  # type: ignore[arg-type]
                    if config == "trace":
                        untraced.setdefault(model_name, []).extend(result["untraced"])  # type: ignore[arg-type]
                        trace_lines[model_name] = int(result["trace_lines"])  # type: ignore[arg-type]

    import platform

    import torch

    def quartile(values: List[float]) -> float:
        return statistics.quantiles(values, n=4)[0]

    lines = [
        "reprolint.runtime overhead: step time and ratio to the plain loop",
        f"command: python bench/runtime_overhead.py --steps {args.steps} --rounds {args.rounds}",
        f"python {platform.python_version()}, torch {torch.__version__}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, 1 torch thread per run",
        "",
        "install(): one fresh process per configuration and round; lower-quartile step time",
        "(the least disturbed by other processes), ratio to `plain`:",
        f"{'model':8} {'config':14} {'step (ms)':>10} {'ratio':>7} {'install (ms)':>13}",
    ]
    for model_name in MODELS:
        plain = quartile(times[(model_name, "plain")])
        for config in CONFIGS[:-1]:
            value = quartile(times[(model_name, config)])
            setup = statistics.median(setups[(model_name, config)]) * 1000
            lines.append(
                f"{model_name:8} {config:14} {value * 1000:10.3f} {value / plain:7.3f} {setup:13.2f}"
            )
    lines += [
        "",
        f"tracing: one process, blocks of {BLOCK} steps with the step hooks on and off,",
        "alternating; median step time, ratio traced / untraced:",
        f"{'model':8} {'untraced (ms)':>14} {'traced (ms)':>12} {'ratio':>7} {'trace lines':>12}",
    ]
    for model_name in MODELS:
        off = statistics.median(untraced[model_name])
        on = statistics.median(times[(model_name, "trace")])
        lines.append(
            f"{model_name:8} {off * 1000:14.3f} {on * 1000:12.3f} {on / off:7.3f} {trace_lines[model_name]:12d}"
        )
    lines += [
        "",
        "goals: record/replay <= 1.02, tracing <= 1.10. record+determ adds",
        "torch.use_deterministic_algorithms(True): a cost of determinism, not of recording.",
    ]
    text = "\n".join(lines)
    print(text)
    if args.save:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
