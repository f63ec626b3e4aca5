from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.site_runs import DEMOS, LIBRARY_CODE, SKIPPED, sites_run, uncalled_helper, unimported_module
from reprolint.analysis.usage_events import EnvironmentDraw
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.rng._common import module_seeds, none_default_flag
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, node_code, together
from reprolint.fixes.seeding import ensure_install, entry_action, seed_argument, seed_value
from reprolint.model import Applicability, Diagnostic


class UnseededRngInstance(Rule):
    """
    ## What it does
    Finds new random generators seeded from OS entropy.

    These are `np.random.default_rng()`,
    `np.random.RandomState()`, `np.random.SeedSequence()`, bit generators such as
    `np.random.PCG64()` without a seed (or with `None`), `random.Random()`,
    `torch.seed()`, `torch.Generator().seed()` and `g.seed()` on a torch generator,
    and JAX keys (`jax.random.PRNGKey`, `jax.random.key`) made from an entropy source
    such as `time.time()`. A generator given an entropy-valued seed
    (`default_rng(int(time.time()))`) is reported too.

    It is reported wherever it appears, in programs and in library code alike (a
    global seed does not reach a generator that takes its own entropy), except in test
    modules (what a test runner collects, `conftest.py`, a `tests/` folder's helpers)
    unless `include-tests`, and in a module of a package the programs import that none of
    them imports (see RPL402). Not reported: a generator built as a parameter's
    default that every call of the project passes (by keyword or by place, no
    `**kwargs` spread: `def random_walk(self, n, rand=random.Random())` always called
    with `rand=rand`): the default never serves; a
    generator built without a seed whose next use in the same block seeds it in place
    (`rs = np.random.RandomState()` then `rs.seed(1)`, `g = torch.Generator()` then
    `g.manual_seed(s)`): nothing is drawn before the seed; a generator built
    without a seed into a name its function never reads (`rs = np.random.RandomState()`
    left unused): nothing is drawn from it; and a placeholder held in
    `self.attr` (or a module-level name) that a function of the module seeds in place
    (`self.rng.seed(s)`, `def seed(s): np_random.seed(s)`) or, for an attribute,
    replaces with a generator built from a seed (`self.rng = random.Random(seed +
    epoch)` in `__iter__`): the draws see the seeded stream. The order of functions is
    not followed, so a draw through a path that skips the reseed goes unreported. A seed read from a
    command-line option whose default is None (`np.random.default_rng(args.seed)` with
    `--seed` defaulting to None) is reported where a program that runs the call leaves
    the option at that default: its default run takes OS entropy (no automatic fix:
    the option's default is the user's to choose).

    Reinforcement-learning environments are such generators too. A gym/gymnasium
    environment and each of its spaces own a generator that `random.seed`,
    `np.random.seed`, `torch.manual_seed` and `seed_everything` never reach:
    `env.reset()` without `seed=` seeds the environment from OS entropy on its first
    call, and `env.action_space.sample()` draws from the space's generator unless
    `env.action_space.seed(s)` ran. Where no module of the program seeds an
    environment (`reset(seed=...)`, gym's `env.seed(s)`, a factory given `seed=` such
    as `envpool.make(..., seed=s)`), the first reset per environment that runs is
    reported, and where none seeds an action space, the first sample per space that runs
    (a call on a branch that every program reaching it skips with the default options,
    `if args.random_agent:`, does not, nor one only demo programs run) (seeding the
    environment does not seed its spaces: gym issue 681; dmc2gym's `make` does, its wrapper seeds them when built), whether or not the program seeds other libraries:
    each generator is a cause of its own (in a module no program runs, only where the
    module seeds something else; `observation_space.sample()` is not reported: it
    is a dummy input for shape inference, and neither is an action sample read only for its
    type or shape, `isinstance(env.action_space.sample(), int)`; nor is the `reset()` of an object of a class
    the module defines itself, a toy MDP's). A space's `sample()` under a declared gym
    before 0.11 draws from the one generator all spaces share, which gym seeds with 0 when
    imported: not reported. Where the project declares OpenAI gym before
    0.22 (requirements, setup, pyproject...), an environment seeds itself from OS
    entropy when it is built and `reset()` takes no seed: the message says so, with the
    version and where it is declared, and names `env.seed(s)`; where the project declares
    no gym version, the message names both moments (a first `reset()` without `seed=` from
    0.22 on, the environment's making before). There is no automatic fix
    (the seed belongs in the first `reset` only; later resets continue its stream).

    ## Why is this bad?
    Each run gets a different stream, and `np.random.seed(...)` or
    `torch.manual_seed(...)` at the entry point does not change that, so data
    augmentation, sampling or initialisation done with this generator differs between
    otherwise identical runs.

    ## Example
    ```python
    import numpy as np
    rng = np.random.default_rng()
    ```

    Use instead:
    ```python
    import numpy as np
    rng = np.random.default_rng(seed)
    ```

    ## Fix safety
    Safe: the generator was seeded from OS entropy, so any seed gives a run the original
    could have produced (unsafe only in the `hooks` style where the `install()` the fix
    adds turns deterministic mode on over an op without a deterministic implementation,
    as for RPL101). The
    `hooks` fix style passes `reprolint.runtime.seed("<site>")` (the site is the file,
    the enclosing function and the callee, so it survives edits elsewhere), which
    derives the seed from the run's master seed and records it so a run can be
    replayed; the `inline` style passes the configured seed. `g.seed()` and
    `torch.seed()` used as statements become `g.manual_seed(...)` and
    `torch.manual_seed(...)`; when their return value is used, for
    `random.SystemRandom()` (which ignores seeds), and for a seed read from an option
    left at None (the option's default is the user's to change), there is no automatic
    fix.

    ## References
    - https://numpy.org/doc/stable/reference/random/generator.html
    - https://docs.python.org/3/library/random.html#random.Random
    - https://pytorch.org/docs/stable/generated/torch.seed.html
    """

    code = "RPL102"
    message = "`{call}()` is seeded from OS entropy"
    messages = {
        "none": "`{call}(None)` is seeded from OS entropy",
        "option": "`{call}({value})` is seeded from OS entropy on a default run: {flag} defaults to None",
        "entropy": "`{call}(...)` is seeded from {source}, which differs on every run",
        "reseed": "`{call}()` reseeds a torch generator from OS entropy",
        "env-reset": (
            "`{call}()` without `seed=` seeds the environment's own generator from OS entropy; "
            "the program's global seeds do not reach it"
        ),
        "env-reset-undeclared": (
            "`{call}()` starts from the environment's own generator, which is seeded from OS entropy "
            "unless the program seeds the environment (`reset(seed=...)`, or `env.seed(...)` before gym 0.26); "
            "the program never seeds it, and its global seeds do not reach it"
        ),
        "env-reset-old": (
            "`{call}()` starts from the environment's own generator, which {version} ({declared}) "
            "seeds from OS entropy when the environment is built (its `reset()` takes no seed); "
            "the program never calls `env.seed(s)`, and its global seeds do not reach it"
        ),
        "env-space": (
            "`{call}()` draws from the space's own generator, seeded from OS entropy; "
            "call `{space}.seed(...)` first (global seeds do not reach it)"
        ),
    }
    fix_title = "Pass a seed to `{call}`"
    fix_applicability = Applicability.SAFE
    framework = "random, numpy, torch, jax"

    VALID = [
        Valid("import numpy as np\nrng = np.random.default_rng(42)\n"),
        Valid("import numpy as np\n\ndef make(seed):\n    return np.random.RandomState(seed)\n"),
        Valid("import random\nr = random.Random(7)\n"),
        Valid("import jax\nkey = jax.random.PRNGKey(0)\n"),
        Valid("import torch\ng = torch.Generator()\ng.manual_seed(3)\n"),
        Valid("import numpy as np\nrs = np.random.RandomState()\nrs.seed(1)\nx = rs.rand()\n"),
        Valid("import numpy as np\n\ndef master(n):\n    rs = np.random.RandomState()\n    return n * 2\n"),
        Valid(
            "import random\nclass Shards:\n    def __init__(self, seed):\n        self.seed = seed\n"
            "        self.rng = random.Random()\n    def __iter__(self):\n"
            "        self.rng = random.Random(self.seed + 1)\n        yield self.rng.randint(0, 9)\n"
        ),
        Valid(
            "import numpy\nnp_random = numpy.random.RandomState()\n"
            "def seed(s):\n    np_random.seed(s)\n"
        ),
        Valid(
            "import argparse\nimport numpy as np\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int, default=0)\nargs = p.parse_args()\n"
            "rng = np.random.default_rng(args.seed)\n"
        ),
        Valid(
            "import argparse\nimport numpy as np\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int, default=None)\nargs = p.parse_args()\n"
            "class Sampler:\n    def __init__(self):\n        self.seed = 3\n"
            "        self.rng = np.random.default_rng(self.seed)\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import gymnasium as gym\nimport torch\n\ndef main():\n    env = gym.make('CartPole-v1')\n"
            "    obs, _ = env.reset()\n    policy = torch.nn.Linear(4, 2)\n\nif __name__ == '__main__':\n    main()\n",
            line=6,
            message="`env.reset()` without `seed=`",
        ),
        Invalid(
            "import numpy as np\nrng = np.random.default_rng()\n",
            line=2,
            fixed=(
                "import numpy as np\nimport reprolint.runtime\n\n"
                "rng = np.random.default_rng(reprolint.runtime.seed(\"main.py:<module>:np.random.default_rng\"))\n"
            ),
        ),
        Invalid("from numpy.random import default_rng\nrng = default_rng(None)\n", line=2),
        Invalid("import random\nr = random.Random()\n", line=2),
        Invalid("import numpy as np\n\ndef worker(n):\n    rs = np.random.RandomState()\n    return rs.randn(n)\n", line=4),
        Invalid("import torch\ng = torch.Generator()\ng.seed()\n", line=3),
        Invalid("import time\nimport jax\nkey = jax.random.PRNGKey(int(time.time()))\n", line=3, message="time.time()"),
        Invalid("import numpy as np\nss = np.random.SeedSequence()\n", line=2),
        Invalid("import random\nr = random.Random()\nx = r.random()\nr.seed(1)\n", line=2),
        Invalid(
            "import random\nclass Shards:\n    def __init__(self):\n        self.rng = random.Random()\n"
            "    def __iter__(self):\n        self.rng = random.Random(None)\n        yield self.rng.random()\n",
            line=4,
        ),
        Invalid(
            "import argparse\nimport numpy as np\np = argparse.ArgumentParser()\n"
            "p.add_argument('--seed', type=int, default=None)\nargs = p.parse_args()\n"
            "rng = np.random.default_rng(args.seed)\n",
            line=6,
            message="`--seed` defaults to None",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        environment_runs = sites_run(ctx, EnvironmentDraw)
        for path, facts in ctx.facts.items():
            if ctx.index.is_test(path) and not ctx.settings.include_tests:
                continue  # a test's generators and environments are fixtures, not runs
            if unimported_module(ctx, path):
                continue  # a module of the programs' package that none of them imports
            reported: set[str] = set()  # environments and spaces reported in this module
            for finding in facts.findings:
                if finding.code != self.code:
                    continue
                variant = str(finding.data.get("variant", ""))
                entries: tuple[str, ...] = ()  # the programs that run an environment's site
                data = {k: v for k, v in finding.data.items() if k not in ("in_function", "default_of")}
                if "default_of" in finding.data and _always_passed(ctx, *finding.data["default_of"]):
                    continue  # a parameter's default no call of the project leaves to serve
                if variant.startswith("env-"):
                    run = environment_runs.get((path, finding.span), LIBRARY_CODE)
                    if run.how in (SKIPPED, DEMOS) or finding.data["call"] in reported \
                            or not _environment_unseeded(ctx, path, variant == "env-space"):
                        continue  # skipped by every program that reaches it, run only by demos, said once, or seeded
                    if uncalled_helper(ctx, path, run, finding.data.get("in_function")):
                        continue  # a helper module's function (or method) none of the scripts beside it runs
                    if variant == "env-space" and _shared_space_generator(ctx, path):
                        continue  # gym before 0.11: every space samples from one generator seeded with 0
                    reported.add(str(finding.data["call"]))  # the first reset per environment
                    entries = run.entries
                if variant == "env-reset" and (old := _old_gym(ctx, path)) is not None:
                    version, declared = old
                    yield self.report(path, finding.span, entry_points=entries, **{
                        **data, "variant": "env-reset-old", "version": version, "declared": declared,
                    })
                    continue
                if variant == "env-reset" and _undeclared_gym(ctx, path):
                    yield self.report(path, finding.span, entry_points=entries, **{
                        **data, "variant": "env-reset-undeclared"})
                    continue
                if variant == "option":
                    flag = _none_default_flag(ctx, path, str(finding.data["option"]))
                    if flag is None:
                        continue  # the option has a seed by default (or is not an option)
                    yield self.report(path, finding.span, **{**data, "flag": flag})
                    continue
                yield self.report(path, finding.span, entry_points=entries, **data)


def _always_passed(ctx: CheckContext, function: str, param: str, place: int) -> bool:
    """Every call of the project to a function or method named ``function`` passes the
    parameter ``param`` (by keyword, or by its ``place`` among the call's positional
    arguments), and there is such a call: the generator built as its default is never
    drawn from (``def random_walk(self, path_length, rand=random.Random())`` called as
    ``G.random_walk(path_length, rand=rand)``). A call spreading ``*args``/``**kwargs``
    may leave it out."""
    shapes = [shape for facts in ctx.facts.values() for shape in facts.call_shapes.get(function, ())]
    return bool(shapes) and all(
        not spread and (param in keywords or 0 <= place < positional) for positional, keywords, spread in shapes
    )


def _environment_unseeded(ctx: CheckContext, path: str, space: bool = False) -> bool:
    """Whether an environment reset (``space``: an action space's sample) of ``path`` is
    unseeded: no program that runs the module seeds an environment (an action space) in
    any of its modules, since seeding the environment leaves its spaces' generators
    alone; in a module no program runs, only where the module seeds something else (the
    sign that its runs are meant to repeat)."""
    programs = [p for p in ctx.programs if path in p.modules]
    if not programs:
        return next(module_seeds(ctx.facts[path]), None) is not None
    seeding = ctx.facts.get
    return not any(
        (facts := seeding(module)) is not None and (facts.seeds_spaces if space else facts.seeds_environments)
        for program in programs for module in program.modules
    )


def _old_gym(ctx: CheckContext, path: str) -> Optional[tuple[str, str]]:
    """("gym 0.15.4", "declared in setup.py as `gym==0.15.4`") when ``path`` runs OpenAI
    gym (not gymnasium) at a version the project declares from before 0.22, whose
    environments seed themselves when built and whose ``reset()`` takes no seed."""
    older = _gym_declared_before(ctx, path, "0.22")
    if older is None:
        return None
    assumed, declared = older
    pinned = any("==" in d.spec for d in declared)
    return (f"gym {assumed.version}" if pinned else "gym before 0.22"), assumed.source


def _shared_space_generator(ctx: CheckContext, path: str) -> bool:
    """``path`` runs OpenAI gym at a version the project declares from before 0.11, whose
    spaces all sample from ``gym.spaces.prng.np_random``, a RandomState the module seeds
    with 0 when gym is imported (read in gym 0.10.11; 0.11.0 gave each space its own
    generator, seeded from OS entropy): a space's ``sample()`` gives the same actions on
    every run."""
    return _gym_declared_before(ctx, path, "0.11") is not None


def _gym_declared_before(ctx: CheckContext, path: str, until: str) -> Optional[tuple[Any, list[Any]]]:
    """``declared_before("gym", until, ...)`` for a module that runs OpenAI gym (not
    gymnasium); None for any other."""
    if not _runs_gym(ctx, path):
        return None
    from reprolint.analysis.declared import declared_before

    return declared_before("gym", until, path, ctx.index.roots)


def _runs_gym(ctx: CheckContext, path: str) -> bool:
    """``path`` runs OpenAI gym, not gymnasium (whose ``reset(seed=...)`` is certain)."""
    uses = ctx.facts[path].uses
    return "gym" in uses and "gymnasium" not in uses


def _undeclared_gym(ctx: CheckContext, path: str) -> bool:
    """``path`` runs OpenAI gym (not gymnasium) and the project declares no gym version:
    whether its ``reset()`` takes a seed (0.22 on) or the environment seeds itself when
    made (before) is not known, so the message says both."""
    if not _runs_gym(ctx, path):
        return False
    from reprolint.analysis.declared import declarations_for

    return not any(d.library == "gym" and d.spec for d in declarations_for(path, ctx.index.roots))


def _none_default_flag(ctx: CheckContext, path: str, option: str) -> Optional[str]:
    """The flag of ``option`` (``--seed``) when a program that runs ``path`` leaves it
    None by default."""
    for program in ctx.programs:
        if path in program.modules and (flag := none_default_flag(program, option)) is not None:
            return flag
    return None


# ----------------------------------------------------------------------------- fix


_METHOD_SEEDS = {"seed": "manual_seed", "seed_all": "manual_seed_all"}


def _has_sound_fix(callee: str, d: Diagnostic) -> bool:
    """False for `random.SystemRandom()` (it ignores any seed), an environment (its seed
    goes in its first reset only) and a seed read from an option (the option's default
    is the user's to change)."""
    variant = str(data_field(d, "variant"))
    return callee.split(".")[-1] != "SystemRandom" and not variant.startswith("env-") and variant != "option"


@UnseededRngInstance.fix_planner
def _plan_instance(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    module = planner.module(d.path)
    located = fixes.find_call(module, d.span) if module is not None else None
    if located is None or not isinstance(located.node, cst.Call):
        return None
    call = located.node
    callee = node_code(call.func)
    if not _has_sound_fix(callee, d):
        return None
    value, imports = seed_value(planner, d.path, located)
    method = callee.split(".")[-1]
    if method in _METHOD_SEEDS and isinstance(call.func, cst.Attribute) and not call.args:
        parent = located.parents[-1] if located.parents else None
        if not isinstance(parent, cst.Expr):
            return None  # its return value is used: replacing the call would change it

        def change(node: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            func = node.func.with_changes(attr=cst.Name(_METHOD_SEEDS[node.func.attr.value]))
            return node.with_changes(func=func, args=[cst.Arg(value=value)])
    else:

        def change(node: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(node, cst.Call)
            keyword, position = seed_argument(node)
            return fixes.set_argument(node, value, keyword=keyword, position=position)

    # `reprolint.runtime.seed()` derives from the master seed that `install()` sets at
    # the entry point; without it a fresh one would be drawn. The fix installs it in
    # every program that runs this module and lacks it: one fix, in several files.
    entry_first = None
    others: list[Any] = []
    if planner.style == "hooks":
        missing = [
            p for p in planner.ctx.programs if d.path in p.modules and not planner.has_install(p.entry)
        ]
        others = [p for p in missing if p.entry != d.path]
        if len(others) < len(missing):
            entry_first = planner.import_stop(d.path)
    seed = planner.seed

    def apply(m: cst.Module) -> cst.Module:
        m = fixes.add_imports(fixes.rewrite(m, d.span, change), imports)
        return ensure_install(m, seed, entry_first) if entry_first is not None else m

    how = "a seed from `reprolint.runtime.seed`" if planner.style == "hooks" else f"the configured seed ({planner.seed})"
    action = FixAction(
        d.path, ("instance", d.span, planner.style, entry_first is not None), planner.applicability(d.code),
        f"Pass {how} to `{callee}`", apply,
    )
    return together([action, *(entry_action(planner, p, d.code) for p in others)])


@UnseededRngInstance.fix_leveller
def _instance_level(planner: FixPlanner, d: Diagnostic) -> Applicability:
    """Safe: the generator took its seed from OS entropy; unsafe only where the
    ``install()`` added with it turns deterministic mode on over an op that lacks it."""
    if planner.style != "hooks":
        return Applicability.SAFE
    programs = [p for p in planner.ctx.programs if d.path in p.modules and not planner.has_install(p.entry)]
    return Applicability.UNSAFE if any(planner.runs_raising_op(p.entry) for p in programs) else Applicability.SAFE


@UnseededRngInstance.fix_prechecker
def _instance_available(planner: FixPlanner, d: Diagnostic) -> Optional[bool]:
    callee = data_field(d, "call")
    if not callee:
        return None
    callee = str(callee)
    if not _has_sound_fix(callee, d):
        return False
    no_arguments = data_field(d, "variant") in (None, "reseed")  # `{call}()`
    if callee.split(".")[-1] in _METHOD_SEEDS and "." in callee and no_arguments:
        if not planner.is_statement(d.path, d.span):
            return False
    return True  # the call gets its seed (and, hooks, each program lacking it `install()`)
