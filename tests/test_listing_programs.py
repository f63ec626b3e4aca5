"""RPL402 names the programs that run a listing, and in a program that trains nothing
(here, a prediction script) keeps reporting the loops whose order picks something: a
random draw per entry pairs each file with the number its place gives it."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

DATA = "import os\n\n\ndef list_images(folder):\n    names = os.listdir(folder)\n    return names[:100]\n"


def _rpl402(root: Path) -> list[tuple[str, int, tuple[str, ...]]]:
    found = check_paths([str(root)], jobs=1).diagnostics
    return [(Path(d.path).name, d.span.start_line, tuple(Path(e).name for e in d.entry_points))
            for d in found if d.code == "RPL402"]


def test_the_finding_names_the_programs_that_run_the_listing(tmp_path: Path) -> None:
    (tmp_path / "data.py").write_text(DATA)
    (tmp_path / "train.py").write_text("import sys\n\nfrom data import list_images\n\nprint(list_images(sys.argv[1]))\n")
    assert _rpl402(tmp_path) == [("data.py", 5, ("train.py",))]


def test_library_code_no_program_runs_names_none(tmp_path: Path) -> None:
    (tmp_path / "data.py").write_text(DATA)
    assert _rpl402(tmp_path) == [("data.py", 5, ())]


PREDICT = (
    "import os\nimport random\nimport sys\n\nimport torch\n\n\n"
    "def run(model, folder):\n"
    "    for name in os.listdir(folder):\n"
    "        x = torch.load(os.path.join(folder, name))\n"
    "{draw}"
    "        print(name, model(x))\n\n\n"
    "if __name__ == '__main__':\n"
    "    random.seed(0)\n"
    "    net = torch.load(sys.argv[1], weights_only=False)\n"
    "    with torch.no_grad():\n"
    "        run(net, sys.argv[2])\n"
)


def test_a_prediction_loop_that_draws_per_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "predict.py").write_text(PREDICT.format(draw="        x = x.roll(random.randint(0, 4))\n"))
    assert _rpl402(tmp_path) == [("predict.py", 9, ("predict.py",))]


def test_a_prediction_loop_that_handles_each_file_alone_is_not(tmp_path: Path) -> None:
    (tmp_path / "predict.py").write_text(PREDICT.format(draw=""))
    assert _rpl402(tmp_path) == []
