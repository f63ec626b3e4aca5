from __future__ import annotations

from typing import Iterator

from reprolint.analysis.program import Blame
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.model import Applicability


class ConditionalSeed(Rule):
    """
    ## What it does
    Finds seeding guarded by a condition that is false with the program's default
    options, so a run with the defaults is unseeded.

    Typical cases: `if args.seed is not None:` or
    `if args.seed:` where the argparse or click option defaults to `None` (or `0`),
    `if seed is not None:` where `seed` is a parameter defaulting to `None`, and seeds
    behind flags that default off (`action="store_true"`). Defaults come from
    `add_argument(...)`, `click.option(...)`, function parameters, module constants and
    class-level fields; conditions on values the analysis cannot know (a Hydra config,
    a YAML file) are not reported. A seed in the `else:` branch, or anywhere else on
    the path, that seeds the same libraries by default silences it.

    ## Why is this bad?
    The seed is only applied when someone remembers to pass it; the default run, the
    one most people launch and compare, is not reproducible.

    ## Example
    ```python
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if args.seed is not None:
        torch.manual_seed(args.seed)
    ```

    Use instead:
    ```python
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    ```

    ## Fix safety
    Unsafe: giving the default path a seed changes the random stream of default runs.
    The fix adds an `else:` branch to the guarding `if` that makes the same call with
    the configured seed; an `if` that already has an `else`/`elif` needs a manual change.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    """

    code = "RPL104"
    message = "`{call}` runs only when `{condition}`, which is false with the default options, so a default run is unseeded"
    fix_title = "Give the seed a default so the default run is seeded too"
    fix_applicability = Applicability.UNSAFE
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
    ]
    INVALID = [
        Invalid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\n"
            "args = p.parse_args()\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n",
            line=6,
            fixed=(
                "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\n"
                "args = p.parse_args()\nif args.seed is not None:\n    torch.manual_seed(args.seed)\n"
                "else:\n    torch.manual_seed(0)\n"
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
            "if args.deterministic:\n    torch.manual_seed(0)\n",
            line=6,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        found: dict[tuple[str, object], tuple[Blame, list[str]]] = {}
        for program in ctx.programs:
            by_default = {lib for o in program.seeds if o.default_path for lib in o.seed.libs}
            for outcome in program.seeds:
                if outcome.blame is None or set(outcome.seed.libs) <= by_default:
                    continue
                blame = outcome.blame
                found.setdefault((blame.path, blame.span), (blame, []))[1].append(program.entry)
        for blame, entries in found.values():
            yield self.report(
                blame.path, blame.span, call=blame.call_text, condition=blame.condition,
                entry_points=entries,
            )
