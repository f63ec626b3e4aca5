"""The on-disk cache: round trips, warm runs, one edited file, corrupt and hostile entries,
and its trust model (docs/security.md): a confined folder, authenticated entries, and
nothing from the cache reaching output unchecked."""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from reprolint import cache as cache_module
from reprolint import pipeline
from reprolint.analysis import facts as facts_module
from reprolint.api import analyse_file, check_paths
from reprolint.cache import (
    CorruptEntry, FactsCache, decode, encode, fact_types, is_cache_folder, loads,
    model_types,
)
from reprolint.config import Settings
from reprolint.model import Span

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@pytest.fixture(autouse=True)
def own_secret(tmp_path_factory, monkeypatch) -> Path:
    """Each test has its own per-user secret folder (as another user or machine would)."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(cache_module, "_secret", cache_module._Secret())
    return home


def _sample(hint: Any, depth: int = 0) -> Any:
    """A value of a type hint, with every container non-empty (so nothing is skipped)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint in (str, bool, int, float):  # at any depth: decoding checks these types
        return {str: "text with `code`", bool: True, int: 7, float: 0.5}[hint]
    if hint is Any or depth > 12:
        return ("any", (1, None, 2.5, "<unknown>"), frozenset({"a"}))
    if origin is typing.Union:
        return _sample([a for a in args if a is not type(None)][0], depth + 1)
    if origin in (tuple,):
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(args[0], depth + 1),)
        return tuple(_sample(a, depth + 1) for a in args) if args else (1,)
    if origin in (list,):
        return [_sample(args[0], depth + 1)] if args else [1]
    if origin in (dict,):
        return {_sample(args[0], depth + 1): _sample(args[1], depth + 1)} if args else {"k": 1}
    if origin in (frozenset, set):
        return origin({_sample(args[0], depth + 1)}) if args else origin({"x"})
    if hint is str:
        return "text with `code`"
    if hint is bool:
        return True
    if hint is int:
        return 7
    if hint is float:
        return 0.5
    if dataclasses.is_dataclass(hint):
        return _instance(hint, depth + 1)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return next(iter(hint))
    return "fallback"


def _instance(cls: type, depth: int = 0) -> Any:
    module = sys.modules[cls.__module__]
    hints = typing.get_type_hints(cls, vars(module))
    kwargs = {
        f.name: _sample(hints[f.name], depth) for f in dataclasses.fields(cls) if f.init
    }
    return cls(**kwargs)


@pytest.mark.parametrize("name", sorted(fact_types()))
def test_every_fact_type_round_trips(name: str) -> None:
    cls = fact_types()[name]
    value = _instance(cls)
    # Result types (Diagnostic, Span...) re-exported by the facts module hold enums,
    # which only the run-entry codec ("model") allows.
    kind = "model" if model_types().get(name) is cls else "facts"
    back = decode(json.loads(json.dumps(encode(value, kind))), kind)
    assert type(back) is cls
    assert back == value


def test_the_allow_list_holds_the_fact_types_and_nothing_private() -> None:
    names = set(fact_types())
    assert {"ModuleFacts", "FunctionFacts", "Seed", "Draw", "Call", "Import", "Guard",
            "LocalFinding", "Span"} <= names
    assert not any(n.startswith("_") for n in names)
    # Every fact dataclass the facts module exposes is covered (new ones need no edit).
    for value in vars(facts_module).values():
        if isinstance(value, type) and dataclasses.is_dataclass(value) and not value.__name__.startswith("_"):
            assert fact_types()[value.__name__] is value


def test_real_facts_round_trip_exactly() -> None:
    files = sorted(CORPUS.rglob("*.py"))
    assert len(files) > 50
    for path in files:
        analysis = analyse_file(str(path))
        if analysis.facts is None:
            continue
        assert decode(encode(analysis.facts)) == analysis.facts, path


