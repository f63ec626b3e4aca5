"""The program model: entry points, imports across files, and "seeded before?"."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths


def findings(root: Path) -> list[tuple[str, int, str]]:
    result = check_paths([str(root)])
    return [
        (Path(d.path).relative_to(root).as_posix(), d.span.start_line, d.code)
        for d in result.diagnostics
    ]


def messages(root: Path) -> list[str]:
    return [d.message for d in check_paths([str(root)]).diagnostics]


def test_helper_in_another_file_seeds(project) -> None:
    root = project({
        "utils.py": "import random\nimport numpy as np\nimport torch\n\n"
                    "def set_seed(seed):\n    random.seed(seed)\n    np.random.seed(seed)\n    torch.manual_seed(seed)\n",
        "train.py": "import torch\nfrom utils import set_seed\n\n"
                    "def main():\n    set_seed(0)\n    print(torch.randn(2))\n\nif __name__ == '__main__':\n    main()\n",
    })
    assert findings(root) == []


def test_model_built_in_another_file_before_the_seed(project) -> None:
    root = project({
        "src/model.py": "import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
                        "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n",
        "src/train.py": "import torch\nfrom model import Net\n\nnet = Net()\ntorch.manual_seed(1)\n",
    })
    assert findings(root) == [("src/model.py", 6, "RPL101")]
    train = (root / 'src/train.py').as_posix()
    assert messages(root)[0].endswith(f"before `torch.manual_seed` runs ({train}:5; entry point: {train})")


def test_library_code_is_not_reported_as_unseeded(project) -> None:
    root = project({"lib/aug.py": "import random\n\ndef jitter(x):\n    return x + random.random()\n"})
    assert findings(root) == []


def test_library_code_draws_count_when_an_entry_imports_it(project) -> None:
    root = project({
        "lib/aug.py": "import random\n\ndef jitter(x):\n    return x + random.random()\n",
        "run.py": "from lib.aug import jitter\n\nif __name__ == '__main__':\n    print(jitter(1))\n",
    })
    assert findings(root) == [("lib/aug.py", 4, "RPL101")]


def test_relative_imports_inside_a_package(project) -> None:
    root = project({
        "pkg/__init__.py": "",
        "pkg/seeding.py": "import torch\n\ndef seed_all(s):\n    torch.manual_seed(s)\n",
        "pkg/train.py": "import torch\nfrom .seeding import seed_all\nfrom . import seeding\n\n"
                        "def main():\n    seeding.seed_all(3)\n    return torch.rand(1)\n\n"
                        "if __name__ == '__main__':\n    main()\n",
    })
    assert findings(root) == []


def test_package_init_runs_on_import(project) -> None:
    root = project({
        "pkg/__init__.py": "import torch\ntorch.manual_seed(0)\n",
        "pkg/models.py": "import torch\n\ndef make():\n    return torch.nn.Linear(2, 2)\n",
        "main.py": "import pkg.models\n\nif __name__ == '__main__':\n    pkg.models.make()\n",
    })
    assert findings(root) == []


def test_seed_in_main_guard_of_an_imported_module_does_not_run(project) -> None:
    root = project({
        "helpers.py": "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n",
        "train.py": "import torch\nimport helpers\n\nif __name__ == '__main__':\n    x = torch.rand(2)\n",
    })
    assert ("train.py", 5, "RPL101") in findings(root)


def test_methods_called_through_self_and_inheritance(project) -> None:
    root = project({
        "m.py": "import torch\nimport torch.nn as nn\n\nclass Base(nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n        self.build()\n\n    def build(self):\n"
                "        self.w = nn.Linear(2, 2)\n\nclass Child(Base):\n    pass\n\n"
                "def main():\n    model = Child()\n    torch.manual_seed(0)\n\nif __name__ == '__main__':\n    main()\n",
    })
    assert findings(root) == [("m.py", 10, "RPL101")]


def test_unreached_functions_run_after_everything(project) -> None:
    # forward() is never called by name; the seed before main's end covers it.
    root = project({
        "t.py": "import torch\nimport torch.nn.functional as F\n\nclass M(torch.nn.Module):\n"
                "    def forward(self, x):\n        return F.dropout(x) + torch.randn(2)\n\n"
                "if __name__ == '__main__':\n    torch.manual_seed(0)\n    m = M()\n",
    })
    assert findings(root) == []


def test_deferred_draws_only_need_a_seed_somewhere(project) -> None:
    root = project({
        "t.py": "import torch\nfrom torch.utils.data import DataLoader\n\n"
                "loader = DataLoader([1, 2, 3], shuffle=True)\ndrop = torch.nn.Dropout(0.5)\n"
                "torch.manual_seed(0)\nfor b in loader:\n    print(drop(b))\n",
    })
    assert findings(root) == []


def test_recursion_is_cut(project) -> None:
    root = project({
        "r.py": "import random\n\ndef a(n):\n    return b(n)\n\ndef b(n):\n    return a(n - 1) + random.random()\n\n"
                "if __name__ == '__main__':\n    a(3)\n",
    })
    assert findings(root) == [("r.py", 7, "RPL101")]


def test_import_cycle_between_project_modules(project) -> None:
    root = project({
        "a.py": "import b\nimport random\n\ndef f():\n    return random.random()\n",
        "b.py": "import a\n",
        "main.py": "import a\nimport random\nrandom.seed(0)\nprint(a.f())\n",
    })
    assert findings(root) == []


def test_click_option_default_none_makes_seed_conditional(project) -> None:
    root = project({
        "cli.py": "import click\nimport torch\n\n@click.command()\n@click.option('--seed', default=None, type=int)\n"
                  "def main(seed):\n    if seed is not None:\n        torch.manual_seed(seed)\n    print(torch.rand(2))\n\n"
                  "if __name__ == '__main__':\n    main()\n",
    })
    assert findings(root) == [("cli.py", 8, "RPL104")]


def test_conditional_helper_call_is_reported_at_the_call(project) -> None:
    root = project({
        "utils.py": "import torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n",
        "train.py": "import argparse\nimport torch\nfrom utils import set_seed\n\np = argparse.ArgumentParser()\n"
                    "p.add_argument('--seed', type=int, default=None)\nargs = p.parse_args()\n"
                    "if args.seed:\n    set_seed(args.seed)\nprint(torch.rand(2))\n",
    })
    assert findings(root) == [("train.py", 9, "RPL104")]


def test_one_finding_per_draw_site_across_programs(project) -> None:
    root = project({
        "common.py": "import numpy as np\n\ndef noise():\n    return np.random.rand(2)\n",
        "a.py": "from common import noise\n\nif __name__ == '__main__':\n    noise()\n",
        "b.py": "from common import noise\n\nif __name__ == '__main__':\n    noise()\n",
    })
    assert findings(root) == [("common.py", 4, "RPL101")]


def test_partial_seed_is_said_once_at_the_draw_naming_the_helper(project) -> None:
    files = {
        "utils.py": "import torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n",
        "data.py": "import numpy as np\n\ndef augment(x):\n    return x + np.random.normal(size=2)\n",
        "train.py": "from utils import set_seed\nfrom data import augment\n\n"
                    "if __name__ == '__main__':\n    set_seed(0)\n    augment(1)\n",
    }
    root = project(files)
    assert findings(root) == [("data.py", 4, "RPL101")]
    from reprolint.api import check_paths
    (draw,) = check_paths([str(root)]).diagnostics
    assert "the program seeds torch (first with `torch.manual_seed`" in draw.message
    assert [(r.path.rsplit("/", 1)[-1], r.span.start_line) for r in draw.related] == [("utils.py", 4), ("train.py", 6)]
    # with the draw suppressed for RPL101, RPL105 says it at the helper instead
    files["data.py"] = files["data.py"].replace("size=2)\n", "size=2)  # noqa: RPL101\n")
    assert findings(project(files)) == [("utils.py", 4, "RPL105")]


def test_script_without_main_guard_is_an_entry_point(project) -> None:
    root = project({"prep.py": "import numpy as np\nidx = np.random.permutation(10)\nprint(idx)\n"})
    assert findings(root) == [("prep.py", 2, "RPL101")]


def test_local_variable_shadowing_a_module_is_not_a_draw(project) -> None:
    root = project({
        "s.py": "import random\n\ndef pick(random):\n    return random.choice([1, 2])\n\n"
                "if __name__ == '__main__':\n    print(pick(object()))\n",
    })
    assert findings(root) == []


def test_star_import_of_a_known_module(project) -> None:
    root = project({"s.py": "from numpy.random import *\nx = rand(3)\nprint(x)\n"})
    assert findings(root) == [("s.py", 2, "RPL101")]


@pytest.mark.parametrize(("star", "found"), [
    # a project module's star import brings the `torch` it imports: the seed counts
    ("from pkg.utils import *", []),
    # a library's star import brings its own names, not the project's `torch`
    ("from pkg.utils import data\nfrom pylab import *", [("train.py", 5, "RPL101")]),
])
def test_a_library_reached_by_its_name_through_a_star_import(project, star: str, found: list) -> None:
    root = project({
        "pkg/__init__.py": "",
        "pkg/utils.py": "import torch\n\ndef data():\n    return torch.ones(4, 2)\n",
        "train.py": (
            f"import torch.nn as nn\n{star}\ntorch.manual_seed(0)\nmodel = nn.Linear(2, 1)\n"
            "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(data()).sum().backward()\nopt.step()\n"
        ),
    })
    assert [f for f in findings(root) if f[2] == "RPL101"] == found


# --------------------------------------------------------------------------- one walker
# One execution walker gives every rule the same steps, evaluated with the program's
# final option defaults (issue 12).

_OPTS = (
    "import argparse\np = argparse.ArgumentParser()\n"
    "p.add_argument('--seed', type=int, default=None)\n"
    "p.add_argument('--deterministic', action='store_true')\n"
    "args = p.parse_args()\n"
)
_HELPERS = (
    "import torch\n\n"
    "def go(cfg):\n"
    "    if cfg.seed is not None:\n"
    "        torch.manual_seed(cfg.seed)\n"
    "    if cfg.deterministic:\n"
    "        torch.use_deterministic_algorithms(True)\n"
    "    x = torch.rand(4, device='cuda')\n"
    "    x.index_add_(0, torch.tensor([0]), torch.ones(1, device='cuda'))\n"
)


def _codes(first: str, second: str) -> set[str]:
    from reprolint.api import check_sources

    entry = f"import helpers\n\nif __name__ == '__main__':\n    {first}\n    {second}\n"
    found = check_sources({"train.py": entry, "opts.py": _OPTS, "helpers.py": _HELPERS})
    return {d.code for d in found}


def test_option_defaults_are_final_wherever_the_options_module_is_imported() -> None:
    before = _codes("helpers.go(None)", "import opts")
    after = _codes("import opts", "helpers.go(None)")
    assert before == after
    assert {"RPL104", "RPL201"} <= before


def _program(sources: dict[str, str], entry: str = "main.py"):  # type: ignore[no-untyped-def]
    from reprolint.api import analyse_source
    from reprolint.analysis.program import analyse_programs
    from reprolint.analysis.project_index import ProgramIndex

    facts = {path: analyse_source(source, path).facts for path, source in sources.items()}
    index = ProgramIndex(facts, ["."])
    (program,) = analyse_programs(index, [entry])
    return program


def test_steps_carry_their_phase_worker_and_no_grad_context() -> None:
    from reprolint.analysis.execution import Phase

    program = _program({"main.py": (
        "import random\nimport torch\nfrom torch.utils.data import Dataset\n\n"
        "class Noisy(Dataset):\n    def __getitem__(self, i):\n        return random.random()\n\n"
        "class Net(torch.nn.Module):\n    def forward(self, x):\n        return torch.rand(1)\n\n"
        "def evaluate():\n    with torch.no_grad():\n        return torch.randn(2)\n\n"
        "if __name__ == '__main__':\n    evaluate()\n    drop = torch.nn.Dropout(0.5)\n    data = Noisy()\n"
    )})
    by_line = {s.event.span.start_line: s for s in program.steps if hasattr(s.event, "library")}
    assert by_line[15].context.no_grad and by_line[15].context.phase is Phase.CALL
    assert by_line[7].context.in_worker and by_line[7].context.phase is Phase.FRAMEWORK
    assert not by_line[11].context.in_worker and by_line[11].context.phase is Phase.FRAMEWORK
    assert by_line[19].context.phase is Phase.DEFERRED
    assert program.steps[-1].context.phase is Phase.DEFERRED  # deferred draws come last


def test_the_call_that_led_to_a_step_is_kept() -> None:
    program = _program({
        "main.py": "import utils\n\nif __name__ == '__main__':\n    utils.set_seed(3)\n",
        "utils.py": "import torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n",
    })
    (seed,) = program.seeds
    assert seed.path == "utils.py" and seed.via is not None
    assert seed.via[0] == "main.py" and seed.via[1].text == "utils.set_seed"
    assert program.helper_calls and program.helper_calls[0][2] == frozenset({"torch"})


def test_program_roles() -> None:
    from reprolint.analysis.program import Role

    train = "import torch\nopt = torch.optim.SGD([], lr=0.1)\nopt.step()\n"
    assert _program({"train.py": train}, "train.py").role is Role.TRAINING
    collected = train + "\ndef test_step():\n    opt.step()\n"
    assert _program({"tests/test_model.py": collected}, "tests/test_model.py").role is Role.TEST
    # no test case: a training script named like a test is a program (issue 25)
    assert _program({"test_model.py": train}, "test_model.py").role is Role.TRAINING
    assert _program({"tests/run_model.py": train}, "tests/run_model.py").role is Role.TEST  # a test folder
    assert _program({"demo_app.py": "import torch\nprint(1)\n"}, "demo_app.py").role is Role.DEMO
    evaluate = "import torch\nwith torch.no_grad():\n    y = torch.zeros(2).cuda()\n"
    assert _program({"run.py": evaluate}, "run.py").role is Role.EVALUATION


def test_a_function_defined_inside_a_no_grad_function_runs_without_gradients() -> None:
    """stylegan2-pytorch's `Trainer.evaluate` is `@torch.no_grad()` and defines a `tile`
    helper that calls `torch.index_select`: no backward runs there, so it is no evidence
    of the program's RPL301; the same op in a helper the training loop calls is."""
    from reprolint.api import check_source

    source = (
        "import torch\ntorch.manual_seed(0)\nmodel = torch.nn.Linear(4, 4).cuda()\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n\n\n"
        "@torch.no_grad()\ndef evaluate(x):\n    def tile(a, order):\n"
        "        return torch.index_select(a, 0, order)\n"
        "    return model(tile(x, torch.tensor([1, 0, 2], device='cuda')))\n\n\n"
        "def train_tile(a, order):\n    return torch.index_select(a, 0, order)\n\n\n"
        "for step in range(3):\n    x = torch.randn(3, 4, device='cuda', requires_grad=True)\n"
        "    model(train_tile(x, torch.tensor([1, 1, 2], device='cuda'))).sum().backward()\n"
        "    opt.step()\n    print(evaluate(x))\n"
    )
    (program,) = [d for d in check_source(source, path="train.py") if d.code == "RPL301"]
    # the op the training loop runs, then the call through which it runs it
    assert [r.span.start_line for r in program.related] == [15, 20]
    assert program.related[1].message.startswith("this call of `train_tile` leads to")


