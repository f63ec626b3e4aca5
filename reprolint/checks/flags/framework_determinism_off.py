from __future__ import annotations

from reprolint.checks.base import Rule


class FrameworkDeterminismOff(Rule):
    """
    ## What it does
    Reports a high-level trainer left nondeterministic: Lightning
    `Trainer(deterministic=False/None)`, Hugging Face `TrainingArguments` without
    `seed`/`full_determinism`, Keras without `set_random_seed`.

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

    code = "RPL306"
    message = "a high-level trainer left nondeterministic: Lightning `Trainer(deterministic=False/None)`, Hugging Face `TrainingArguments` without `seed`/`full_determinism`, Keras without `set_random_seed`"
    framework = "lightning, transformers, keras"
    implemented = False
