from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.program import Blame, DrawOutcome, Program
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.rng._common import draw_fields, lasting_draws, located_action
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, has_statement, literal_seed, node_code
from reprolint.fixes.seeding import seed_argument
from reprolint.model import Applicability, Diagnostic, Related, Span


class ConditionalSeed(Rule):
    """
    ## What it does
    Finds seeding guarded by a condition that is false with the program's default
    options, so a run with the defaults is unseeded.

    Typical cases: `if args.seed is not None:` or
    `if args.seed:` where the argparse or click option defaults to `None` (or `0`),
    `if seed is not None:` where `seed` is a parameter defaulting to `None`, and seeds
    behind flags that default off (`action="store_true"`). Defaults come from
    `add_argument(...)`, `click.option(...)`, function parameters (or the keyword a
    project call passes them), module constants, class-level fields and the
    configuration files a program loads (YAML/JSON from a literal path or an option's
    default, Hydra's `@hydra.main` configuration: `if cfg.get("seed"):` with `seed:
    null`); conditions on values the analysis cannot know (command-line overrides,
    environment variables) are not reported. A conditional expression
    (`torch.manual_seed(s) if s else None`) guards its seed like an `if`. A seed in the `else:` branch, or anywhere else on
    the path, that seeds the same libraries by default silences it. So does a default
    run that draws nothing from the libraries the condition leaves unseeded (`if
    FLAGS.seed: np.random.seed(FLAGS.seed); np.random.shuffle(ids)`: the draw is skipped
    with the seed, and the run gives the same result every time).

    Seeding calls that one condition skips are one cause and one finding, at the first
    of them, naming them all (the others are related locations, and the fix seeds them
    all). The finding is at the seeding call; the condition that skips it (the `if` line a
    reader looks for, e.g. simsiam's `if args.seed is not None:`) is its related
    location (JSON `related`, SARIF `relatedLocations`), and so is the definition of each
    command-line option the condition reads (`add_argument("--seed", ...)`), with its default,
    and the draws of the skipped libraries that a default run makes unseeded, in the
    order they run (the draws RPL101 would list had the program no seeding call there).

    ## Why is this bad?
    The seed is only applied when someone remembers to pass it; the default run, the
    one most people launch and compare, is not reproducible.

    ## Example
    ```python
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if args.seed is not None:
        torch.manual_seed(args.seed)
    model = torch.nn.Linear(10, 2)
    ```

    Use instead:
    ```python
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    model = torch.nn.Linear(10, 2)
    ```

    ## Fix safety
    Safe: the default path was unseeded, so seeding it gives a run the original could
    have produced; a run given a seed is unchanged.
    The fix adds an `else:` branch to the guarding `if` that makes the same call with
    the configured seed; an `if` that already has an `else`/`elif` needs a manual change.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    """

    code = "RPL104"
    message = "`{call}` runs only when `{condition}`, which is false with the default options, so a default run is unseeded"
    messages = {
        # several seeding calls skipped by one condition: one cause, one finding
        "group": "{calls} run only when `{condition}`, which is false with the default options, so a default run is unseeded",
    }
    fix_title = "Give the seed a default so the default run is seeded too"
    fix_applicability = Applicability.SAFE
    framework = "random, numpy, torch, tensorflow"

    VALID = [
        Valid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int, default=42)\n"
            "args = p.parse_args()\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n"
        ),
        Valid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\n"
            "args = p.parse_args()\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n"
            "else:\n    torch.manual_seed(0)\n"
        ),
        # the draw is skipped with the seed: a default run draws nothing
        Valid(
            "import argparse\n\nimport numpy as np\n\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int, default=0)\n"
            "args = p.parse_args()\nids = np.arange(10)\nif args.seed:\n    np.random.seed(args.seed)\n"
            "    np.random.shuffle(ids)\nnp.save('ids.npy', ids)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\n"
            "args = p.parse_args()\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n"
            "model = torch.nn.Linear(4, 2)\n",
            line=6,
            fixed=(
                "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\n"
                "args = p.parse_args()\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n"
                "else:\n    torch.manual_seed(0)\nmodel = torch.nn.Linear(4, 2)\n"
            ),
        ),
        Invalid(
            "import random\n\ndef main(seed=None):\n    if seed:\n        random.seed(seed)\n    print(random.random())\n\n"
            "if __name__ == '__main__':\n    main()\n",
            line=5,
        ),
        Invalid(
            "import argparse, torch\np = argparse.ArgumentParser()\n"
            "p.add_argument('--deterministic', action='store_true')\nargs = p.parse_args()\n"
            "if args.deterministic:\n    torch.manual_seed(0)\nmodel = torch.nn.Linear(4, 2)\n",
            line=6,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        found: dict[tuple[str, object], tuple[Blame, list[str]]] = {}
        # the draws each skipped seeding call leaves unseeded on a default run
        unseeded: dict[tuple[str, object], dict[tuple[str, object], Related]] = {}
        for program in ctx.programs:
            by_default = {lib for o in program.seeds if o.default_path for lib in o.seed.libs}
            for outcome in program.seeds:
                if outcome.blame is None or set(outcome.seed.libs) <= by_default:
                    continue
                blame = outcome.blame
                found.setdefault((blame.path, blame.span), (blame, []))[1].append(program.entry)
                draws = unseeded.setdefault((blame.path, blame.span), {})
                for draw in _draws_left_unseeded(program, set(outcome.seed.libs) - by_default):
                    draws.setdefault((draw.path, draw.draw.span), Related(
                        draw.path, draw.draw.span, "`{call}` {action} {rng}, unseeded on a default run".format(
                            **draw_fields(draw.draw))))
        guards = _guards(ctx)
        # the seeding calls one condition skips are one cause: one finding at the first;
        # so are those that several tests of the same condition skip in one file (`if
        # args.seed is not None:` before the model, and again before sampling)
        groups: dict[tuple[str, object], list[tuple[Blame, list[str]]]] = {}
        for blame, entries in found.values():
            groups.setdefault((blame.path, blame.condition), []).append((blame, entries))
        for (path, _), members in groups.items():
            if not any(unseeded.get((path, b.span)) for b, _ in members):
                # a default run draws nothing from the libraries the condition leaves
                # unseeded (the draws sit under the same condition: `if FLAGS.seed:
                # np.random.seed(FLAGS.seed); np.random.shuffle(ids)`): it gives the same
                # result every time
                continue
            members.sort(key=lambda m: (m[0].span.start_line, m[0].span.start_col))
            blame, entries = members[0]
            entries = list(dict.fromkeys(e for _, es in members for e in es))
            tests = dict.fromkeys(
                guard for b, _ in members if (guard := guards.get((b.path, b.span))) is not None
            )
            related = [Related(path, guard, "the condition that skips it with the default options") for guard in tests]
            related += [Related(path, b.span, f"`{b.call_text}` is skipped by the same condition") for b, _ in members[1:]]
            related += _options_read(ctx, entries, blame.options)
            # the draws that any of the skipped calls leaves unseeded, each once
            draws: dict[tuple[str, object], Related] = {}
            for b, _ in members:
                for at, draw in unseeded.get((path, b.span), {}).items():
                    draws.setdefault(at, draw)
            related += draws.values()
            fields = {"call": blame.call_text, "condition": blame.condition, "entry_points": entries, "related": related}
            if len(members) == 1:
                yield self.report(path, blame.span, **fields)
                continue
            texts = [f"`{b.call_text}`" for b, _ in members]
            calls = ", ".join(texts[:-1]) + " and " + texts[-1]
            if len(set(texts)) == 1:  # the same call twice: "`torch.manual_seed` (lines 9 and 14)"
                lines = [str(b.span.start_line) for b, _ in members]
                calls = f"{texts[0]} (lines {', '.join(lines[:-1])} and {lines[-1]})"
            yield self.report(
                path, blame.span, variant="group", calls=calls,
                also=[[b.span.start_line, b.span.start_col, b.span.end_line, b.span.end_col] for b, _ in members[1:]],
                **fields,
            )


def _draws_left_unseeded(program: Program, libraries: set[str]) -> Iterator[DrawOutcome]:
    """The lasting draws of ``libraries`` (seeded only where a condition holds) that the
    program's default run makes, in execution order (those before the first seeding call
    are RPL101's, seeded too late)."""
    return (o for o in lasting_draws(program) if o.library in libraries and not o.later_seed)


def _options_read(ctx: CheckContext, entries: list[str], options: tuple[str, ...]) -> list[Related]:
    """Where the options a condition reads (`args.seed`, `cfg["seed"]`) are defined in
    the programs of ``entries``, with their defaults: what a user changes."""
    out: dict[tuple[str, object], Related] = {}
    for program in ctx.programs:
        if program.entry not in entries:
            continue
        for path in program.modules:
            facts = ctx.facts[path]
            for dest in options:
                span = facts.option_spans.get(dest)
                if span is not None:
                    flag = facts.option_flags.get(dest, f"--{dest}").removesuffix(" ...")
                    default = facts.arg_defaults.get(dest)
                    out.setdefault((path, span), Related(path, span, f"the option `{flag}` is defined here, {default!r} by default"))
    return list(out.values())


def _guards(ctx: CheckContext) -> dict[tuple[str, object], object]:
    """(path, seeding call span) -> span of its innermost condition that defaults decide
    (the `if` a reader looks for; recall lists and users name that line)."""
    out: dict[tuple[str, object], object] = {}
    for program in ctx.programs:
        for outcome in program.seeds:
            conds = [c for c in outcome.seed.conds if getattr(c, "span", None) is not None]
            if conds:
                out[(outcome.path, outcome.seed.span)] = conds[-1].span
    return out


# ----------------------------------------------------------------------------- fix


@ConditionalSeed.fix_planner
def _plan_conditional(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    blame = None
    for program in planner.ctx.programs:
        for outcome in program.seeds:
            if outcome.blame is not None and outcome.blame[0] == d.path and outcome.blame[1] == d.span:
                blame = outcome.blame
    if blame is None:
        return None
    condition = blame[3]
    literal = literal_seed(planner.seed)

    def seeding_copy(statement: cst.SimpleStatementLine, call: cst.Call) -> cst.CSTNode:
        """The reported statement with the configured seed: what the `else:` runs."""
        keyword, position = seed_argument(call)
        new_call = fixes.set_argument(call, literal, keyword=keyword, position=position)
        return fixes.replace_nodes(cst.Module([statement]), {id(call): lambda _: new_call}).body[0]

    # the other seeding calls the same condition skips (one finding for all of them)
    spans = [d.span, *(Span(*at) for at in data_field(d, "also") or ())]

    def guarded_copy(m: cst.Module, span: Span) -> Optional[tuple[cst.If, cst.CSTNode]]:
        located = fixes.find_call(m, span)
        if located is None or not isinstance(located.node, cst.Call):
            return None
        statement = located.statement()
        if not isinstance(statement, cst.SimpleStatementLine):
            return None
        for parent in reversed(located.parents):
            if isinstance(parent, cst.If) and node_code(parent.test).strip() == condition.strip():
                return parent, seeding_copy(statement, located.node)
        return None

    def locate(m: cst.Module) -> Optional[tuple[cst.If, list[cst.CSTNode]]]:
        found = [guarded_copy(m, span) for span in spans]
        if found[0] is None:
            return None
        parent = found[0][0]
        copies = [copy for f in found if f is not None and f[0] is parent for copy in (f[1],)]
        if parent.orelse is None:
            return parent, copies
        # Another guarded seeding call of the same `if` may have made its `else:`
        # already: these join it, unless they are there (then there is nothing to fix).
        # An `elif` is the user's logic.
        orelse = parent.orelse
        if not isinstance(orelse, cst.Else) or not isinstance(orelse.body, cst.IndentedBlock):
            return None
        copies = [c for c in copies if not has_statement(orelse, node_code(c).strip())]
        return (parent, copies) if copies else None

    def add_else(m: cst.Module, found: tuple[cst.If, list[cst.CSTNode]]) -> cst.Module:
        if_node, copies = found
        new_if = fixes.add_else_branch(if_node, copies)  # type: ignore[arg-type]
        return fixes.replace_nodes(m, {id(if_node): lambda _: new_if})

    title = f"Seed with the configured seed ({planner.seed}) when `{condition}` is false"
    return located_action(planner, d, ("else", d.span), title, locate, add_else)
