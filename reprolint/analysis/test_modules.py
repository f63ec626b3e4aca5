"""Test modules: what a test runner collects, and the test support around it.

A module is a test module when a runner would collect tests from it or it is test code
(helpers, fixtures, the scripts a suite launches); a script merely named like a test
that runs a program of its own is a program (issue 25).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Iterable

from reprolint.analysis.facts import Call, Draw, ModuleFacts, Seed
from reprolint.analysis.usage_events import TrainStep

__all__ = ["defines_test_cases", "is_test_module", "tests_left_out"]

# Named like a test file (what a runner looks for).
_TEST_NAME = re.compile(r"(^|/)(test_[^/]*|[^/]*_test\.py)$")
# Always tests: whatever a test folder holds (`tests/`, `testing/`, `test_utils/`: test
# cases, their helpers and the scripts the suite launches), pytest's fixtures module;
# benchmarks folders (timings, not runs).
_ALWAYS_TEST = re.compile(r"(^|/)(tests?/|testing/|test_[^/]*/|benchmarks?/|conftest\.py$)")
# Importing one of these makes a module a test module (unittest, pytest, absltest).
_TEST_IMPORTS = ("pytest", "unittest", "absl.testing")


def defines_test_cases(facts: ModuleFacts) -> bool:
    """Whether a test runner would collect tests from the module: a top-level
    ``test*`` function or a ``test*`` method of a ``Test*`` class or of a ``TestCase``
    subclass (unittest, absltest, ``tf.test``)."""
    for qualname in facts.functions:
        owner, _, name = qualname.rpartition(".")
        if not name.startswith("test"):
            continue
        if not owner:
            return True
        bases = facts.classes.get(owner)
        if bases is not None and "." not in owner and (
            owner.startswith("Test") or any(b.endswith("TestCase") for b in bases)
        ):
            return True
    return False


def named_as_test(path: str, roots: Iterable[str] = ()) -> bool:
    """What the path alone says of a module whose code could not be read (RPL900): a
    test runner collects it (``test_*.py``, ``*_test.py``, ``conftest.py``) or a test
    folder holds it, below the scan's ``roots``."""
    posix = _below_roots(path, roots)
    return bool(_ALWAYS_TEST.search(posix) or _TEST_NAME.search(posix))


def _below_roots(path: str, roots: Iterable[str]) -> str:
    posix = str(PurePosixPath(path))
    for root in roots:
        if root not in ("", ".") and posix.startswith(root.rstrip("/") + "/"):
            return posix[len(root.rstrip("/")) + 1:]
    return posix


def is_test_module(path: str, facts: ModuleFacts, roots: Iterable[str] = ()) -> bool:
    """A test module: one a test runner collects tests from, or test support code.

    What a test folder holds (``tests/``, ``testing/``, ``test_utils/``: also the scripts
    the suite launches), ``conftest.py`` and a ``benchmarks/`` folder always are. A
    module named like a test (``test_*.py``, ``*_test.py``) or importing a test
    framework (pytest, unittest, absltest) is one when it defines test cases
    (:func:`defines_test_cases`) or runs nothing of its own; one that runs top-level
    code or has a ``__main__`` block and defines no test case is a program (a training
    script named ``test_*.py``). ``roots``: the scan's folders; only the part of the
    path below them is looked at (a project checked inside `/tmp/test_run/` is no test)."""
    posix = _below_roots(path, roots)
    if _ALWAYS_TEST.search(posix):
        return True
    named = _TEST_NAME.search(posix) is not None
    if not named and not any(
        m == t or m.startswith(t + ".") for m in facts.imported_modules for t in _TEST_IMPORTS
    ):
        return False
    if defines_test_cases(facts):
        return True
    # Test support (helpers, fixtures) unless it runs a program of its own.
    return named and not _runs_a_program(facts)


def _runs_a_program(facts: ModuleFacts) -> bool:
    """A ``__main__`` block, or top-level code that trains, seeds, draws or calls one of
    the module's own functions (``main()`` without a guard); not a ``sys.path`` line."""
    if facts.has_main_guard:
        return True
    if not facts.top_level_work:
        return False
    return any(
        isinstance(e, (Seed, Draw, TrainStep)) or (isinstance(e, Call) and e.target.startswith(":"))
        for e in facts.events
    )


def tests_left_out(
    facts: dict[str, ModuleFacts], configured: Iterable[str] = (), roots: Iterable[str] = (),
) -> int:
    """How many modules a check leaves out as tests (``include-tests`` off)."""
    configured, roots = set(configured), list(roots)
    return sum(1 for path, f in facts.items() if path not in configured and is_test_module(path, f, roots))