def test_decoding_never_builds_what_is_not_allowed() -> None:
    for hostile in (
        '{"!c": "Popen", "args": ["sh"]}',
        '{"!c": "ModuleFacts", "path": "x", "nope": 1}',
        '{"!t": 5}',
        '{"!x": []}',
        '{"!e": ["Severity", "fatal"]}',
        '[NaN]',
        '{"!d": [[[1], 2]]}',
    ):
        with pytest.raises(CorruptEntry):
            loads(hostile)


def _copy_corpus(tmp_path: Path) -> Path:
    target = tmp_path / "proj"
    shutil.copytree(CORPUS / "projects", target)
    (tmp_path / "reprolint.toml").write_text('cache-dir = ".cache"\n')
    return target


def _seen(diagnostics: list[Any]) -> list[dict[str, Any]]:
    # What users see. (A run served whole from the cache keeps each fix's `Fix` part:
    # reprolint.fixing's planning subclass is not rebuilt, see FactsCache.store_run.)
    return [d.to_dict() for d in diagnostics]


def _settings(tmp_path: Path) -> Settings:
    return Settings(root=str(tmp_path), cache_dir=".cache")


def test_warm_run_reuses_everything_and_gives_the_same_findings(tmp_path: Path, monkeypatch) -> None:
    project = _copy_corpus(tmp_path)
    settings = _settings(tmp_path)
    cold = check_paths([str(project)], settings, cache=True, jobs=1)
    assert is_cache_folder(tmp_path / ".cache")
    assert (tmp_path / ".cache" / ".gitignore").read_text().endswith("*\n")
    parsed: list[str] = []
    real = pipeline.analyse_bytes

    def counting(path: str, data: bytes, cold_check: bool = False) -> Any:
        parsed.append(path)
        return real(path, data, cold_check)

    monkeypatch.setattr(pipeline, "analyse_bytes", counting)
    warm = check_paths([str(project)], settings, cache=True, jobs=1)
    assert _seen(warm.diagnostics) == _seen(cold.diagnostics)
    assert parsed == []
    # Same files, different run (another selection): per-file entries still serve it.
    other = check_paths([str(project)], settings.replace(ignore=("RPL105",)), cache=True, jobs=1)
    assert parsed == []
    assert _seen([d for d in cold.diagnostics if d.code != "RPL105"]) == _seen(other.diagnostics)


def test_editing_one_file_reanalyses_only_that_file(tmp_path: Path, monkeypatch) -> None:
    project = _copy_corpus(tmp_path)
    settings = _settings(tmp_path)
    check_paths([str(project)], settings, cache=True, jobs=1)
    edited = sorted(project.rglob("*.py"))[0]
    edited.write_text(edited.read_text() + "\n# touched\n")
    parsed: list[str] = []
    real = pipeline.analyse_bytes

    def counting(path: str, data: bytes, cold_check: bool = False) -> Any:
        parsed.append(path)
        return real(path, data, cold_check)

    monkeypatch.setattr(pipeline, "analyse_bytes", counting)
    after = check_paths([str(project)], settings, cache=True, jobs=1)
    assert parsed == [edited.as_posix()]
    assert _seen(after.diagnostics) == _seen(check_paths([str(project)], settings).diagnostics)


def test_corrupt_and_foreign_entries_are_discarded_and_recomputed(tmp_path: Path) -> None:
    project = _copy_corpus(tmp_path)
    settings = _settings(tmp_path)
    expected = check_paths([str(project)], settings, cache=True, jobs=1).diagnostics
    shutil.rmtree(tmp_path / ".cache" / "runs")
    entries = sorted((tmp_path / ".cache" / "v1").glob("*/*.json"))
    assert entries
    garbage = [b"{not json", b'{"key": "other", "payload": {}}', b'{"key": 1}',
               b'[1, 2]', b'']
    store = FactsCache.for_settings(settings)
    for i, entry in enumerate(entries):
        key = entry.parent.name + entry.stem
        if i % 3 == 1:
            entry.write_bytes(garbage[i % len(garbage)])
        elif i % 3 == 2:  # authentic, but naming a class outside the allow-list
            stored = json.loads(_body(entry))
            stored["payload"]["facts"] = {"!c": "Popen", "args": ["rm", "-rf", "/"]}
            entry.write_bytes(store._seal("facts", key, json.dumps(stored).encode()))
        else:  # authentic, but a field of the wrong type
            stored = json.loads(_body(entry))
            stored["payload"]["facts"]["path"] = ["not", "a", "str"]
            entry.write_bytes(store._seal("facts", key, json.dumps(stored).encode()))
    assert _seen(check_paths([str(project)], settings, cache=True, jobs=1).diagnostics) == _seen(expected)
    for entry in entries:  # rewritten, valid again
        assert json.loads(_body(entry))["payload"]["facts"]["!c"] == "ModuleFacts"


