"""A function that runs though no call the analysis sees reaches it (passed on to a
launcher: `multi_proc_run(fun=trainer.train_model)`) seeds for what it draws itself:
the seeds of its `setup_env()` reach the draws of its training. A seeding helper that
is only passed on seeds nothing the program draws elsewhere."""
from __future__ import annotations

from reprolint.api import check_sources

LAUNCH = '''def multi_proc_run(num_proc, fun):
    if num_proc > 1:
        spawn_workers(num_proc, fun)
    else:
        fun()
'''

TRAINER = '''import numpy as np
import torch


def setup_env():
    np.random.seed(0)
    torch.manual_seed(0)


def train_model():
    setup_env()
    model = torch.nn.Linear(4, 2)
    lam = np.random.beta(1.0, 1.0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    (model(torch.ones(2, 4)) * lam).sum().backward()
    opt.step()
'''

RUN = '''import pkg.launch as launch
import pkg.trainer as trainer

if __name__ == "__main__":
    launch.multi_proc_run(num_proc=1, fun=trainer.train_model)
'''


def rpl101(sources: dict[str, str]) -> list[tuple[str, int]]:
    return sorted((d.path, d.span.start_line) for d in check_sources(sources) if d.code == "RPL101")


def test_a_passed_on_function_seeds_its_own_draws() -> None:
    sources = {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH, "pkg/trainer.py": TRAINER, "run.py": RUN}
    assert rpl101(sources) == []


def test_without_its_seeds_its_draws_are_unseeded() -> None:
    trainer = TRAINER.replace("    np.random.seed(0)\n    torch.manual_seed(0)\n", "    pass\n")
    sources = {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH, "pkg/trainer.py": trainer, "run.py": RUN}
    assert rpl101(sources) == [("pkg/trainer.py", 11), ("pkg/trainer.py", 12)]


def test_a_passed_on_seeding_helper_seeds_nothing_drawn_elsewhere() -> None:
    run = (
        "import numpy as np\nimport pkg.launch as launch\nimport pkg.trainer as trainer\n\n"
        "launch.multi_proc_run(num_proc=1, fun=trainer.setup_env)\nprint(np.random.rand(3))\n"
    )
    sources = {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH, "pkg/trainer.py": TRAINER, "run.py": run}
    assert ("run.py", 6) in rpl101(sources)
