"""Pure parts of the runtime, tested in-process (nothing here calls install())."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reprolint.runtime._entropy import EntropyStream, derive
from reprolint.runtime._imports import when_imported
from reprolint.runtime._record import Draw, Record, environment_differences, read_record, write_record


def test_derived_seeds_depend_on_master_and_key_only() -> None:
    assert derive(1, "k", 32) == derive(1, "k", 32)
    assert derive(1, "k", 32) != derive(2, "k", 32)
    assert derive(1, "k", 32) != derive(1, "j", 32)
    assert all(0 <= derive(s, "k", 32) < 2**32 for s in range(50))


def test_stream_counts_occurrences_per_site() -> None:
    stream = EntropyStream(7)
    first = stream.draw("numpy.random.default_rng", "a.py:1", 128)
    second = stream.draw("numpy.random.default_rng", "a.py:1", 128)
    other = stream.draw("numpy.random.default_rng", "b.py:1", 128)
    assert len({first, second, other}) == 3
    assert [d.key for d in stream.draws] == [
        "numpy.random.default_rng@a.py:1#0",
        "numpy.random.default_rng@a.py:1#1",
        "numpy.random.default_rng@b.py:1#0",
    ]


def test_stream_replays_recorded_values_and_reports_missing_keys() -> None:
    recorded = [Draw(0, "seed", "x", "seed@x#0", 123)]
    missing = []
    stream = EntropyStream(7, replayed=recorded, on_missing=missing.append)
    assert stream.draw("seed", "x", 32) == 123
    assert stream.draw("seed", "x", 32) == derive(7, "seed@x#1", 32)
    assert missing == ["seed@x#1"]


def test_record_round_trips_through_json(tmp_path: Path) -> None:
    record = Record(seed=5, draws=[Draw(0, "seed", "x", "seed@x#0", 2**100)], libraries={"torch": "2.0"})
    write_record(record, tmp_path / "sub" / "record.json")
    assert read_record(tmp_path / "sub" / "record.json") == record
    assert list((tmp_path / "sub").iterdir()) == [tmp_path / "sub" / "record.json"]


def test_environment_differences_name_what_changed() -> None:
    old = Record(seed=1, python="3.11.7", libraries={"torch": "2.1.0", "numpy": "1.26.0"},
                 flags={"deterministic": True}, python_hash_seed="0")
    new = Record(seed=1, python="3.11.7", libraries={"torch": "2.13.0"},
                 flags={"deterministic": True}, python_hash_seed="0")
    assert environment_differences(old, new) == [
        "numpy 1.26.0 was recorded, this is absent",
        "torch 2.1.0 was recorded, this is 2.13.0",
    ]
    assert environment_differences(old, old) == []


def test_when_imported_runs_after_the_module_and_leaves_its_loader(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "rpl_watched_mod.py").write_text("VALUE = 41\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    when_imported("rpl_watched_mod", lambda m: seen.append(m.VALUE + 1))
    assert seen == []
    import rpl_watched_mod  # noqa: F401  (the import is the test)

    assert seen == [42]
    assert type(rpl_watched_mod.__loader__).__name__ == "SourceFileLoader"
    when_imported("rpl_watched_mod", lambda m: seen.append(0))  # already imported: at once
    assert seen == [42, 0]
    del sys.modules["rpl_watched_mod"]


def test_a_failing_hook_warns_and_the_import_still_works(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "rpl_watched_bad.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def boom(module):
        raise RuntimeError("no")

    when_imported("rpl_watched_bad", boom)
    with pytest.warns(RuntimeWarning, match="could not prepare `rpl_watched_bad`"):
        import rpl_watched_bad  # noqa: F401
    assert rpl_watched_bad.VALUE == 1
    del sys.modules["rpl_watched_bad"]


@pytest.mark.parametrize(
    "version, env",
    [
        ("1.15.5", {"TF_DETERMINISTIC_OPS": "1", "TF_CUDNN_DETERMINISTIC": "1"}),
        ("2.0.4", {"TF_DETERMINISTIC_OPS": "1", "TF_CUDNN_DETERMINISTIC": "1"}),
        ("2.4.1", {"TF_DETERMINISTIC_OPS": "1"}),
    ],
)
def test_tensorflow_without_enable_op_determinism_gets_the_variables_its_version_reads(version, env, monkeypatch) -> None:
    """A stand-in module (TF before 2.8 has no `config.experimental.enable_op_determinism`):
    TF 1.14-2.0 read only TF_CUDNN_DETERMINISTIC, 2.1-2.7 TF_DETERMINISTIC_OPS."""
    import os
    import types

    from reprolint.runtime import _determinism

    for name in ("TF_DETERMINISTIC_OPS", "TF_CUDNN_DETERMINISTIC"):
        monkeypatch.delenv(name, raising=False)
    tf = types.SimpleNamespace(__version__=version, config=types.SimpleNamespace(experimental=types.SimpleNamespace()))
    flags: dict = {}
    _determinism.apply_tensorflow(tf, flags)  # type: ignore[arg-type]
    assert {k: os.environ[k] for k in ("TF_DETERMINISTIC_OPS", "TF_CUDNN_DETERMINISTIC") if k in os.environ} == env


def test_tensorflow_1_is_seeded_through_its_graph_seed() -> None:
    # TensorFlow 1 has no tf.random.set_seed: its seeding call is tf.set_random_seed
    import types

    from reprolint.runtime._seeding import seed_tensorflow

    calls: list[tuple[str, int]] = []
    tf1 = types.SimpleNamespace(random=types.SimpleNamespace(), set_random_seed=lambda s: calls.append(("graph", s)))
    seed_tensorflow(tf1, 2**31 + 5)  # type: ignore[arg-type]
    tf2 = types.SimpleNamespace(random=types.SimpleNamespace(set_seed=lambda s: calls.append(("global", s))))
    seed_tensorflow(tf2, 7)  # type: ignore[arg-type]
    assert calls == [("graph", 5), ("global", 7)]
