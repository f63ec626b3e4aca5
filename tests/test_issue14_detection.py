"""What check reports for issue 14's detection items, as a user sees it (code, line,
message, related locations)."""

from __future__ import annotations

import pytest

from reprolint.api import check_sources


def _found(sources: dict[str, str]) -> list[tuple[str, int, str]]:
    return sorted((d.code, d.span.start_line, d.message) for d in check_sources(sources))


def test_conditional_seed_points_back_at_its_guard() -> None:
    source = (
        "import argparse\nimport torch\n\np = argparse.ArgumentParser()\n"
        "p.add_argument('--seed', type=int, default=None)\nargs = p.parse_args()\n"
        "if args.seed is not None:\n    torch.manual_seed(args.seed)\nmodel = torch.nn.Linear(2, 1)\n"
    )
    (d,) = [d for d in check_sources({"train.py": source}) if d.code == "RPL104"]
    assert d.span.start_line == 8
    # the `if`, the option, the draw it leaves unseeded
    assert [(r.path, r.span.start_line) for r in d.related] == [("train.py", 7), ("train.py", 5), ("train.py", 9)]


def test_device_option_default_cuda_is_a_cuda_user() -> None:
    source = (
        "import argparse\nimport torch\n\np = argparse.ArgumentParser()\n"
        "p.add_argument('--device', default='cuda:0')\nargs = p.parse_args()\n"
        "torch.manual_seed(0)\nmodel = torch.nn.Linear(2, 1).to(torch.device(args.device))\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(torch.ones(1, 2)).index_select(0, idx).sum().backward()\nopt.step()\n"
    )
    found = _found({"train.py": source})
    assert [(c, line) for c, line, _ in found] == [("RPL301", 5)]
    assert "`--device` default 'cuda:0'" in found[0][2]


def test_device_option_default_cpu_runs_on_cuda_when_asked() -> None:
    # issue 25: the flag rules count a program that runs on CUDA with `--device cuda`
    source = (
        "import argparse\nimport torch\n\np = argparse.ArgumentParser()\n"
        "p.add_argument('--device', default='cpu')\nargs = p.parse_args()\n"
        "torch.manual_seed(0)\nmodel = torch.nn.Linear(2, 1).to(torch.device(args.device))\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(torch.ones(1, 2)).index_select(0, idx).sum().backward()\nopt.step()\n"
    )
    found = _found({"train.py": source})
    assert [(c, line) for c, line, _ in found] == [("RPL301", 5)]
    assert "(the device option when run with `--device cuda`)" in found[0][2]
    (d,) = check_sources({"train.py": source})
    assert d.data["cuda_option"] == "--device cuda"


def test_spawned_worker_unseeded_reported_at_the_spawn_with_the_parent_seed() -> None:
    source = (
        "import torch\nimport torch.multiprocessing as mp\n\n\n"
        "def worker(rank):\n    model = torch.nn.Linear(2, 1)\n    print(model.weight)\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    mp.spawn(worker, nprocs=2)\n"
    )
    found = _found({"train.py": source})
    assert [(c, line) for c, line, _ in found] == [("RPL101", 12)]
    assert "`worker`" in found[0][2] and "(line 11)" in found[0][2]


@pytest.mark.parametrize("test", [
    # off by default: the runs that pass it lose the parent's seeds (reported all the same)
    "args.distributed",
    "not args.distributed",
])
def test_a_spawn_behind_an_option_names_the_libraries_the_worker_draws_from(test: str) -> None:
    source = (
        "import argparse, random\nimport torch\nimport torch.multiprocessing as mp\n\n\n"
        "def worker(rank):\n    model = torch.nn.Linear(2, 1)\n    print(model.weight)\n\n\n"
        "if __name__ == '__main__':\n    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--distributed', action='store_true')\n    args = p.parse_args()\n"
        f"    random.seed(0)\n    torch.manual_seed(0)\n    if {test}:\n        mp.spawn(worker, nprocs=2)\n"
        "    else:\n        worker(0)\n"
    )
    found = [(c, line, message) for c, line, message in _found({"train.py": source}) if c == "RPL101"]
    assert [(c, line) for c, line, _ in found] == [("RPL101", 18)]
    # the worker draws from torch only: `random` is seeded by the parent too, but not drawn from
    assert "(torch never seeded there)" in found[0][2]


@pytest.mark.parametrize("seed", ["torch.cuda.manual_seed(0)", "torch.cuda.manual_seed_all(0)"])
def test_a_worker_that_seeds_only_cuda_is_told_so(seed: str) -> None:
    # CUDA's generators are seeded in the worker, the CPU's that draws the weights is not
    source = (
        "import torch\nimport torch.multiprocessing as mp\n\n\n"
        f"def worker(rank):\n    {seed}\n    model = torch.nn.Linear(2, 1).cuda(rank)\n    print(model.weight)\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    mp.spawn(worker, nprocs=2)\n"
    )
    [(code, line, message)] = _found({"train.py": source})
    assert (code, line) == ("RPL101", 13)
    assert message.endswith(
        f"(torch's CPU generator never seeded there: `{seed.split('(')[0]}` seeds only CUDA's generators)"
    )


def test_spawned_worker_that_seeds_itself_is_not_reported() -> None:
    source = (
        "import torch\nimport torch.multiprocessing as mp\n\n\n"
        "def worker(rank):\n    torch.manual_seed(0)\n    model = torch.nn.Linear(2, 1)\n    print(model.weight)\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    mp.spawn(worker, nprocs=2)\n"
    )
    assert _found({"train.py": source}) == []


def test_gym_env_reset_without_seed_in_a_seeding_program() -> None:
    source = (
        "import gymnasium as gym\nimport numpy as np\n\nnp.random.seed(0)\nenv = gym.make('CartPole-v1')\n"
        "obs, _ = env.reset()\naction = env.action_space.sample()\n"
    )
    found = _found({"rollout.py": source})
    assert [(c, line) for c, line, _ in found] == [("RPL102", 6), ("RPL102", 7)]


def test_gym_env_seeded_by_first_reset_and_space_seed() -> None:
    source = (
        "import gymnasium as gym\nimport numpy as np\n\nnp.random.seed(0)\nenv = gym.make('CartPole-v1')\n"
        "env.action_space.seed(0)\nobs, _ = env.reset(seed=0)\nobs, _ = env.reset()\naction = env.action_space.sample()\n"
    )
    assert _found({"rollout.py": source}) == []
