"""install(): record, replay and off modes, seen from the program's side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# Each test runs a program that imports torch in a fresh interpreter.
pytestmark = pytest.mark.slow
pytest.importorskip("torch")  # the programs import torch in a child process

# Draws from every RNG the runtime seeds or routes, printed as one JSON line.
DRAWS = """
import json, random, sys
import reprolint.runtime as rt
seed = rt.install(KWARGS)
import numpy as np
import torch
from numpy.random import default_rng
out = {
    "master": seed,
    "random": random.random(),
    "Random()": random.Random().random(),
    "np_global": float(np.random.rand()),
    "default_rng()": float(default_rng().random()),
    "SeedSequence()": int(np.random.SeedSequence().generate_state(1)[0]),
    "RandomState()": float(np.random.RandomState().rand()),
    "torch": torch.rand(1).item(),
    "torch.seed()": torch.seed(),
    "site": rt.seed("data.py:30"),
    "site_again": rt.seed("data.py:30"),
    "deterministic": torch.are_deterministic_algorithms_enabled(),
}
print(json.dumps(out))
"""


def draws(kwargs: str = "") -> str:
    return DRAWS.replace("KWARGS", kwargs)


def test_replay_feeds_back_every_recorded_draw(run_python, tmp_path: Path) -> None:
    record = str(tmp_path / "rec" / "record.json")
    recorded = run_python(draws(), env={"REPROLINT_RECORD": record}).json()
    replayed = run_python(
        draws(), env={"REPROLINT_RECORD": record, "REPROLINT_MODE": "replay"}
    ).json()
    assert replayed == recorded
    fresh = run_python(draws(), env={"REPROLINT_RECORD": str(tmp_path / "other.json")}).json()
    # A new recording draws a new master seed from OS entropy: every value changes.
    assert fresh["master"] != recorded["master"]
    assert fresh["default_rng()"] != recorded["default_rng()"]


def test_record_file_holds_seed_draws_and_environment(run_python, tmp_path: Path) -> None:
    record_path = tmp_path / "rec" / "record.json"
    out = run_python(draws(), env={"REPROLINT_RECORD": str(record_path)}).json()
    record = json.loads(record_path.read_text())
    assert record["seed"] == out["master"]
    assert record["mode"] == "record"
    assert record["python_hash_seed"] == "0"
    assert record["libraries"]["torch"].startswith("2.")
    assert "numpy" in record["libraries"]
    assert record["flags"]["deterministic"] is True
    assert record["flags"]["torch_deterministic_algorithms"] is True
    mine = [d for d in record["draws"] if d["site"].startswith("prog.py:")]
    assert [d["api"] for d in mine] == [
        "random.Random",
        "numpy.random.default_rng",
        "numpy.random.SeedSequence",
        "numpy.random.RandomState",
        "torch.seed",
    ]
    assert [d["value"] for d in record["draws"] if d["site"] == "data.py:30"] == [
        out["site"], out["site_again"]
    ]
    assert [d["index"] for d in record["draws"]] == list(range(len(record["draws"])))


def test_explicit_seed_makes_two_recordings_identical(run_python, tmp_path: Path) -> None:
    a = run_python(draws("seed=1234"), env={"REPROLINT_RECORD": str(tmp_path / "a.json")}).json()
    b = run_python(draws(), env={"REPROLINT_RECORD": str(tmp_path / "b.json"), "REPROLINT_SEED": "1234"}).json()
    assert a == b
    assert a["master"] == 1234
    assert 0 <= a["site"] < 2**32 and a["site"] != a["site_again"]


def test_default_record_location_is_under_reprolint_runs(run_python, tmp_path: Path) -> None:
    run_python(draws())
    records = list((tmp_path / ".reprolint" / "runs").glob("*/record.json"))
    assert len(records) == 1


def test_off_mode_seeds_nothing_and_records_nothing(run_python, tmp_path: Path) -> None:
    a = run_python(draws('mode="off"')).json()
    b = run_python(draws('mode="off"')).json()
    assert a["default_rng()"] != b["default_rng()"]
    assert a["torch"] != b["torch"]
    assert a["deterministic"] is True  # determinism flags still apply
    assert not (tmp_path / ".reprolint").exists()


def test_replay_warns_when_environment_differs(run_python, tmp_path: Path) -> None:
    record_path = tmp_path / "record.json"
    recorded = run_python(draws(), env={"REPROLINT_RECORD": str(record_path)}).json()
    record = json.loads(record_path.read_text())
    record["libraries"]["torch"] = "1.8.0"
    record["python_hash_seed"] = "7"
    record_path.write_text(json.dumps(record))
    replay = run_python(draws(), env={"REPROLINT_RECORD": str(record_path), "REPROLINT_MODE": "replay"})
    assert replay.json() == recorded  # the same values are still fed back
    assert "ReplayMismatchWarning" in replay.err
    assert "torch 1.8.0 was recorded, this is 2." in replay.err
    assert "PYTHONHASHSEED was 7 in the record and is 0 now" in replay.err


def test_replay_without_a_record_warns_and_records(run_python, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "record.json"
    ran = run_python(draws(), env={"REPROLINT_RECORD": str(missing), "REPROLINT_MODE": "replay"})
    assert "no record to replay" in ran.err
    assert json.loads(missing.read_text())["seed"] == ran.json()["master"]


def test_program_without_torch(run_python, tmp_path: Path) -> None:
    program = """
    import json, sys
    sys.modules["torch"] = None  # as if torch were not installed
    import reprolint.runtime as rt
    rt.install()
    import numpy as np
    print(json.dumps({"x": float(np.random.default_rng().random()), "torch": "torch" in sys.modules and sys.modules["torch"] is not None}))
    """
    record = str(tmp_path / "r.json")
    a = run_python(program, env={"REPROLINT_RECORD": record}).json()
    b = run_python(program, env={"REPROLINT_RECORD": record, "REPROLINT_MODE": "replay"}).json()
    assert a == b and a["torch"] is False


def test_import_never_loads_heavy_libraries(run_python) -> None:
    ran = run_python(
        """
        import json, sys
        import reprolint, reprolint.runtime
        print(json.dumps(sorted(m for m in ("torch", "numpy", "tensorflow", "jax") if m in sys.modules)))
        """
    )
    assert ran.json() == []


def test_install_warns_once_when_order_depends_on_pythonhashseed(run_python, tmp_path) -> None:
    # with the re-execution turned off (by default install() pins the hash seed itself:
    # tests/runtime/test_hash_seed_reexec.py), it says what to set, once
    ran = run_python(
        """
        import reprolint.runtime as rt
        rt.install(seed=1, hash_seed=False)
        words = "the quick brown fox jumps over the lazy dog".split()
        vocab = {w: i for i, w in enumerate(set(words))}
        print('{}')
        """,
        env={"PYTHONHASHSEED": None},
        name="build_vocab.py",
    )
    assert ran.err.count("PYTHONHASHSEED is not set") == 1, ran.err
    assert "(build_vocab.py:5)" in ran.err
    assert "PYTHONHASHSEED=0 python build_vocab.py" in ran.err
    assert "train.py" not in ran.err


def test_install_does_not_warn_about_pythonhashseed_when_no_order_depends_on_it(run_python) -> None:
    ran = run_python(
        "import reprolint.runtime as rt\nrt.install(seed=1)\nprint(sorted({'a', 'b'}))\n",
        env={"PYTHONHASHSEED": None},
    )
    assert "PYTHONHASHSEED" not in ran.err, ran.err


def test_cublas_workspace_config_is_set_before_cuda(run_python) -> None:
    ran = run_python(
        """
        import json, os
        import reprolint.runtime as rt
        rt.install(seed=1)
        print(json.dumps(os.environ.get("CUBLAS_WORKSPACE_CONFIG")))
        """,
        env={"CUBLAS_WORKSPACE_CONFIG": None},
    )
    assert ran.json() == ":4096:8"


def test_standard_library_temp_names_stay_random(run_python, tmp_path: Path) -> None:
    program = """
    import json, tempfile
    import reprolint.runtime as rt
    rt.install(seed=3)
    print(json.dumps(tempfile.mktemp()))
    """
    a = run_python(program, env={"REPROLINT_RECORD": str(tmp_path / "a.json")}).json()
    b = run_python(program, env={"REPROLINT_RECORD": str(tmp_path / "b.json")}).json()
    # Deterministic temp names would make concurrent runs collide.
    assert a != b


def test_seed_without_install_installs_implicitly(run_python, tmp_path: Path) -> None:
    program = """
    import json
    import reprolint.runtime as rt
    print(json.dumps(rt.seed("train.py:3")))
    """
    a = run_python(program, env={"REPROLINT_SEED": "9", "REPROLINT_RECORD": str(tmp_path / "a.json")}).json()
    b = run_python(program, env={"REPROLINT_SEED": "9", "REPROLINT_RECORD": str(tmp_path / "b.json")}).json()
    assert a == b and 0 <= a < 2**32


def test_dataloader_workers_get_distinct_replayable_seeds(run_python, tmp_path: Path) -> None:
    program = """
    import json
    import numpy as np
    import torch
    import reprolint.runtime as rt
    rt.install()
    from torch.utils.data import DataLoader, Dataset

    class Draws(Dataset):
        def __len__(self):
            return 4
        def __getitem__(self, i):
            return float(np.random.default_rng().random())

    values = [float(v) for v in DataLoader(Draws(), batch_size=None, num_workers=2)]
    print(json.dumps(values))
    """
    record = str(tmp_path / "r.json")
    a = run_python(program, env={"REPROLINT_RECORD": record}).json()
    b = run_python(program, env={"REPROLINT_RECORD": record, "REPROLINT_MODE": "replay"}).json()
    assert a == b
    assert len(set(a)) == 4  # no two workers (or items) share a seed


def test_a_second_install_is_ignored_with_a_warning(run_python, tmp_path: Path) -> None:
    ran = run_python(
        """
        import json
        import reprolint.runtime as rt
        first = rt.install(seed=1)
        second = rt.install(seed=2)
        print(json.dumps([first, second]))
        """,
        env={"REPROLINT_RECORD": str(tmp_path / "r.json")},
    )
    assert ran.json() == [1, 1]
    assert "install() was already called in this process; this call is ignored" in ran.err
