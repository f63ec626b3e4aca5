from __future__ import annotations

from reprolint.checks.base import Rule


class MissingDeterministicAlgorithms(Rule):
    """
    ## What it does
    Reports a torch training program that never calls
    `torch.use_deterministic_algorithms(True)`.

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

    code = "RPL301"
    message = "a torch training program that never calls `torch.use_deterministic_algorithms(True)`"
    framework = "torch"
    implemented = False
