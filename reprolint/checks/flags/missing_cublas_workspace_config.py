from __future__ import annotations

from reprolint.checks.base import Rule


class MissingCublasWorkspaceConfig(Rule):
    """
    ## What it does
    Reports deterministic mode without `CUBLAS_WORKSPACE_CONFIG` set before CUDA
    starts (required up to torch 2.9, advisory later).

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

    code = "RPL303"
    message = "deterministic mode without `CUBLAS_WORKSPACE_CONFIG` set before CUDA starts"
    framework = "torch"
    implemented = False
