from __future__ import annotations

import re
from typing import Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.determinism import program_usages
from reprolint.analysis.usage_events import DistributedWrapper, RankSeed, SamplerBuilt, SetEpochCall
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, node_code
from reprolint.model import Applicability, Diagnostic


class DistributedSamplerEpoch(Rule):
    """
    ## What it does
    Reports a `DistributedSampler` or shuffling sampler used across epochs without
    `set_epoch(epoch)`, or seeded differently on each rank.

    Three cases, in programs:

    - a `DistributedSampler(...)` (shuffling, the default) in a program with no
      `.set_epoch(<epoch>)` call that runs whenever the sampler is built: inside a loop,
      or in a function the epoch loop calls (`train_one_epoch(..., epoch)`), with a
      varying argument (a constant does not count). A `set_epoch` behind a condition
      counts too (`if args.distributed:`, whether or not it also guards the sampler): the
      runs configured to take that branch advance the sampler, and a run that skips it
      repeats one order every epoch, the same order on every run, so nothing differs
      between two runs of one command.
      Programs trained by Lightning's or Hugging Face's `Trainer` are skipped: they call
      `set_epoch` themselves. Reported at the sampler;
    - a `DistributedSampler(..., seed=...)` whose seed depends on the rank (`rank`,
      `local_rank`, `dist.get_rank()`, `process_index`, `LOCAL_RANK`). Reported at the
      sampler;
    - a torch seeding call whose seed depends on the rank, in a program that builds
      model weights and never wraps the model in `DistributedDataParallel` (which
      broadcasts rank 0's weights), FSDP with `sync_module_states=True` or
      `accelerator.prepare`, and never broadcasts the parameters itself
      (`for p in G.parameters(): dist.broadcast(p, src=0)`); weights that a load
      replaces on every rank (`model.load_state_dict(torch.load(path))` right after the
      build, an evaluation program loading trained weights) start no replica apart, nor
      do the workers of one shared-memory model (Hogwild, A3C: `share_memory()` and the
      model handed to each process), which train that model.
      Reported at the seeding call.

    Not from a plain function of an imported module that no call of the program
    reaches (a helper module's loader factory that only another script calls), and not
    for a sampler built only on a branch the default run skips: `None if rank == -1 else
    DistributedSampler(...)` with `rank` from `int(os.getenv("LOCAL_RANK", -1))` (a
    default run is started without a launcher, so the variable is unset and the read
    gives its default), or behind an option or module constant that is off by default.
    Nor for a sampler built under `torch.no_grad()` (a validation pass that makes its own
    loader each time it runs): no gradient is computed from the order it gives.

    ## Why is this bad?
    `DistributedSampler` shuffles with `seed + epoch`; without `set_epoch` every epoch
    sees the same order. With a different sampler seed per rank the ranks' shards
    overlap and miss samples. With a different init seed per rank and no broadcast,
    each rank starts from different weights and the replicas silently diverge.

    Mitigation: `sampler.set_epoch(epoch)` at the top of each epoch; one seed for the
    sampler on every rank; seed model init identically on every rank (offset only the
    data-augmentation RNGs by rank) or let DDP broadcast the weights.

    ## Example
    ```python
    sampler = DistributedSampler(ds)
    for epoch in range(10):
        for batch in DataLoader(ds, sampler=sampler):
            ...
    ```

    Use instead:
    ```python
    sampler = DistributedSampler(ds)
    for epoch in range(10):
        sampler.set_epoch(epoch)
        for batch in DataLoader(ds, sampler=sampler):
            ...
    ```

    ## Fix safety
    Unsafe: it changes an outcome the program already fixed (without `set_epoch` every
    epoch repeats the first epoch's order, the same in every run; with it each epoch
    gets another). The fix inserts
    `sampler.set_epoch(epoch)` as the first statement of the epoch loop: the sampler
    must be assigned to a name or `self.<attr>`, and the loop (`for <name> in ...` after
    it in the same function, its name containing "epoch", else a `range` loop holding
    another loop) gives the variable. The rank-seeded cases have no fix.

    ## References
    - https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler
    - https://pytorch.org/docs/stable/notes/ddp.html
    """

    code = "RPL404"
    message = "`{call}(...)` is used across epochs without `set_epoch(epoch)` in the epoch loop, so every epoch shuffles the same way"
    messages = {
        "rank-sampler": "`{call}(...)` is seeded differently on each rank, so the ranks' shards overlap and miss samples; use the same seed on every rank",
        "rank-seed": "`{call}(...)` seeds each rank differently before the model is built, and nothing broadcasts rank 0's weights, so the replicas start from different weights",
    }
    fix_title = "Call `sampler.set_epoch(epoch)` at the start of each epoch"
    fix_applicability = Applicability.UNSAFE
    framework = "torch"

    VALID = [
        Valid(
            "from torch.utils.data.distributed import DistributedSampler\nsampler = DistributedSampler(ds)\n"
            "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    train(sampler)\n"
        ),
        Valid(
            "from torch.utils.data import DistributedSampler\nsampler = DistributedSampler(ds, shuffle=False)\n"
            "for epoch in range(3):\n    train(sampler)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from torch.utils.data.distributed import DistributedSampler\nsampler = DistributedSampler(ds)\n"
            "for epoch in range(3):\n    train(sampler)\n",
            line=2,
            fixed=(
                'from torch.utils.data.distributed import DistributedSampler\n'
                'sampler = DistributedSampler(ds)\nfor epoch in range(3):\n'
                '    sampler.set_epoch(epoch)\n    train(sampler)\n'
            ),
        ),
        Invalid(
            "import torch.distributed as dist\nfrom torch.utils.data.distributed import DistributedSampler\n"
            "rank = dist.get_rank()\nsampler = DistributedSampler(ds, seed=42 + rank)\n"
            "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    train(sampler)\n",
            line=4, message="rank",
        ),
        Invalid(
            "import torch, torch.distributed as dist\nrank = dist.get_rank()\ntorch.manual_seed(1 + rank)\n"
            "model = torch.nn.Linear(4, 4)\nprint(model)\n",
            line=3,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            if program.is_library:
                continue
            epoch_calls = [
                program.usage_steps[position] for position, _, u in program.of(SetEpochCall, default_only=False)
                if u.varying_in_loop or u.varying_in_function
            ]
            for position, path, usage in program.of(SamplerBuilt, default_only=False):
                if (path, usage.span) in seen or program.usage_steps[position].context.uncalled:
                    continue  # (a plain function of an imported module that no call reaches)
                if program.skips(position):
                    # built only on a branch the default run skips (`None if rank == -1 else
                    # DistributedSampler(...)` with no launcher's LOCAL_RANK): no sampler runs
                    continue
                if usage.rank_seeded:
                    seen.add((path, usage.span))
                    yield self.report(
                        path, usage.span, variant="rank-sampler", call=usage.text, entry_points=program.entry_points,
                    )
                elif program.usage_steps[position].context.no_grad:
                    # built under `torch.no_grad()` (a validation pass that makes its own
                    # loader): no gradient is computed from what it orders
                    continue
                elif usage.shuffle is not False and not program.framework_trainer and not epoch_calls:
                    seen.add((path, usage.span))
                    yield self.report(path, usage.span, call=usage.text, entry_points=program.entry_points)
            if program.has(DistributedWrapper, default_only=False) or program.framework_trainer or program.program is None:
                continue
            if program.shares_a_model:
                # a shared-memory model handed to the workers (Hogwild, A3C): the weights
                # trained are that one model's, built once; a worker's own copy is synced
                # from it (`model.load_state_dict(shared_model.state_dict())`)
                continue
            # weights a load replaces on every rank (a checkpoint loaded right after the
            # build, an evaluation loading trained weights: Program.overwrites_init) start
            # no replica apart
            builds_model = any(
                o.draw.kind == "init" and o.draw.library == "torch" and not program.program.overwrites_init(o)
                for o in program.program.draws
            )
            if not builds_model:
                continue
            for position, path, rank_seed in program.of(RankSeed, default_only=False):
                step = program.usage_steps[position]
                if (path, rank_seed.span) in seen or step.context.uncalled:
                    continue
                if rank_seed.params and program.program.keeps_defaults(step, rank_seed.params):
                    continue  # `def random_seed(seed, rank=0)` called without a rank
                seen.add((path, rank_seed.span))
                yield self.report(path, rank_seed.span, variant="rank-seed", call=rank_seed.text, entry_points=program.entry_points)


# ----------------------------------------------------------------------------- fix


@DistributedSamplerEpoch.fix_planner
def _plan_set_epoch(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """RPL404: ``sampler.set_epoch(epoch)`` first in the epoch loop.

    The sampler must be bound to a name (or ``self.<attr>``) and an epoch loop must
    follow it in the same function: the first ``for <name> in ...`` after it whose name
    contains "epoch", else the first ``for <name> in range(...)`` holding another loop.
    """
    if data_field(d, "variant") is not None:
        return None  # seeded from the rank: the seed itself must change
    module = planner.module(d.path)
    if module is None:
        return None

    def locate(m: cst.Module) -> Optional[tuple[cst.For, str]]:
        located = fixes.find_call(m, d.span)
        if located is None:
            return None
        statement = located.statement()
        if not isinstance(statement, cst.SimpleStatementLine) or not isinstance(statement.body[0], cst.Assign):
            return None
        assign = statement.body[0]
        if assign.value is not located.node or len(assign.targets) != 1:
            return None
        target = node_code(assign.targets[0].target)
        if not re.fullmatch(r"(self\.)?\w+", target):
            return None
        scope: cst.CSTNode = m
        for parent in located.parents:
            if isinstance(parent, (cst.FunctionDef, cst.Module)):
                scope = parent
        after = False
        epoch_loops, range_loops = [], []
        for node, parents in fixes.walk(scope):
            if node is statement:
                after = True
            if not after or not isinstance(node, cst.For) or not isinstance(node.target, cst.Name):
                continue
            if any(isinstance(p, cst.FunctionDef) and p is not scope for p in parents):
                continue
            if "epoch" in node.target.value.lower():
                epoch_loops.append(node)
            elif (
                isinstance(node.iter, cst.Call) and node_code(node.iter.func) == "range"
                and any(isinstance(n, cst.For) for n, _ in fixes.walk(node.body))
            ):
                range_loops.append(node)
        loops = epoch_loops or range_loops
        if not loops:
            return None
        return loops[0], f"{target}.set_epoch({loops[0].target.value})"  # type: ignore[union-attr]

    found = locate(module)
    if found is None:
        return None

    def apply(m: cst.Module) -> cst.Module:
        located = locate(m)
        if located is None:
            return m
        loop, line = located
        return fixes.replace_nodes(m, {id(loop): lambda node: fixes.ensure_at_loop_top(node, line, m)})  # type: ignore[arg-type]

    return FixAction(
        d.path, ("set_epoch", d.span), planner.applicability(d.code),
        f"Call `{found[1]}` at the start of each epoch", apply,
    )
