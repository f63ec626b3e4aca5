"""Data package: reprolint's TOML knowledge base (shipped as ``reprolint._rules``)."""
