"""Where a kernel runs and what a call is, by what the code does: cuDNN turned off by an
option's default runs no cuDNN kernel (RPL302, RPL203); a tensor a factory made without
`device=` (or moved with `.cpu()`) takes the CPU kernel, which adds in order (RPL301's
evidence, checked on the real torch); `env.reset()` of a class the module defines is no
gym environment's (RPL102)."""
from __future__ import annotations

import pytest
import torch

from reprolint.api import check_source

CUDNN = '''import argparse
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--enable-cudnn", OPTION)
args = parser.parse_args()
torch.manual_seed(0)
device = torch.device("cuda")
torch.backends.cudnn.enabled = VALUE
torch.backends.cudnn.benchmark = True
net = torch.nn.Conv2d(3, 8, 3).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(3):
    loss = net(torch.randn(2, 3, 8, 8, device=device)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


@pytest.mark.parametrize(("option", "value", "codes"), [
    ('action="store_true"', "args.enable_cudnn", []),  # off by default
    ('action="store_true"', "False", []),
    ('action="store_false"', "args.enable_cudnn", ["RPL203", "RPL302"]),  # on by default
    ('action="store_true"', "True", ["RPL203", "RPL302"]),
    ('action="store_true"', "not args.enable_cudnn", ["RPL203", "RPL302"]),
])
def test_cudnn_turned_off_by_default_runs_no_cudnn_kernel(option: str, value: str, codes: list) -> None:
    source = CUDNN.replace("OPTION", option).replace("VALUE", value)
    found = sorted(d.code for d in check_source(source, "train.py") if d.code in ("RPL203", "RPL302"))
    assert found == codes


PROJECTION = '''import torch

