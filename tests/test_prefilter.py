"""The pre-filter: files it does not parse never change a finding."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reprolint import pipeline, prefilter
from reprolint.api import analyse_file, check_paths
from reprolint.prefilter import cold_file, select_stubs

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
torch = pytest.importorskip("torch")
TORCH_NN = Path(torch.__file__).resolve().parent / "nn"


def _stubbed(monkeypatch) -> set[str]:
    chosen: set[str] = set()
    real = pipeline.__dict__.get("select_stubs") or select_stubs

    def spy(*args: Any, **kwargs: Any) -> set[str]:
        result = real(*args, **kwargs)
        chosen.update(result)
        return result

    monkeypatch.setattr(prefilter, "select_stubs", spy)
    return chosen


@pytest.mark.parametrize("folder", [CORPUS, TORCH_NN], ids=["corpus", "torch-nn"])
def test_findings_are_identical_with_and_without_the_prefilter(folder: Path, monkeypatch) -> None:
    stubbed = _stubbed(monkeypatch)
    with_filter = check_paths([str(folder)], prefilter=True)
    without = check_paths([str(folder)], prefilter=False)
    assert with_filter.diagnostics == without.diagnostics
    assert with_filter.files_checked == without.files_checked
    # Every file it skipped really had nothing of its own to report.
    for path in stubbed:
        facts = analyse_file(path).facts
        assert facts is not None and not facts.findings, path
        kinds = {type(e).__name__ for e in facts.events}
        assert not kinds & {"Seed", "Draw"}, path


def test_cold_files_have_no_trigger_word() -> None:
    assert cold_file("import json\nVALUE = json.dumps\n") is not None
    assert cold_file("import torch\nx = torch.randn(3)\n") is None  # randn
    assert cold_file("for i in range(3):\n    pass\n") is None  # top-level work: a script
    assert cold_file("if __name__ == '__main__':\n    pass\n") is None  # an entry point
    assert cold_file("def f(:\n") is None  # the full path reports the syntax error
    words = prefilter.trigger_words()
    assert {"manual_seed", "randn", "DataLoader", "add_argument", "set", "listdir"} <= set(words)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "train.py").write_text(
        "import random\nimport helpers\nfrom pkg import linked\n\n"
        "x = random.random()\n"
    )
    (root / "helpers.py").write_text("import os\n\nSEP = os.sep\n")  # imported: parsed
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "linked.py").write_text("from . import isolated_not\n")
    (root / "pkg" / "isolated_not.py").write_text("import json\n")
    (root / "alone.py").write_text('"""Plots."""\nimport json\n\nX = 1\n')
    (root / "script.py").write_text("import json\nprint(json.dumps(1))\n")  # an entry
    (root / "main.py").write_text("import json\nif __name__ == '__main__':\n    json.dumps(1)\n")
    return root


def test_only_isolated_files_that_are_not_entry_points_are_skipped(tmp_path: Path, monkeypatch) -> None:
    root = _project(tmp_path)
    stubbed = _stubbed(monkeypatch)
    with_filter = check_paths([str(root)], prefilter=True, jobs=1)
    assert {Path(p).name for p in stubbed} == {"alone.py"}
    without = check_paths([str(root)], prefilter=False, jobs=1)
    assert with_filter.diagnostics == without.diagnostics
    assert [d.code for d in with_filter.diagnostics]  # the project does report something


def test_configured_entry_points_are_never_skipped(tmp_path: Path, monkeypatch) -> None:
    from reprolint.config import Settings

    root = _project(tmp_path)
    stubbed = _stubbed(monkeypatch)
    settings = Settings(root=str(root), entry_points=("alone.py",))
    check_paths([str(root)], settings, prefilter=True, jobs=1)
    assert stubbed == set()


def test_a_file_that_imports_a_skipped_candidate_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    sources = {"a.py": "import lonely\n", "lonely.py": "Y = 1\n", "c/d.py": "from .. import lonely\n"}
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
    cold = {str(tmp_path / n): cold_file(t) for n, t in sources.items()}
    assert all(cold.values())
    paths = list(cold)
    assert select_stubs(cold, {}, paths) == set()  # everyone is linked to lonely.py
    lonely = str(tmp_path / "lonely.py")
    assert select_stubs({lonely: cold[lonely]}, {}, [lonely]) == {lonely}
    # a relative import two levels up reaches it as well
    d = str(tmp_path / "c" / "d.py")
    assert select_stubs({lonely: cold[lonely]}, {d: ("..lonely",)}, [d, lonely]) == set()
    # and a package import reaches its submodules (`import c` then `c.d.f()`)
    assert select_stubs({d: cold[d]}, {str(tmp_path / "a.py"): ("c",)}, [d, str(tmp_path / "a.py")]) == set()
