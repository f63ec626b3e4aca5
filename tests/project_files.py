"""Writing small projects for tests: files by relative path, folders made as needed; and
what `check` reports on them."""

from __future__ import annotations

from pathlib import Path


def write(folder: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text, UTF-8) under ``folder``; returns ``folder``."""
    for rel, text in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder


def found(root: Path, code: str) -> list[tuple[str, int]]:
    """(path relative to ``root``, line) of each ``code`` finding `check` reports on ``root``,
    sorted."""
    from reprolint.api import check_paths

    diagnostics = check_paths([str(root)], jobs=1).diagnostics
    return sorted((Path(d.path).relative_to(root).as_posix(), d.span.start_line) for d in diagnostics if d.code == code)


def messages(root: Path, code: str) -> list[str]:
    """The message of each ``code`` finding `check` reports on ``root``, in report order."""
    from reprolint.api import check_paths

    return [d.message for d in check_paths([str(root)], jobs=1).diagnostics if d.code == code]
