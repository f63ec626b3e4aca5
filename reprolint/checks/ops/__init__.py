"""Nondeterministic op and autotuning rules (RPL2xx)."""

from reprolint.checks.ops import (  # noqa: F401 - importing registers the rules
    nondeterministic_op,
    op_without_deterministic_impl,
    cudnn_benchmark,
    tf_nondeterministic_op,
)
