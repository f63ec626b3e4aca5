"""Issue 25, item 8: library versions as the project declares them decide catalog answers
before the installed version; the message says which version and from where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprolint.analysis.declared import assume, declarations
from project_files import write

LOADER = (
    "import numpy as np\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n\n"
    "class Noisy(Dataset):\n    def __len__(self):\n        return 8\n"
    "    def __getitem__(self, i):\n        return np.random.rand()\n\n"
    "torch.manual_seed(0)\nnp.random.seed(0)\nloader = DataLoader(Noisy(), num_workers=4)\n"
)


@pytest.mark.parametrize(
    "name, text, spec, source",
    [
        ("requirements.txt", "numpy\ntorch==1.7.1  # the paper's version\n", "==1.7.1", "requirements.txt"),
        ("requirements-gpu.txt", "torch>=1.4,<1.9\n", ">=1.4,<1.9", "requirements-gpu.txt"),
        ("setup.py", "setup(name='x', install_requires=['torch>=1.6', 'numpy'])\n", ">=1.6", "setup.py"),
        ("setup.cfg", "[options]\ninstall_requires =\n    numpy\n    torch==1.8.0\n", "==1.8.0", "setup.cfg (install_requires)"),
        ("pyproject.toml", "[project]\nname='x'\ndependencies = ['torch~=1.8.1']\n", "~=1.8.1", "pyproject.toml (dependencies)"),
        ("pyproject.toml", "[project]\nname='x'\n[project.optional-dependencies]\ngpu = ['torch==2.0.1']\n", "==2.0.1", "pyproject.toml (optional gpu)"),
        ("pyproject.toml", "[tool.poetry.dependencies]\npython='^3.8'\ntorch = '^1.8'\n", ">=1.8", "pyproject.toml (poetry dependencies)"),
        ("environment.yml", "dependencies:\n  - python=3.8\n  - pytorch=1.7.1=py3.8_cuda10.2\n", "==1.7.1", "environment.yml"),
        ("environment.yml", "dependencies:\n  - pip:\n    - torch==1.9.0\n", "==1.9.0", "environment.yml"),
        ("Pipfile", "[packages]\ntorch = '==1.8.1'\n", "==1.8.1", "Pipfile (packages)"),
        ("poetry.lock", '[[package]]\nname = "torch"\nversion = "1.10.2"\n', "==1.10.2", "poetry.lock"),
        ("uv.lock", '[[package]]\nname = "torch"\nversion = "2.1.0"\nsource = {}\n', "==2.1.0", "uv.lock"),
    ],
)
def test_each_declaration_format_is_read(tmp_path: Path, name: str, text: str, spec: str, source: str) -> None:
    write(tmp_path, {name: text, ".git/HEAD": ""})
    (found,) = [d for d in declarations([str(tmp_path)]) if d.library == "torch"]
    assert (found.spec, found.source) == (spec, source)


@pytest.mark.parametrize(
    "spec, fallback, version, declared",
    [
        ("==1.7.1", "2.5.0", "1.7.1", True),
        ("<1.9", "2.5.0", "1.8.0", True),  # the highest admitted below the bound
        (">=1.4,<1.9", "2.5.0", "1.8.0", True),
        (">=1.4", "2.5.0", "2.5.0", False),  # the range admits the installed torch
        (">=2.6", "2.5.0", "2.6.0", True),
        ("~=1.8.1", "2.5.0", "1.8.1", True),
    ],
)
def test_a_declared_range_decides_before_the_installed_version(spec: str, fallback: str, version: str, declared: bool) -> None:
    from reprolint.analysis.declared import Declared

    assumed = assume("torch", None, [Declared("torch", spec, "requirements.txt")], fallback, "installed")
    assert (assumed.version, assumed.declared) == (version, declared)


def test_the_setting_decides_before_the_declaration() -> None:
    from reprolint.analysis.declared import Declared

    assumed = assume("torch", "2.3", [Declared("torch", "==1.7.1", "requirements.txt")], "2.5.0", "installed")
    assert (assumed.version, assumed.declared) == ("2.3", False)


def test_old_declared_torch_does_not_reseed_numpy_and_the_message_says_where_it_is_declared(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {"requirements.txt": "torch==1.8.1\n", "train.py": LOADER, ".git/HEAD": ""})
    result = cli("check", "--no-cache", "--select", "RPL403", "--output-format", "json", str(project))
    (item,) = json.loads(result.out)
    assert "torch 1.8, declared in requirements.txt as `torch==1.8.1`, does not reseed it per worker" in item["message"]
    assert item["assumed"]["version"] == {
        "library": "torch", "version": "1.8.1", "source": "declared in requirements.txt as `torch==1.8.1`",
    }
    write(project, {"requirements.txt": "torch>=1.10\n"})  # the cached run is not reused
    assert "RPL403" not in cli("check", "--select", "RPL403", str(project)).out


def test_each_project_of_a_monorepo_runs_on_the_torch_it_declares(cli, tmp_path: Path) -> None:
    write(tmp_path, {
        "old/requirements.txt": "torch==1.7.1\n", "old/train.py": LOADER,
        "new/requirements.txt": "torch==2.1.0\n", "new/train.py": LOADER, ".git/HEAD": "",
    })
    out = cli("check", "--no-cache", "--select", "RPL403", str(tmp_path)).out
    assert "old/train.py" in out and "new/train.py" not in out


def test_cublas_advice_names_the_declared_torch(cli, tmp_path: Path) -> None:
    train = "import torch\ntorch.use_deterministic_algorithms(True)\nmodel = torch.nn.Linear(2, 2).cuda()\n"
    write(tmp_path, {"environment.yml": "dependencies:\n  - pytorch=1.9.0\n", "train.py": train, ".git/HEAD": ""})
    out = cli("check", "--no-cache", "--select", "RPL303", str(tmp_path)).out
    assert "torch 1.9, declared in environment.yml as `pytorch==1.9.0`, raises RuntimeError" in out
