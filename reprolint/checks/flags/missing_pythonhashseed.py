from __future__ import annotations

from typing import Iterator

from reprolint.analysis.determinism import program_usages
from reprolint.analysis.program import Role
from reprolint.analysis.usage_events import EnvSet, HashSeedEnforced, SetOrderTaken
from reprolint.checks.order.set_iteration_order import passed_text
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.model import Applicability, Related


class MissingPythonhashseed(Rule):
    """
    ## What it does
    Reports a program whose results depend on str hash order (see RPL401) runs
    without a fixed `PYTHONHASHSEED`.

    A program depends on the hash order when it runs an RPL401 site (order taken from
    a set of strings): top-level code of a module it imports, or a function it calls
    (or a framework calls); a function of an imported module that nothing calls does
    not count, nor does a test module unless `include-tests`. Only programs whose
    results can vary are reported: training and evaluation programs, not test, demo
    or library ones (see program roles; JSON `roles` gives the decision). Since
    `PYTHONHASHSEED` is read once, when the interpreter starts, assigning
    `os.environ["PYTHONHASHSEED"]` inside the program is too late for the program itself; accepted are a re-launch of the interpreter with
    the variable set (`os.execv(sys.executable, ...)`, `subprocess.run([sys.executable,
    ...])` after setting it) and a check of `sys.flags.hash_randomization`. Reported once
    per program at the entry point's first statement; the message names the first
    hash-order site. Blind spot: a variable exported by the shell or a launcher is not
    seen — fix RPL401 instead and this goes away.

    One cause, one finding: a site RPL401 reports (its message says the order changes
    with `PYTHONHASHSEED`) is not reported again here. RPL307 speaks only for sites
    RPL401 does not report: suppressed for it (`# noqa: RPL401`, `per-file-ignores`) or
    RPL401 not selected.

    ## Why is this bad?
    Python salts `str` and `bytes` hashes with a random value per process, so the
    iteration order of a set of strings — and everything built from it: vocabulary
    indices, class ids, the order of samples — changes from run to run unless
    `PYTHONHASHSEED` is fixed.

    Mitigation: sort instead (`sorted(set(words))`), which removes the dependence; or
    launch with `PYTHONHASHSEED=0 python train.py`.

    ## Example
    ```python
    words = open("corpus.txt").read().split()
    vocab = {w: i for i, w in enumerate(set(words))}  # noqa: RPL401 (else RPL401 reports it)
    ```

    Use instead:
    ```python
    words = open("corpus.txt").read().split()
    vocab = {w: i for i, w in enumerate(sorted(set(words)))}
    ```

    ## Fix safety
    Display-only: the variable must be set by whoever launches the program (`export
    PYTHONHASHSEED=0`, or `PYTHONHASHSEED=0 python train.py`); setting it inside the
    process is too late for the running interpreter. `fix` sorts the sets instead
    (RPL401), which removes the need for it; a program that calls
    `reprolint.runtime.install()` at the top of its main module is restarted once with
    `PYTHONHASHSEED=0` when the variable is unset (opt out: `hash_seed=False`).

    ## References
    - https://docs.python.org/3/using/cmdline.html#envvar-PYTHONHASHSEED
    - https://docs.python.org/3/reference/datamodel.html#object.__hash__
    """

    code = "RPL307"
    message = "this program takes order from a set of strings ({site}) but runs without a fixed `PYTHONHASHSEED`{late}"
    fix_title = "Sort the set, or launch with `PYTHONHASHSEED=0`"
    fix_applicability = Applicability.DISPLAY_ONLY
    framework = "python"

    VALID = [
        Valid("words = open('a.txt').read().split()\nvocab = sorted(set(words))\nprint(vocab)\n"),
        # RPL401 reports the site, saying the order changes with PYTHONHASHSEED: one finding
        Valid("import os\nwords = open('a.txt').read().split()\nprint(list(set(words)))\n"),
        Valid(
            "import os, sys\nif os.environ.get('PYTHONHASHSEED') != '0':\n    os.environ['PYTHONHASHSEED'] = '0'\n"
            "    os.execv(sys.executable, [sys.executable] + sys.argv)\n"
            "words = open('a.txt').read().split()\nprint(list(set(words)))\n"
        ),
    ]
    INVALID = [
        Invalid("import os\nwords = open('a.txt').read().split()\nprint(list(set(words)))  # noqa: RPL401\n", line=1),
        Invalid(
            "import os\nos.environ['PYTHONHASHSEED'] = '0'\nwords = open('a.txt').read().split()\n"
            "print(list(set(words)))  # noqa: RPL401\n",
            line=1, message="too late",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            if program.role not in (Role.TRAINING, Role.EVALUATION):
                continue  # a library module, a test, a demo: no result of its own to vary
            # the RPL401 sites the program runs (a function no call reaches runs none)
            sites = [
                (path, usage) for _, path, usage in program.of(SetOrderTaken, default_only=False)
                if (not ctx.index.is_test(path) or ctx.settings.include_tests)
                and all(passed_text(ctx, path, need) for need in usage.needs)  # a set of a parameter given text
            ]
            # One cause, one finding: RPL401 reports each site where it is, saying the
            # order changes with `PYTHONHASHSEED`; this speaks only for sites it does not
            # report (suppressed for RPL401, or RPL401 not selected for the file).
            sites = [
                (path, usage) for path, usage in sites
                if not ctx.settings.is_enabled("RPL401", path) or ctx.suppressed("RPL401", path, usage.span)
            ]
            if not sites:
                continue
            checks = [u for _, _, u in program.of(HashSeedEnforced, default_only=False)]
            env_set = any(u.name == "PYTHONHASHSEED" for _, _, u in program.of(EnvSet, default_only=False))
            if any(u.name == "check" for u in checks) or (env_set and checks):
                continue
            where = program.entry_event
            if where is None or (where[0], where[1].span) in seen:
                continue
            seen.add((where[0], where[1].span))
            path, finding = sites[0]
            late = " (setting it in `os.environ` is too late for the running interpreter)" if env_set else ""
            yield self.report(
                where[0], where[1].span, site=f"{path}:{finding.span.start_line}", late=late,
                set_in_environ=env_set, entry_points=program.entry_points,
                roles={program.entry: program.role.value},
                related=[Related(path, finding.span, "order taken from a set of strings here")],
            )
