"""`reprolint fix` on hostile or unusual input (issue 15): a fix never changes what a
program computes beyond seeding, and the write phase never loses or corrupts a file."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import libcst as cst
import pytest

from reprolint import fixes
from reprolint.api import check_source, fix_source
from reprolint.config import Settings


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


# -- a moved seed never goes above what feeds it


OPTIONAL_SEED = (
    "import argparse\nimport random\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--seed", type=int, default=None)\n'
    "opt = parser.parse_args()\n"
    "x = random.random()\n"
    "{feed}\n"
    "random.seed({value})\n"
)


@pytest.mark.parametrize(
    ("feed", "value"),
    [
        ("if opt.seed is None:\n    opt.seed = random.randint(1, 10000)", "opt.seed"),
        ("opt.seed += 1", "opt.seed"),
        ('cfg = {}\ncfg["seed"] = 3', 'cfg["seed"]'),
        ("configure(opt)", "opt.seed"),
        ("opt.update(seed=4)", "opt.seed"),
        ("setup()", "opt.seed"),
        ("del opt.seed", "getattr(opt, 'seed', 0)"),
    ],
)
def test_a_seed_is_never_moved_above_what_feeds_it(feed: str, value: str) -> None:
    source = OPTIONAL_SEED.format(feed=feed, value=value)
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    seed_line = f"random.seed({value})"
    # Whatever else the fix does, the seeding call still runs after what it reads.
    assert fixed.index(seed_line) > fixed.index(feed.splitlines()[-1].strip())
    assert compile(fixed, "train.py", "exec")


def test_a_seed_that_reads_nothing_assigned_still_moves() -> None:
    source = "import random\n\nx = random.random()\nmodel = build()\nrandom.seed(0)\n"
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert fixed == "import random\n\nrandom.seed(0)\nx = random.random()\nmodel = build()\n"
    assert not [d for d in check_source(fixed, "train.py") if d.code == "RPL101"]


def test_a_seed_reading_a_value_moves_over_library_draws_only() -> None:
    source = "import random\nSEED = 3\n\nx = random.random()\nrandom.seed(SEED)\n"
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert fixed == "import random\nSEED = 3\n\nrandom.seed(SEED)\nx = random.random()\n"


@pytest.mark.parametrize(
    "jumped",
    ["opt.seed = 1", "opt[0] = 1", "opt.seed += 1", "del opt.seed", "configure(opt)", "helper()"],
)
def test_can_move_before_refuses_whatever_may_assign_what_it_reads(jumped: str) -> None:
    module = cst.parse_module(f"x = random.random()\n{jumped}\nrandom.seed(opt.seed)\n")
    body = module.body
    assert not fixes.can_move_before(body, body[2], body[0], {"random"})


# -- the inline fix goes after every import of the names it uses

SPLIT_IMPORTS = (
    "import os\nimport warnings\n"
    'warnings.filterwarnings("ignore")\n'
    "import random\n\n"
    "x = random.random()\n"
)


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_a_fix_keeps_the_last_line_ending_of_any_newline_style(end: str) -> None:
    # libcst's round trip drops the final "\r" of a file whose lines end in a lone CR
    source = end.join(["import random", "s = {'a', 'b'}", "for w in s:", "    print(w, random.random())", ""])
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert fixed != source and "sorted(s)" in fixed
    assert fixed.endswith("print(w, random.random())" + end)
    assert not any(ch in fixed.replace(end, "") for ch in "\r\n")  # one newline style throughout
    # what was not meant to change is there byte for byte
    assert fixed.startswith("import random" + end)


def test_inline_fix_goes_after_an_import_block_split_by_a_statement() -> None:
    inline = Settings().replace(fix_style="inline")
    fixed = fix_source(SPLIT_IMPORTS, "train.py", inline, unsafe_fixes=True)
    assert fixed.index("import random") < fixed.index("seed_everything(0)\n")
    assert fixed.index("seed_everything(0)\n") < fixed.index("x = random.random()")
    exec(compile(fixed, "train.py", "exec"), {"__name__": "__main__"})  # no NameError
    # check and fix agree afterwards: nothing left to report, nothing left to fix.
    assert not check_source(fixed, "train.py")
    assert fix_source(fixed, "train.py", inline, unsafe_fixes=True) == fixed


def test_inline_determinism_lines_go_after_a_late_torch_import() -> None:
    source = (
        "import os\nimport warnings\n"
        'warnings.filterwarnings("ignore")\n'
        "import torch\n\n"
        "torch.manual_seed(0)\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = torch.nn.Linear(2, 1).to(device)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(x).index_select(0, idx).sum().backward()\n"
    )
    inline = Settings().replace(fix_style="inline")
    fixed = fix_source(source, "train.py", inline, unsafe_fixes=True)
    assert "use_deterministic_algorithms(True)" in fixed
    assert fixed.index("import torch") < fixed.index("torch.use_deterministic_algorithms(True)")


def test_no_place_between_a_late_import_and_a_drawing_project_import_gives_no_fix() -> None:
    from reprolint.fixes.insert import import_block_end

    module = cst.parse_module("import os\nimport weights\nprint(1)\nimport random\n")
    stop = lambda statement: "weights" in cst.Module([statement]).code  # noqa: E731
    with pytest.raises(LookupError):
        import_block_end(module, stop, {"random"})
    assert import_block_end(module, stop) == 1


# -- writing: links, permissions, owners, interruptions

UNSEEDED = "import torch\n\n# weights\nx = torch.randn(3)  # draw\n"


def _temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.reprolint"))


def test_write_goes_through_a_symbolic_link_to_its_target(cli, project) -> None:
    root = project({"src/train.py": UNSEEDED})
    (root / "train.py").symlink_to(root / "src" / "train.py")
    result = cli("fix", "--write", "--unsafe-fixes", "train.py", cwd=root)
    assert result.status == 0, result
    assert (root / "train.py").is_symlink()  # still a link ...
    assert "install(seed=0)" in (root / "src" / "train.py").read_text()  # ... to the fixed file
    assert f"train.py is a symbolic link: wrote {(root / 'src' / 'train.py').resolve()}" in result.err


def test_a_file_and_a_link_to_it_are_fixed_once(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    (root / "alias.py").symlink_to(root / "train.py")
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 0, result
    assert (root / "train.py").read_text().count("install(seed=0)") == 1
    assert (root / "alias.py").is_symlink()


def test_a_link_out_of_the_tree_is_not_written(cli, project, tmp_path_factory) -> None:
    outside = tmp_path_factory.mktemp("outside") / "victim.py"
    outside.write_text(UNSEEDED)
    root = project({"b.py": UNSEEDED})
    (root / "a.py").symlink_to(outside)
    (root / "pkg").mkdir()
    (root / "pkg" / "link.py").symlink_to(outside)
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert outside.read_text() == UNSEEDED  # discovery leaves such links out
    assert "install(seed=0)" in (root / "b.py").read_text()
    # fix_files refuses them too, whoever lists them.
    from reprolint import discovery, fixing
    from reprolint.config import Settings

    listed = [str(root / "pkg" / "link.py"), str(root / "b.py")]
    original = discovery.discover
    try:
        discovery.discover = lambda paths, settings: listed
        report = fixing.fix_files([str(root / "pkg")], Settings(), unsafe=True)
    finally:
        discovery.discover = original
    assert [c.path for c in report.changes] == []
    assert any(f"link.py: not fixed: it resolves to {outside.resolve()}, outside" in p for p in report.problems)


def test_a_folder_without_room_for_a_temp_file_does_not_abort_the_run(cli, project, monkeypatch) -> None:
    import tempfile

    root = project({"locked/a.py": UNSEEDED, "open/b.py": UNSEEDED})
    real_mkstemp = tempfile.mkstemp

    def mkstemp(*args, **kwargs):
        if Path(kwargs["dir"]).name == "locked":  # as a read-only folder answers (root is not refused)
            raise PermissionError(13, "Permission denied")
        return real_mkstemp(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    (root / "locked").chmod(0o555)
    try:
        result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    finally:
        (root / "locked").chmod(0o755)
    assert result.status == 0, result
    # The writable file in the read-only folder is rewritten in place; the other as usual.
    assert "install(seed=0)" in (root / "locked" / "a.py").read_text()
    assert "install(seed=0)" in (root / "open" / "b.py").read_text()
    assert result.out.startswith("Fixed 2 problems in 2 files")


def test_every_write_failing_is_not_nothing_to_fix(cli, project) -> None:
    root = project({"a.py": UNSEEDED})
    (root / "a.py").chmod(0o444)
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 1
    assert "Nothing to fix" not in result.out
    assert result.out == "Nothing was fixed: 1 file could not be written (see the errors above).\n"


def test_hard_links_are_kept(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    os.link(root / "train.py", root / "copy.txt")
    result = cli("fix", "--write", "--unsafe-fixes", "train.py", cwd=root)
    assert result.status == 0, result
    assert (root / "train.py").stat().st_ino == (root / "copy.txt").stat().st_ino
    assert "install(seed=0)" in (root / "copy.txt").read_text()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_write_as_root_keeps_the_owner(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    os.chown(root / "train.py", 4321, 4322)
    result = cli("fix", "--write", "--unsafe-fixes", "train.py", cwd=root)
    assert result.status == 0, result
    info = (root / "train.py").stat()
    assert (info.st_uid, info.st_gid) == (4321, 4322)
    assert "install(seed=0)" in (root / "train.py").read_text()


def test_ctrl_c_while_writing_leaves_no_temp_file(cli, project, monkeypatch) -> None:
    root = project({"train.py": UNSEEDED})

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    result = cli("fix", "--write", "--unsafe-fixes", "train.py", cwd=root)
    assert result.status == 130
    assert "reprolint: interrupted: 1 file(s) not written, from train.py on" in result.err
    assert _temp_files(root) == []
    assert (root / "train.py").read_text() == UNSEEDED


def test_a_later_run_removes_only_stale_temp_files_it_can_prove_are_its_own(cli, project) -> None:
    import hashlib

    root = project({"train.py": UNSEEDED})
    content = b"half of a fixed file"
    digest = hashlib.sha256(content).hexdigest()[:16]
    ours = root / f".train.py.{digest}.k2j4x9q1.reprolint"
    forged = root / f".train.py.{'0' * 16}.abcdefgh.reprolint"
    young = root / f".train.py.{digest}.zzzzzzzz.reprolint"
    for path in (ours, forged, young):
        path.write_bytes(content)
    old = time.time() - 3600
    os.utime(ours, (old, old))
    os.utime(forged, (old, old))
    result = cli("fix", "--write", "--unsafe-fixes", "train.py", cwd=root)
    assert result.status == 0, result
    assert not ours.exists()
    assert forged.exists() and young.exists()  # not provably a finished temp file of ours


LATE = "import random\n\nx = random.random()\nmodel = build()\nrandom.seed(0)\n"


def test_plural_of_unsafe_fixes_and_no_cache_is_accepted(cli, project) -> None:
    root = project({"a.py": LATE, "b.py": LATE})
    result = cli("fix", "--no-cache", ".", cwd=root)
    assert result.status == 0, result
    assert "2 unsafe fixes were not applied" in result.out


# -- size limits and bad notebooks: a clear message, and the run goes on


def test_fix_skips_a_file_over_the_size_limit_without_parsing_it(cli, project, monkeypatch) -> None:
    from reprolint.api import MAX_FILE_BYTES

    big = UNSEEDED + "# padding\n" * (MAX_FILE_BYTES // 10 + 1)
    root = project({"big.py": big, "small.py": UNSEEDED})
    parsed = []
    real_parse = cst.parse_module
    monkeypatch.setattr(cst, "parse_module", lambda source, *a, **k: parsed.append(len(source)) or real_parse(source, *a, **k))
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert "big.py: not fixed: skipped:" in result.err and "byte limit" in result.err
    assert (root / "big.py").read_text() == big
    assert "install(seed=0)" in (root / "small.py").read_text()
    assert all(n < MAX_FILE_BYTES for n in parsed)


def test_fix_skips_a_large_data_file_like_check(cli, project) -> None:
    table = "import torch\nx = torch.randn(3)\nTABLE = [\n" + "    (1, 2, 3, 4, 5, 6, 7, 8),\n" * 9000 + "]\n"
    root = project({"table.py": table})
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert "table.py: not fixed: skipped:" in result.err and "data files" in result.err
    assert (root / "table.py").read_text() == table


SURROGATE_NOTEBOOK = (
    '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,'
    ' "source": ["import torch\\n", "x = torch.randn(3)\\n", "s = \'\\ud800\'\\n"]}],'
    ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n'
)


def test_a_lone_surrogate_in_a_notebook_is_a_clear_message_and_the_run_goes_on(cli, project) -> None:
    root = project({"a.ipynb": SURROGATE_NOTEBOOK, "b.py": UNSEEDED})
    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status == 0, result
    assert "a.ipynb: not fixed: code cell 1, line 3: a lone surrogate (\\ud800)" in result.err
    assert (root / "a.ipynb").read_text() == SURROGATE_NOTEBOOK
    assert "install(seed=0)" in (root / "b.py").read_text()
    checked = cli("check", "--no-cache", "a.ipynb", cwd=root)
    assert "RPL900" in checked.out and "lone surrogate" in checked.out


# -- what a fix keeps: form feeds, both guarded seeds, a notebook cell's CRLF


def test_form_feeds_at_the_start_of_untouched_lines_are_kept() -> None:
    source = "import torch\n\x0c\ndef f():\n    pass\n\x0cx = torch.randn(3)\n"
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert "install(seed=0)" in fixed
    assert "\n\x0c\ndef f():\n" in fixed and "\n\x0cx = torch.randn(3)\n" in fixed


def test_two_guarded_seeding_calls_are_both_fixed() -> None:
    source = (
        "import argparse, random\nimport numpy as np\n"
        "p = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\nargs = p.parse_args()\n"
        "if args.seed is not None:\n    random.seed(args.seed)\n    np.random.seed(args.seed)\n"
        "x = random.random()\ny = np.random.rand()\n"
    )
    # one cause (the condition), one finding, whose fix seeds both in the `else:`
    [finding] = check_source(source, "train.py")
    assert (finding.code, finding.span.start_line, finding.data["also"][0][0]) == ("RPL104", 7, 8)
    assert [e.content for e in finding.fix.edits] == ["else:\n    random.seed(0)\n    np.random.seed(0)\n"]
    fixed = fix_source(source, "train.py", unsafe_fixes=True)
    assert fixed.endswith(
        "if args.seed is not None:\n    random.seed(args.seed)\n    np.random.seed(args.seed)\n"
        "else:\n    random.seed(0)\n    np.random.seed(0)\n"
        "x = random.random()\ny = np.random.rand()\n"
    )
    assert not check_source(fixed, "train.py")
    assert fix_source(fixed, "train.py", unsafe_fixes=True) == fixed


def test_a_crlf_notebook_cell_keeps_crlf(cli, project) -> None:
    import json

    notebook = {
        "cells": [{
            "cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            # the draw feeds a saved file: a notebook draw that feeds nothing is no finding
            "source": ["import numpy as np\r\n", "x = np.random.rand(3)\r\n", "np.save('x.npy', x)"],
        }],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    root = project({"nb.ipynb": json.dumps(notebook, indent=1)})
    result = cli("fix", "--write", "--unsafe-fixes", "--fix-style", "inline", "nb.ipynb", cwd=root)
    assert result.status == 0, result
    source = "".join(json.loads((root / "nb.ipynb").read_text())["cells"][0]["source"])
    assert "seed_everything(0)" in source
    assert source.count("\n") == source.count("\r\n")  # every line end is CRLF


def test_a_fifo_is_never_read(tmp_path: Path) -> None:
    from reprolint.api import SourceError
    from reprolint.fixing import read_source

    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    with pytest.raises((ValueError, SourceError), match="not a regular file"):
        read_source(str(fifo))  # returns at once: no writer is waited for


def test_check_of_a_notebook_with_a_lone_surrogate_is_a_finding_not_a_crash() -> None:
    [d] = check_source(SURROGATE_NOTEBOOK.encode("utf-8"), "x.ipynb")
    assert d.code == "RPL900" and "lone surrogate (\\ud800)" in d.message


# -- a hostile tree: everything at once


def _snapshot(folder: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and stat.S_ISREG(path.lstat().st_mode):
            out[str(path.relative_to(folder))] = path.read_bytes()
    return out


def test_fix_write_on_a_hostile_tree(cli, project, tmp_path_factory) -> None:
    from reprolint.api import MAX_FILE_BYTES

    outside = tmp_path_factory.mktemp("elsewhere")
    (outside / "victim.py").write_text(UNSEEDED)
    files = {
        "plain.py": UNSEEDED,
        "crlf.py": UNSEEDED.replace("\n", "\r\n"),
        "formfeed.py": "import torch\n\x0c\nx = torch.randn(3)\n",
        "split.py": 'import warnings\nwarnings.filterwarnings("ignore")\nimport random\nx = random.random()\n',
        "bad.py": "def (:\n",
        "huge.py": UNSEEDED + "#\n" * (MAX_FILE_BYTES // 2 + 1),
        "nb.ipynb": SURROGATE_NOTEBOOK,
        "notes.txt": "import torch\n",
        "sub/linked_target.py": UNSEEDED,
    }
    root = project(files)
    (root / "bom.py").write_bytes(b"\xef\xbb\xbf" + UNSEEDED.encode())
    (root / "latin.py").write_bytes("# -*- coding: latin-1 -*-\nimport torch\ns = 'é'\nx = torch.rand(2)\n".encode("latin-1"))
    (root / "link.py").symlink_to(root / "sub" / "linked_target.py")
    (root / "escape.py").symlink_to(outside / "victim.py")
    os.mkfifo(root / "fifo.py")
    os.link(root / "plain.py", root / "hardlink.txt")
    before = _snapshot(root)
    outside_before = _snapshot(outside)

    result = cli("fix", "--write", "--unsafe-fixes", ".", cwd=root)
    assert result.status in (0, 1), result
    assert "Traceback" not in result.err
    after = _snapshot(root)
    assert _snapshot(outside) == outside_before  # nothing outside the tree changes
    changed = {name for name in before if before[name] != after.get(name)}
    assert changed == {
        "plain.py", "hardlink.txt", "crlf.py", "formfeed.py", "split.py", "bom.py", "latin.py",
        "sub/linked_target.py",
    }
    assert set(after) == set(before)  # no file added (no temp file left), none removed
    assert after["crlf.py"].count(b"\n") == after["crlf.py"].count(b"\r\n")
    assert after["bom.py"].startswith(b"\xef\xbb\xbf")
    assert b"\n\x0c\nx = torch.randn(3)" in after["formfeed.py"]
    assert (root / "link.py").is_symlink() and (root / "fifo.py").is_fifo()
    # Converged: a second run has nothing left to do.
    again = cli("fix", "--unsafe-fixes", ".", cwd=root)
    assert "would fix" not in again.out and "Traceback" not in again.err
