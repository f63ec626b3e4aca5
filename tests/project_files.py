"""Writing small projects for tests: files by relative path, folders made as needed."""

from __future__ import annotations

from pathlib import Path


def write(folder: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text, UTF-8) under ``folder``; returns ``folder``."""
    for rel, text in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder
