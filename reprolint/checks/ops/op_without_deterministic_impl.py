from __future__ import annotations

from reprolint.checks.base import Rule


class OpWithoutDeterministicImpl(Rule):
    """
    ## What it does
    Reports a call to an op that has no deterministic CUDA implementation and raises
    under deterministic mode (e.g. `histc`, `bincount(weights=)`, `kthvalue`,
    `median(dim)`, `embedding_bag(mode="max")` backward, `interpolate` linear modes
    backward).

    Not yet implemented: the code is registered so that tools can key on it.

    ## Why is this bad?
    See the SPEC's rule table; the rationale lands with the implementation.

    ## Example
    Not yet implemented.

    ## Fix safety
    Not yet implemented.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    """

    code = "RPL202"
    message = "a call to an op that has no deterministic CUDA implementation and raises under deterministic mode"
    framework = "torch"
    implemented = False