def test_a_plain_helper_that_a_later_method_calls_runs_on_the_training_path(project) -> None:
    # `ops.py` comes first in the program's module order, the method calling its helper
    # later: the helper still runs at that call (with gradients), so its backward kernel
    # is the program's RPL301 evidence; an uncalled helper beside it is not (no program
    # calls it, and a module an entry point imports is program code, not library code:
    # what does not run there is not reported)
    root = project({
        "ops.py": "import torch\n\ndef pick_rows(t, idx):\n    return t.index_select(0, idx)\n\n"
                  "def unused_scatter(t, idx, v):\n    return t.index_add(0, idx, v)\n",
        "model.py": "import torch\nfrom torch import nn\nimport ops\n\nclass Net(nn.Module):\n"
                    "    def __init__(self):\n        super().__init__()\n        self.table = nn.Parameter(torch.ones(8, 4))\n"
                    "    def forward(self, idx):\n        return ops.pick_rows(self.table, idx).sum()\n",
        "train.py": "import torch\nimport ops\nfrom model import Net\n\ntorch.manual_seed(0)\n"
                    "torch.backends.cudnn.deterministic = True\nnet = Net().cuda()\n"
                    "opt = torch.optim.SGD(net.parameters(), lr=0.1)\nidx = torch.tensor([0, 0, 1]).cuda()\n"
                    "loss = net(idx)\nloss.backward()\nopt.step()\n",
    })
    diags = {d.code: d for d in check_paths([str(root)]).diagnostics if d.code in ("RPL201", "RPL301")}
    assert sorted(diags) == ["RPL301"]
    assert [(Path(r.path).name, r.span.start_line) for r in diags["RPL301"].related] == [("ops.py", 4), ("model.py", 10)]


