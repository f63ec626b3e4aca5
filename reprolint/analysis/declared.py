"""Library versions as the project declares them (requirements, setup, pyproject, conda,
Pipfile, lock files), and the version a version-aware rule assumes.

A declared pin or range decides before the installed library, and the installed one
before the newest the catalog knows: what the project runs on is what it declares.
Within a range, the installed (else the newest catalogued) version is kept when the
range admits it; otherwise the range's own bound is taken (``torch<1.9`` is 1.8).

Reading is plain text (no code runs, no libcst): this module is imported by the
whole-run cache key, which must stay cheap.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

__all__ = [
    "Assumed", "ConsoleScript", "Declared", "assume", "console_scripts", "declaration_files", "declarations", "declarations_for", "declared_before",
    "declared_for_tpu_only", "declared_digest",
    "spec_admits",
]

# Distribution names per library the catalogs know (conda names too).
_NAMES = {
    "torch": ("torch", "pytorch", "torch-gpu"),
    "tensorflow": ("tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tf-nightly"),
    "keras": ("keras",),
    # Keras 2 as its own package (TF >= 2.16 runs it with TF_USE_LEGACY_KERAS=1)
    "tf-keras": ("tf-keras",),
    # one code base under two names (pytorch-lightning 2.x is lightning.pytorch)
    "lightning": ("lightning", "pytorch-lightning"),
    # OpenAI gym (not gymnasium): `reset(seed=...)` exists from 0.22 on
    "gym": ("gym",),
    # `jax[tpu]` / `jax[cuda12]`: the extra names the accelerator the project installs for
    "jax": ("jax", "jaxlib"),
}
_REQUIREMENT = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<extras>\[[^\]]*\])?\s*(?P<spec>(?:[=<>!~]=?|===)\s*[^;#\s][^;#]*)?"
)
_VERSION = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")
# Files read, in the order a pin found in them wins (lock files are what is installed).
_FILES = (
    "poetry.lock", "uv.lock", "pdm.lock", "Pipfile.lock", "requirements.txt", "requirements*.txt",
    "requirements/*.txt", "pyproject.toml", "setup.cfg", "setup.py", "environment.yml",
    "environment.yaml", "conda.yaml", "Pipfile",
)
_MAX_BYTES = 1_000_000


@dataclass(frozen=True)
class Declared:
    """One declaration of a library: its version specifier and where it is written."""

    library: str
    spec: str  # "==1.8.1", ">=1.4,<1.9", "" (no version)
    source: str  # "requirements.txt", "setup.py (install_requires)"
    name: str = ""  # the distribution as written ("tensorflow-gpu"); the library when empty
    extras: str = ""  # "[atari,box2d]" as written, without spaces

    @property
    def written(self) -> str:
        """``tensorflow-gpu==1.15``, ``gym[atari]~=0.15.3``: the distribution, its extras
        and its specifier, as the project writes them."""
        return f"{self.name or self.library}{self.extras}{self.spec}"


@dataclass(frozen=True)
class Assumed:
    """The version a rule assumes for a library, and why (for messages and JSON)."""

    library: str
    version: str
    source: str  # "declared in requirements.txt as `torch==1.8.1`", "installed", ...
    declared: bool = False

    def describe(self) -> str:
        """``torch 1.8.1, declared in requirements.txt as `torch==1.8.1``` (the version
        alone when it is not declared)."""
        return f"{self.library} {self.version}" + (f", {self.source}" if self.declared else "")

    def to_data(self) -> dict[str, str]:
        return {"library": self.library, "version": self.version, "source": self.source}


def declarations_for(path: str, roots: Iterable[str]) -> list[Declared]:
    """The declarations that hold for a module: those of the nearest folder from the
    module's up to its scan root that has any (a project in a subfolder of a monorepo
    declares its own), else the scan's (:func:`declarations`)."""
    roots = [str(_resolved(r or ".")) for r in roots] or [str(_resolved("."))]
    folder = _resolved(path).parent
    root = next((r for r in sorted(roots, key=len, reverse=True) if str(folder).startswith(r)), None)
    while root is not None and str(folder).startswith(root):
        files = _files_in(folder)
        if files:
            return _parse_files(files)
        if str(folder) == root or folder.parent == folder:
            break
        folder = folder.parent
    return declarations(roots)


def declaration_files(roots: Iterable[str]) -> list[Path]:
    """The declaration files of the scan: in each root, or the nearest folder above it
    (up to three levels, not above a repository's top) that has any."""
    found: list[Path] = []
    for raw in roots or (".",):
        folder = _resolved(raw or ".")
        for _ in range(4):
            files = _files_in(folder)
            if files:
                found.extend(p for p in files if p not in found)
                break
            if _exists(folder / ".git") or folder.parent == folder:
                break
            folder = folder.parent
    return found


