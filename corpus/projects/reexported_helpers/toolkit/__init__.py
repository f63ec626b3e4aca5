"""A package whose sub-packages re-export their helpers by name."""
