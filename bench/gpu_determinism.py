"""GPU proof for `reprolint.runtime.install()` / `patch()` (needs CUDA).

For each op known to be nondeterministic on CUDA, runs it REPEATS times on the same
inputs and counts distinct results (bitwise), first as torch ships, then made
deterministic (the determinism flag for ops that have a deterministic kernel under it,
reprolint's patch for those that have none), and prints the slowdown of each:

    python bench/gpu_determinism.py [--repeats 20] [--out bench/results/gpu_determinism.txt]

Without CUDA it says so and exits 0: there is nothing to measure on a CPU.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, List, Tuple


def _cases(torch: Any) -> List[Tuple[str, str, Callable[[], Any]]]:
    """(name, how it is made deterministic, a function returning the op's result)."""
    F = torch.nn.functional
    g = torch.Generator(device="cuda").manual_seed(0)
    dev = "cuda"
    n = 1 << 20
    index = torch.randint(0, 1024, (n,), device=dev, generator=g)
    src = torch.randn(n, device=dev, generator=g)
    rows = torch.randn(n // 64, 64, device=dev, generator=g)
    row_index = torch.randint(0, 256, (n // 64,), device=dev, generator=g)
    image = torch.randn(8, 16, 64, 64, device=dev, generator=g, requires_grad=True)
    weights = torch.randn(4096, 64, device=dev, generator=g, requires_grad=True)
    bags = torch.randint(0, 4096, (8192, 16), device=dev, generator=g)

    def index_add() -> Any:
        return torch.zeros(256, 64, device=dev).index_add_(0, row_index, rows)

    def scatter_add() -> Any:
        return torch.zeros(1024, device=dev).scatter_add_(0, index, src)

    def histc() -> Any:
        return torch.histc(src, bins=1000, min=-4, max=4)

    def interpolate_backward() -> Any:
        image.grad = None
        F.interpolate(image, scale_factor=2, mode="bilinear", align_corners=False).pow(2).sum().backward()
        return image.grad

    def embedding_bag_max_backward() -> Any:
        weights.grad = None
        F.embedding_bag(bags, weights, mode="max").sum().backward()
        return weights.grad

    return [
        ("index_add_", "flag", index_add),
        ("scatter_add_", "flag", scatter_add),
        ("histc", "patch", histc),
        ("interpolate bilinear backward", "none", interpolate_backward),
        ("embedding_bag max backward", "none", embedding_bag_max_backward),
    ]


def _distinct(torch: Any, fn: Callable[[], Any], repeats: int) -> Tuple[int, float]:
    results, start = [], 0.0
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(repeats):
        results.append(fn().detach().clone())
    torch.cuda.synchronize()
    seconds = (time.perf_counter() - start) / repeats
    distinct: List[Any] = []
    for r in results:
        if not any(torch.equal(r, d) for d in distinct):
            distinct.append(r)
    return len(distinct), seconds


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--out", default=None, help="also write the table to this file")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("gpu_determinism: torch is not installed; skipped")
        return 0
    if not torch.cuda.is_available():
        print("gpu_determinism: CUDA is not available on this machine; skipped (nothing to measure on a CPU)")
        return 0
    from reprolint.runtime import patches

    lines = [f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}, {args.repeats} repetitions each",
             f"{'op':32} {'distinct as shipped':>20} {'distinct fixed':>15} {'fixed by':>9} {'slowdown':>9}"]
    for name, fix, fn in _cases(torch):
        before, t_before = _distinct(torch, fn, args.repeats)
        if fix == "none":
            lines.append(f"{name:32} {before:>20} {'-':>15} {'(none)':>9} {'-':>9}")
            continue
        if fix == "flag":
            torch.use_deterministic_algorithms(True)
        else:
            patches.patch()
        try:
            after, t_after = _distinct(torch, fn, args.repeats)
        finally:
            torch.use_deterministic_algorithms(False)
            patches.unpatch()
        lines.append(f"{name:32} {before:>20} {after:>15} {fix:>9} {t_after / t_before:>8.2f}x")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
