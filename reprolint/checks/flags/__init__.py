"""Missing determinism flag rules (RPL3xx)."""

from reprolint.checks.flags import (  # noqa: F401 - importing registers the rules
    missing_deterministic_algorithms,
    missing_cudnn_deterministic,
    missing_cublas_workspace_config,
    missing_tf_op_determinism,
    missing_jax_determinism,
    framework_determinism_off,
    missing_pythonhashseed,
)
