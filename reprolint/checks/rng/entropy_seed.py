from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.facts import Seed
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.rng._common import draw_fields, library_list, module_seeds, none_default_flag
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, literal_seed
from reprolint.fixes.seeding import seed_argument
from reprolint.model import Applicability, Diagnostic, Related, Span


class EntropySeed(Rule):
    """
    ## What it does
    Finds seeds taken from time, OS entropy, process ids or string hashes.

    It looks at global seeding calls (`torch.manual_seed`, `np.random.seed`,
    `random.seed`, `tf.random.set_seed`, framework seeders such as `seed_everything`,
    and calls to a project seeding helper like `set_seed(...)`) whose seed comes from
    an entropy source: `time.time()`, `time.time_ns()`, `datetime.now()`, `os.urandom`, `secrets`,
    `uuid`, `os.getpid()` or `hash()` of a string — directly, through a variable
    assigned in the same scope, or through an argparse option whose default is one.
    `random.seed()` and `np.random.seed()` without an argument seed from OS entropy
    and are reported too, and so is a seed drawn from a global generator before
    anything seeds it (`opt.manualSeed = random.randint(1, 10000)` when no seed is
    given: one finding at the draw, the seeding calls as related locations), and a
    seed read from an option that is None by default (`np.random.seed(args.seed)` with `--seed` defaulting to None, directly or
    through a project helper such as `set_global_seeds(args.seed)` whose seeding calls
    all take None as "seed from OS entropy"; a helper that tests the seed for None is
    RPL104's). A reseed from OS entropy without an argument (`np.random.seed(None)`,
    `random.seed()`) that every program running it follows with no draw of the
    libraries it seeds is not reported (restoring randomness at the end of a helper
    that shuffled a palette with a fixed seed, then only inference): it changes nothing
    those programs produce. One no program runs is library code, reported.

    ## Why is this bad?
    The program looks seeded but gets a new seed on every run, so no run can be
    repeated; `hash()` of a string changes per process unless `PYTHONHASHSEED` is set.

    ## Example
    ```python
    import time, torch
    torch.manual_seed(int(time.time()))
    ```

    Use instead:
    ```python
    import torch
    torch.manual_seed(1234)  # or a --seed option with a fixed default, logged with the run
    ```

    ## Fix safety
    Safe: the seed came from entropy, so the configured seed gives a run the original
    could have produced.
    The fix passes the configured seed (`seed` in the configuration, default 0) instead
    of the entropy; for an argparse option whose default is entropy or None, the
    option's default becomes the configured seed, so `--seed` still overrides it (a
    seed key of a configuration file is the user's to set: no automatic fix). A seed
    drawn from an unseeded generator has no automatic fix either: which fixed value
    replaces the draw is the user's choice.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    - https://docs.python.org/3/reference/datamodel.html#object.__hash__
    """

    code = "RPL103"
    message = "`{call}` seeds {libraries} from {source}, which differs on every run"
    messages = {
        "no-seed": "`{call}()` without a seed seeds {libraries} from OS entropy",
        "no-seed-versioned": (
            "`{call}()` without a seed seeds {libraries} from OS entropy in {version} ({source}; "
            "later versions use a fixed seed)"
        ),
        "drawn": "`{call}` picks the seed of {libraries} from {rng} before it is seeded, so the seed differs on every run",
        "option-none": "`{call}` seeds {libraries} from OS entropy on a default run: its seed {flag} defaults to None",
    }
    fix_title = "Seed from the configured seed instead of {source}"
    fix_applicability = Applicability.SAFE
    framework = "random, numpy, torch, tensorflow"

    VALID = [
        Valid("import torch\ntorch.manual_seed(1234)\n"),
        Valid("import time\nimport torch\nstart = time.time()\ntorch.manual_seed(0)\n"),
        Valid(
            "import argparse, random\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int, default=3)\nargs = p.parse_args()\nrandom.seed(args.seed)\n"
        ),
        # drawn from a generator seeded first: the same seed on every run
        Valid("import random\nimport numpy as np\nrandom.seed(1)\ns = random.randint(0, 99)\nnp.random.seed(s)\n"),
        # the option's None is replaced before the seed call
        Valid(
            "import argparse\nimport numpy as np\np = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\n"
            "args = p.parse_args()\nif args.seed is None:\n    args.seed = 3\nnp.random.seed(args.seed)\n"
        ),
        # the None default is tested before seeding: RPL104's
        Valid(
            "import argparse, random\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int)\nargs = p.parse_args()\n"
            "if args.seed is not None:\n    random.seed(args.seed)\n"
        ),
        # torch.manual_seed(None) raises: a helper that makes it is not run with None
        Valid(
            "import argparse, random, torch\n\ndef set_seed(s):\n    random.seed(s)\n    torch.manual_seed(s)\n\n"
            "if __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
            "    p.add_argument('--seed', type=int, default=None)\n    args = p.parse_args()\n    set_seed(args.seed)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import time\nimport torch\ntorch.manual_seed(int(time.time()))\n",
            line=3,
            fixed="import time\nimport torch\ntorch.manual_seed(0)\n",
        ),
        Invalid("import os\nimport numpy as np\nseed = os.getpid()\nnp.random.seed(seed)\n", line=4),
        Invalid("import random\nrandom.seed()\nprint(random.random())\n", line=2, message="OS entropy"),
        Invalid(
            "import argparse, time, torch\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int, default=int(time.time()))\nargs = p.parse_args()\n"
            "torch.manual_seed(args.seed)\n",
            line=5,
        ),
        Invalid(
            "import time\nfrom helpers import set_seed\n\nif __name__ == '__main__':\n"
            "    set_seed(time.time_ns())\n",
            line=5,
            files=(("helpers.py", "import random\n\ndef set_seed(s):\n    random.seed(s)\n"),),
        ),
        Invalid(
            "import argparse, random, torch\np = argparse.ArgumentParser()\n"
            "p.add_argument('--manualSeed', type=int)\nopt = p.parse_args()\n"
            "if opt.manualSeed is None:\n    opt.manualSeed = random.randint(1, 10000)\n"
            "random.seed(opt.manualSeed)\ntorch.manual_seed(opt.manualSeed)\nw = torch.randn(3)\n",
            line=6,
            message="picks the seed of `random` and torch from the `random` module's global RNG before it is seeded",
        ),
        Invalid(
            "import argparse\nimport numpy as np\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int, default=None)\nargs = p.parse_args()\n"
            "np.random.seed(args.seed)\n",
            line=6,
            message="`--seed` defaults to None",
            fixed=(
                "import argparse\nimport numpy as np\np = argparse.ArgumentParser()\n"
                "p.add_argument('--seed', type=int, default=0)\nargs = p.parse_args()\n"
                "np.random.seed(args.seed)\n"
            ),
        ),
        Invalid(
            "import argparse, random\nimport numpy as np\n\ndef set_global_seeds(i):\n"
            "    np.random.seed(i)\n    random.seed(i)\n\n"
            "if __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
            "    p.add_argument('--seed', help='RNG seed', type=int)\n    args = p.parse_args()\n"
            "    set_global_seeds(args.seed)\n",
            line=12,
            message="NumPy and `random` from OS entropy on a default run",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # `args.seed` is looked up in the argparse defaults of the programs the module
        # belongs to (a library module: its own).
        arg_entropy: dict[str, dict[str, str]] = {
            path: dict(facts.arg_entropy) for path, facts in ctx.facts.items()
        }
        for program in ctx.programs:
            for path in program.modules:
                arg_entropy[path].update(program.arg_entropy)
        # a reseed from OS entropy (`np.random.seed(None)`, `random.seed()`) that the
        # programs run with no draw of its libraries after it changes nothing they
        # produce: it restores randomness at the end of a helper that seeded for itself,
        # then only inference runs; one no program runs is library code
        drawn_after: dict[tuple[str, Any], bool] = {}
        for program in ctx.programs:
            for outcome in program.seeds:
                key = (outcome.path, outcome.seed.span)
                drawn_after[key] = drawn_after.get(key, False) or key in program.seeds_drawn_after
        for path, facts in ctx.facts.items():
            for seed in module_seeds(facts):
                if seed.no_seed and not seed.entropy and drawn_after.get((path, seed.span), True) is False:
                    continue  # a reseed from OS entropy that leaves the generator as it was
                source = self._source(seed.entropy, seed.entropy_ref, arg_entropy[path])
                fields: dict[str, Any] = {
                    "call": seed.text, "libraries": library_list(seed.libs), "seeded_libraries": tuple(seed.libs),
                }
                if source is not None:
                    yield self.report(path, seed.span, **source, **fields)
                elif seed.no_seed:
                    version = _entropy_version(ctx, path, seed)
                    if version is None:
                        continue  # that version seeds with a fixed value instead
                    if version:
                        yield self.report(path, seed.span, variant="no-seed-versioned", version=version[0],
                                          source=version[1], **fields)
                    else:
                        yield self.report(path, seed.span, variant="no-seed", **fields)
        seen: set[tuple[str, object]] = set()
        for program in ctx.programs:
            for path, call, libs in program.helper_calls:
                source = self._source(call.entropy, call.entropy_ref, program.arg_entropy)
                if source is None or (path, call.span) in seen:
                    continue
                seen.add((path, call.span))
                yield self.report(
                    path, call.span, **source, call=call.text, libraries=library_list(libs),
                    seeded_libraries=tuple(sorted(libs)), entry_points=[program.entry],
                )
        yield from self._none_by_default(ctx, seen)
        yield from self._drawn_seeds(ctx)

    def _drawn_seeds(self, ctx: CheckContext) -> Iterator[Finding]:
        """Seeds taken from an unseeded global-RNG draw (`opt.manualSeed =
        random.randint(1, 10000)` when no seed is given): one finding at the draw, with
        the seeding calls that take it as related locations."""
        found: dict[tuple[str, Span], dict[str, Any]] = {}
        for program in ctx.programs:
            unseeded = {(o.path, o.draw.span): o for o in program.draws if not o.seeded_before}
            # (path, call, libraries): seeding calls, and project helpers that seed
            takers = [(o.path, o.seed, o.seed.libs) for o in program.seeds if o.default_path]
            takers += [(h.path, h.call, tuple(h.libraries)) for h in program.helper_calls]
            for path, call, libs in takers:
                if call.drawn_from is None:
                    continue
                draw = unseeded.get((path, call.drawn_from))
                if draw is None:
                    continue
                entry = found.setdefault((path, call.drawn_from), {"draw": draw, "seeds": [], "entries": []})
                if all(c.span != call.span for _, c, _ in entry["seeds"]):
                    entry["seeds"].append((path, call, libs))
                if program.entry not in entry["entries"]:
                    entry["entries"].append(program.entry)
        for (path, span), entry in found.items():
            draw, seeds = entry["draw"], entry["seeds"]
            libs = tuple(sorted({lib for _, _, taken in seeds for lib in taken}))
            related = [Related(p, c.span, f"`{c.text}` takes the drawn seed here") for p, c, _ in seeds]
            yield self.report(
                path, span, variant="drawn", call=draw.draw.text + "(...)", source=f"`{draw.draw.text}(...)`",
                rng=draw_fields(draw.draw)["rng"], libraries=library_list(libs), seeded_libraries=libs,
                entry_points=entry["entries"], related=related,
            )

    def _none_by_default(self, ctx: CheckContext, seen: set[tuple[str, object]]) -> Iterator[Finding]:
        """Seeds read from an option that is None by default, given to seeders that take
        None as "seed from OS entropy": directly, or through a project helper all of
        whose own seeding calls do so unconditionally."""
        for program in ctx.programs:
            for outcome in program.seeds:
                seed = outcome.seed
                if not seed.entropy_if_none or seed.entropy or seed.entropy_ref is None:
                    continue
                if not outcome.default_path or (outcome.path, seed.span) in seen:
                    continue
                flag = none_default_flag(program, seed.entropy_ref)
                if flag is None or _entropy_version(ctx, outcome.path, seed) is None:
                    continue
                seen.add((outcome.path, seed.span))
                yield self.report(
                    outcome.path, seed.span, variant="option-none", call=f"{seed.text}(...)", flag=flag,
                    option=seed.entropy_ref, libraries=library_list(seed.libs),
                    seeded_libraries=tuple(seed.libs), entry_points=[program.entry],
                )
            for path, call, _ in program.helper_calls:
                if call.entropy or call.entropy_ref is None or (path, call.span) in seen:
                    continue
                seeded = self._seeded_from_none(ctx, path, call.target)
                option = _bound_option(call, *seeded[1:]) if seeded is not None else None
                flag = none_default_flag(program, option) if option is not None else None
                libs = seeded[0] if flag is not None and seeded is not None else None
                if not libs:
                    continue
                seen.add((path, call.span))
                yield self.report(
                    path, call.span, variant="option-none", call=f"{call.text}(...)", flag=flag, option=option,
                    libraries=library_list(libs), seeded_libraries=tuple(sorted(libs)), entry_points=[program.entry],
                )

    @staticmethod
    def _seeded_from_none(ctx: CheckContext, path: str, target: str) -> Optional[tuple[set[str], str, tuple[str, ...]]]:
        """The libraries a project helper seeds from OS entropy when its seed is None: its
        own seeding calls all take a non-literal seed, unconditionally, and all take None
        as entropy (`torch.manual_seed(None)` raises, so such a helper is not run with
        None). None when the helper does anything else with its seed. With them: the one
        parameter its seeding calls all take (`np.random.seed(seed)`; "" when they take
        something else, such as a value computed from it), and the parameters a
        positional argument binds."""
        resolved = ctx.index.resolve_call(path, target)
        if resolved is None:
            return None
        file, qualname = resolved
        function = ctx.facts[file].functions.get(qualname)
        if function is None:
            return None
        seeds = [e for e in function.events if isinstance(e, Seed)]
        if not seeds or any(s.conds or s.literal_seed or s.no_seed or not s.entropy_if_none for s in seeds):
            return None
        if any(_entropy_version(ctx, file, s) is None for s in seeds):
            return None  # a seeder that takes None as a fixed seed in the declared version
        if any(s.seed_name is None and s.entropy_ref is not None for s in seeds):
            # a seed read from an object's attribute (`tf.set_random_seed(cfg.RNG_SEED)`,
            # `np.random.seed(args.seed)`): that value decides it, not what the call passes
            # (the seeding call itself is judged where it runs: `program.seeds`)
            return None
        names = {s.seed_name for s in seeds}
        param = next(iter(names)) if len(names) == 1 and None not in names else ""
        if param not in function.positional:
            param = ""  # a value the helper computes (`myseed = i + 1000 * rank`)
        return {lib for s in seeds for lib in s.libs}, param, function.positional

    @staticmethod
    def _source(entropy: Optional[str], ref: Optional[str], arg_entropy: dict[str, str]) -> Optional[dict[str, Any]]:
        """``source`` (how the message names the entropy) and, for an option whose
        default is entropy, ``option`` (its argparse dest)."""
        if entropy:
            return {"source": entropy, "option": None}
        if ref is not None and ref in arg_entropy:
            return {"source": f"the default of `--{ref.replace('_', '-')}` ({arg_entropy[ref]})", "option": ref}
        return None


def _entropy_version(ctx: CheckContext, path: str, seed: Seed) -> Optional[tuple[str, str] | tuple[()]]:
    """Whether ``seed`` takes a missing or None seed as OS entropy in the version of its
    library that the project of ``path`` declares: ``()`` for a seeder that always does,
    (version, where declared) for one that does only before some version (Lightning's
    `seed_everything` before 2.2) when the declaration is older, None when it is not
    (nothing declared: the newest, which uses a fixed seed)."""
    if not seed.entropy_until:
        return ()
    from reprolint.analysis.declared import declared_before

    library, _, until = seed.entropy_until.partition("<")
    older = declared_before(library, until, path, ctx.index.roots)
    if older is None:
        return None
    assumed, declared = older
    written = next((d.written for d in declared if d.spec), library)
    return (f"{library.capitalize()} {assumed.version}", f"declared as `{written}`")


# ----------------------------------------------------------------------------- fix


@EntropySeed.fix_planner
def _plan_entropy_seed(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    if data_field(d, "variant") == "drawn":
        return None  # which fixed value the user wants in place of the draw is theirs to say
    literal = literal_seed(planner.seed)
    option = data_field(d, "option")  # the argparse dest whose default is the entropy
    if option:
        return _plan_option_default(planner, d, str(option))
    if fixes.find_call(planner.module(d.path) or cst.Module([]), d.span) is None:
        return None

    def change(call: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(call, cst.Call)
        keyword, position = seed_argument(call)
        return fixes.set_argument(call, literal, keyword=keyword, position=position)

    return FixAction(
        d.path, ("entropy", d.span), planner.applicability(d.code),
        f"Seed with the configured seed ({planner.seed})",
        lambda m: fixes.rewrite(m, d.span, change),
    )


def _program_modules(planner: FixPlanner, path: str) -> list[str]:
    """The modules of the programs that run ``path`` (``path`` alone for library code):
    where an option it reads can be declared."""
    modules = [m for p in planner.ctx.programs if path in p.modules for m in p.modules]
    return list(dict.fromkeys([path, *modules]))


def _option_call(module: cst.Module, dest: str) -> Optional[cst.Call]:
    for node, _ in fixes.walk(module):
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("add_argument", "option")
        ):
            for arg in node.args:
                if arg.keyword is None and isinstance(arg.value, cst.SimpleString):
                    flag = arg.value.evaluated_value
                    if isinstance(flag, str) and flag.lstrip("-").replace("-", "_") == dest:
                        # an option without `default=` defaults to None: the fix adds one
                        if fixes.find_argument(node, "default", None) is not None or fixes.find_argument(node, "action", None) is None:
                            return node
    return None


def _plan_option_default(planner: FixPlanner, d: Diagnostic, dest: str) -> Optional[FixAction]:
    candidates = [d.path] + [
        p for p in _program_modules(planner, d.path)
        if p != d.path and (dest in planner.ctx.facts[p].arg_entropy or dest in planner.ctx.facts[p].arg_defaults)
    ]
    for path in candidates:
        module = planner.module(path)
        if module is None or _option_call(module, dest) is None:
            continue
        literal = literal_seed(planner.seed)

        def apply(m: cst.Module) -> cst.Module:
            call = _option_call(m, dest)
            if call is None:
                return m
            return fixes.replace_nodes(
                m, {id(call): lambda c: fixes.add_keyword(c, "default", literal, replace=True)}
            )

        return FixAction(
            path, ("option-default", dest), planner.applicability(d.code),
            f"Give `--{dest.replace('_', '-')}` the configured seed ({planner.seed}) as its default",
            apply,
        )
    return None


@EntropySeed.fix_prechecker
def _entropy_seed_available(planner: FixPlanner, d: Diagnostic) -> Optional[bool]:
    if data_field(d, "variant") == "drawn":
        return False
    dest = data_field(d, "option")
    if not dest:
        return True  # the reported call gets the configured seed
    if data_field(d, "variant") == "option-none":
        return any(_option_call(m, str(dest)) is not None for m in map(planner.module, _program_modules(planner, d.path)) if m is not None)
    return any(dest in facts.arg_entropy for facts in planner.ctx.facts.values())


def _bound_option(call: Any, param: str, positional: tuple[str, ...]) -> Optional[str]:
    """The option a project call passes to the helper's seed parameter ``param``
    (``SequenceFolder(args.data, seed=args.seed)``: "seed", not the dataset path it
    passes first), by keyword or by place; None where it passes none, or something else.
    A helper's seed that is no parameter of its own (""): the call's first option, as the
    call is all that decides it."""
    if not param:
        return call.entropy_ref  # type: ignore[no-any-return]
    for name, tree in call.bindings:
        if name.startswith("#") and name[1:].isdigit():
            index = int(name[1:]) + (1 if positional[:1] in (("self",), ("cls",)) else 0)
            name = positional[index] if index < len(positional) else ""
        if name == param:
            return tree[1] if tree[0] == "attr" else None  # type: ignore[no-any-return]
    return None
