"""Seed the global RNGs and route entropy-seeded constructors through the stream.

Each `seed_*` function takes the imported module, so that it can run as a post-import
hook: the runtime never imports a library the program does not import itself.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Any, Callable, Optional

from reprolint.runtime._entropy import RUNTIME_DIR, SITE_DIRS, STDLIB_DIRS, caller_site

# Returns the seed for a draw of `api` from the caller's site, or None to leave the call
# alone (a standard-library caller). Supplied by the session.
DrawFn = Callable[[str, Optional[str], int], int]


def _site(skip: tuple = ()) -> Optional[str]:
    return caller_site(skip)


# While the runtime seeds a library itself (Keras reseeds random and NumPy), the seeding
# wrappers below must not report it as the program's own.
_quiet = [0]


def _user_site() -> Optional[str]:
    """`file:line` of the innermost frame in the program's own code (not the runtime, the
    standard library or an installed package: `lightning.seed_everything(42)` is
    reported where the program called it)."""
    frame = sys._getframe(2)
    fallback = None
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(RUNTIME_DIR):
            if fallback is None:
                fallback = (filename, frame.f_lineno)
            if not filename.startswith(STDLIB_DIRS + SITE_DIRS) and not filename.startswith("<"):
                fallback = (filename, frame.f_lineno)
                break
        frame = frame.f_back  # type: ignore[assignment]
    if fallback is None:
        return None
    filename, line = fallback
    try:
        shown = os.path.relpath(filename)
    except ValueError:
        shown = filename
    return f"{filename if shown.startswith('..') else shown}:{line}"


def note_program_seed(library: str, api: str, value: Any) -> None:
    """The program seeded `library` itself (after install()): trace it, so that
    `reprolint variance` can tell that the seeds it varied were overwritten."""
    if _quiet[0] or value is None:
        return
    try:
        value = int(value)
    except (TypeError, ValueError, OverflowError):
        value = repr(value)[:80]
    from reprolint.runtime import _trace

    tracer = _trace.current()
    if tracer is not None:
        tracer.write({"k": "seeding", "library": library, "api": api, "value": value, "site": _user_site()})


def seed_python(random_module: ModuleType, master: int, draw: DrawFn) -> None:
    """Seed `random` and make `random.Random()` / `random.seed()` take recorded seeds."""
    random_module.seed(master)
    cls = random_module.Random
    if getattr(cls.seed, "__reprolint__", False):
        return
    original = cls.seed
    random_file = os.path.abspath(random_module.__file__ or "")

    def seed(self: Any, a: Any = None, version: int = 2) -> None:
        if a is not None and self is getattr(random_module, "_inst", None):
            note_program_seed("random", "random.seed", a)
        # SystemRandom.seed is a no-op by design; only Random itself draws OS entropy.
        if a is None and not isinstance(self, random_module.SystemRandom):
            site = _site((random_file,))
            if site is not None:
                a = draw("random.Random", site, 128)
        original(self, a, version)

    seed.__reprolint__ = True  # type: ignore[attr-defined]
    seed.__wrapped__ = original  # type: ignore[attr-defined]
    seed.__doc__ = original.__doc__
    cls.seed = seed
    # `random.seed` is a method bound at import time; rebind it to the patched one.
    random_module.seed = random_module._inst.seed


def seed_numpy(np_random: ModuleType, master: int, draw: DrawFn) -> None:
    """Seed NumPy's global RNG and route `default_rng()`, `SeedSequence()`,
    `RandomState()` and `np.random.seed()` with no seed through the stream."""
    np_random.seed(master % 2**32)
    if getattr(np_random.default_rng, "__reprolint__", False):
        return

    original_default_rng = np_random.default_rng

    def default_rng(seed: Any = None) -> Any:
        if seed is None:
            site = _site()
            if site is not None:
                seed = draw("numpy.random.default_rng", site, 128)
        return original_default_rng(seed)

    original_seed = np_random.seed

    def global_seed(seed: Any = None) -> None:
        note_program_seed("numpy", "numpy.random.seed", seed)
        if seed is None:
            site = _site()
            if site is not None:
                seed = draw("numpy.random.seed", site, 32)
        original_seed(seed)

    class SeedSequence(np_random.SeedSequence):  # type: ignore[misc, name-defined]
        __doc__ = np_random.SeedSequence.__doc__

        def __init__(self, entropy: Any = None, **kwargs: Any) -> None:
            if entropy is None:
                site = _site()
                if site is not None:
                    entropy = draw("numpy.random.SeedSequence", site, 128)
            super().__init__(entropy, **kwargs)

    class RandomState(np_random.RandomState):  # type: ignore[misc, name-defined]
        __doc__ = np_random.RandomState.__doc__

        def __init__(self, seed: Any = None) -> None:
            if seed is None:
                site = _site()
                if site is not None:
                    seed = draw("numpy.random.RandomState", site, 32)
            super().__init__(seed)

    for wrapper, original in (
        (default_rng, original_default_rng),
        (global_seed, original_seed),
    ):
        wrapper.__reprolint__ = True  # type: ignore[attr-defined]
        wrapper.__wrapped__ = original  # type: ignore[attr-defined]
        wrapper.__doc__ = original.__doc__
    # Same names as NumPy's own, so reprs and error messages read as usual.
    SeedSequence.__module__ = RandomState.__module__ = "numpy.random"
    np_random.default_rng = default_rng
    np_random.seed = global_seed
    np_random.SeedSequence = SeedSequence
    np_random.RandomState = RandomState


def seed_torch(torch: ModuleType, master: int, draw: DrawFn) -> None:
    """Seed torch on the CPU and every CUDA device; route `torch.seed()` through the stream."""
    # manual_seed seeds every CUDA device too (lazily, without initialising CUDA now).
    torch.manual_seed(master % 2**63)
    if getattr(torch.seed, "__reprolint__", False):
        return
    original = torch.seed
    original_manual_seed = torch.manual_seed

    def seed() -> int:
        site = _site()
        if site is None:
            return int(original())
        value = draw("torch.seed", site, 63)
        original_manual_seed(value)
        return value

    def manual_seed(seed: Any) -> Any:
        note_program_seed("torch", "torch.manual_seed", seed)
        return original_manual_seed(seed)

    for wrapper, wrapped in ((seed, original), (manual_seed, original_manual_seed)):
        wrapper.__reprolint__ = True  # type: ignore[attr-defined]
        wrapper.__wrapped__ = wrapped  # type: ignore[attr-defined]
        wrapper.__doc__ = wrapped.__doc__
    torch.seed = seed
    torch.random.seed = seed
    torch.manual_seed = manual_seed
    torch.random.manual_seed = manual_seed


def seed_tensorflow(tf: ModuleType, master: int) -> None:
    """Seed TensorFlow's global generator (TensorFlow 1, which has no
    ``tf.random.set_seed``: the default graph's seed)."""
    random_module = getattr(tf, "random", None)
    if random_module is not None and hasattr(random_module, "set_seed"):
        random_module.set_seed(master % 2**31)
    elif hasattr(tf, "set_random_seed"):
        tf.set_random_seed(master % 2**31)


def seed_keras(keras: ModuleType, master: int) -> None:
    """Seed Keras (3.x keeps its own global seed next to the backend's)."""
    utils = getattr(keras, "utils", None)
    if utils is not None and hasattr(utils, "set_random_seed"):
        # Also reseeds random and NumPy with the same master seed: deterministic, since
        # the moment Keras is imported is fixed by the program.
        _quiet[0] += 1
        try:
            utils.set_random_seed(master % 2**32)
        finally:
            _quiet[0] -= 1
