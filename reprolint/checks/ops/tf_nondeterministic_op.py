from __future__ import annotations

from reprolint.checks.base import Rule


class TfNondeterministicOp(Rule):
    """
    ## What it does
    Reports TensorFlow/Keras ops or settings known to be nondeterministic (`tf.data`
    with `deterministic=False`, TF1 `Session`, segment reductions on GPU, ...).

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

    code = "RPL204"
    message = "TensorFlow/Keras ops or settings known to be nondeterministic"
    framework = "tensorflow"
    implemented = False
