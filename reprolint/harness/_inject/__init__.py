"""Holds the `sitecustomize` that `reprolint verify` puts on the child's PYTHONPATH.

This folder itself goes on PYTHONPATH, so it must hold nothing else importable.
"""
