"""A module that imports a function and then defines its own of the same name calls its
own: the `def` rebinds the name when the module runs. The imported function neither runs
at its calls nor is "named" there for the program model."""
from __future__ import annotations

import shutil
from pathlib import Path

from reprolint.api import check_paths

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "projects" / "shadowed_import"


def test_the_module_s_own_definition_wins(tmp_path: Path) -> None:
    shutil.copytree(CORPUS, tmp_path / "p")
    found = [d for d in check_paths([str(tmp_path / "p")], jobs=1).diagnostics if d.code == "RPL101"]
    assert [(Path(d.path).name, d.span.start_line) for d in found] == [("features.py", 6)]
    assert [Path(e).name for e in found[0].entry_points] == ["knn.py"]


def test_an_import_without_a_definition_of_that_name_still_reaches_the_function(tmp_path: Path) -> None:
    shutil.copytree(CORPUS, tmp_path / "p")
    own = tmp_path / "p" / "copy_detection.py"
    own.write_text(own.read_text().replace("def extract_features(features, scale=2.0)", "def scaled(features, scale=2.0)"))
    found = [d for d in check_paths([str(tmp_path / "p")], jobs=1).diagnostics if d.code == "RPL101"]
    assert sorted(Path(e).name for e in found[0].entry_points) == ["copy_detection.py", "knn.py"]
