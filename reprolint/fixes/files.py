"""Reading a file for fixing and writing it back: encoding, BOM and newlines kept, the
limits `check` applies, and atomic writes that lose neither links, owners nor files."""

from __future__ import annotations

import difflib
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Optional

from reprolint.fixes.edits import split_lines

__all__ = [
    "FileChange",
    "SourceFile",
    "WriteError",
    "read_source",
    "read_regular",
    "remove_stale_temp_files",
    "unified_diff",
    "write_change",
]


@dataclass
class SourceFile:
    """One file as read: its bytes, how to turn text back into bytes, and its text."""

    path: str
    data: bytes
    text: str
    encoding: str = "utf-8"
    bom: bool = False

    def encode(self, text: str) -> bytes:
        encoding = "utf-8" if self.encoding == "utf-8-sig" else self.encoding
        body = text.encode(encoding)
        return (b"\xef\xbb\xbf" if self.bom else b"") + body


def read_regular(path: str) -> bytes:
    """A regular file's bytes (never a FIFO or device: reading one could block forever)."""
    with open(path, "rb", opener=lambda name, flags: os.open(name, flags | getattr(os, "O_NONBLOCK", 0))) as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise ValueError("not a regular file")
        return handle.read()


def _size_refusal(data: bytes, text: Optional[str] = None) -> Optional[str]:
    """Why ``check`` skips a file this big (the same limits apply to ``fix``), or None."""
    from reprolint.api import DATA_FILE_BYTES, DATA_FILE_LITERAL_SHARE, MAX_FILE_BYTES, literal_share

    if len(data) > MAX_FILE_BYTES:
        return (
            f"skipped: {len(data):,} bytes is over the {MAX_FILE_BYTES:,}-byte limit "
            "for one file (generated data, not training code?)"
        )
    if text is not None and len(data) > DATA_FILE_BYTES:
        share = literal_share(text)
        if share >= DATA_FILE_LITERAL_SHARE:
            return (
                f"skipped: {len(data):,} bytes, {share:.0%} of it literal data tables, is over "
                f"the {DATA_FILE_BYTES:,}-byte limit for data files (no training code?)"
            )
    return None


def read_source(path: str) -> SourceFile:
    """A Python file as read for fixing; SourceError when ``check`` would skip it too
    (undecodable, over the size limit, a data file)."""
    from reprolint.api import SourceError, decode_source

    data = read_regular(path)
    refusal = _size_refusal(data)  # before decoding: a 50 MB file never reaches libcst
    if refusal is not None:
        raise SourceError(refusal)
    text = decode_source(data)  # raises SourceError
    refusal = _size_refusal(data, text)
    if refusal is not None:
        raise SourceError(refusal)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # pragma: no cover - decode_source raised already
        raise SourceError(str(exc)) from exc
    return SourceFile(path, data, text, encoding, data.startswith(b"\xef\xbb\xbf"))


@dataclass
class FileChange:
    path: str
    before: str
    after: str
    source: SourceFile
    fixed: dict[str, int] = field(default_factory=dict)  # code -> problems fixed

    @property
    def count(self) -> int:
        return sum(self.fixed.values())


def unified_diff(change: FileChange, label: Optional[str] = None) -> str:
    """A ``git diff``-style unified diff (``a/``, ``b/`` prefixes) that ``patch -p1`` applies."""
    name = label or PurePosixPath(Path(change.path).as_posix()).as_posix()
    name = name.lstrip("/")
    before = ("\ufeff" if change.source.bom else "") + change.before
    after = ("\ufeff" if change.source.bom else "") + change.after
    a, b = split_lines(before), split_lines(after)
    out = []
    for line in difflib.unified_diff(a, b, diff_path(f"a/{name}"), diff_path(f"b/{name}"), n=3):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\n") + "\n")
            continue
        if not line.endswith(("\n", "\r")):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


_C_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r",
              "\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def _needs_quotes(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or code >= 0x7F or char in '"\\'


def diff_path(name: str) -> str:
    """A file name for a diff header, quoted as git quotes it when it must be: a name
    holding a newline, tab or other control character, a quote, a backslash, a
    non-ASCII character (its UTF-8 bytes) or a byte that is not UTF-8 (a surrogate
    escape) becomes ``"a/x\\nconftest.py"`` (C escapes,
    octal bytes), which ``git apply`` and GNU ``patch`` read as one name. A raw newline
    there would start a second header, and ``patch -p1`` would create a file the diff
    never meant (a ``conftest.py``, which pytest then runs)."""
    if not any(_needs_quotes(c) for c in name):
        return name
    parts = []
    for char in name:
        code = ord(char)
        if char in _C_ESCAPES:
            parts.append(_C_ESCAPES[char])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte of a non-UTF-8 name
            parts.append(f"\\{code - 0xDC00:03o}")
        elif code < 0x20 or code == 0x7F:
            parts.append(f"\\{code:03o}")
        elif code > 0x7F:  # as git does (core.quotePath): the UTF-8 bytes, in octal
            parts.append("".join(f"\\{byte:03o}" for byte in char.encode("utf-8", "surrogatepass")))
        else:
            parts.append(char)
    return '"' + "".join(parts) + '"'