def project_declaration_files(roots: Iterable[str], paths: Iterable[str]) -> list[Path]:
    """Declaration files of the scan's own folders (a package's pyproject.toml, a
    subproject's requirements.txt) and of its roots (:func:`declaration_files`)."""
    roots = list(roots)
    found = list(declaration_files(roots))
    tops = {str(_resolved(r or ".")) for r in roots}
    folders: set[str] = set()
    for path in paths:
        folder = _resolved(path).parent
        while str(folder) not in folders:
            folders.add(str(folder))
            if str(folder) in tops or folder.parent == folder or not any(str(folder).startswith(t) for t in tops):
                break
            folder = folder.parent
    for folder in sorted(folders):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if any(fnmatch.fnmatch(name, pattern) for pattern in _FILES if "/" not in pattern):
                candidate = Path(folder) / name
                if candidate not in found and _is_file(candidate):
                    found.append(candidate)
    return found


def _files_in(folder: Path) -> list[Path]:
    """The declaration files of one folder; a folder that cannot be read has none (the
    scan reports what it cannot read)."""
    try:
        return [p for pattern in _FILES for p in sorted(folder.glob(pattern)) if p.is_file()]
    except OSError:
        return []


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _resolved(path: str) -> Path:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def declared_digest(roots: Iterable[str], paths: Iterable[str] = ()) -> str:
    """A digest of the declaration files' names and bytes (part of the whole-run key)."""
    h = hashlib.sha256()
    for path in project_declaration_files(roots, paths):
        h.update(str(path).encode("utf-8", "surrogateescape") + b"\0")
        h.update(_read(path).encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > _MAX_BYTES:
            return ""
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def declarations(roots: Iterable[str]) -> list[Declared]:
    """Every declaration of a catalogued library, in the order they decide."""
    return _parse_files(declaration_files(roots))


def _parse_files(files: list[Path]) -> list[Declared]:
    out: list[Declared] = []
    for path in files:
        text = _read(path)
        name = path.name
        if name.endswith(".lock"):
            out.extend(_lock(text, name))
        elif name.endswith(".txt"):
            out.extend(_requirements(text.splitlines(), path.name if path.parent.name != "requirements" else f"requirements/{name}"))
        elif name == "pyproject.toml" or name == "Pipfile":
            out.extend(_toml_file(text, name))
        elif name == "setup.cfg":
            match = re.search(r"install_requires\s*=\s*((?:\n[ \t]+[^\n]*)+)", text)
            if match:
                out.extend(_requirements(match.group(1).splitlines(), "setup.cfg (install_requires)"))
        elif name == "setup.py":
            strings = re.findall(r"""["']([A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*(?:[=<>!~]=?[^"']*)?)["']""", text)
            out.extend(_requirements(strings, "setup.py"))
        else:  # conda environment files: `- pytorch=1.7.1`, `- torch==1.8` under `pip:`
            lines = [re.sub(r"^\s*-\s*", "", line) for line in text.splitlines() if line.lstrip().startswith("-")]
            out.extend(_requirements([_conda(line) for line in lines], name))
    return out


def _conda(line: str) -> str:
    """``pytorch=1.7.1=py3.8_cuda`` -> ``pytorch==1.7.1``; pip lines are kept."""
    match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)=(?!=)([^=\s]+)", line)
    return f"{match.group(1)}=={match.group(2)}" if match else line


def _library(name: str) -> Optional[str]:
    name = name.lower().replace("_", "-")
    return next((lib for lib, names in _NAMES.items() if name in names), None)


def _requirements(lines: Iterable[str], source: str) -> list[Declared]:
    out = []
    for line in lines:
        match = _REQUIREMENT.match(line)
        if match is None:
            continue
        library = _library(match.group("name"))
        if library is not None:
            spec = re.sub(r"\s+", "", match.group("spec") or "")
            extras = re.sub(r"\s+", "", match.group("extras") or "")
            out.append(Declared(library, spec, source, match.group("name"), extras))
    return out


