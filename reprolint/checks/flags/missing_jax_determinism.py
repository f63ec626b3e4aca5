from __future__ import annotations

from reprolint.checks.base import Rule


class MissingJaxDeterminism(Rule):
    """
    ## What it does
    Reports a JAX program on GPU without `--xla_gpu_deterministic_ops=true` in
    `XLA_FLAGS`.

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

    code = "RPL305"
    message = "a JAX program on GPU without `--xla_gpu_deterministic_ops=true` in `XLA_FLAGS`"
    framework = "jax"
    implemented = False
