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
from reprolint.cache import FactsCache, is_cache_folder
from reprolint.cache_codec import (
    CorruptEntry, decode, encode, fact_types, loads, model_types, plain_data,
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
    # Every fact dataclass the facts module defines is covered (new ones need no edit).
    for value in vars(facts_module).values():
        if (
            isinstance(value, type) and dataclasses.is_dataclass(value)
            and not value.__name__.startswith("_") and value.__module__ == facts_module.__name__
        ):
            assert fact_types()[value.__name__] is value


def test_a_dataclass_holding_more_than_data_is_never_a_fact_type() -> None:
    import libcst as cst

    @dataclasses.dataclass
    class HoldsANode:
        node: cst.Call
        name: str

    @dataclasses.dataclass
    class HoldsData:
        name: str
        span: Span
        values: tuple[int, ...]

    assert not plain_data(HoldsANode)
    assert plain_data(HoldsData)
    for cls in fact_types().values():
        assert plain_data(cls), cls


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


def test_every_usage_event_class_is_cached_and_nothing_else_of_its_module() -> None:
    from reprolint.analysis import usage_events
    from reprolint.analysis.usage_events import USAGE_TYPES, LoaderBuilt, OpCall
    from reprolint.analysis.values import OptionRef

    public = {cls for cls in USAGE_TYPES if not cls.__name__.startswith("_")}
    assert len(public) > 20
    for cls in public:
        assert fact_types()[cls.__name__] is cls
        value = _instance(cls)
        back = loads(json.dumps(encode([value])))
        assert back == [value] and type(back[0]) is cls
    # Real values, as the collector records them, come back equal and typed.
    span = Span(3, 4, 3, 30)
    events = [
        LoaderBuilt("torch.utils.data.DataLoader", span, "DataLoader", (), dataset=":Noisy",
                    num_workers=4, workers_ref=OptionRef("workers"), worker_init_fn=True),
        OpCall("torch.Tensor.index_add_", span, "x.index_add_", (), kwargs=(("alpha", 2),),
               args=(0, "<unknown>"), splat=True, facts=("index-unique",)),
    ]
    assert loads(json.dumps(encode(events))) == events
    # The private keyword base is never rebuilt, and a field of the wrong type is corrupt.
    assert "_KeywordCall" not in fact_types() and hasattr(usage_events, "_KeywordCall")
    planted = encode(events[0])
    for hostile in (
        {**planted, "!c": "_KeywordCall"},
        {**planted, "!c": "UsageMixin"},
        {**planted, "worker_init_fn": "yes"},
        {**planted, "span": "3:4"},
    ):
        with pytest.raises(CorruptEntry):
            loads(json.dumps(hostile))


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

    def counting(path: str, data: bytes) -> Any:
        parsed.append(path)
        return real(path, data)

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

    def counting(path: str, data: bytes) -> Any:
        parsed.append(path)
        return real(path, data)

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


@pytest.mark.slow  # several `reprolint` child processes
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


@pytest.mark.slow  # several `reprolint` child processes
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


# --------------------------------------------------------------------------- trust
# docs/security.md: the cache folder is confined and marked, its entries authenticated
# with a per-user secret, and nothing read from it reaches output unchecked.

UNSEEDED = "import random\n\nx = random.random()\n"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<dir>")
        for p in sorted(folder.rglob("*"))
    }


def _toml_config(folder: Path, cache_dir: str) -> None:
    (folder / "reprolint.toml").write_text(f"cache-dir = {json.dumps(cache_dir)}\n")


@pytest.mark.parametrize(
    "cache_dir", ["..", "", ".", "sub/../..", "../sibling", "ABSOLUTE"],
)
def test_a_cache_dir_that_is_not_inside_the_project_is_refused(tmp_path: Path, cache_dir: str) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "train.py").write_text(UNSEEDED)
    if cache_dir == "ABSOLUTE":
        cache_dir = str(tmp_path / "elsewhere")
    _toml_config(project, cache_dir)
    before = _snapshot(tmp_path)
    result = _cli("check", ".", cwd=project)
    assert result.returncode == 2, result.stderr
    assert "cache-dir" in result.stderr and "Traceback" not in result.stderr
    assert _snapshot(tmp_path) == before  # no .gitignore, no entry, anywhere
    cleaned = _cli("clean", cwd=project)
    assert cleaned.returncode == 2 and "Traceback" not in cleaned.stderr
    assert _snapshot(tmp_path) == before
    # The cache is not needed without it: --no-cache still checks.
    assert _cli("check", ".", "--no-cache", cwd=project).returncode == 1


def test_check_never_writes_into_a_folder_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(UNSEEDED)
    _toml_config(tmp_path, "src")
    before = _snapshot(tmp_path / "src")
    result = _cli("check", "src", cwd=tmp_path)
    assert result.returncode == 1 and "RPL101" in result.stdout
    assert "was not created by reprolint" in result.stderr
    assert _snapshot(tmp_path / "src") == before  # no .gitignore holding `*`
    assert _cli("clean", cwd=tmp_path).returncode == 2
    assert _snapshot(tmp_path / "src") == before


def test_a_planted_folder_cannot_pass_for_a_cache(tmp_path: Path) -> None:
    planted = tmp_path / ".reprolint_cache"
    planted.mkdir()
    # The 0.1 marker, and a copy of a real marker made for another user and place.
    (planted / ".gitignore").write_text(
        "# Created by reprolint: the analysis cache (`reprolint clean` removes it).\n*\n"
    )
    (planted / "notes.txt").write_text("precious\n")
    other = tmp_path / "other"
    (other / "train.py").parent.mkdir()
    (other / "train.py").write_text(UNSEEDED)
    assert _cli("check", ".", cwd=other).returncode == 1
    shutil.copy(other / ".reprolint_cache" / "CACHEDIR.TAG", planted / "CACHEDIR.TAG")
    assert is_cache_folder(other / ".reprolint_cache")
    assert not is_cache_folder(planted)
    result = _cli("clean", cwd=tmp_path)
    assert result.returncode == 2 and "not removing" in result.stderr
    assert (planted / "notes.txt").read_text() == "precious\n"


def test_a_cache_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    outside = tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "train.py").write_text(UNSEEDED)
    (project / ".reprolint_cache").symlink_to(outside, target_is_directory=True)
    result = _cli("check", ".", cwd=project)
    assert result.returncode == 1 and "RPL101" in result.stdout
    assert "symbolic link" in result.stderr and "Traceback" not in result.stderr
    assert list(outside.iterdir()) == []  # nothing written through the link
    cleaned = _cli("clean", cwd=project)
    assert cleaned.returncode == 2 and "symbolic link" in cleaned.stderr
    assert "Traceback" not in cleaned.stderr
    assert (project / ".reprolint_cache").is_symlink() and outside.is_dir()


def _codes(diagnostics: list[Any]) -> list[tuple[str, str, int]]:
    return [(d.code, Path(d.path).name, d.span.start_line) for d in diagnostics]


def test_a_file_saved_during_a_run_never_stores_findings_under_the_old_key(tmp_path: Path, monkeypatch) -> None:
    from reprolint import runcache

    source = tmp_path / "train.py"
    source.write_text(UNSEEDED)
    settings = _settings(tmp_path)
    expected = _codes(check_paths([str(tmp_path)], settings).diagnostics)
    assert expected
    real = runcache.lookup

    def editor_saves_after_the_lookup(*args: Any, **kwargs: Any) -> Any:
        run = real(*args, **kwargs)
        source.write_text("x = 1\n")  # saved after the run key was computed
        return run

    monkeypatch.setattr(runcache, "lookup", editor_saves_after_the_lookup)
    during = check_paths([str(tmp_path)], settings, cache=True, jobs=1)
    assert _codes(during.diagnostics) == []  # what was analysed: the new content
    monkeypatch.setattr(runcache, "lookup", real)
    source.write_text(UNSEEDED)  # back to the content the run key was made from
    assert _codes(check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics) == expected


def _planted_run(tmp_path: Path) -> tuple[Settings, Any, list[Any]]:
    """A project whose cache folder was made by a real run, and that run's lookup."""
    from reprolint.runcache import lookup

    (tmp_path / "train.py").write_text(UNSEEDED)
    settings = Settings(root=str(tmp_path))
    expected = check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics
    assert expected
    return settings, lookup([str(tmp_path)], settings), expected


def test_a_run_entry_written_without_the_secret_is_absent(tmp_path: Path) -> None:
    settings, run, expected = _planted_run(tmp_path)
    # What a pull request can commit: an entry under the run's key saying "no findings".
    runs = tmp_path / ".reprolint_cache" / "runs"
    for entry in [runs / f"{run.key}.json", *runs.glob("*.json")]:
        entry.write_text(json.dumps({"key": run.key, "diagnostics": []}))
    again = check_paths([str(tmp_path)], settings, cache=True, jobs=1)
    assert _codes(again.diagnostics) == _codes(expected)
    # Its authentic entry, edited, does not verify either.
    entry = runs / f"{run.key}.json"
    mac, _, body = entry.read_bytes().partition(b"\n")
    stored = json.loads(body)
    stored["diagnostics"] = []
    entry.write_bytes(mac + b"\n" + json.dumps(stored).encode())
    assert _codes(check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics) == _codes(expected)


def test_a_cache_from_another_user_or_machine_is_not_used(tmp_path: Path, monkeypatch) -> None:
    settings, run, expected = _planted_run(tmp_path)
    folder = tmp_path / ".reprolint_cache"
    # The same folder, committed and checked out elsewhere: another secret.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-home"))
    monkeypatch.setattr(cache_module, "_secret", cache_module._Secret())
    assert not is_cache_folder(folder)
    store = FactsCache.for_settings(settings)
    assert store.problem and "not created by reprolint" in store.problem
    before = _snapshot(folder)
    # Empty every entry: were any of them trusted, findings would disappear.
    for entry in folder.rglob("*.json"):
        entry.write_bytes(entry.read_bytes().partition(b"\n")[0] + b'\n{"key":"x","payload":{}}')
    before = _snapshot(folder)
    assert _codes(check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics) == _codes(expected)
    assert _snapshot(folder) == before  # and never written to


def test_the_secret_is_private_and_kept_outside_the_project(own_secret: Path, tmp_path: Path) -> None:
    secret = cache_module.user_secret()
    path = own_secret / "reprolint" / "cache-secret"
    assert path.read_bytes() == secret and len(secret) == 32
    assert path.stat().st_mode & 0o777 == 0o600
    # A secret file others can read is not used (a throw-away one is, and it says why).
    path.chmod(0o644)
    cache_module._secret = cache_module._Secret()
    assert cache_module.user_secret() != secret
    assert "other users" in (cache_module.cache_secret_problem() or "")


def _diagnostic(path: str, line: int = 3) -> Any:
    from reprolint.model import Diagnostic

    return Diagnostic(code="RPL101", name="unseeded-global-rng", message="planted", path=path,
                      span=Span(line, 5, line, 18))


@pytest.mark.parametrize("planted", ["outside-path", "missing-file", "huge-line", "bad-type", "bad-code"])
def test_an_authentic_run_entry_that_does_not_fit_this_run_is_absent(tmp_path: Path, planted: str) -> None:
    settings, run, expected = _planted_run(tmp_path)
    store = run.store
    train = str(tmp_path / "train.py")
    value: Any = {
        "outside-path": [_diagnostic("/proc/self/environ")],
        "missing-file": [_diagnostic(str(tmp_path / "gone.py"))],
        "huge-line": [_diagnostic(train, line=2)],
        "bad-type": [_diagnostic(train, line=2)],
        "bad-code": [dataclasses.replace(_diagnostic(train), code="X1")],
    }[planted]
    store.store_run(run.key, value)  # sealed with this user's secret: authentic
    entry = tmp_path / ".reprolint_cache" / "runs" / f"{run.key}.json"
    if planted in ("huge-line", "bad-type"):
        body = _body(entry).decode()
        replacement = str(10**300) if planted == "huge-line" else '"3"'
        body = body.replace('"start_line":2', f'"start_line":{replacement}', 1)
        assert replacement in body
        store._write("run", run.key, entry, body.encode())
    assert _codes(check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics) == _codes(expected)


def test_a_planted_path_never_reaches_the_terminal(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REPROLINT_TEST_CANARY", "canary-7f3a")
    settings, run, expected = _planted_run(tmp_path)
    run.store.store_run(run.key, [_diagnostic("/proc/self/environ", line=1)])
    result = _cli("check", ".", "--show-source", cwd=tmp_path)
    assert "canary-7f3a" not in result.stdout and "/proc/self/environ" not in result.stdout
    assert result.returncode == 1 and "RPL101" in result.stdout


@pytest.mark.parametrize("error", [["planted", 10**300, 1], ["planted", "1", 1], "planted", [1, 2, 3]])
def test_an_authentic_file_entry_with_bad_fields_is_recomputed(tmp_path: Path, error: Any) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    settings = _settings(tmp_path)
    expected = _codes(check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics)
    shutil.rmtree(tmp_path / ".cache" / "runs")
    store = FactsCache.for_settings(settings)
    (entry,) = (tmp_path / ".cache" / "v1").glob("*/*.json")
    key = entry.parent.name + entry.stem
    stored = json.loads(_body(entry))
    stored["payload"] = {"facts": None, "error": error, "suppressions": []}
    store._write("facts", key, entry, json.dumps(stored).encode())
    assert _codes(check_paths([str(tmp_path)], settings, cache=True, jobs=1).diagnostics) == expected