def _toml_file(text: str, name: str) -> list[Declared]:
    from reprolint._toml import TOMLDecodeError, loads

    try:
        data = loads(text)
    except (TOMLDecodeError, ValueError):
        return []
    out: list[Declared] = []
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    deps = project.get("dependencies", [])
    if isinstance(deps, list):
        out.extend(_requirements([d for d in deps if isinstance(d, str)], f"{name} (dependencies)"))
    optional = project.get("optional-dependencies", {})
    if isinstance(optional, dict):
        for group, items in optional.items():
            if isinstance(items, list):
                out.extend(_requirements([d for d in items if isinstance(d, str)], f"{name} (optional {group})"))
    tables = []
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    if isinstance(poetry, dict):
        tables.append(("poetry dependencies", poetry.get("dependencies", {})))
    tables += [("packages", data.get("packages", {})), ("dev-packages", data.get("dev-packages", {}))]
    for label, table in tables:
        if not isinstance(table, dict):
            continue
        for dist, value in table.items():
            if isinstance(value, dict):
                value = value.get("version", "")
            if isinstance(value, str) and _library(dist):
                spec = "" if value.strip() in ("*", "") else _poetry_spec(value.strip())
                out.append(Declared(_library(dist) or dist, spec, f"{name} ({label})", dist))
    return out


def _poetry_spec(value: str) -> str:
    """Poetry's ``^1.8`` / ``~1.8`` are ranges from 1.8; a bare ``1.8.1`` is a pin."""
    if value[0] in "^~" and value[1:2] != "=":
        return ">=" + value[1:]
    return value if value[0] in "=<>!~" else "==" + value


def _lock(text: str, name: str) -> list[Declared]:
    """``[[package]] name = "torch" version = "1.8.1"`` (poetry, uv, pdm) or a
    Pipfile.lock's ``"torch": {"version": "==1.8.1"}``."""
    out = []
    if name == "Pipfile.lock":
        for dist, version in re.findall(r'"([A-Za-z0-9._-]+)":\s*\{[^{}]*?"version":\s*"([^"]+)"', text):
            if _library(dist):
                out.append(Declared(_library(dist) or dist, version, name, dist))
        return out
    for dist, version in re.findall(r'name\s*=\s*"([^"]+)"\s*\n\s*version\s*=\s*"([^"]+)"', text):
        if _library(dist):
            out.append(Declared(_library(dist) or dist, "==" + version, name, dist))
    return out


# ----------------------------------------------------------------------------- entry points

@dataclass(frozen=True)
class ConsoleScript:
    """A declared command: ``name = "module:function"`` and the folder it is declared in."""

    name: str
    module: str
    function: str
    folder: str
    source: str


_SCRIPT = re.compile(r"""^\s*["']?([A-Za-z0-9_.-]+)["']?\s*=\s*["']?([A-Za-z_][\w.]*)\s*:\s*([A-Za-z_][\w.]*)""")


def console_scripts(roots: Iterable[str], paths: Iterable[str] = ()) -> list[ConsoleScript]:
    """The commands the project declares: ``[project.scripts]``, ``[tool.poetry.scripts]``
    (pyproject.toml), ``console_scripts`` in setup.py or setup.cfg; in the roots, the
    folders above them and the scan's own folders (``paths``: the files checked)."""
    from reprolint._toml import TOMLDecodeError, loads

    out: list[ConsoleScript] = []
    for path in project_declaration_files(roots, paths):
        text, folder = _read(path), str(path.parent)
        lines: list[str] = []
        if path.name == "pyproject.toml":
            try:
                data = loads(text)
            except (TOMLDecodeError, ValueError):
                continue
            tables = [data.get("project", {}).get("scripts", {}), data.get("project", {}).get("gui-scripts", {})]
            tool = data.get("tool", {})
            if isinstance(tool, dict) and isinstance(tool.get("poetry"), dict):
                tables.append(tool["poetry"].get("scripts", {}))
            for table in tables:
                if isinstance(table, dict):
                    lines += [f"{k} = {v}" for k, v in table.items() if isinstance(v, str)]
        elif path.name == "setup.cfg":
            match = re.search(r"console_scripts\s*=\s*((?:\n[ \t]+[^\n]*)+)", text)
            lines = match.group(1).splitlines() if match else []
        elif path.name == "setup.py" and "console_scripts" in text:
            lines = re.findall(r"""["']([A-Za-z0-9_.-]+\s*=\s*[A-Za-z_][\w.]*\s*:\s*[A-Za-z_][\w.]*)""", text)
        for line in lines:
            match = _SCRIPT.match(line)
            if match:
                out.append(ConsoleScript(match.group(1), match.group(2), match.group(3), folder, path.name))
    return out


# ----------------------------------------------------------------------------- ranges

def _parse(text: str) -> Optional[tuple[int, int, int]]:
    match = _VERSION.match(text.strip())
    if match is None:
        return None
    return (int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0))


def _clauses(spec: str) -> list[tuple[str, tuple[int, int, int], int]]:
    """(operator, version, number of parts written) of each clause of a specifier."""
    out = []
    for clause in spec.split(","):
        match = re.match(r"^(===|==|!=|<=|>=|~=|<|>)\s*(.+)$", clause.strip())
        if match is None:
            continue
        version = _parse(match.group(2).rstrip(".*"))
        if version is not None:
            parts = len(match.group(2).rstrip(".*").split("."))
            out.append((match.group(1), version, parts))
    return out


