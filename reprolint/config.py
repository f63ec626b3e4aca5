"""``[tool.reprolint]`` (pyproject.toml) or ``reprolint.toml`` -> frozen :class:`Settings`.

Keys are kebab-case; an unknown key or a bad value is a :class:`ConfigError` that names
the key (the CLI turns it into exit status 2).
"""

from __future__ import annotations

import dataclasses
import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from reprolint import _toml

__all__ = [
    "DEFAULT_EXCLUDES",
    "MAX_SEED",
    "ConfigError",
    "Settings",
    "find_config",
    "load_settings",
    "parse_codes",
    "settings_from_table",
]

DEFAULT_EXCLUDES = (
    ".bzr", ".direnv", ".eggs", ".git", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox",
    ".pytest_cache", ".pytype", ".reprolint", ".reprolint_cache", ".ruff_cache", ".svn",
    ".tox", ".venv", "venv", "__pycache__", "__pypackages__", "_build", "build", "dist",
    "node_modules", "site-packages",
)


class ConfigError(ValueError):
    """Bad configuration: the message names the file and the key."""


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ("RPL",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    entry_points: tuple[str, ...] = ()
    seed: int = 0
    fix_style: str = "hooks"
    torch_version: Optional[str] = None
    unsafe_fixes: bool = False
    cache_dir: str = ".reprolint_cache"
    # Test modules (pytest/unittest files, tests/ folders) count as programs.
    include_tests: bool = False
    # Where the configuration was found; relative paths in it are relative to this.
    root: str = "."
    config_path: Optional[str] = None

    def replace(self, **changes: Any) -> "Settings":
        return dataclasses.replace(self, **changes)

    def is_enabled(self, code: str, path: Optional[str] = None) -> bool:
        """ruff's rule: the most specific matching prefix wins; a tie goes to ignore."""
        best_select = max(
            (len(p) for p in (*self.select, *self.extend_select) if _matches(code, p)), default=-1
        )
        ignores = list(self.ignore)
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if _path_matches(path, pattern, self.root):
                    ignores.extend(codes)
        best_ignore = max((len(p) for p in ignores if _matches(code, p)), default=-1)
        return best_select >= 0 and best_select > best_ignore

    def is_excluded(self, path: str) -> bool:
        """Whether a file or folder met while walking is excluded.

        A pattern without "/" matches the entry's own name (so `build` skips every
        folder named build below the checked path, but never a parent of it); a pattern
        with "/" matches the path relative to the configuration's folder.
        """
        name = Path(path).name
        for pattern in (*self.exclude, *self.extend_exclude):
            bare = pattern.rstrip("/")
            if "/" not in bare:
                if fnmatch.fnmatchcase(name, bare):
                    return True
            elif _path_matches(path, pattern, self.root):
                return True
        return False


def _matches(code: str, prefix: str) -> bool:
    return prefix == "ALL" or code.startswith(prefix)


def _path_matches(path: str, pattern: str, root: str) -> bool:
    """gitignore-like: a pattern without "/" matches any path component."""
    posix = Path(path).as_posix()
    if "/" not in pattern.rstrip("/"):
        pattern = pattern.rstrip("/")
        return any(fnmatch.fnmatchcase(part, pattern) for part in Path(posix).parts)
    try:
        rel = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        rel = posix
    pattern = pattern.strip("/")
    return fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern + "/*")


def parse_codes(values: Iterable[str], where: str, known: Iterable[str]) -> tuple[str, ...]:
    """Validate rule codes or prefixes (``RPL1``, ``RPL101``, ``ALL``)."""
    known = list(known)
    out = []
    for raw in values:
        if not isinstance(raw, str):
            raise ConfigError(f"{where}: expected rule codes, got {raw!r}")
        code = raw.strip().upper()
        if not code:
            continue
        if code != "ALL" and not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: unknown rule code or prefix `{raw}`")
        out.append(code)
    return tuple(out)


_KEYS = {
    "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude",
    "entry-points", "seed", "fix-style", "torch-version", "unsafe-fixes", "cache-dir",
    "include-tests",
}


# The seeds every library accepts: NumPy's legacy and new generators take 0..2**32-1
# (np.random.seed(2**32) raises), torch and `random` take more.
MAX_SEED = 2**32 - 1


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return _toml.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, _toml.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    except ValueError as exc:  # Python's guard against integers of thousands of digits
        raise ConfigError(f"{path}: invalid TOML: a number too long to read ({exc})") from exc


def _tool_table(data: dict[str, Any], path: Path) -> Optional[Any]:
    """``[tool.reprolint]`` of a parsed file (None when absent); a ``tool`` that is not
    a table is a ConfigError."""
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table ([tool.reprolint])")
    return tool.get("reprolint")


