from __future__ import annotations

from reprolint.checks.base import Rule


class DistributedSamplerEpoch(Rule):
    """
    ## What it does
    Reports a `DistributedSampler` or shuffling sampler used across epochs without
    `set_epoch(epoch)`, or seeded differently on each rank.

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

    code = "RPL404"
    message = "a `DistributedSampler` or shuffling sampler used across epochs without `set_epoch(epoch)`, or seeded differently on each rank"
    framework = "torch"
    implemented = False
