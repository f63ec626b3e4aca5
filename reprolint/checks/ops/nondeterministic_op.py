from __future__ import annotations

from reprolint.checks.base import Rule


class NondeterministicOp(Rule):
    """
    ## What it does
    Reports a call to an op that is nondeterministic on CUDA unless
    `torch.use_deterministic_algorithms(True)` is on (e.g. `index_add_`,
    `scatter_add_`, `index_put_(accumulate=True)`, `put_`), in a program that does
    not turn it on.

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

    code = "RPL201"
    message = "a call to an op that is nondeterministic on CUDA unless `torch.use_deterministic_algorithms(True)` is on"
    framework = "torch"
    implemented = False