def _is_file_kind(path: Path, kind: str) -> bool:
    """``path.is_dir()`` / ``is_file()``, False where a folder on the way cannot be searched."""
    try:
        return path.is_dir() if kind == "dir" else path.is_file()
    except OSError:
        return False


def find_config(start: Path) -> Optional[Path]:
    """The nearest reprolint.toml, or pyproject.toml with [tool.reprolint], upwards.

    A pyproject.toml met on the way that is not valid TOML is a ConfigError: it may
    hold the [tool.reprolint] meant for this run, and silently using a parent folder's
    configuration (or the defaults) instead would check with the wrong settings.
    """
    start = start.resolve()
    directory = start if _is_file_kind(start, "dir") else start.parent
    for folder in (directory, *directory.parents):
        candidate = folder / "reprolint.toml"
        if _is_file_kind(candidate, "file"):
            return candidate
        candidate = folder / "pyproject.toml"
        if _is_file_kind(candidate, "file"):
            try:
                data = _read_toml(candidate)
            except ConfigError as exc:
                if "cannot read" in str(exc):
                    continue  # someone else's unreadable file above the project
                raise
            if _tool_table(data, candidate) is not None:
                return candidate
    return None


def load_settings(path: Optional[Path], known_codes: Iterable[str]) -> Settings:
    """Read a configuration file into Settings (defaults when ``path`` is None)."""
    if path is None:
        return Settings()
    data = _read_toml(path)
    table = _tool_table(data, path) if path.name == "pyproject.toml" else data
    if path.name != "pyproject.toml" and "tool" in data:
        nested = _tool_table(data, path)
        if nested is not None:
            table = nested
    if table is None:
        table = {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `tool.reprolint` must be a table ([tool.reprolint])")
    # Passed on as given (parse_codes lists it): the CLI's iterable loads the rules only
    # if the file names codes, so a cached run need not import them.
    return settings_from_table(table, str(path), str(path.parent), known_codes)  # type: ignore[arg-type]


def settings_from_table(table: dict[str, Any], where: str, root: str, known: list[str]) -> Settings:
    for key in table:
        if key not in _KEYS:
            hint = f" (did you mean `{key.replace('_', '-')}`?)" if "_" in key else ""
            raise ConfigError(f"{where}: unknown key `{key}`{hint}")

    def str_list(key: str) -> tuple[str, ...]:
        value = table[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: `{key}` must be a list of strings")
        return tuple(value)

    changes: dict[str, Any] = {"root": root, "config_path": where}
    for key in ("select", "ignore", "extend-select"):
        if key in table:
            changes[key.replace("-", "_")] = parse_codes(str_list(key), f"{where}: `{key}`", known)
    if "per-file-ignores" in table:
        value = table["per-file-ignores"]
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: `per-file-ignores` must be a table of pattern = [codes]")
        pairs = []
        for pattern, codes in value.items():
            if not isinstance(codes, list):
                raise ConfigError(f"{where}: `per-file-ignores.{pattern}` must be a list of codes")
            pairs.append((pattern, parse_codes(codes, f"{where}: `per-file-ignores`", known)))
        changes["per_file_ignores"] = tuple(pairs)
    for key in ("exclude", "extend-exclude", "entry-points"):
        if key in table:
            changes[key.replace("-", "_")] = str_list(key)
    if "seed" in table:
        seed = table["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ConfigError(
                f"{where}: `seed` must be an integer from 0 to {MAX_SEED} (2**32 - 1), "
                "the range every library's seeding call accepts"
            )
        changes["seed"] = table["seed"]
    if "fix-style" in table:
        if table["fix-style"] not in ("hooks", "inline"):
            raise ConfigError(f"{where}: `fix-style` must be \"hooks\" or \"inline\"")
        changes["fix_style"] = table["fix-style"]
    if "torch-version" in table:
        value = table["torch-version"]
        if not isinstance(value, str) or not value[:1].isdigit():
            raise ConfigError(f"{where}: `torch-version` must be a version string such as \"2.1\"")
        changes["torch_version"] = value
    if "unsafe-fixes" in table:
        if not isinstance(table["unsafe-fixes"], bool):
            raise ConfigError(f"{where}: `unsafe-fixes` must be true or false")
        changes["unsafe_fixes"] = table["unsafe-fixes"]
    if "include-tests" in table:
        if not isinstance(table["include-tests"], bool):
            raise ConfigError(f"{where}: `include-tests` must be true or false")
        changes["include_tests"] = table["include-tests"]
    if "cache-dir" in table:
        if not isinstance(table["cache-dir"], str):
            raise ConfigError(f"{where}: `cache-dir` must be a string")
        changes["cache_dir"] = table["cache-dir"]
    return dataclasses.replace(Settings(), **changes)

