from __future__ import annotations

from typing import Iterator, Optional

from reprolint.analysis.facts import Call, LocalFinding, ModuleFacts
from reprolint.analysis.project_index import ProgramIndex
from reprolint.analysis.usage_events import TrainStep
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.model import Related, Span

_HOGWILD_MAIN = (
    "import torch.multiprocessing as mp\nimport torch\n\n"
    "def train(rank, model):\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
    "    for x, y in batches(rank):\n"
    "        opt.zero_grad()\n"
    "        torch.nn.functional.mse_loss(model(x), y).backward()\n"
    "        opt.step()\n\n"
    "if __name__ == '__main__':\n"
    "    model = torch.nn.Linear(4, 1)\n"
    "    model.share_memory()\n"
    "    workers = []\n"
    "    for rank in range(4):\n"
    "        p = mp.Process(target=train, args=(rank, model))\n"
    "        p.start()\n"
    "        workers.append(p)\n"
    "    for p in workers:\n"
    "        p.join()\n"
)


class SharedModelTraining(Rule):
    """
    ## What it does
    Reports lock-free shared-model training ("Hogwild"): several worker processes
    that train one model made shared with `model.share_memory()`.

    It is reported at the call that starts the workers, with the `share_memory()` call
    as a related location.

    Several workers: `multiprocessing.Process(target=train, args=(..., model, ...))`
    (or `torch.multiprocessing.Process`) written in a loop or a comprehension, or twice,
    `torch.multiprocessing.spawn(train, args=(model, ...), nprocs=n)` with `n` not
    1, and a `Pool` of more than one process running `train` over items that hold the
    model (`pool.starmap(train, [(model, i) for i in range(n)])`, `map`, `imap`...,
    or `apply_async` in a loop), in the function that called `share_memory()`. The worker trains when it (or a
    project function it calls, a few calls deep, in any module) runs a backward pass,
    builds a `torch.optim` optimizer or zeroes gradients. Not reported: a shared model
    that only serves inference or evaluation workers (they read the weights, nobody
    writes them), a single worker process, and DataLoader workers (they never receive
    the model). A worker that cannot be followed (an attribute of an object, a library
    function) is not reported.

    ## Why is this bad?
    Hogwild training is nondeterministic by design: every worker reads and writes the
    same parameters without locks, so which update lands first, and which gradients were
    computed from which version of the weights, depends on how the operating system
    schedules the processes. Two runs with every seed fixed (including per-worker seeds)
    still end with different weights. It is a legitimate speed trade-off, but not one a
    bit-reproducible run can make.

    Mitigation: for reproducible runs train in one process, or synchronise the workers
    (data-parallel training with `DistributedDataParallel` averages gradients in a fixed
    order), or serialise the updates (a lock around `optimizer.step()` still leaves the
    order to the scheduler; only a fixed schedule makes it reproducible). Keep Hogwild
    for throughput runs, behind an option.

    ## Example
    ```python
    import torch.multiprocessing as mp

    model.share_memory()
    workers = [mp.Process(target=train, args=(rank, model)) for rank in range(4)]
    ```

    Use instead:
    ```python
    train(0, model)  # one process; or DistributedDataParallel with a fixed reduction order
    ```

    ## Fix safety
    No fix: making the training deterministic changes how the program is parallelised,
    a decision only its author can make.

    ## References
    - Recht et al., "Hogwild!: A lock-free approach to parallelizing stochastic gradient
      descent", NeurIPS 2011
    - https://pytorch.org/docs/stable/notes/multiprocessing.html#hogwild
    """

    code = "RPL405"
    message = (
        "`{call}` starts several `{worker}` processes that train the shared model `{model}` without locks "
        "(Hogwild): the order of their updates, and so the trained weights, differ per run"
    )
    framework = "torch"

    VALID = [
        # One worker process: nothing races its updates.
        Valid(
            "import torch.multiprocessing as mp\nimport torch\n\n"
            "def train(model):\n    opt = torch.optim.SGD(model.parameters(), lr=0.01)\n\n"
            "if __name__ == '__main__':\n    model = torch.nn.Linear(4, 1)\n    model.share_memory()\n"
            "    p = mp.Process(target=train, args=(model,))\n    p.start()\n    p.join()\n"
        ),
        # The shared model only serves evaluation workers.
        Valid(
            "import torch.multiprocessing as mp\nimport torch\n\n"
            "@torch.no_grad()\ndef evaluate(rank, model):\n    print(model(torch.zeros(1, 4)))\n\n"
            "if __name__ == '__main__':\n    model = torch.nn.Linear(4, 1)\n    model.share_memory()\n"
            "    for rank in range(4):\n        mp.Process(target=evaluate, args=(rank, model)).start()\n"
        ),
        # Each worker trains its own model; nothing is shared.
        Valid(_HOGWILD_MAIN.replace("    model.share_memory()\n", "")),
    ]
    INVALID = [
        Invalid(_HOGWILD_MAIN, line=16, message="shared model `model`"),
        Invalid(
            "import torch.multiprocessing as mp\nimport torch\n\n"
            "def worker(rank, net):\n    opt = torch.optim.Adam(net.parameters())\n\n"
            "def main(n):\n    net = torch.nn.Linear(4, 1)\n    net.share_memory()\n"
            "    mp.spawn(worker, args=(net,), nprocs=n)\n\n"
            "if __name__ == '__main__':\n    main(8)\n",
            line=10,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        for path, facts in ctx.facts.items():
            if ctx.index.is_test(path) and not ctx.settings.include_tests:
                continue
            for finding in facts.findings:
                if finding.code != self.code:
                    continue
                if not _worker_trains(ctx.index, path, str(finding.data.get("worker_target", ""))):
                    continue
                yield self._report(ctx, path, finding)

    def _report(self, ctx: CheckContext, path: str, finding: LocalFinding) -> Finding:
        data = dict(finding.data)
        data.pop("worker_target", None)
        share = data.pop("share_at", None)
        related = []
        if isinstance(share, list) and len(share) == 4:
            related.append(Related(
                path, Span(*share), f"`{data.get('model')}.share_memory()` puts the weights in shared memory here",
            ))
        entries = [e for p in ctx.programs if path in p.modules for e in p.entry_points]
        return self.report(path, finding.span, entry_points=dict.fromkeys(entries), related=related, **data)


def _worker_trains(index: ProgramIndex, path: str, target: str, depth: int = 3) -> bool:
    """The worker function (or a project function it calls, ``depth`` calls deep) trains."""
    resolved = index.resolve_call(path, target) if target else None
    if resolved is None:
        return False
    where, qualname = resolved
    facts: Optional[ModuleFacts] = index.facts.get(where)
    function = facts.functions.get(qualname) if facts is not None else None
    if function is None:
        return False
    for event in function.events:
        if isinstance(event, TrainStep) and event.name == "torch":
            return True
    if depth == 0:
        return False
    return any(
        _worker_trains(index, where, event.target, depth - 1)
        for event in function.events if isinstance(event, Call)
    )
