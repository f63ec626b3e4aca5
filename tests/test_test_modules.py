"""Issue 25, item 1: tests are what a test runner collects; the summary says what was
left out as tests and how to include it."""

from __future__ import annotations

import pytest

from reprolint.api import check_sources

TRAINING = (
    "import torch\nfrom torch import nn\n\n"
    "def main():\n    model = nn.Linear(4, 2)\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    loss = model(torch.ones(1, 4)).index_select(0, idx).sum()\n    loss.backward()\n    opt.step()\n\n"
    "if __name__ == '__main__':\n    main()\n"
)
TOP_LEVEL = "import numpy as np\n\nw = np.zeros(3)\nfor _ in range(3):\n    w += np.random.rand(3)\n"
PYTEST = "import torch\n\ndef test_shape():\n    assert torch.randn(2).shape == (2,)\n\nif __name__ == '__main__':\n    test_shape()\n"
UNITTEST = (
    "import unittest\nimport numpy as np\n\nclass Loader(unittest.TestCase):\n"
    "    def test_rows(self):\n        self.assertEqual(np.random.rand(2).shape, (2,))\n\n"
    "if __name__ == '__main__':\n    unittest.main()\n"
)
HELPER = "import numpy as np\n\ndef fake(n):\n    return np.random.rand(n)\n"


def found(sources, **settings):
    from reprolint.config import Settings

    return sorted((d.path, d.span.start_line, d.code) for d in check_sources(sources, Settings(**settings)))


@pytest.mark.parametrize("path", ["train_test.py", "test_train.py", "experiments/test_lr_schedule.py"])
def test_a_script_named_like_a_test_without_test_cases_is_a_program(path: str) -> None:
    assert (path, 5, "RPL101") in found({path: TRAINING})


def test_top_level_training_code_in_a_test_named_file_is_a_program() -> None:
    assert found({"test_finetune.py": TOP_LEVEL}) == [("test_finetune.py", 5, "RPL101")]


@pytest.mark.parametrize(
    "path, source",
    [
        ("test_model.py", PYTEST),  # test functions, even with a main block
        ("loader_check.py", UNITTEST),  # a TestCase subclass, whatever the file name
        ("tests/helpers.py", HELPER),  # test support that runs nothing
        ("tests/scripts/test_launch.py", TRAINING),  # a script the suite launches
        ("pkg/test_utils/scripts/run_ddp.py", TRAINING),
        ("conftest.py", TOP_LEVEL),
    ],
)
def test_what_a_runner_collects_stays_a_test_module(path: str, source: str) -> None:
    assert found({path: source}) == []
    assert found({path: source}, include_tests=True) != [] or path == "tests/helpers.py"


def test_a_test_named_module_with_only_helpers_is_test_support() -> None:
    assert found({"test_utils.py": HELPER}) == []


def test_a_module_defining_a_test_function_named_like_an_eval_step_is_no_test_without_test_naming() -> None:
    # `def test(model, loader)` in train.py is an evaluation function, not a pytest test
    source = TRAINING.replace("def main():", "def test(model):\n    return model\n\ndef main():")
    assert ("train.py", 8, "RPL101") in found({"train.py": source})


def _write(project_dir, files):
    for rel, source in files.items():
        target = project_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source, encoding="utf-8")


def test_summary_says_how_many_modules_were_left_out_as_tests_and_how_to_include_them(cli, tmp_path) -> None:
    _write(tmp_path, {"tests/test_a.py": PYTEST, "tests/test_b.py": UNITTEST.replace("loader", "b")})
    result = cli("check", "--no-cache", str(tmp_path))
    assert result.status == 0
    assert result.out.splitlines()[-2:] == [
        "All checks passed!",
        "2 test modules were left out (`--include-tests` or `include-tests = true` checks them as programs).",
    ]
    included = cli("check", "--no-cache", "--include-tests", str(tmp_path))
    assert included.status == 1 and "left out" not in included.out
    assert "tests/test_b.py:6:" in included.out


def test_a_cached_run_says_the_same(cli, tmp_path) -> None:
    _write(tmp_path, {"test_x.py": PYTEST, "train.py": TRAINING})
    first = cli("check", str(tmp_path))
    second = cli("check", str(tmp_path))
    assert first.out == second.out
    assert first.out.splitlines()[-1].startswith("1 test module was left out")
    assert "checks it as a program" in first.out


def test_the_config_key_includes_tests_and_the_summary_then_says_nothing(cli, tmp_path) -> None:
    _write(tmp_path, {"test_x.py": PYTEST, "pyproject.toml": "[tool.reprolint]\ninclude-tests = true\n"})
    result = cli("check", "--no-cache", str(tmp_path))
    assert "left out" not in result.out


def test_fix_says_what_it_left_out_as_tests(cli, tmp_path) -> None:
    _write(tmp_path, {"tests/test_a.py": PYTEST})
    result = cli("fix", str(tmp_path))
    assert result.out.splitlines() == [
        "Nothing to fix.",
        "1 test module was left out (`--include-tests` or `include-tests = true` checks it as a program).",
    ]
    assert "left out" not in cli("fix", "--include-tests", str(tmp_path)).out


GENERATORS = "import numpy as np\nimport torch\n\nrng = np.random.default_rng()\ng = torch.Generator()\n"


@pytest.mark.parametrize("path", ["tests/envs.py", "conftest.py", "model_test.py"])
def test_generators_of_test_modules_are_fixtures_unless_tests_are_included(path: str) -> None:
    source = GENERATORS + ("\ndef test_draw():\n    assert rng.random() < 1\n" if "test" in path else "")
    assert found({path: source}) == []
    assert found({path: source}, include_tests=True) == [(path, 4, "RPL102")]
    assert found({"data/envs.py": source}) == [("data/envs.py", 4, "RPL102")]
