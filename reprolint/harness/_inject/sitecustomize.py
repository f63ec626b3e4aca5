"""Injected by `reprolint verify` through PYTHONPATH: tracing (and record/replay) with no
change to the program. Chains to the `sitecustomize` this one shadows, if there is one.
"""

import os
import sys


def _reprolint_start() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    # Leave the program the sys.path it would have had; children still inherit
    # PYTHONPATH, so they get this file too.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    try:
        from reprolint.runtime import _boot
    except ImportError:
        # The command runs another interpreter than verify's: use verify's copy.
        try:
            _load_verifys_reprolint(os.environ.get("REPROLINT_HOME", ""))
            from reprolint.runtime import _boot
        except ImportError as exc:
            sys.stderr.write(f"reprolint verify: cannot trace this process ({exc})\n")
            return
    try:
        _boot.start()
    except Exception as exc:  # tracing must never stop the program it observes
        sys.stderr.write(f"reprolint verify: tracing failed to start ({exc!r})\n")
    if os.environ.get("REPROLINT_PROFILE_OUT"):
        try:
            from reprolint.harness import _profile_recorder

            _profile_recorder.start()
        except Exception as exc:
            sys.stderr.write(f"reprolint profile: the op recorder failed to start ({exc!r})\n")


def _load_verifys_reprolint(home: str) -> None:
    """Import the reprolint package at `home` (its own folder) as `reprolint`, without
    adding anything to sys.path: the folder above it is verify's environment or an
    editable checkout, whose other packages and files must not shadow the program's."""
    import importlib.util

    init = os.path.join(home, "__init__.py")
    if not home or not os.path.isfile(init):
        raise ImportError(f"no reprolint package at REPROLINT_HOME={home!r}")
    spec = importlib.util.spec_from_file_location("reprolint", init, submodule_search_locations=[home])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load reprolint from {home}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["reprolint"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop("reprolint", None)
        raise


def _chain_to_shadowed_sitecustomize() -> None:
    import importlib.machinery
    import importlib.util

    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_reprolint_start()
_chain_to_shadowed_sitecustomize()
