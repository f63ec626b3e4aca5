"""The on-disk cache of per-file analyses: facts, parse errors and suppression comments.

One JSON file per analysed source file, named by a key that hashes everything the
analysis of that file depends on: its path (as given) and content, the reprolint
version, the source of reprolint's analysis code, the catalogs and the configuration
that reaches the per-file pass. Nothing else is ever compared, so a stale entry can
never be found: a change to any input is a different key. The cross-file program model
is always recomputed from the cached facts.

Nothing in the folder is trusted unless this user wrote it on this machine: keys are
HMACs under a per-user secret kept outside every project, every entry carries an HMAC
of its bytes, and the folder's ``CACHEDIR.TAG`` an HMAC of the folder's real path;
anything that does not verify is absent. ``cache-dir`` must name a folder inside the
project; a folder reprolint did not make (or a link) is never written to, never given a
``.gitignore`` and never removed by ``reprolint clean``. See docs/security.md.

JSON, never pickle (the codec is :mod:`reprolint.cache_codec`: it rebuilds only
dataclasses from an allow-list and checks every field it can); anything that does not
decode, or a key that does not match, makes the entry corrupt, and a corrupt entry is
deleted and recomputed, never trusted.

Writes are atomic (temporary file in the same folder, then ``os.replace``), so runs in
parallel at worst both write the same entry.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from reprolint._atomic import write_atomic
from reprolint.cache_codec import CorruptEntry, encode, loads
from reprolint.config import ConfigError

__all__ = [
    "CACHE_FORMAT",
    "CacheDirError",
    "FactsCache",
    "cache_folder",
    "cache_secret_problem",
    "code_digest",
    "is_cache_folder",
    "remove_cache",
    "run_key",
    "secret_folder",
    "sign",
    "user_secret",
]

# Bumped when the layout of an entry changes (the key covers everything else).
# 3: usage events are typed classes (reprolint.analysis.usage_events), not one Usage.
CACHE_FORMAT = 3


# --------------------------------------------------------------------------- the key


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A hash of reprolint's own per-file analysis code (so a changed checker misses).

    The version alone is not enough while reprolint is developed from a source tree;
    hashing the package's Python sources costs about a millisecond.
    """
    import reprolint

    root = Path(reprolint.__file__).resolve().parent
    h = hashlib.sha256(reprolint.__version__.encode())
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("harness/", "runtime/", "reporters/")):
            continue  # never reached by a check (reporters run after the cache)
        h.update(rel.encode())
        try:
            h.update(path.read_bytes())
        except OSError:
            pass
    return h.hexdigest()[:16]


def _installed_frameworks() -> list[str]:
    """dist-info names of torch, TensorFlow and Keras on ``sys.path`` (version-aware rules
    read the installed versions; which Keras a name runs decides the RNG its layers draw
    from). A directory listing, ~1 ms, instead of importlib.metadata."""
    found = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        found.extend(
            n for n in names
            if n.startswith(("torch-", "tensorflow-", "tensorflow_cpu-", "keras-"))
            and n.endswith((".dist-info", ".egg-info"))
        )
    return sorted(found)