torch.manual_seed(0)
device = torch.device("cuda")
net = torch.nn.Linear(4, 51).to(device)
opt = torch.optim.Adam(net.parameters())
for step in range(10):
    dist = net(torch.randn(32, 4, device=device))
    DIST
    proj = PROJ
    proj.view(-1).index_add_(0, idx.view(-1), dist.reshape(-1))
    loss = (net(torch.randn(32, 4, device=device)) - proj.to(device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


@pytest.mark.parametrize(("dist", "proj", "reported"), [
    ("dist = dist.data.cpu()", "torch.zeros(32, 51)", False),  # a CPU tensor: the CPU kernel
    ("dist = dist.data.cpu()", "torch.zeros(32, 51).float()", False),
    ("dist = dist.detach()", "torch.zeros(32, 51, device=device)", True),
    ("dist = dist.detach()", "torch.zeros(32, 51).cuda()", True),
    ("dist = dist.detach()", "torch.zeros(32, 51).to(device)", True),
    ("torch.set_default_device('cuda')", "torch.zeros(32, 51)", True),  # factories make CUDA tensors
])
def test_an_op_on_a_tensor_made_on_the_cpu_runs_the_cpu_kernel(dist: str, proj: str, reported: bool) -> None:
    source = PROJECTION.replace("DIST", dist).replace("PROJ", proj)
    found = [d.code for d in check_source(source, "c51.py") if d.code in ("RPL201", "RPL301")]
    assert found == (["RPL301"] if reported else [])


def test_index_add_on_the_cpu_is_deterministic_under_the_flag() -> None:
    idx = torch.randint(0, 5, (10_000,))
    values = torch.randn(10_000)
    torch.use_deterministic_algorithms(True)
    try:
        first = torch.zeros(5).index_add_(0, idx, values)  # no error: the CPU kernel is deterministic
        again = torch.zeros(5).index_add_(0, idx, values)
    finally:
        torch.use_deterministic_algorithms(False)
    assert torch.equal(first, again)


ENV = '''import gym
import torch

torch.manual_seed(0)


class StochasticMDP:
    def reset(self):
        self.state = 2
        return self.state

env = ENV
state = env.reset()
'''


@pytest.mark.parametrize(("made", "reported"), [
    ("StochasticMDP()", False),  # the module's own class: no gym environment
    ("gym.make('CartPole-v1')", True),
])
def test_reset_of_the_modules_own_class_is_no_environment(made: str, reported: bool) -> None:
    found = [d.code for d in check_source(ENV.replace("ENV", made), "run.py") if d.code == "RPL102"]
    assert found == (["RPL102"] if reported else [])


@pytest.mark.parametrize(("test", "reported"), [
    ("os.listdir(d) == 0", False),  # emptiness, in any order
    ("os.listdir(d) != []", False),
    ("None == glob.glob(d + '/*')", False),
    ("os.listdir(d) == ['a.png', 'b.png']", True),  # the order decides the answer
])
def test_a_listing_compared_with_a_number_none_or_an_empty_literal_uses_no_order(test: str, reported: bool) -> None:
    source = f"import glob\nimport os\nimport torch\ntorch.manual_seed(0)\nd = 'data'\nif {test}:\n    print('ok')\n"
    found = [d.code for d in check_source(source, "run.py") if d.code == "RPL402"]
    assert found == (["RPL402"] if reported else [])


@pytest.mark.parametrize(("target", "lines"), [
    ("target = teacher(x).detach()", [10]),  # only the student's resize trains through the kernel
    ("target = teacher(x)", [10, 11]),  # the teacher's weights get a gradient too
])
def test_a_resize_of_a_detached_tensor_runs_no_backward(target: str, lines: list) -> None:
    source = (
        "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "student = torch.nn.Conv2d(3, 3, 3).cuda()\nteacher = torch.nn.Conv2d(3, 3, 3).cuda()\n"
        "opt = torch.optim.SGD(student.parameters(), lr=0.1)\nx = torch.randn(2, 3, 32, 32, device='cuda')\n"
        f"{target}\nout = student(x)\nout = F.interpolate(out, size=16, mode='bicubic')\n"
        "target = F.interpolate(target, size=16, mode='bicubic')\n"
        "(out - target).pow(2).mean().backward()\nopt.step()\n"
    )
    assert sorted(d.span.start_line for d in check_source(source, "distill.py") if d.code == "RPL202") == lines


def test_interpolating_a_tensor_without_grad_records_no_backward() -> None:
    target = torch.randn(1, 3, 8, 8).detach()
    resized = torch.nn.functional.interpolate(target, size=4, mode="bicubic")
    assert resized.grad_fn is None and not resized.requires_grad


LISTING = '''import argparse
import glob
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--no-sort", dest="sort", action="store_false")
args = parser.parse_args()
torch.manual_seed(0)
files = glob.glob("ckpt/*.pt")
if args.sort:
    pairs = []
    for path in files:
        metric = torch.load(path).get("metric")
        pairs.append((metric, path))
    chosen = [path for _, path in sorted(pairs)]
else:
    chosen = files
USE
'''


@pytest.mark.parametrize(("use", "reported"), [
    ("start = chosen[1]", False),  # the listing's order reaches `chosen` only with --no-sort
    ("start = files[1]", True),  # a pick by place on every run
])
def test_a_stored_listing_takes_its_order_where_a_use_runs(use: str, reported: bool) -> None:
    found = [d.code for d in check_source(LISTING.replace("USE", use), "pick.py") if d.code == "RPL402"]
    assert found == (["RPL402"] if reported else [])


def test_a_loop_that_only_reads_each_file_into_pairs_later_sorted_uses_no_order() -> None:
    source = LISTING.replace("if args.sort:", "if True:").replace("USE", "start = chosen[1]")
    assert [d.code for d in check_source(source, "pick.py") if d.code == "RPL402"] == []
    unread = source.replace('metric = torch.load(path).get("metric")', "metric = torch.rand(1).item()")
    assert [d.code for d in check_source(unread, "pick.py") if d.code == "RPL402"] == ["RPL402"]  # a draw per file


@pytest.mark.parametrize(("use", "reported"), [
    ("first = paths[:10]", True),  # the filled list keeps the listing's order: picked by place
    ("first = sorted(paths)[:10]", False),
])
def test_a_list_filled_from_a_stored_listing_is_judged_where_it_is_used(use: str, reported: bool) -> None:
    source = (
        "import glob\nimport torch\ntorch.manual_seed(0)\nfiles = glob.glob('data/*.png')\npaths = []\n"
        f"for f in files:\n    paths.append(f)\n{use}\nprint(first)\n"
    )
    found = [(d.code, d.span.start_line, d.entry_points) for d in check_source(source, "prep.py") if d.code == "RPL402"]
    assert found == ([("RPL402", 4, ("prep.py",))] if reported else [])
