"""Runtime support (record/replay, determinism flags, tracing). Imports torch lazily."""
