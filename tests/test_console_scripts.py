"""Issue 25, item 5 (declared entry points): a declared command's module is an entry point
and the command's function runs after the module's top level."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_files import write

CLI = (
    "import torch\nfrom torch import nn\n\n\ndef pretrain():\n    model = nn.Linear(4, 2).cuda()\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    model(torch.ones(8, 4).cuda()).index_select(0, idx).sum().backward()\n    opt.step()\n"
)


@pytest.mark.parametrize(
    "name, text",
    [
        ("pyproject.toml", "[project]\nname = 'pkg'\n[project.scripts]\npkg-pretrain = 'pkg.cli:pretrain'\n"),
        ("pyproject.toml", "[tool.poetry.scripts]\npkg-pretrain = 'pkg.cli:pretrain'\n"),
        ("setup.py", "from setuptools import setup\nsetup(name='pkg', entry_points={'console_scripts': ['pkg-pretrain = pkg.cli:pretrain']})\n"),
        ("setup.cfg", "[options.entry_points]\nconsole_scripts =\n    pkg-pretrain = pkg.cli:pretrain\n"),
    ],
)
def test_a_declared_command_is_a_training_program(cli, tmp_path: Path, name: str, text: str) -> None:
    project = write(tmp_path, {name: text, "pkg/__init__.py": "", "pkg/cli.py": CLI, ".git/HEAD": ""})
    out = cli("check", "--no-cache", str(project)).out
    assert "pkg/cli.py:6:13: RPL301" in out and "pkg/cli.py:6:13: RPL101" in out


def test_without_a_declaration_the_function_is_library_code(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "", "pkg/cli.py": CLI, ".git/HEAD": ""})
    out = cli("check", "--no-cache", str(project)).out
    # library code: no program finding (its op is said per site, as in any library module)
    assert "RPL301" not in out and "RPL101" not in out and "RPL201" in out


def test_a_src_layout_command_resolves_and_a_change_to_the_declaration_is_no_stale_cache_hit(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {
        "pyproject.toml": "[project]\nname = 'pkg'\n", "src/pkg/__init__.py": "", "src/pkg/cli.py": CLI, ".git/HEAD": "",
    })
    assert "RPL301" not in cli("check", str(project)).out
    write(project, {"pyproject.toml": "[project]\nname = 'pkg'\n[project.scripts]\np = 'pkg.cli:pretrain'\n"})
    assert "src/pkg/cli.py:6:13: RPL301" in cli("check", str(project)).out


def test_argparse_subcommands_dispatch_to_their_functions() -> None:
    from reprolint.api import check_sources

    commands = CLI.replace("def pretrain():", "def pretrain(args):")
    cli_source = (
        "import argparse\nimport torch\nfrom commands import pretrain\n\n"
        "p = argparse.ArgumentParser()\nsub = p.add_subparsers()\n"
        "sub.add_parser('pretrain').set_defaults(func=pretrain)\nargs = p.parse_args()\n"
        "torch.manual_seed(0)\nargs.func(args)\n"
    )
    found = {(d.path, d.span.start_line, d.code) for d in check_sources({"commands.py": commands, "cli.py": cli_source})}
    assert ("commands.py", 6, "RPL301") in found
    assert not any(code == "RPL101" for _, _, code in found)  # seeded before the dispatch
    unused = cli_source.replace("args.func(args)\n", "print(args)\n")
    # nothing calls it: the entry point imports its module, so it is program code that
    # does not run (not library code reported per site), and no program finding
    assert [d.code for d in check_sources({"commands.py": commands, "cli.py": unused})] == []
    # the module alone, imported by no entry point, is library code: its op is per site
    assert [d.code for d in check_sources({"commands.py": commands})] == ["RPL201"]