def test_library_code_is_reported_per_site_only_in_modules_no_entry_point_imports(project) -> None:
    # `tools/export.py` is imported by no entry point: its op is library code, reported
    # per site; the uncalled helper of `ops.py`, which the training program imports, is
    # program code that does not run (even though the library module imports it too)
    root = project({
        "ops.py": "import torch\n\ndef unused_scatter(t, idx, v):\n    return t.index_add(0, idx, v)\n",
        "train.py": "import torch\nimport ops\n\ntorch.manual_seed(0)\nnet = torch.nn.Linear(4, 4).cuda()\n"
                    "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
                    "net(torch.ones(2, 4).cuda()).sum().backward()\nopt.step()\n",
        "tools/export.py": "import torch\nimport ops\n\n\ndef scatter_rows(t, idx, v):\n"
                           "    return t.index_copy(0, idx, v)\n",
    })
    found = [(Path(d.path).parent.name, Path(d.path).name, d.span.start_line, d.code, d.entry_points)
             for d in check_paths([str(root)]).diagnostics if d.code == "RPL201"]
    assert found == [("tools", "export.py", 6, "RPL201", ())]


def test_methods_of_a_class_built_only_by_a_factory_reached_by_name_run(project) -> None:
    # `models.__dict__[args.arch]()`: no call resolves to the factory, which runs last
    # as uncalled; the class it builds still trains, its backward kernel is evidence
    root = project({
        "models.py": "import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n"
                     "    def __init__(self):\n        super().__init__()\n        self.table = nn.Parameter(torch.ones(8, 4))\n"
                     "    def forward(self, idx):\n        return self.table.index_select(0, idx).sum()\n\n"
                     "def net_small():\n    return Net()\n",
        "train.py": "import argparse\nimport torch\nimport models\n\np = argparse.ArgumentParser()\n"
                    "p.add_argument('--arch', default='net_small')\nargs = p.parse_args()\ntorch.manual_seed(0)\n"
                    "torch.backends.cudnn.deterministic = True\nnet = models.__dict__[args.arch]().cuda()\n"
                    "opt = torch.optim.SGD(net.parameters(), lr=0.1)\nloss = net(torch.tensor([0, 0]).cuda())\n"
                    "loss.backward()\nopt.step()\n",
    })
    diags = [d for d in check_paths([str(root)]).diagnostics if d.code in ("RPL201", "RPL301")]
    assert [d.code for d in diags] == ["RPL301"]
    assert [(Path(r.path).name, r.span.start_line) for r in diags[0].related] == [("models.py", 9)]
