"""RPL405 (Hogwild shared-model training), flags set from a parameter's default (RPL203),
training recognised by `zero_grad` (RPL301), and torchvision models picked by name (RPL101)."""

from __future__ import annotations

import pytest

from reprolint.api import check_source, check_sources
from reprolint.config import Settings


def found(source: str, code: str) -> list[int]:
    return [d.span.start_line for d in check_source(source, "train.py", Settings()) if d.code == code]


HOGWILD = """\
import torch
import torch.multiprocessing as mp


def train(rank, model):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(100):
        opt.zero_grad()
        model(torch.zeros(2, 4)).sum().backward()
        opt.step()


if __name__ == "__main__":
    model = torch.nn.Linear(4, 1)
    model.share_memory()
    START
"""


@pytest.mark.parametrize(("start", "reported"), [
    ("procs = [mp.Process(target=train, args=(i, model)) for i in range(4)]", [16]),
    ("for i in range(4):\n        mp.Process(target=train, args=(i, model)).start()", [17]),
    ("a = mp.Process(target=train, args=(0, model))\n    b = mp.Process(target=train, args=(1, model))", [16, 17]),
    ("mp.spawn(train, args=(model,), nprocs=4)", [16]),
    ("mp.spawn(fn=train, args=(model,), nprocs=n_procs)", [16]),
    ("mp.Process(target=train, kwargs={'rank': 0, 'model': model}).start()", []),  # one worker
    ("mp.spawn(train, args=(model,))", []),  # nprocs defaults to 1
    ("mp.spawn(train, args=(model,), nprocs=1)", []),
    ("procs = [mp.Process(target=train, args=(i, torch.nn.Linear(4, 1))) for i in range(4)]", []),  # not shared
    ("with mp.Pool(4) as pool:\n        pool.starmap(train, [(i, model) for i in range(4)])", [17]),
    ("pool = mp.Pool()\n    pool.map(train, [model] * 4)", [17]),
    ("with mp.Pool(4) as pool:\n        jobs = [pool.apply_async(train, (i, model)) for i in range(4)]", [17]),
    ("with mp.Pool(1) as pool:\n        pool.starmap(train, [(i, model) for i in range(4)])", []),  # one process
    ("with mp.Pool(4) as pool:\n        pool.apply_async(train, (0, model)).get()", []),  # one task
    ("loader.map(train, [model] * 4)", []),  # not a pool
])
def test_hogwild_needs_several_training_workers_on_the_shared_model(start: str, reported: list[int]) -> None:
    source = HOGWILD.replace("START", start)
    assert found(source, "RPL405") == reported


def test_hogwild_workers_that_only_evaluate_are_not_reported() -> None:
    source = HOGWILD.replace("        opt.zero_grad()\n        model(torch.zeros(2, 4)).sum().backward()\n        opt.step()\n",
                             "        print(model(torch.zeros(2, 4)))\n")
    source = source.replace("    opt = torch.optim.SGD(model.parameters(), lr=0.01)\n", "")
    source = source.replace("START", "procs = [mp.Process(target=train, args=(i, model)) for i in range(4)]")
    assert found(source, "RPL405") == []


def test_hogwild_follows_the_worker_into_another_module_and_names_the_share() -> None:
    main = (
        "import torch\nimport torch.multiprocessing as mp\nfrom workers import train, watch\n\n"
        "if __name__ == '__main__':\n    net = torch.nn.Linear(4, 1)\n    net.share_memory()\n"
        "    mp.Process(target=watch, args=(net,)).start()\n"
        "    for rank in range(8):\n        mp.Process(target=train, args=(rank, net)).start()\n"
    )
    workers = (
        "import torch\nfrom steps import step\n\n"
        "def train(rank, net):\n    step(net)\n\n"
        "def watch(net):\n    print(net.weight)\n"
    )
    steps = "import torch\n\ndef step(net):\n    net(torch.zeros(1, 4)).sum().backward()\n"
    diags = [d for d in check_sources({"main.py": main, "workers.py": workers, "steps.py": steps}) if d.code == "RPL405"]
    assert [(d.path, d.span.start_line) for d in diags] == [("main.py", 10)]
    assert "shared model `net`" in diags[0].message and "`train` processes" in diags[0].message
    assert [(r.path, r.span.start_line) for r in diags[0].related] == [("main.py", 7)]
    assert diags[0].fix is None


def test_hogwild_noqa_on_the_start_line() -> None:
    source = HOGWILD.replace("START", "mp.spawn(train, args=(model,), nprocs=4)  # noqa: RPL405")
    assert found(source, "RPL405") == []


FLAG = """\
import torch

BENCH = VALUE


def training_loop(rank=0, cudnn_benchmark=DEFAULT):
    device = torch.device("cuda", rank)
    torch.backends.cudnn.benchmark = TARGET
    net = torch.nn.Conv2d(3, 8, 3).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    opt.zero_grad()
    net(torch.zeros(1, 3, 8, 8, device=device)).sum().backward()
    opt.step()


if __name__ == "__main__":
    training_loop()
"""


@pytest.mark.parametrize(("default", "value", "target", "reported"), [
    ("True", "False", "cudnn_benchmark", True),
    ("False", "False", "cudnn_benchmark", False),
    ("False", "True", "BENCH", True),
    ("False", "False", "BENCH", False),
    ("None", "False", "cudnn_benchmark", False),
])
def test_benchmark_from_a_parameter_default_or_a_constant(default: str, value: str, target: str, reported: bool) -> None:
    source = FLAG.replace("DEFAULT", default).replace("VALUE", value).replace("TARGET", target)
    diags = [d for d in check_source(source, "train.py") if d.code == "RPL203"]
    assert [d.span.start_line for d in diags] == ([8] if reported else [])
    if reported:  # the message names what the value comes from, not a `= True` nobody wrote
        assert diags[0].message.startswith(f"`torch.backends.cudnn.benchmark = {target}` turns cuDNN autotuning on")
        assert f"(`{target}` is true by default)" in diags[0].message


