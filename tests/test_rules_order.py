"""RPL401-RPL404: order used vs not used, worker seeding, distributed samplers."""

from __future__ import annotations

import pytest

from reprolint.api import check_source, check_sources
from reprolint.config import Settings


def lines(source: str, code: str, **settings: object) -> list[int]:
    diags = check_source(source, "prep.py", Settings(**settings))  # type: ignore[arg-type]
    return [d.span.start_line for d in diags if d.code == code]


@pytest.mark.parametrize("use", [
    "print(list(WORDS))", "for w in WORDS:\n    print(w)", "print(dict(enumerate(WORDS)))",
    "print(list(zip(WORDS, range(3))))", "print(dict.fromkeys(WORDS))", "print(''.join(WORDS))",
    "print([w.upper() for w in WORDS])", "print(WORDS.pop())",
])
def test_order_taken_from_a_set_of_strings(use: str) -> None:
    source = "words = open('a').read().split()\n" + use.replace("WORDS", "set(words)") + "\n"
    assert lines(source, "RPL401") == [2]


@pytest.mark.parametrize("use", [
    "print(sorted(WORDS))", "print(len(WORDS))", "print('x' in WORDS)", "print(WORDS - {'a'})",
    "print({w.upper() for w in WORDS})", "print(max(WORDS))", "print(sorted(list(WORDS)))",
])
def test_order_not_taken(use: str) -> None:
    source = "words = open('a').read().split()\n" + use.replace("WORDS", "set(words)") + "\n"
    assert lines(source, "RPL401") == []


@pytest.mark.parametrize(("use", "reported"), [
    ("files = os.listdir(d)\nprint(files[0])", True),
    ("files = os.listdir(d)\ntrain, val = files[:8], files[8:]", True),
    ("print(list(enumerate(glob.glob('*.png'))))", True),
    ("out = []\nfor f in os.listdir(d):\n    out.append(f)\nprint(out)", True),
    ("out = []\nfor f in os.listdir(d):\n    out.append(f)\nout.sort()", False),
    ("files = os.listdir(d)\nfiles.sort()\nprint(files[0])", False),
    ("print(len(os.listdir(d)))", False),
    ("print(set(glob.glob('*.png')))", False),
    ("print(sorted(glob.iglob('*.png')))", False),
    ("for f in os.listdir(d):\n    os.remove(f)", False),
    ("for f in os.scandir(d):\n    model.step(f)", True),
    # `+=` extends the listing: the later use decides, for both parts
    ("files = glob.glob('*.png')\nfiles += glob.glob('*.jpg')\nprint(sorted(files)[0])", False),
    ("files = glob.glob('*.png')\nfiles += glob.glob('*.jpg')\nprint(files[:3])", True),
    ("files = []\nfiles += os.listdir(d)\ntrain = files[:8]", True),
    ("files = []\nfiles += os.listdir(d)\nn = len(files)", False),
    # a log line with words around the listing only shows it; a bare print hands it on
    ("files = os.listdir(d)\nprint(f'found {files} in {d}')", False),
    ("files = os.listdir(d)\nprint('found:', files)", False),
    ("print('found {}'.format(os.listdir(d)))", False),
    ("files = os.listdir(d)\nprint(files)", True),
    ("files = os.listdir(d)\nprint(f'{files}: {d}')", True),
])
def test_listing_order_used_or_not(use: str, reported: bool) -> None:
    source = "import glob, os\nd = 'data'\n" + use + "\n"
    assert bool(lines(source, "RPL402")) is reported


DATASET = (
    "import numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n\n"
    "class Jitter(Dataset):\n    def __getitem__(self, i):\n        return np.random.rand()\n\n"
    "loader = DataLoader(Jitter(), num_workers=2)\nprint(len(loader))\n"
)


def test_worker_seeding_is_version_aware() -> None:
    # torch >= 1.9 reseeds NumPy's global RNG in every worker; 1.8 did not.
    assert lines(DATASET, "RPL403", torch_version="2.13") == []
    assert lines(DATASET, "RPL403", torch_version="1.8") == [8]


def test_worker_seed_follows_the_dataset_into_its_module() -> None:
    project = {
        "train.py": "from data import Noisy\nfrom torch.utils.data import DataLoader\n"
                    "ds = Noisy()\nloader = DataLoader(ds, num_workers=4)\nprint(len(loader))\n",
        "data.py": "import random\nclass Noisy:\n    def __init__(self):\n        self.gen = random.Random(0)\n"
                   "    def __getitem__(self, i):\n        return self.gen.random()\n",
    }
    [finding] = [d for d in check_sources(project) if d.code == "RPL403"]
    assert (finding.path, finding.span.start_line) == ("train.py", 4)
    assert "self.gen" in finding.message


def test_set_epoch_outside_the_epoch_loop_does_not_count() -> None:
    source = (
        "from torch.utils.data.distributed import DistributedSampler\ns = DistributedSampler(ds)\n"
        "s.set_epoch(0)\nfor epoch in range(3):\n    train(s)\n"
    )
    assert lines(source, "RPL404") == [2]


