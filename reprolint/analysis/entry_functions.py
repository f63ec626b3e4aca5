"""Which functions of a module the execution walker runs only once code that runs names
them, rather than as framework code (see :mod:`reprolint.analysis.execution`).

* The entry script's own plain functions that nothing run so far names: a call commented
  out (``# dump_imagenet(...)``) calls nothing, so such a function runs for nobody unless
  a decorator may register it, it is ``main`` (``tf.app.run()`` calls it by that name),
  the script hands its functions to ``fire.Fire()``, commands dispatch to it, or the
  configuration names the script as an entry point (a runner the analysis does not see
  calls its functions).
* A function defined inside a plain function that has not run (``def get_input_fn(...):
  def input_fn(params): ...``): it exists only once its parent runs, and runs where code
  that runs then names it (``return input_fn``).

Plain functions of other modules already wait so (as uncalled code); methods of classes
are run when the program may build the class.
"""

from __future__ import annotations

from typing import Any

__all__ = ["waits_for_mention"]


def waits_for_mention(walker: Any, path: str, qualname: str, method: bool, in_class: bool) -> bool:
    """Whether the function ``qualname`` of module ``path`` (a nested one when ``method``
    is set outside a class) waits until code that runs names it."""
    facts = walker.index.facts[path]
    if method:
        parent = qualname.rpartition(".")[0]
        return not in_class and parent in facts.functions and (path, parent) not in walker.ran_functions
    if path != walker.out.entry:
        return False
    function = facts.functions.get(qualname)
    model = walker.model
    if function is None or function.decorated or qualname == "main" or facts.mentioned is None \
            or "fire" in facts.uses or path in model.dispatched or path in model.configured_entries:
        return False
    return walker._mentioned(qualname, owner=path) is None  # noqa: SLF001 - the walker's own query
