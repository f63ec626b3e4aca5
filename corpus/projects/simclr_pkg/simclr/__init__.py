"""Minimal SimCLR (Chen et al. 2020) on STL-10 unlabeled images."""

__all__ = ["augment", "losses", "train", "utils"]
