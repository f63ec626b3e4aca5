"""Rule logic, one module per rule, grouped by family: rng/, ops/, flags/, order/."""
