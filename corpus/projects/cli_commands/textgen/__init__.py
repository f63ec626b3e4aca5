"""A small text-generation package whose `python -m textgen <command>` dispatches to
commands: each command is a program of its own."""
