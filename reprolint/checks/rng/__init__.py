"""Randomness rules (RPL1xx): unseeded generators, entropy seeds, partial seeding."""

from reprolint.checks.rng import (  # noqa: F401 - importing registers the rules
    conditional_seed,
    entropy_seed,
    partial_seed,
    unseeded_global_rng,
    unseeded_rng_instance,
)