class WriteError(Exception):
    """A fixed file that was not written; the message says why (nothing was changed)."""


# Temporary files are named `.NAME.<digest>.<random>.reprolint`, where <digest> is the
# start of the SHA-256 of their own content: a file of that name whose content has that
# digest can only be a complete temporary file of a `fix --write` that was killed before
# renaming it, so a later run may remove it (nothing else matches by chance).
_TEMP_SUFFIX = ".reprolint"
_TEMP_GRACE_SECONDS = 60.0  # younger ones may belong to a run still writing


def _euid(info: os.stat_result) -> int:
    """This process's user id (where there is none, as on Windows: the file's owner)."""
    return os.geteuid() if hasattr(os, "geteuid") else info.st_uid


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:16]


def remove_stale_temp_files(target: Path) -> list[Path]:
    """Remove the temporary files a killed ``fix --write`` left next to ``target``.

    Only files that prove to be reprolint's own are removed: the name pattern, owned by
    this user, older than a minute, and content whose digest is the one in the name.
    """
    import time

    pattern = re.compile(
        r"\." + re.escape(target.name) + r"\.(?P<digest>[0-9a-f]{16})\.[A-Za-z0-9_]+" + re.escape(_TEMP_SUFFIX)
    )
    removed = []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return removed
    for name in names:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        candidate = target.parent / name
        try:
            info = candidate.lstat()
            if (
                not stat.S_ISREG(info.st_mode)
                or info.st_uid != _euid(info)
                or time.time() - info.st_mtime < _TEMP_GRACE_SECONDS
                or info.st_size > 64 * 1024 * 1024
                or _digest(candidate.read_bytes()) != match.group("digest")
            ):
                continue
            candidate.unlink()
            removed.append(candidate)
        except OSError:
            continue
    return removed


def write_change(change: FileChange) -> Path:
    """Write one fixed file; returns the path written (a symbolic link's target).

    Refuses read-only files and files changed on disk since they were read. The new
    content goes to a temporary file in the same folder, renamed over the original
    (atomic), except where a rename would lose something: a file with other hard links
    or owned by another user (``fix --write`` as root) is rewritten in place, and so is
    a writable file in a folder where no temporary file can be created. An interrupted
    write leaves no temporary file behind.
    """
    link = Path(change.path)
    try:
        path = Path(os.path.realpath(link))
        info = path.stat()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise WriteError(f"cannot read: {getattr(exc, 'strerror', None) or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise WriteError("not a regular file, not written")
    if not info.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK):
        raise WriteError("read-only, not written")
    read = change.source.data
    if not _still_as_read(path, info, read):
        raise WriteError(CHANGED_ON_DISK)
    data = change.source.encode(change.after)
    remove_stale_temp_files(path)
    in_place = info.st_nlink > 1 or info.st_uid != _euid(info)
    try:
        if not in_place:
            try:
                _replace_atomically(path, data, info, read)
                return path
            except PermissionError:
                in_place = True  # the folder is read-only; the file itself is writable
        _write_in_place(path, data, info, read)
    except _ChangedOnDisk:
        raise WriteError(CHANGED_ON_DISK) from None
    except OSError as exc:
        raise WriteError(f"cannot write: {exc.strerror or exc}") from exc
    return path


CHANGED_ON_DISK = "changed on disk since it was read (an edit saved meanwhile?), not overwritten"


class _ChangedOnDisk(Exception):
    """The file is no longer what was read: an edit was saved while fix wrote."""


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _still_as_read(path: Path, info: os.stat_result, read: bytes) -> bool:
    """Whether ``path`` is still the file ``info`` describes, holding exactly ``read``:
    same device and inode (an editor's atomic save makes a new one), same size and
    modification time (an append), and the same bytes (an edit within the clock's
    resolution)."""
    try:
        with open(path, "rb") as handle:
            if _identity(os.fstat(handle.fileno())) != _identity(info):
                return False
            current = handle.read(len(read) + 1)
        return current == read and _identity(os.stat(path)) == _identity(info)
    except OSError:
        return False


def _replace_atomically(path: Path, data: bytes, info: os.stat_result, read: bytes) -> None:
    """Write ``data`` beside ``path`` and rename it over ``path`` — only if ``path`` is
    still what was read, checked after the slow part (write, fsync), right before the
    rename (else :class:`_ChangedOnDisk`)."""
    fd, temp = tempfile.mkstemp(
        dir=str(path.parent), prefix=f".{path.name}.{_digest(data)}.", suffix=_TEMP_SUFFIX
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(info.st_mode))
        if not _still_as_read(path, info, read):
            raise _ChangedOnDisk()
        os.replace(temp, path)
    except BaseException:  # Ctrl-C included: never leave the temporary file behind
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _write_in_place(path: Path, data: bytes, info: os.stat_result, read: bytes) -> None:
    """Overwrite ``path``'s content, keeping its inode (owner, mode, other hard links),
    only if it is still what was read (else :class:`_ChangedOnDisk`)."""
    fd = os.open(path, os.O_WRONLY)
    with os.fdopen(fd, "wb") as handle:
        if _identity(os.fstat(fd)) != _identity(info) or not _still_as_read(path, info, read):
            raise _ChangedOnDisk()
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())
