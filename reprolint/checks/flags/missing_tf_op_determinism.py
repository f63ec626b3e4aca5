from __future__ import annotations

from reprolint.checks.base import Rule


class MissingTfOpDeterminism(Rule):
    """
    ## What it does
    Reports a TensorFlow program without
    `tf.config.experimental.enable_op_determinism()` (or `TF_DETERMINISTIC_OPS=1`
    before TF 2.8).

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

    code = "RPL304"
    message = "a TensorFlow program without `tf.config.experimental.enable_op_determinism()`"
    framework = "tensorflow"
    implemented = False
