"""Reusable libcst codemods used by `reprolint fix`."""
