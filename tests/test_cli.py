"""What a user sees from `reprolint check`, `rules` and `explain`: output and exit status."""

from __future__ import annotations

import json
from pathlib import Path

UNSEEDED = "import torch\n\nx = torch.randn(3)\n"
SEEDED = "import torch\n\ntorch.manual_seed(0)\nx = torch.randn(3)\n"


def test_findings_print_location_code_message_and_exit_1(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("check", "train.py", cwd=root)
    assert result.status == 1
    lines = result.out.splitlines()
    assert lines[0] == (
        "train.py:3:5: RPL101 `torch.randn` draws from torch's global RNG, which is never "
        "seeded on this program's path (entry point: train.py)"
    )
    assert lines[-1] == "Found 1 problem (1 fixable with `reprolint fix`)."


def test_clean_file_exits_0(cli, project) -> None:
    root = project({"train.py": SEEDED})
    result = cli("check", ".", cwd=root)
    assert result.status == 0
    assert result.out.strip() == "All checks passed!"


def test_exit_zero_keeps_findings_but_exits_0(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("check", "--exit-zero", "train.py", cwd=root)
    assert result.status == 0
    assert "RPL101" in result.out


def test_json_output_has_the_documented_fields(cli, project) -> None:
    root = project({"src/train.py": UNSEEDED})
    result = cli("check", "--output-format", "json", "src", cwd=root)
    assert result.status == 1
    [item] = json.loads(result.out)
    assert item == {
        "code": "RPL101",
        "name": "unseeded-global-rng",
        "message": item["message"],
        "path": "src/train.py",
        "cell": None,
        "line": 3,
        "column": 5,
        "end_line": 3,
        "end_column": 19,
        "severity": "warning",
        "fix": item["fix"],
        "entry_points": ["src/train.py"],
        "related": [],
        "roles": {"src/train.py": "training"},
    }
    # The fix seeds a never-seeded program at the entry point: safe (tests/test_fix.py checks its edits).
    assert item["fix"]["applicability"] == "safe"


def test_absolute_input_gives_absolute_paths(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("check", "--output-format", "concise", str(root / "train.py"))
    assert result.out.startswith(f"{(root / 'train.py').as_posix()}:3:5: RPL101 ")


def test_concise_output_has_no_summary(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    result = cli("check", "--output-format", "concise", "train.py", cwd=root)
    assert result.out.splitlines() == [
        "train.py:3:5: RPL101 `torch.randn` draws from torch's global RNG, which is never "
        "seeded on this program's path (entry point: train.py)"
    ]


def test_statistics_counts_per_code(cli, project) -> None:
    # RPL101 once per library: `random` and NumPy's legacy global RNG.
    root = project({"a.py": "import random\nrandom.random()\nrandom.choice([1])\nimport numpy as np\n"
                            "np.random.rand()\nnp.random.default_rng()\n"})
    result = cli("check", "--statistics", "a.py", cwd=root)
    assert result.out.splitlines()[:2] == ["2  RPL101  unseeded-global-rng", "1  RPL102  unseeded-rng-instance"]


def test_select_and_ignore_on_the_command_line(cli, project) -> None:
    root = project({"a.py": "import random\nrandom.random()\nimport numpy as np\nnp.random.default_rng()\n"})
    assert "RPL101" not in cli("check", "--select", "RPL102", "a.py", cwd=root).out
    ignored = cli("check", "--ignore", "RPL1", "a.py", cwd=root)
    assert ignored.status == 0
    assert "RPL102" in cli("check", "--ignore", "RPL1", "--extend-select", "RPL102", "a.py", cwd=root).out


def test_unknown_code_is_a_usage_error(cli, project) -> None:
    root = project({"a.py": SEEDED})
    result = cli("check", "--select", "RPL999", "a.py", cwd=root)
    assert result.status == 2
    assert "unknown rule code or prefix `RPL999`" in result.err


def test_missing_path_is_a_usage_error(cli, tmp_path: Path) -> None:
    result = cli("check", "nope.py", cwd=tmp_path)
    assert result.status == 2
    assert "no such file or directory: nope.py" in result.err


def test_bad_option_is_a_usage_error(cli) -> None:
    result = cli("check", "--output-format", "xml")
    assert result.status == 2
    assert "invalid choice" in result.err


def test_rules_json_lists_every_code(cli) -> None:
    result = cli("rules", "--format", "json")
    rows = json.loads(result.out)
    assert result.status == 0
    assert {"code", "name", "summary", "fixable", "framework"} <= set(rows[0])
    assert [r["code"] for r in rows][:5] == ["RPL101", "RPL102", "RPL103", "RPL104", "RPL105"]


def test_rules_text_table(cli) -> None:
    result = cli("rules")
    assert "RPL101" in result.out and "unseeded-global-rng" in result.out


def test_explain_prints_the_rule_doc(cli) -> None:
    result = cli("explain", "rpl104")
    assert result.status == 0
    assert result.out.startswith("# RPL104 conditional-seed\n")
    for section in ("## What it does", "## Why is this bad?", "## Fix safety"):
        assert section in result.out


def test_explain_unknown_code(cli) -> None:
    result = cli("explain", "RPL000")
    assert result.status == 2
    assert "unknown rule code `RPL000`" in result.err


def test_stdin_is_checked_under_the_given_name(cli, monkeypatch, tmp_path: Path) -> None:
    import io
    import sys

    stdin = io.TextIOWrapper(io.BytesIO(UNSEEDED.encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    result = cli("check", "--stdin-filename", "pkg/train.py", "-", cwd=tmp_path)
    assert result.status == 1
    assert result.out.startswith("pkg/train.py:3:5: RPL101 ")


def test_show_source_prints_a_code_frame(cli, project) -> None:
    root = project({"train.py": UNSEEDED})
    out = cli("check", "--show-source", "train.py", cwd=root).out.splitlines()
    assert out[1] == "     3 | x = torch.randn(3)"
    assert out[2] == "       |     ^^^^^^^^^^^^^^"


def test_module_entry_point(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "t.py").write_text(UNSEEDED)
    proc = subprocess.run(
        [sys.executable, "-m", "reprolint", "check", "t.py"], cwd=tmp_path,
        capture_output=True, text=True,
    )
    assert proc.returncode == 1, proc.stderr
    assert "RPL101" in proc.stdout