def test_deterministic_flag_from_a_parameter_default_counts() -> None:
    source = (
        "import torch\n\ndef main(deterministic=True):\n    torch.use_deterministic_algorithms(deterministic)\n"
        "    net = torch.nn.Linear(2, 1).cuda()\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "    net(torch.zeros(1, 2).cuda()).index_select(0, idx).sum().backward()\n    opt.step()\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert found(source, "RPL301") == []
    assert found(source.replace("deterministic=True", "deterministic=False"), "RPL301") == [5]


def test_zero_grad_makes_a_training_program() -> None:
    source = (
        "import torch\n\nclass Loss:\n    def accumulate(self, net):\n        net(torch.zeros(1, 2)).index_select(0, idx).sum().backward()\n\n"
        "def build(name, **kw):\n    return globals()[name](**kw)\n\n"
        "if __name__ == '__main__':\n    net = torch.nn.Linear(2, 1).cuda()\n    opt = build('SGD', params=net.parameters())\n"
        "    loss = build('Loss')\n    for _ in range(10):\n        opt.zero_grad()\n        loss.accumulate(net)\n        opt.step()\n"
    )
    assert found(source, "RPL301") == [11]


@pytest.mark.parametrize("build", [
    "models.__dict__[args.arch]()", "getattr(models, args.arch)()", "vars(models)[args.arch](num_classes=10)",
    "models.__dict__['resnet50']()", "models.get_model(args.arch)", "models.resnet18()",
])
def test_torchvision_model_picked_by_name_draws(build: str) -> None:
    source = (
        "import argparse\nimport torch\nimport torchvision.models as models\n"
        "p = argparse.ArgumentParser()\np.add_argument('--arch', default='resnet18')\nargs = p.parse_args()\n"
        f"model = {build}\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(torch.zeros(1, 3, 8, 8)).sum().backward()\nopt.step()\n"
    )
    diags = [d for d in check_source(source, "train.py") if d.code == "RPL101"]
    assert [d.span.start_line for d in diags] == [7]
    assert "initialises weights" in diags[0].message


@pytest.mark.parametrize("use", [
    "names = sorted(n for n in models.__dict__.keys() if n.islower())",
    "names = list(vars(models).items())",
    "layer = getattr(nn, 'ReLU')()",  # a torch.nn member by name: the catalog lists nn classes one by one
    "model = helpers.__dict__[args.arch]()",  # a project module
])
def test_registry_listings_and_other_modules_draw_nothing(use: str) -> None:
    source = (
        "import argparse\nimport helpers\nimport torch.nn as nn\nimport torchvision.models as models\n"
        "p = argparse.ArgumentParser()\np.add_argument('--arch', default='resnet18')\nargs = p.parse_args()\n"
        f"{use}\nprint(len(str(locals())))\n"
    )
    assert found(source, "RPL101") == []


SPAWN_FLAGS = """\
import torch
import torch.multiprocessing as mp
TOP

def worker(rank):
    WORKER
    net = torch.nn.Conv2d(3, 8, 3).DEVICE
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(torch.zeros(1, 3, 8, 8).DEVICE).sum().backward()
    opt.step()


if __name__ == "__main__":
    PARENT
    START
"""

FLAGS = "torch.use_deterministic_algorithms(True); torch.backends.cudnn.deterministic = True"


@pytest.mark.parametrize(("top", "worker", "parent", "device", "start", "codes"), [
    ("", "pass", FLAGS, "cuda(rank)", "mp.spawn(worker, nprocs=2)", ["RPL301", "RPL302"]),
    ("", "pass", "torch.use_deterministic_algorithms(True)", "cuda(rank)", "mp.spawn(worker, nprocs=2)", ["RPL301"]),
    ("", FLAGS, FLAGS, "cuda(rank)", "mp.spawn(worker, nprocs=2)", []),  # the worker sets them too
    (FLAGS, "pass", "pass", "cuda(rank)", "mp.spawn(worker, nprocs=2)", []),  # top level: rerun by each child
    ("", "pass", "if torch.cuda.device_count() > 4: " + FLAGS, "cuda(rank)", "mp.spawn(worker, nprocs=2)", []),
    ("", "pass", FLAGS, "cpu()", "mp.spawn(worker, nprocs=2)", []),  # no CUDA anywhere
    ("", "pass", FLAGS, "cuda(rank)", "mp.Process(target=worker, args=(0,)).start()", []),  # fork copies the flags
    ("", "pass", "mp.set_start_method('spawn'); " + FLAGS, "cuda(rank)",
     "mp.Process(target=worker, args=(0,)).start()", ["RPL301", "RPL302"]),
])
def test_determinism_flags_set_only_in_the_parent_do_not_reach_spawned_workers(
    top: str, worker: str, parent: str, device: str, start: str, codes: list[str],
) -> None:
    source = (SPAWN_FLAGS.replace("TOP", top).replace("WORKER", worker).replace("PARENT", parent)
              .replace("DEVICE", device).replace("START", start))
    diags = [d for d in check_source(source, "launch.py") if d.code in ("RPL301", "RPL302")]
    assert sorted(d.code for d in diags) == codes
    assert all(d.span.start_line == 15 for d in diags)
    for d in diags:
        assert "does not reach" in d.message and "(line 14)" in d.message
        assert d.fix is None  # the setting belongs inside the worker
