from __future__ import annotations

from reprolint.checks.base import Rule


class CudnnBenchmark(Rule):
    """
    ## What it does
    Reports `torch.backends.cudnn.benchmark = True`: cuDNN autotuning picks kernels
    per run.

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

    code = "RPL203"
    message = "`torch.backends.cudnn.benchmark = True`: cuDNN autotuning picks kernels per run"
    framework = "torch"
    implemented = False