def run_key(salt: str, settings: Any, roots: list[str], file_keys: list[tuple[str, str]]) -> str:
    """The key of a whole run: every input of the diagnostics, and nothing else."""
    h = hashlib.sha256(salt.encode())
    from reprolint.analysis.declared import declared_digest

    # the project's declared library versions decide version-aware answers too
    declared = declared_digest(roots, [path for path, _ in file_keys])
    for part in (repr(settings), repr(roots), repr(_installed_frameworks()), declared, repr(file_keys)):
        h.update(b"\0")
        h.update(part.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


# --------------------------------------------------------------------------- trust
#
# A cache folder can come from anywhere: committed to the repository, planted by a pull
# request, copied from another machine. Nothing in it is trusted unless this user wrote
# it on this machine, which is proved by a per-user secret kept outside every project
# (docs/security.md). Every key is an HMAC under that secret, every entry carries an
# HMAC of its bytes, and the folder's marker an HMAC of the folder's real path.

_SECRET_BYTES = 32
_SECRET_FILE = "cache-secret"


def secret_folder() -> Path:
    """Where the per-user secret lives: ``$XDG_CACHE_HOME/reprolint`` or ``~/.cache/reprolint``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "reprolint"
    return Path.home() / ".cache" / "reprolint"


class _Secret:
    value: Optional[bytes] = None
    problem: Optional[str] = None


_secret = _Secret()


def user_secret() -> bytes:
    """The per-user secret (made on first use, mode 0600), or a throw-away one.

    When the secret cannot be read or made safely (no home, a read-only home, a file
    that is a link, not ours, or readable by others), a random secret for this process
    is used instead: nothing stored by earlier runs verifies, so the cache is empty but
    never wrong. ``cache_secret_problem()`` then says why.
    """
    if _secret.value is None:
        try:
            _secret.value = _read_or_make_secret(secret_folder() / _SECRET_FILE)
        except (OSError, RuntimeError) as exc:  # RuntimeError: no home folder to be found
            _secret.value = secrets.token_bytes(_SECRET_BYTES)
            _secret.problem = str(exc)
    return _secret.value


def cache_secret_problem() -> Optional[str]:
    """Why the per-user secret is a throw-away one (None when it is the stored one)."""
    user_secret()
    return _secret.problem


def _read_or_make_secret(path: Path) -> bytes:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, os.O_RDONLY | nofollow)
    except FileNotFoundError:
        # Made under a temporary name and linked into place, so two first runs at
        # once agree on one secret (the loser of the race reads the winner's).
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")  # mode 0600
        try:
            os.write(fd, secrets.token_bytes(_SECRET_BYTES))
            os.close(fd)
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
        finally:
            os.unlink(tmp)
        fd = os.open(path, os.O_RDONLY | nofollow)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path} is not a regular file")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise OSError(f"{path} belongs to another user")
        if info.st_mode & 0o077:
            raise OSError(f"{path} can be read or written by other users (chmod 600 it)")
        value = os.read(fd, _SECRET_BYTES + 1)
    finally:
        os.close(fd)
    if len(value) != _SECRET_BYTES:
        raise OSError(f"{path} does not hold a reprolint secret")
    return value


def sign(*parts: bytes) -> str:
    """An HMAC of ``parts`` under the per-user secret: what proves that a record was
    written by reprolint for this user on this machine (run records, the cache)."""
    return _mac(user_secret(), *parts)


def _mac(secret: bytes, *parts: bytes) -> str:
    h = hmac.new(secret, digestmod=hashlib.sha256)
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


# --------------------------------------------------------------------------- the folder


class CacheDirError(ConfigError):
    """``cache-dir`` names a folder reprolint must not use, or a folder it did not make."""


_GITIGNORE = "# Created by reprolint: the analysis cache (`reprolint clean` removes it).\n*\n"
_MARKER = "CACHEDIR.TAG"
# The signature of the Cache Directory Tagging convention (backup tools skip the folder).
_MARKER_HEAD = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# A cache directory tag created by reprolint; `reprolint clean` removes this folder.\n"
)
_MARKER_MAC = "reprolint-folder: "


def cache_folder(settings: Any) -> Path:
    """The configured cache folder, confined to the project (else :class:`CacheDirError`).

    ``cache-dir`` is read from the repository's own configuration, so a repository
    chooses it: it must name a folder strictly inside the project root (the folder of
    the configuration), never the root, a parent of it or a folder elsewhere. Checked on
    the text of the path; a symbolic link on the way is caught by :meth:`FactsCache.problem`.
    """
    raw = settings.cache_dir
    where = f"{settings.config_path}: " if getattr(settings, "config_path", None) else ""
    root = Path(os.path.abspath(settings.root))
    if not isinstance(raw, str) or not raw.strip() or "\0" in raw:
        raise CacheDirError(f"{where}`cache-dir` must name a folder inside the project, got {raw!r}")
    folder = Path(os.path.normpath(root / raw))
    if folder == root or root not in folder.parents:
        raise CacheDirError(
            f"{where}`cache-dir = {raw!r}` is {folder}, which is not inside the project "
            f"folder {root}: the cache must be a folder of its own inside the project"
        )
    return Path(settings.root) / raw


def _folder_mac(secret: bytes, folder: Path) -> str:
    return _mac(secret, b"reprolint cache folder", os.fsencode(str(Path(folder).resolve())))


def is_cache_folder(folder: Path, secret: Optional[bytes] = None) -> bool:
    """Whether reprolint made ``folder``, for this user on this machine, at this place.

    Proved by its marker, which holds an HMAC (under the per-user secret) of the
    folder's real path: a folder planted in a repository, copied from elsewhere or
    reached through a link does not pass.
    """
    folder = Path(folder)
    if folder.is_symlink() or not folder.is_dir():
        return False
    try:
        text = (folder / _MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    expected = _MARKER_MAC + _folder_mac(secret or user_secret(), folder)
    return any(hmac.compare_digest(line, expected) for line in text.splitlines())


def _link_on_the_way(root: Path, folder: Path) -> Optional[Path]:
    """The first symbolic link from ``root`` (exclusive) down to ``folder`` (inclusive)."""
    try:
        rel = Path(os.path.abspath(folder)).relative_to(os.path.abspath(root))
    except ValueError:
        return folder
    here = Path(root)
    for part in rel.parts:
        here = here / part
        if here.is_symlink():
            return here
    return None


def remove_cache(settings: Any) -> str:
    """``reprolint clean``: remove the cache folder if reprolint made it; says what it did.

    Raises :class:`CacheDirError` (never anything else) for a folder it must not
    remove: a link, a folder without a valid marker, one it cannot remove.
    """
    folder = cache_folder(settings)
    link = _link_on_the_way(Path(settings.root), folder)
    if link is not None:
        raise CacheDirError(f"{link} is a symbolic link; not removing the cache through it")
    if not os.path.lexists(folder):
        return f"No cache at {folder}"
    if not is_cache_folder(folder):
        raise CacheDirError(
            f"{folder} was not created by reprolint (no valid {_MARKER} for this user and "
            "place); not removing it"
        )
    try:
        shutil.rmtree(folder)
    except OSError as exc:
        raise CacheDirError(f"cannot remove {folder}: {exc.strerror or exc}") from exc
    return f"Removed {folder}"


# --------------------------------------------------------------------------- the store


class FactsCache:
    """Entries under ``folder``; ``salt`` is the configuration-and-code part of every key.

    ``secret``: the per-user secret (default :func:`user_secret`). Every key is an HMAC
    under it and every entry is authenticated with it; anything that does not verify
    is treated as absent. A folder reprolint did not make (see :attr:`problem`) is
    neither read nor written.
    """

    def __init__(self, folder: Path, salt: str, secret: Optional[bytes] = None, root: Optional[Path] = None) -> None:
        self.folder = Path(folder)
        self.salt = salt
        self.secret = secret if secret is not None else user_secret()
        self.root = Path(root) if root is not None else self.folder.parent
        self._state: Optional[str] = None  # "ready" | "absent" | "refused"
        self._problem: Optional[str] = None

    @classmethod
    def for_settings(cls, settings: Any) -> "FactsCache":
        """The cache of a run: ``cache-dir`` (relative to the configuration's folder).

        Raises :class:`CacheDirError` when ``cache-dir`` leaves the project.
        """
        from reprolint.catalog import catalog_digest

        folder = cache_folder(settings)
        # Only settings that reach the per-file pass belong in the key; selection and
        # suppression are applied after the cache, so changing them keeps it warm.
        config = json.dumps({"torch_version": settings.torch_version}, sort_keys=True)
        salt = "\0".join(
            (str(CACHE_FORMAT), code_digest(), catalog_digest(), config, sys.version.split()[0])
        )
        return cls(folder, salt, root=Path(settings.root))

    # ----------------------------------------------------------------- the folder's state

    @property
    def problem(self) -> Optional[str]:
        """Why this run does not use the cache folder (None when it does), for a warning."""
        self._check_folder()
        return self._problem

    def _check_folder(self) -> str:
        if self._state is None:
            self._state, self._problem = self._inspect()
        return self._state

    def _inspect(self) -> tuple[str, Optional[str]]:
        link = _link_on_the_way(self.root, self.folder)
        if link is not None:
            return "refused", f"{link} is a symbolic link; the cache is not used"
        if not os.path.lexists(self.folder):
            return "absent", None
        if not self.folder.is_dir():
            return "refused", f"{self.folder} is not a folder; the cache is not used"
        if not is_cache_folder(self.folder, self.secret):
            return "refused", (
                f"{self.folder} was not created by reprolint for this user at this place "
                "(a folder from the repository or another machine?); the cache is not used "
                "(remove the folder, or set `cache-dir`)"
            )
        return "ready", None

    def _prepare(self) -> bool:
        """Make sure the folder is ours before a write; False: do not write."""
        state = self._check_folder()
        if state == "ready":
            return True
        if state == "refused":
            return False
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.folder.mkdir()
        except FileExistsError:
            # Another run made it meanwhile: trust it only if its marker verifies.
            self._state = None
            return self._check_folder() == "ready"
        # Ours: only now do the marker and the .gitignore go in.
        write_atomic(self.folder / ".gitignore", _GITIGNORE.encode())
        marker = _MARKER_HEAD + _MARKER_MAC + _folder_mac(self.secret, self.folder) + "\n"
        write_atomic(self.folder / _MARKER, marker.encode())
        self._state = "ready"
        return True

    # ----------------------------------------------------------------- keys and entries

    def key(self, path: str, data: bytes) -> str:
        """An HMAC of everything the analysis of ``data`` as ``path`` depends on."""
        h = hmac.new(self.secret, self.salt.encode(), hashlib.sha256)
        h.update(b"\0")
        h.update(path.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
        h.update(data)
        return h.hexdigest()

    def _seal(self, kind: str, key: str, body: bytes) -> bytes:
        return _mac(self.secret, kind.encode(), key.encode(), body).encode() + b"\n" + body

    def _open(self, kind: str, key: str, raw: bytes) -> Optional[bytes]:
        """The body of a sealed entry, or None when its HMAC does not verify."""
        mac, newline, body = raw.partition(b"\n")
        if not newline or len(mac) != 64:
            return None
        expected = _mac(self.secret, kind.encode(), key.encode(), body).encode()
        return body if hmac.compare_digest(mac, expected) else None

    def _read(self, kind: str, key: str, entry: Path) -> Optional[bytes]:
        if self._check_folder() != "ready":
            return None
        try:
            raw = entry.read_bytes()
        except OSError:
            return None
        return self._open(kind, key, raw)

    def _write(self, kind: str, key: str, entry: Path, body: bytes) -> None:
        if not self._prepare():
            return
        # The shard folders only, never the cache folder itself: a `reprolint clean`
        # during this run removes it, and remaking it here would leave a folder without
        # its tag (every later run uncached, clean refusing). Then nothing is written.
        here = self.folder
        for part in entry.parent.relative_to(self.folder).parts:
            here = here / part
            try:
                here.mkdir()
            except FileExistsError:
                pass
        write_atomic(entry, self._seal(kind, key, body))

    def _entry(self, key: str) -> Path:
        return self.folder / "v1" / key[:2] / f"{key[2:]}.json"

    def load(self, key: str) -> Optional[dict[str, Any]]:
        """The stored payload, or None (missing, unauthentic or corrupt: then deleted)."""
        body = self._read("facts", key, self._entry(key))
        if body is None:
            return None
        try:
            stored = loads(body)
            if not isinstance(stored, dict) or stored.get("key") != key:
                raise CorruptEntry("key mismatch")
            payload = stored.get("payload")
            if not isinstance(payload, dict):
                raise CorruptEntry("no payload")
        except CorruptEntry:
            self.discard(key)
            return None
        return payload

    def discard(self, key: str) -> None:
        if self._check_folder() != "ready":
            return
        try:
            self._entry(key).unlink()
        except OSError:
            pass

    def store(self, key: str, payload: dict[str, Any]) -> None:
        """Write an entry atomically; a cache that cannot be written is silently skipped."""
        try:
            text = json.dumps({"key": key, "payload": payload}, separators=(",", ":"))
            self._write("facts", key, self._entry(key), text.encode("utf-8"))
        except (OSError, TypeError, ValueError, RecursionError):
            pass

    def load_run(self, key: str) -> Optional[list[Any]]:
        """The diagnostics of an earlier run with exactly these inputs, or None.

        Types are checked while decoding; whether they fit this run's files (paths,
        lines) is for the caller (:func:`reprolint.runcache.lookup`).
        """
        entry = self.load_run_entry(key)
        return None if entry is None else entry[0]

    def load_run_entry(self, key: str) -> Optional[tuple[list[Any], int]]:
        """An earlier run's diagnostics and how many modules it left out as tests."""
        body = self._read("run", key, self.folder / "runs" / f"{key}.json")
        if body is None:
            return None
        try:
            stored = loads(body, "model")
        except CorruptEntry:
            return None
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        diagnostics = stored.get("diagnostics")
        tests = stored.get("tests", 0)
        if not isinstance(diagnostics, list) or type(tests) is not int or tests < 0:
            return None
        return diagnostics, tests

    def store_run(self, key: str, diagnostics: list[Any], tests_left_out: int = 0) -> None:
        try:
            text = json.dumps(
                {"key": key, "diagnostics": encode(diagnostics, "model"), "tests": tests_left_out},
                separators=(",", ":"),
            )
            self._write("run", key, self.folder / "runs" / f"{key}.json", text.encode("utf-8"))
        except (OSError, TypeError, ValueError, RecursionError):
            pass
