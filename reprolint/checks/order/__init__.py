"""Iteration and listing order rules (RPL4xx)."""

from reprolint.checks.order import (  # noqa: F401 - importing registers the rules
    set_iteration_order,
    unsorted_directory_listing,
    dataloader_worker_seed,
    distributed_sampler_epoch,
    shared_model_training,
)
