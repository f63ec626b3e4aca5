from __future__ import annotations

from reprolint.checks.base import Rule


class DataloaderWorkerSeed(Rule):
    """
    ## What it does
    Reports `DataLoader(num_workers>0)` whose dataset draws from an RNG not reseeded
    per worker, without `worker_init_fn`/`generator`.

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

    code = "RPL403"
    message = "`DataLoader(num_workers>0)` whose dataset draws from an RNG not reseeded per worker, without `worker_init_fn`/`generator`"
    framework = "torch"
    implemented = False
