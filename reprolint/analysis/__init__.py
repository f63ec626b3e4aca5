"""Static analysis: per-module facts and the program model."""
