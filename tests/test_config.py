"""[tool.reprolint] / reprolint.toml settings and inline suppressions."""

from __future__ import annotations

import pytest

from reprolint.config import ConfigError, Settings, settings_from_table

UNSEEDED = "import random\nrandom.random()\n"
KNOWN = ["RPL101", "RPL102", "RPL900"]


def test_unknown_key_names_the_key(cli, project) -> None:
    root = project({"pyproject.toml": "[tool.reprolint]\nselct = ['RPL1']\n", "a.py": UNSEEDED})
    result = cli("check", "a.py", cwd=root)
    assert result.status == 2
    assert "unknown key `selct`" in result.err


def test_snake_case_key_gets_a_hint() -> None:
    with pytest.raises(ConfigError, match="did you mean `per-file-ignores`"):
        settings_from_table({"per_file_ignores": {}}, "pyproject.toml", ".", KNOWN)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"select": "RPL1"}, "`select` must be a list of strings"),
        ({"select": ["XYZ"]}, "unknown rule code or prefix `XYZ`"),
        ({"seed": -1}, "`seed` must be an integer from 0 to 4294967295"),
        ({"fix-style": "magic"}, "`fix-style` must be"),
        ({"torch-version": "latest"}, "`torch-version` must be a version"),
        ({"unsafe-fixes": "yes"}, "`unsafe-fixes` must be true or false"),
        ({"per-file-ignores": ["a"]}, "`per-file-ignores` must be a table"),
    ],
)
def test_bad_values_name_the_key(table: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("`", "`").replace("(", r"\(")):
        settings_from_table(table, "pyproject.toml", ".", KNOWN)


def test_invalid_toml_is_exit_2(cli, project) -> None:
    root = project({"reprolint.toml": "select = [\n", "a.py": UNSEEDED})
    result = cli("check", "a.py", cwd=root)
    assert result.status == 2
    assert "invalid TOML" in result.err


def test_pyproject_select_and_ignore(cli, project) -> None:
    root = project({
        "pyproject.toml": "[tool.reprolint]\nignore = ['RPL101']\n",
        "a.py": UNSEEDED + "import numpy as np\nnp.random.default_rng()\n",
    })
    out = cli("check", "--output-format", "concise", ".", cwd=root).out
    assert "RPL101" not in out and "RPL102" in out


def test_reprolint_toml_is_found_from_a_subfolder(cli, project) -> None:
    root = project({"reprolint.toml": "select = ['RPL102']\n", "src/a.py": UNSEEDED})
    result = cli("check", "src", cwd=root)
    assert result.status == 0


def test_per_file_ignores(cli, project) -> None:
    root = project({
        "pyproject.toml": "[tool.reprolint.per-file-ignores]\n'scripts/*' = ['RPL101']\n",
        "scripts/a.py": UNSEEDED,
        "b.py": UNSEEDED,
    })
    out = cli("check", "--output-format", "concise", ".", cwd=root).out
    assert "b.py:2:1: RPL101" in out
    assert "scripts/a.py" not in out


def test_exclude_and_extend_exclude(cli, project) -> None:
    root = project({
        "pyproject.toml": "[tool.reprolint]\nextend-exclude = ['legacy', 'gen_*.py']\n",
        "legacy/a.py": UNSEEDED,
        "gen_x.py": UNSEEDED,
        "b.py": UNSEEDED,
    })
    out = cli("check", "--output-format", "concise", ".", cwd=root).out
    assert out.splitlines() == [line for line in out.splitlines() if line.startswith("b.py")]
    assert out.startswith("b.py:2:1: RPL101")


def test_entry_points_config_makes_a_library_module_a_program(cli, project) -> None:
    files = {"lib/model.py": "import torch\n\ndef build():\n    return torch.randn(2)\n"}
    root = project(files)
    assert cli("check", ".", cwd=root).status == 0  # library code: no RPL101
    (root / "pyproject.toml").write_text("[tool.reprolint]\nentry-points = ['lib/model.py']\n")
    out = cli("check", "--output-format", "concise", ".", cwd=root).out
    assert out.startswith("lib/model.py:4:12: RPL101")


def test_config_option_points_at_a_file(cli, project) -> None:
    root = project({"conf/strict.toml": "ignore = ['RPL1']\n", "a.py": UNSEEDED})
    assert cli("check", "--config", "conf/strict.toml", "a.py", cwd=root).status == 0
    missing = cli("check", "--config", "conf/none.toml", "a.py", cwd=root)
    assert missing.status == 2 and "config file not found" in missing.err


@pytest.mark.parametrize(
    "comment",
    ["# noqa: RPL101", "# noqa", "# reprolint: ignore[RPL101]", "# reprolint: ignore", "#noqa:RPL101,RPL102"],
)
def test_suppression_comments(cli, project, comment: str) -> None:
    root = project({"a.py": f"import random\nrandom.random()  {comment}\n"})
    assert cli("check", "a.py", cwd=root).status == 0


def test_suppression_of_another_code_does_not_hide(cli, project) -> None:
    root = project({"a.py": "import random\nrandom.random()  # noqa: RPL102\n"})
    assert cli("check", "a.py", cwd=root).status == 1


def test_selection_specificity() -> None:
    s = Settings(select=("RPL",), ignore=("RPL1",), extend_select=("RPL102",))
    assert not s.is_enabled("RPL101")
    assert s.is_enabled("RPL102")
    assert s.is_enabled("RPL201")
    assert not Settings(select=("RPL101",), ignore=("RPL101",)).is_enabled("RPL101")
