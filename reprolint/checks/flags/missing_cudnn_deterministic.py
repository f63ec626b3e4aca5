from __future__ import annotations

from reprolint.checks.base import Rule


class MissingCudnnDeterministic(Rule):
    """
    ## What it does
    Reports a torch program that uses cuDNN and never sets `cudnn.deterministic =
    True` / `cudnn.benchmark = False`.

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

    code = "RPL302"
    message = "a torch program that uses cuDNN and never sets `cudnn.deterministic = True` / `cudnn.benchmark = False`"
    framework = "torch"
    implemented = False
