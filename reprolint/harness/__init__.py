"""The harness: run a training command several times and compare (verify, profile)."""
