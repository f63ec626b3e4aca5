from __future__ import annotations

from typing import Any, Iterator, Optional

from reprolint.analysis.program import DrawOutcome, Program
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.rng._common import entry_list, library_list, location, roles, rpl101_reports
from reprolint.fixes.planning import FixAction, FixPlanner, together
from reprolint.fixes.seeding import SEEDERS, entry_action, partial_action
from reprolint.model import Applicability, Diagnostic, Related


class PartialSeed(Rule):
    """
    ## What it does
    Finds programs that seed some of the random libraries they draw from but not all.

    For example torch is seeded, yet NumPy's global generator (or Python's `random`, or
    TensorFlow's) is drawn from and never seeded on the program's path. It is reported
    once per first seeding call that runs — usually the project's `set_seed` helper,
    where the missing call belongs — naming every program it concerns. Draws in
    DataLoader workers (`num_workers > 0`) need only torch's seed. Training and
    evaluation programs only.

    One cause, one finding: a missing library whose draws RPL101 reports (it says there
    what the program does seed, with the first seeding call as a related location) is
    not reported again here. RPL105 speaks only where RPL101 does not: the draws are
    suppressed for RPL101 (`# noqa: RPL101`, `per-file-ignores`) or RPL101 is not
    selected.

    ## Why is this bad?
    A seeding helper that forgets one library gives a false sense of safety: model
    initialisation repeats, but data augmentation or sampling done with the other
    library still differs between runs.

    ## Example
    ```python
    import numpy as np, torch
    torch.manual_seed(0)
    noise = np.random.normal(size=3)  # noqa: RPL101 (else RPL101 reports it, naming the seed)
    ```

    Use instead:
    ```python
    import numpy as np, torch
    torch.manual_seed(0)
    np.random.seed(0)
    noise = np.random.normal(size=3)
    ```

    ## Fix safety
    Safe: the missing library was never seeded (unsafe only in the `hooks` style where
    an op without a deterministic implementation runs, as for RPL101). The `hooks` style
    inserts `reprolint.runtime.install(seed=<seed>)` at the entry point, which seeds
    every library; the `inline` style adds the missing libraries' seeding calls right
    after the reported one, with the same seed expression (inside the project's
    `set_seed` helper when that is where the seeding happens).

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    """

    code = "RPL105"
    message = "`{call}` seeds {seeded} but the program also draws from {missing}, which is never seeded (entry point: {entry}; {example})"
    fix_title = "Seed {missing} next to the other seeds"
    fix_applicability = Applicability.SAFE
    framework = "random, numpy, torch, tensorflow"

    VALID = [
        # RPL101 reports the NumPy draw, naming what the program seeds: one finding
        Valid("import numpy as np, torch\ntorch.manual_seed(0)\nx = np.random.rand(2)\n"),
        Valid("import numpy as np, torch\ntorch.manual_seed(0)\nnp.random.seed(0)\nx = np.random.rand(2) + torch.rand(2).numpy()\n"),
        Valid("import torch\ntorch.manual_seed(0)\nx = torch.rand(2)\n"),
    ]
    INVALID = [
        Invalid(  # the draw is suppressed for RPL101: the partial seeding is said here
            "import numpy as np, torch\ntorch.manual_seed(0)\nx = np.random.rand(2)  # noqa: RPL101\n",
            line=2,
            message="NumPy",
            fixed=(
                "import numpy as np, torch\nimport reprolint.runtime\n\n"
                "reprolint.runtime.install(seed=0)\n\ntorch.manual_seed(0)\nx = np.random.rand(2)  # noqa: RPL101\n"
            ),
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # One finding per first seeding call and cause (the missing libraries); the
        # programs that share it are all named.
        found: dict[tuple[Any, ...], tuple[Any, list[str]]] = {}
        for program in ctx.programs:
            if not program.checks_randomness or not program.seeds:
                continue
            seeded = program.seeded_libraries
            missing: dict[str, DrawOutcome] = {}
            for outcome in program.draws:
                if outcome.library not in seeded and not program.overwrites_init(outcome):
                    missing.setdefault(outcome.library, outcome)
            # One cause, one finding: a library whose draws RPL101 reports in this program
            # is said there (with this seeding call as a related location), not again here.
            missing = {lib: o for lib, o in missing.items() if not rpl101_reports(ctx, program, lib)}
            if not missing:
                continue
            first = program.seeds[0]
            key = (first.path, first.seed.span, tuple(sorted(missing)))
            if key in found:
                found[key][1].append(program.entry)
                continue
            found[key] = ((first, seeded, missing, len(program.seeds)), [program.entry])
        for (first, seeded, missing, count), entries in found.values():
            draws = [o for _, o in sorted(missing.items())]
            examples = ", ".join(f"`{o.draw.text}` at {location(o.path, o.draw.span.start_line)}" for o in draws)
            seeded_libs = sorted(first.seed.libs if count == 1 else seeded)
            yield self.report(
                first.path, first.seed.span,
                call=first.seed.text, seeded=library_list(seeded_libs), missing=library_list(set(missing)),
                example=examples, entry=entry_list(entries), seeded_libraries=tuple(seeded_libs),
                example_draws=tuple((o.draw.text, o.path, o.draw.span.start_line) for o in draws),
                missing_libraries=tuple(sorted(missing)), roles=roles(ctx, entries), entry_points=entries,
                related=[Related(o.path, o.draw.span, f"`{o.draw.text}` draws from {o.draw.library}'s unseeded global RNG") for o in draws],
            )


# ----------------------------------------------------------------------------- fix


def _partial_programs(planner: FixPlanner, d: Diagnostic) -> list[Program]:
    """The programs whose first seeding call is the reported one and that draw from a
    library it leaves unseeded (a `set_seed` in a shared module concerns each)."""
    return [
        p for p in planner.ctx.programs
        if p.seeds and p.seeds[0].path == d.path and p.seeds[0].seed.span == d.span
        and any(o.library not in p.seeded_libraries and o.library in SEEDERS for o in p.draws)
        and (not d.entry_points or p.entry in d.entry_points)
    ]


@PartialSeed.fix_leveller
def _partial_level(planner: FixPlanner, d: Diagnostic) -> Applicability:
    """Safe (the libraries added were never seeded), unless the ``install()`` of style
    hooks turns deterministic mode on where an op without it runs."""
    if planner.style != "hooks":
        return Applicability.SAFE
    programs = [p for p in _partial_programs(planner, d) if not planner.has_install(p.entry)]
    return Applicability.UNSAFE if any(planner.runs_raising_op(p.entry) for p in programs) else Applicability.SAFE


@PartialSeed.fix_planner
def _plan_partial(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    programs = _partial_programs(planner, d)
    if not programs:
        return None
    if planner.style == "hooks":
        return together([entry_action(planner, p, d.code) for p in programs if not planner.has_install(p.entry)])
    # Inline: the missing libraries go next to the shared seeding call; a program that
    # still lacks one after this round gets it in the next.
    return partial_action(planner, programs[0], d.code)