def _admits(clauses: list[tuple[str, tuple[int, int, int], int]], version: tuple[int, int, int]) -> bool:
    for op, bound, parts in clauses:
        cut = version[:parts]
        target = bound[:parts]
        if op in ("==", "===") and cut != target:
            return False
        if op == "!=" and cut == target:
            return False
        if op == ">=" and version < bound or op == ">" and version <= bound:
            return False
        if op == "<=" and version > bound or op == "<" and version >= bound:
            return False
        if op == "~=" and (version < bound or version[: max(parts - 1, 1)] != bound[: max(parts - 1, 1)]):
            return False
    return True


def _bound(clauses: list[tuple[str, tuple[int, int, int], int]]) -> Optional[tuple[int, int, int]]:
    """The version a range stands for when the fallback is outside it: a pin, else the
    highest admitted below an upper bound, else its lower bound."""
    for op, bound, _ in clauses:
        if op in ("==", "===", "~="):
            return bound
    lowers = [b for op, b, _ in clauses if op in (">=", ">")]
    uppers = [(op, b) for op, b, _ in clauses if op in ("<", "<=")]
    if uppers:
        op, b = min(uppers, key=lambda u: u[1])
        if op == "<=":
            return b
        if b[2] > 0:
            below: Optional[tuple[int, int, int]] = (b[0], b[1], b[2] - 1)
        else:
            below = (b[0], b[1] - 1, 0) if b[1] > 0 else (b[0] - 1, 99, 0) if b[0] > 0 else None
        # never under the range's own lower bound (`>=0.15.4,<0.16.0` is 0.15.4, not 0.15.0)
        return max(below, max(lowers)) if below is not None and lowers else below
    return max(lowers) if lowers else None


def spec_admits(spec: str, version: Optional[str]) -> Optional[bool]:
    """Whether a declared specifier admits ``version`` (``"1.15.0"``); None when the
    specifier states no version (``tensorflow`` alone); True for ``version=None`` when
    it states one."""
    clauses = _clauses(spec)
    if not clauses:
        return None
    if version is None:
        return True
    parsed = _parse(version)
    return parsed is not None and _admits(clauses, parsed)


def assume(library: str, configured: Optional[str], found: list[Declared], fallback: str, fallback_source: str) -> Assumed:
    """The version of ``library`` a rule assumes: the configured one, else the project's
    declaration (the fallback when the declared range admits it), else ``fallback``
    (installed, else the newest catalogued)."""
    if configured:
        return Assumed(library, configured, "the `torch-version` setting" if library == "torch" else "configured")
    fallback_version = _parse(fallback)
    for declared in found:
        if declared.library != library or not declared.spec:
            continue
        clauses = _clauses(declared.spec)
        if not clauses:
            continue
        written = f"declared in {declared.source} as `{_display(library, declared)}`"
        if fallback_version is not None and _admits(clauses, fallback_version) and not any(
            op in ("==", "===") for op, _, _ in clauses
        ):
            return Assumed(library, fallback, fallback_source)  # the range admits it
        bound = _bound(clauses)
        if bound is not None:
            return Assumed(library, ".".join(map(str, bound)), written, True)
    return Assumed(library, fallback, fallback_source)


def declared_for_tpu_only(library: str, path: str, roots: Iterable[str]) -> Optional[Declared]:
    """A declaration of ``library`` with a ``tpu`` extra (``jax[tpu]``), where none of the
    project's declarations of it names a GPU extra (``jax[cuda12]``, ``jax[gpu]``): the
    project installs it for TPUs."""
    found = [d for d in declarations_for(path, roots) if d.library == library]
    if any(word in d.extras.lower() for d in found for word in ("cuda", "gpu", "rocm")):
        return None
    return next((d for d in found if "tpu" in d.extras.lower()), None)


def declared_before(library: str, until: str, path: str, roots: Iterable[str]) -> Optional[tuple[Assumed, list[Declared]]]:
    """The version of ``library`` the project of ``path`` declares (its nearest
    declaration files), with those declarations, when it is before ``until``; None when
    nothing declared puts it there (a range that admits ``until`` does not)."""
    declared = [d for d in declarations_for(path, roots) if d.library == library]
    assumed = assume(library, None, declared, until, "")
    version, bound = _parse(assumed.version), _parse(until)
    if not assumed.declared or version is None or bound is None or version >= bound:
        return None
    return assumed, declared


def _display(library: str, declared: Declared) -> str:
    """As the project writes it: ``pytorch-lightning==1.4.2``, ``tensorflow-gpu==1.15``."""
    return declared.written