def test_a_sampler_built_under_no_grad_orders_no_gradient() -> None:
    # a validation pass that builds its own sampler and loader each time it runs
    source = (
        "import torch\nfrom torch.utils.data import DataLoader\n"
        "from torch.utils.data.distributed import DistributedSampler\n\n"
        "def validate(model, ds):\n    {block}\n"
        "        loader = DataLoader(ds, sampler=DistributedSampler(ds))\n"
        "        return sum(model(x).sum().item() for x in loader)\n\n"
        "for epoch in range(3):\n    print(validate(torch.nn.Linear(2, 1), ds))\n"
    )
    assert lines(source.format(block="with torch.no_grad():"), "RPL404") == []
    assert lines(source.format(block="if True:"), "RPL404") == [7]


EVALUATION = (
    "import glob, os, random, subprocess, sys\nimport torch\n"
    "model = torch.load(sys.argv[1], weights_only=False)\nmodel.eval()\nrandom.seed(0)\n"
    "with torch.no_grad():\n    for p in glob.glob('all/*.pt'):\n        print(p, model(torch.load(p)).sum().item())\n"
)
TRAINING = (
    "import glob, os, random, subprocess, sys\nimport torch\n"
    "model = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nrandom.seed(0)\n"
    "torch.manual_seed(0)\nfor p in sorted(glob.glob('all/*.pt')):\n    model(torch.load(p)).sum().backward()\n    opt.step()\n"
)


@pytest.mark.parametrize(("use", "picks"), [
    ("files = glob.glob('d/*.pt')\nprint(files)", False),
    ("files = glob.glob('d/*.pt')\nsubprocess.run(['viewer'] + files)", False),
    ("files = os.listdir('d')\nshow(files)", False),
    ("files = glob.glob('d/*.pt')\nfor f in files:\n    print(model(torch.load(f)).sum())", False),
    ("files = glob.glob('d/*.pt')\nprint(files[:5])", True),
    ("files = os.listdir('d')\nprint(random.sample(files, 3))", True),
    ("files = os.listdir('d')\nprint(list(zip(files, glob.glob('m/*'))))", True),
    ("files = os.listdir('d')\nfor f in files:\n    print(model(torch.load(f)).sum())\n    break", True),
    ("print(os.listdir('d')[2])", True),
    # a use not classified keeps the finding: here a nested comprehension's element 2
    ("print([f for e in ('a', 'b') for f in glob.glob(e)][2])", True),
])
def test_listing_in_an_evaluation_program_is_reported_where_it_picks_by_position(use: str, picks: bool) -> None:
    """An evaluation program that goes through, prints or hands on a whole listing only
    orders its outputs; picking entries by position picks different files per machine.
    A training program that uses the order in any of these ways is reported."""
    helper = "def show(x):\n    print(x)\n"
    evaluated = lines(EVALUATION + helper + use + "\n", "RPL402")
    assert ((EVALUATION + helper).count("\n") + 1 in evaluated) is picks
    trained = lines(TRAINING + helper + use + "\n", "RPL402")
    assert (TRAINING + helper).count("\n") + 1 in trained


@pytest.mark.parametrize(("call", "reported"), [
    # `True`/`None` are values, not state kept from the entry before
    ("subprocess.run(['convert', os.path.join('frames', f), f + '.png'], check=True)", False),
    ("subprocess.run(['convert', os.path.join('frames', f)], check=True, env=None)", False),
    # `n` is carried from one entry to the next: the n-th output follows the order
    ("subprocess.run(['convert', os.path.join('frames', f), str(n) + '.png'], check=True)", True),
])
def test_one_process_per_entry(call: str, reported: bool) -> None:
    source = (
        "import os, subprocess\nn = 0\nfor f in os.listdir('frames'):\n"
        f"    {call}\n    n += 1\n"
    )
    assert lines(source, "RPL402") == ([3] if reported else [])


@pytest.mark.parametrize(("helper", "reported"), [
    # opens the files its arguments name, builds paths with `os.path`, iterates its own lines
    ("    with open(src) as i, open(dst, 'w') as o:\n        for line in i:\n"
     "            o.write(os.path.basename(src) + line)\n", False),
    # writes to a log shared by every call: its lines follow the listing's order
    ("    with open(src) as i:\n        LOG.write(i.read())\n", True),
])
def test_helper_given_the_entry_paths(helper: str, reported: bool) -> None:
    source = (
        "import os\nLOG = open('log.txt', 'w')\n\ndef convert(src, dst):\n" + helper +
        "\nfor f in os.listdir('data'):\n    convert(os.path.join('data', f), os.path.join('out', f))\n"
    )
    loop = source.splitlines().index("for f in os.listdir('data'):") + 1
    assert lines(source, "RPL402") == ([loop] if reported else [])