def _body(entry: Path) -> bytes:
    """An entry's JSON, after the line holding its HMAC."""
    return entry.read_bytes().partition(b"\n")[2]


def test_the_key_covers_content_path_and_configuration(tmp_path: Path) -> None:
    a = FactsCache(tmp_path, "salt")
    assert a.key("x.py", b"1") != a.key("x.py", b"2")
    assert a.key("x.py", b"1") != a.key("y.py", b"1")
    assert a.key("x.py", b"1") != FactsCache(tmp_path, "other").key("x.py", b"1")
    one = FactsCache.for_settings(Settings(root=str(tmp_path)))
    two = FactsCache.for_settings(Settings(root=str(tmp_path), torch_version="1.8"))
    assert one.salt != two.salt
    assert one.salt == FactsCache.for_settings(Settings(root=str(tmp_path), ignore=("RPL1",))).salt


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "reprolint", *args], cwd=cwd, capture_output=True, text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )


def test_cli_cache_no_cache_and_clean(tmp_path: Path) -> None:
    project = _copy_corpus(tmp_path)
    first = _cli("check", "proj", "--output-format", "json", cwd=tmp_path)
    assert first.returncode == 1
    assert is_cache_folder(tmp_path / ".cache")
    second = _cli("check", "proj", "--output-format", "json", cwd=tmp_path)
    assert second.stdout == first.stdout
    shutil.rmtree(tmp_path / ".cache")
    third = _cli("check", "proj", "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert third.stdout == first.stdout
    assert not (tmp_path / ".cache").exists()
    _cli("check", "proj", cwd=tmp_path)
    cleaned = _cli("clean", cwd=tmp_path)
    assert cleaned.returncode == 0 and "Removed" in cleaned.stdout
    assert not (tmp_path / ".cache").exists()
    assert project.is_dir()


def test_clean_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "reprolint.toml").write_text('cache-dir = "src"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("x = 1\n")
    result = _cli("clean", cwd=tmp_path)
    assert result.returncode == 2
    assert (tmp_path / "src" / "train.py").exists()


def test_a_warm_run_does_not_import_libcst(tmp_path: Path) -> None:
    _copy_corpus(tmp_path)
    probe = (
        "import sys; from reprolint.cli import main; code = main(['check', 'proj', '-q']);"
        "print('libcst._nodes.base' in sys.modules)"
    )
    run = lambda: subprocess.run(  # noqa: E731
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True
    )
    assert run().stdout.strip().endswith("True")  # cold: parsed
    assert run().stdout.strip().endswith("False")  # warm: served from the cache


def test_concurrent_runs_share_the_cache_safely(tmp_path: Path) -> None:
    _copy_corpus(tmp_path)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "reprolint", "check", "proj", "--output-format", "json", "-j", "1"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for _ in range(3)
    ]
    outputs = {p.communicate()[0] for p in procs}
    assert len(outputs) == 1
    assert not list((tmp_path / ".cache").rglob(".tmp-*"))
    assert _cli("check", "proj", "--output-format", "json", cwd=tmp_path).stdout in outputs


def test_span_is_a_fact_type() -> None:
    assert fact_types()["Span"] is Span
