"""What runs where, and what an order reaches (stop 57): the operations an augmentation
calls out of its own list run in the DataLoader workers with it; a list made from a set
and sorted in place before any use takes no set order; a loop over a listing by index
(`for i in range(len(files))`) is judged like a loop over its entries; slices keep every
dimension of a loss input; a training program whose only nondeterministic kernels run
without grad (an image sampled for a log) trains through none of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths
from project_files import found as _found, messages as _messages, write


# ---------------------------------------------------------------- an augmentation's op list

AUGMENT = (
    "import random\n\n\n"
    "def shear(img, v):\n"
    "    if random.random() > 0.5:\n"
    "        v = -v\n"
    "    return img + v\n\n\n"
    "def ops_list():\n"
    "    return [(shear, 0.0, 0.3)]\n\n\n"
    "class RandAug:\n"
    "    def __init__(self, n):\n"
    "        self.n = n\n"
    "        self.ops = ops_list()\n\n"
    "    def __call__(self, img):\n"
    "        ops = random.choices(self.ops, k=self.n)\n"
    "        for op, lo, hi in ops:\n"
    "            img = op(img, lo)\n"
    "        return img\n"
)
TRAIN = (
    "import torch\nimport torchvision\nfrom torchvision import transforms\n\nfrom pkg.aug import RandAug\n\n\n"
    "def main():\n"
    "    {seed}\n"
    "    tf = transforms.Compose([transforms.ToTensor()])\n"
    "    tf.transforms.insert(0, RandAug(2))\n"
    "    ds = torchvision.datasets.CIFAR10(root='d', train=True, download=True, transform=tf)\n"
    "    loader = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=True, num_workers={workers})\n"
    "    model = torch.nn.Linear(3, 2)\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    for x, y in loader:\n"
    "        loss = model(x).sum()\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n\n\n"
    "main()\n"
)


@pytest.mark.parametrize(("seed", "workers", "expected"), [
    # torch seeded: the workers' `random` is seeded from torch's seed
    ("torch.manual_seed(0)", 4, []),
    # torch unseeded: one cause, torch's (the model's weights), not the op's `random`
    ("pass", 4, [("train.py", 14)]),
    # no workers: the transform draws in the main process, whose `random` nobody seeds
    ("torch.manual_seed(0)", 0, [("pkg/aug.py", 20)]),
])
def test_the_ops_an_augmentation_calls_from_its_list_draw_in_the_workers(
    tmp_path: Path, seed: str, workers: int, expected: list[tuple[str, int]],
) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/aug.py": AUGMENT,
                     "train.py": TRAIN.format(seed=seed, workers=workers)})
    assert _found(tmp_path, "RPL101") == expected


def test_an_op_list_called_in_the_main_process_draws_there(tmp_path: Path) -> None:
    # the same table, called by a plain function of the module the program calls itself
    main_process = AUGMENT + "\n\ndef preview(img):\n    for op, lo, hi in ops_list():\n        img = op(img, lo)\n    return img\n"
    train = TRAIN.format(seed="torch.manual_seed(0)", workers=4).replace(
        "from pkg.aug import RandAug\n", "from pkg.aug import RandAug, preview\n").replace(
        "main()\n", "main()\nprint(preview(1.0))\n")
    write(tmp_path, {"pkg/__init__.py": "", "pkg/aug.py": main_process, "train.py": train})
    assert _found(tmp_path, "RPL101") == [("pkg/aug.py", 5)]


# ---------------------------------------------------------------- a set sorted in place

CLASSES = (
    "def load(lines):\n"
    "    classes = list(set([line.split('/')[0] for line in lines]))\n"
    "{between}"
    "    classes.sort()\n"
    "    return {{c: i for i, c in enumerate(classes)}}\n\n\n"
    "print(load(open('list.txt').read().split()))\n"
)


@pytest.mark.parametrize(("between", "reported"), [
    ("", False),
    ("    print('loaded')\n", False),  # a statement that does not touch the list
    ("    print(classes)\n", True),  # the set's order is shown before the sort
    ("    first = classes[0]\n", True),
])
def test_a_list_of_a_set_sorted_in_place_before_any_use_takes_no_set_order(
    tmp_path: Path, between: str, reported: bool,
) -> None:
    write(tmp_path, {"prep.py": CLASSES.format(between=between)})
    assert _found(tmp_path, "RPL401") == ([("prep.py", 2)] if reported else [])


# ---------------------------------------------------------------- a listing looped by index

RESIZE = (
    "import os\n\nimport matplotlib.pyplot as plt\n\n"
    "root = 'data/celebA/'\nsave_root = 'data/resized/'\n"
    "img_list = os.listdir(root)\n\n"
    "for i in range(len(img_list)):\n"
    "    img = plt.imread(root + img_list[i])\n"
    "    plt.imsave(fname={out}, arr=img)\n"
    "    if (i % 1000) == 0:\n"
    "        print('%d images complete' % i)\n"
)


@pytest.mark.parametrize(("out", "reported"), [
    ("save_root + img_list[i]", False),  # each image saved under its own name
    ("save_root + '%d.png' % i", True),  # saved under its place in the listing
    ("save_root + img_list[0]", True),  # the first entry, by position
])
def test_a_listing_looped_by_index_is_judged_like_a_loop_over_its_entries(
    tmp_path: Path, out: str, reported: bool,
) -> None:
    write(tmp_path, {"prep.py": RESIZE.format(out=out)})
    assert _found(tmp_path, "RPL402") == ([("prep.py", 7)] if reported else [])


SIZED = (
    "import os\n\nimport matplotlib.pyplot as plt\nfrom skimage.transform import resize\n\n"
    "root = 'data/celebA/'\nresize_size = 64\n"
    "img_list = os.listdir(root)\n\n"
    "for i in range(len(img_list)):\n"
    "    img = plt.imread(root + img_list[i])\n"
    "    img = resize(img, (resize_size, resize_size))\n"
    "{grow}"
    "    plt.imsave(fname='out/' + img_list[i], arr=img)\n"
)


@pytest.mark.parametrize(("grow", "reported"), [
    ("", False),  # a module constant: every entry is resized alike
    ("    resize_size += 1\n", True),  # each entry's size depends on its place
])
def test_a_module_constant_given_to_each_entry_is_no_order(tmp_path: Path, grow: str, reported: bool) -> None:
    write(tmp_path, {"prep.py": SIZED.format(grow=grow)})
    assert _found(tmp_path, "RPL402") == ([("prep.py", 8)] if reported else [])


def test_an_image_read_by_a_path_made_from_a_constant_folder_is_the_entrys_own(tmp_path: Path) -> None:
    loop = RESIZE.format(out="save_root + name").replace(
        "for i in range(len(img_list)):\n    img = plt.imread(root + img_list[i])\n",
        "for name in img_list:\n    img = plt.imread(root + name)\n").replace(
        "    if (i % 1000) == 0:\n        print('%d images complete' % i)\n", "")
    write(tmp_path, {"prep.py": loop})
    assert _found(tmp_path, "RPL402") == []


# ---------------------------------------------------------------- a sliced loss input

LOSS = (
    "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n\n\n"
    "class LM(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.head = nn.Linear(8, 16)\n\n"
    "    def forward(self, x, labels):\n"
    "        logits = self.head(x)\n"
    "        return F.cross_entropy({logits}, labels)\n\n\n"
    "torch.manual_seed(0)\n"
    "model = LM().cuda()\n"
    "opt = torch.optim.Adam(model.parameters())\n"
    "for x, y in loader:\n"
    "    loss = model(x.cuda(), y.cuda())\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)


@pytest.mark.parametrize(("logits", "reported"), [
    ("logits.transpose(1, 2)[:, :, :4]", True),
    ("logits.permute(0, 2, 1)[:, :, 4:]", True),
    ("logits[:, :, :4]", True),  # three slices: three dimensions at least
    ("logits[:, :4]", False),  # two slices of a value of unknown rank
    ("logits[:, 0]", False),  # an index drops a dimension
])
def test_slices_keep_every_dimension_of_a_loss_input(tmp_path: Path, logits: str, reported: bool) -> None:
    write(tmp_path, {"train.py": LOSS.format(logits=logits)})
    assert _found(tmp_path, "RPL202") == ([("train.py", 13)] if reported else [])


# ---------------------------------------------------------------- kernels only without grad

SAMPLES = (
    "import torch\nfrom torch import nn\n\n\n"
    "def top_k(logits, k):\n"
    "    val, ind = torch.topk(logits, k)\n"
    "    probs = torch.full_like(logits, float('-inf'))\n"
    "    probs.scatter_(1, ind, val)\n"
    "    return probs\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(8, 8)\n\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n\n"
    "    @torch.no_grad()\n"
    "    def sample(self, x):\n"
    "        return top_k(self.fc(x), 2)\n\n\n"
    "torch.manual_seed(0)\n"
    "model = Net().cuda()\n"
    "opt = torch.optim.Adam(model.parameters())\n"
    "for step, (x, y) in enumerate(loader):\n"
    "    loss = {loss}\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
    "    if step % 100 == 0:\n"
    "        print(model.sample(x.cuda()))\n"
)


def test_kernels_that_run_only_without_grad_are_no_training_evidence(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": SAMPLES.format(loss="model(x.cuda()).sum()")})
    assert _found(tmp_path, "RPL301") == []
    assert _found(tmp_path, "RPL201") == []


def test_a_training_kernel_is_evidence_and_the_samplers_is_not(tmp_path: Path) -> None:
    trained = "torch.zeros(8, device='cuda').index_add(0, y.cuda(), model(x.cuda()).sum(1)).sum()"
    write(tmp_path, {"train.py": SAMPLES.format(loss=trained)})
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL301"]
    assert finding.span.start_line == 26
    assert "trains through `torch.zeros(8, device='cuda').index_add(...)` (" in finding.message
    assert "train.py:29), nondeterministic on CUDA, but never calls" in finding.message  # no "and 1 more op"
    assert [r.span.start_line for r in finding.related if "runs a kernel" in r.message] == [29]


def test_a_helper_a_no_grad_evaluation_calls_first_is_still_trained_through(tmp_path: Path) -> None:
    helper = (
        "import torch\n\n\n"
        "def pooled(net, x, idx):\n"
        "    return torch.zeros_like(x).index_add_(0, idx, net(x))\n\n\n"
        "@torch.no_grad()\n"
        "def evaluate(net, x, idx):\n"
        "    return pooled(net, x, idx).sum().item()\n\n\n"
        "torch.manual_seed(0)\n"
        "net = torch.nn.Linear(8, 8).cuda()\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "x, idx = torch.randn(64, 8).cuda(), torch.randint(0, 16, (64,)).cuda()\n"
        "print(evaluate(net, x, idx))\n"
        "{train}"
    )
    step = "for step in range(100):\n    loss = pooled(net, x, idx).pow(2).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    write(tmp_path, {"train.py": helper.format(train=step)})
    assert _found(tmp_path, "RPL301") == [("train.py", 14)]
    # trained through something else: the helper runs only in the evaluation
    other = step.replace("pooled(net, x, idx)", "net(x)")
    write(tmp_path, {"train.py": helper.format(train=other)})
    assert _found(tmp_path, "RPL301") == []



# ---------------------------------------------------------------- a linear probe's new head

PROBE = (
    "import torch\nimport torch.nn as nn\nimport torch.optim as optim\nimport torchvision\n"
    "from torch.optim import lr_scheduler\n\n"
    "torch.manual_seed(0)\n"
    "model = torchvision.models.resnet18(pretrained=True)\n"
    "for param in model.parameters():\n"
    "    param.requires_grad = False\n"
    "model.fc = nn.Linear(model.fc.in_features, 2)\n"
    "model = model.cuda()\n"
    "optimizer = optim.SGD({params}, lr=0.001, momentum=0.9)\n"
    "scheduler = lr_scheduler.StepLR(optimizer, step_size=7, gamma=0.1)\n"
    "for images, labels in torch.load('batches.pt'):\n"
    "    loss = nn.functional.cross_entropy(model(images.cuda()), labels.cuda())\n"
    "    optimizer.zero_grad()\n"
    "    loss.backward()\n"
    "    optimizer.step()\n"
    "    scheduler.step()\n"
)


@pytest.mark.parametrize(("params", "reported"), [
    ("model.fc.parameters()", False),  # the new head only: no convolution trains
    ("model.parameters()", True),  # given every parameter: not read as a probe
])
def test_a_head_replaced_after_the_freeze_is_what_a_probe_trains(tmp_path: Path, params: str, reported: bool) -> None:
    write(tmp_path, {"train.py": PROBE.format(params=params)})
    assert _found(tmp_path, "RPL302") == ([("train.py", 12)] if reported else [])


def test_a_head_replaced_before_the_freeze_is_frozen_too(tmp_path: Path) -> None:
    before = PROBE.format(params="model.fc.parameters()").replace(
        "for param in model.parameters():\n    param.requires_grad = False\nmodel.fc = nn.Linear(model.fc.in_features, 2)\n",
        "model.fc = nn.Linear(model.fc.in_features, 2)\nfor param in model.parameters():\n    param.requires_grad = False\n")
    write(tmp_path, {"train.py": before})
    assert _found(tmp_path, "RPL302") == [("train.py", 12)]


# ---------------------------------------------------------------- an option the script fixes

OPTIONS = (
    "import argparse\n\nimport torch\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--serial_batches', action='store_true')\n"
    "opt = parser.parse_args()\n"
    "{fixed}"
    "loader = torch.utils.data.DataLoader(torch.load('data.pt'), batch_size=1, shuffle=not opt.serial_batches)\n"
    "for batch in loader:\n"
    "    print(batch)\n"
)


@pytest.mark.parametrize(("fixed", "reported"), [
    ("", True),  # the option's default: shuffled
    ("opt.serial_batches = True  # no shuffle\n", False),  # the script fixes it: taken in order
    ("if opt.serial_batches:\n    opt.serial_batches = True\n", True),  # only in a branch: the default stays
    ("opt.serial_batches = True\nopt.serial_batches = False\n", True),  # set twice: not known
    ("opt.serial_batches = True\nopt.serial_batches: bool = False\n", True),  # annotated too
])
def test_an_option_the_entry_script_fixes_once_is_that_value(tmp_path: Path, fixed: str, reported: bool) -> None:
    write(tmp_path, {"test.py": OPTIONS.format(fixed=fixed)})
    found = _found(tmp_path, "RPL101")
    assert (found != []) is reported, found


def test_a_worker_draw_of_a_program_seeding_another_library_names_the_workers(tmp_path: Path) -> None:
    dataset = (
        "import random\n\nimport numpy as np\nimport torch\n\n\n"
        "class Crops(torch.utils.data.Dataset):\n"
        "    def __len__(self):\n        return 10\n\n"
        "    def __getitem__(self, i):\n        return random.randint(0, 4)\n\n\n"
        "np.random.seed(0)\n"
        "loader = torch.utils.data.DataLoader(Crops(), batch_size=2, num_workers=2)\n"
        "for batch in loader:\n    print(batch)\n"
    )
    write(tmp_path, {"prep.py": dataset})
    [message] = _messages(tmp_path, "RPL101")
    assert message.startswith("`random.randint` draws from the `random` module's global RNG in DataLoader workers, "
                              "where torch reseeds it from torch's own generator, which is never seeded")
    assert ": the program seeds NumPy (first with `np.random.seed`, " in message and message.endswith(
        "), not torch (entry point: " + str(tmp_path / "prep.py") + ")")


def test_a_seed_the_default_run_skips_is_not_named_as_the_programs_seeding(tmp_path: Path) -> None:
    source = (
        "import argparse\n\nimport numpy as np\nimport torch\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--model', default='hd')\n"
        "args = parser.parse_args()\n"
        "if args.model == 'ui':\n    np.random.seed(0)\n"
        "model = torch.nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for x in torch.load('data.pt'):\n    loss = model(x).sum()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    )
    write(tmp_path, {"train.py": source})
    [message] = _messages(tmp_path, "RPL101")
    assert message == ("`torch.nn.Linear(...)` initialises weights from torch's global RNG, which is never seeded on "
                       f"this program's path (entry point: {tmp_path / 'train.py'})")
    # where the seed runs by default, the message names it
    write(tmp_path, {"train.py": source.replace("default='hd'", "default='ui'")})
    [message] = _messages(tmp_path, "RPL101")
    assert ": the program seeds NumPy (first with `np.random.seed`, " in message


# ---------------------------------------------------------------- a class built in a branch

MODELS = {
    "models/__init__.py": "",
    "models/base.py": "class BaseModel:\n    def initialize(self, opt):\n        self.opt = opt\n",
    "models/ui.py": (
        "import numpy as np\n\nfrom models.base import BaseModel\n\n\n"
        "class UIModel(BaseModel):\n    def sample(self):\n        np.random.seed(0)\n        return 0\n"
    ),
    "models/hd.py": (
        "import numpy as np\n\nfrom models.base import BaseModel\n\n\n"
        "class HDModel(BaseModel):\n    def sample(self):\n        return np.random.randint(0, 10)\n"
    ),
    "test.py": (
        "import argparse\n\nfrom models.hd import HDModel\nfrom models.ui import UIModel\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--model', default='{default}')\n"
        "opt = parser.parse_args()\n"
        "if opt.model == 'hd':\n    model = HDModel()\nelse:\n    model = UIModel()\n"
        "model.initialize(opt)\nprint(model.sample())\n"
    ),
}


def test_a_class_without_a_constructor_runs_under_the_branch_that_builds_it(tmp_path: Path) -> None:
    write(tmp_path, {**MODELS, "test.py": MODELS["test.py"].format(default="hd")})
    [message] = _messages(tmp_path, "RPL101")
    # the UI model's seed runs on no default run: the draw is never seeded, not seeded late
    assert message == ("`np.random.randint` draws from NumPy's global RNG, which is never seeded on this "
                       f"program's path (entry point: {tmp_path / 'test.py'})")
    assert _found(tmp_path, "RPL104") == [("test.py", 12)]


def test_a_method_of_a_plain_class_that_no_code_names_runs_for_nobody(tmp_path: Path) -> None:
    # `load_image` of the UI model is never named (no `.load_image`): its reseeding runs
    # on no run, so it neither seeds the draw late nor makes a conditional seed
    ui = MODELS["models/ui.py"].replace("def sample(self):", "def load_image(self):")
    write(tmp_path, {**MODELS, "models/ui.py": ui, "test.py": MODELS["test.py"].format(default="hd")})
    [message] = _messages(tmp_path, "RPL101")
    assert message.endswith(f"never seeded on this program's path (entry point: {tmp_path / 'test.py'})")
    assert _found(tmp_path, "RPL104") == []
