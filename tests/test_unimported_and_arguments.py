"""What runs and what a call is (stop 56): a module of the programs' package that none of
them imports runs for nobody; a loop's entry handled by a helper that calls another helper
of the module is still handled on its own; a listing kept in a NumPy array is judged by
its later uses; a method call given fewer arguments than the Tensor method needs is some
other object's (`accelerator.gather(t)`); an op argument read from `self` is what the
constructor calls pass; a mask bound to a name counts in int64 under `cumsum`."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths
from project_files import found as _found, write


LISTING = "import os\n\n\ndef latest(d):\n    files = os.listdir(d)\n    return files[-1]\n"
SETS = "def vocab(text):\n    words = set(text.split())\n    return {w: i for i, w in enumerate(words)}\n"
PACKAGE = {
    "pkg/__init__.py": "from pkg.used import run\n",
    "pkg/used.py": "def run(x):\n    return x + 1\n",
    "train.py": "from pkg import run\n\nprint(run(1))\n",
}


@pytest.mark.parametrize(("code", "text", "line"), [("RPL402", LISTING, 5), ("RPL401", SETS, 3)])
def test_a_module_of_the_programs_package_that_none_imports_runs_for_nobody(
    tmp_path: Path, code: str, text: str, line: int,
) -> None:
    write(tmp_path, {**PACKAGE, "pkg/unused.py": text})
    assert _found(tmp_path, code) == []
    # also in a folder without an `__init__.py` inside the package
    write(tmp_path, {"pkg/tools/unused2.py": text})
    assert _found(tmp_path, code) == []
    # a program that imports the module and calls the function runs it: reported
    call = "latest('.')" if code == "RPL402" else "vocab('a b')"
    write(tmp_path, {"train.py": f"from pkg import run\nfrom pkg.unused import *\n\nprint(run(1), {call})\n"})
    assert _found(tmp_path, code) == [("pkg/unused.py", line)]
    # one that imports it and calls nothing of it: a plain function of the scripts' own
    # package (no setup file declares it) that nothing calls runs nowhere (stop 58)
    write(tmp_path, {"train.py": "from pkg import run\nfrom pkg.unused import *\n\nprint(run(1))\n"})
    assert _found(tmp_path, code) == []
    # in a package the project builds for others it is library code: reported
    write(tmp_path, {"setup.py": "from setuptools import setup\n\nsetup(name='pkg', packages=['pkg'])\n"})
    assert _found(tmp_path, code) == [("pkg/unused.py", line)]


@pytest.mark.parametrize(("code", "text", "line"), [("RPL402", LISTING, 5), ("RPL401", SETS, 3)])
def test_a_package_no_program_imports_is_a_library_and_stays_reported(
    tmp_path: Path, code: str, text: str, line: int,
) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/unused.py": text, "train.py": "print(1)\n"})
    assert _found(tmp_path, code) == [("pkg/unused.py", line)]


CROPS = (
    "import glob\n\nimport cv2\n\n\n"
    "def rotate(coords, angle):\n    out = []\n    for c in coords:\n        out += [c * angle]\n    return out\n\n\n"
    "def crop(coords, image):\n    coords = rotate(coords, 0.5)\n    return image[int(coords[0]):int(coords[1])]\n\n\n"
    "def describe():\n"
    "    for path in glob.glob('cats/*.jpg'):\n"
    "        image = cv2.imread(path)\n"
    "        face = crop([1, 2], image)\n"
    "        cv2.imwrite(path.replace('cats', 'faces'), face)\n\n\n"
    "describe()\n"
)


def test_a_loop_whose_helper_calls_another_helper_handles_each_entry_on_its_own(tmp_path: Path) -> None:
    write(tmp_path, {"prep.py": CROPS})
    assert _found(tmp_path, "RPL402") == []


def test_a_nested_helper_that_keeps_entries_in_a_global_list_takes_the_order(tmp_path: Path) -> None:
    kept = CROPS.replace("    out = []\n", "    SEEN.append(coords)\n    out = []\n").replace(
        "import cv2\n", "import cv2\n\nSEEN = []\n")
    write(tmp_path, {"prep.py": kept})
    assert _found(tmp_path, "RPL402") == [("prep.py", 22)]


@pytest.mark.parametrize(("use", "reported"), [
    ("print(len(files))\n", False),
    ("train = files[:100]\nprint(train)\n", True),
])
def test_a_listing_kept_in_a_numpy_array_is_judged_by_its_uses(tmp_path: Path, use: str, reported: bool) -> None:
    write(tmp_path, {"data.py": "import glob\n\nimport numpy as np\n\nfiles = np.array(glob.glob('d/*.jpg'))\n" + use})
    assert _found(tmp_path, "RPL402") == ([("data.py", 5)] if reported else [])


GATHER = (
    "import torch\nimport torch.nn as nn\nfrom accelerate import Accelerator\n\n"
    "model = nn.Linear(4, 4).cuda()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "trainer = type('T', (), {})()\ntrainer.accelerator = Accelerator()\n"
    "for step in range(10):\n"
    "    x = torch.randn(8, 4).cuda()\n"
    "    out = model(x)\n"
    "    {use}\n"
    "    loss = out.sum()\n    loss.backward()\n    opt.step()\n"
)


@pytest.mark.parametrize(("use", "reported"), [
    ("metrics = trainer.accelerator.gather(out)", False),  # a collective: one argument
    ("out = out.gather(1, torch.zeros(8, 1, dtype=torch.long).cuda())", True),  # Tensor.gather(dim, index)
])
def test_a_method_given_fewer_arguments_than_the_tensor_method_needs_is_no_tensor_op(
    tmp_path: Path, use: str, reported: bool,
) -> None:
    write(tmp_path, {"train.py": GATHER.replace("{use}", use)})
    found = check_paths([str(tmp_path)], jobs=1).diagnostics
    messages = [d.message for d in found if d.code in ("RPL201", "RPL301")]
    assert any("gather" in m for m in messages) is reported, messages


UPSAMPLE = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
    "class Up(nn.Module):\n"
    "    def __init__(self, scale, mode='nearest'):\n        super().__init__()\n"
    "        self.scale = scale\n        self.mode = mode\n\n"
    "    def forward(self, x):\n        return F.interpolate(x, scale_factor=self.scale, mode=self.mode)\n\n\n"
    "torch.use_deterministic_algorithms(True)\n"
    "model = nn.Sequential(nn.Conv2d(3, 3, 3), {up}).cuda()\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for step in range(10):\n"
    "    loss = model(torch.randn(2, 3, 8, 8).cuda()).sum()\n    loss.backward()\n    opt.step()\n"
)


@pytest.mark.parametrize(("up", "reported"), [
    ("Up(2)", False),  # nearest by default: a deterministic backward
    ("Up(2, mode='nearest')", False),
    ("Up(2, mode='bicubic')", True),  # raises under deterministic mode
])
def test_an_op_argument_read_from_self_is_what_the_constructor_calls_pass(
    tmp_path: Path, up: str, reported: bool,
) -> None:
    write(tmp_path, {"train.py": UPSAMPLE.replace("{up}", up)})
    assert bool(_found(tmp_path, "RPL202")) is reported


@pytest.mark.parametrize(("value", "reported"), [("(text == eos)", False), ("text * 2.0", True)])
def test_cumsum_of_a_mask_bound_to_a_name_counts_integers(tmp_path: Path, value: str, reported: bool) -> None:
    write(tmp_path, {"train.py": (
        "import torch\n\ntorch.use_deterministic_algorithms(True)\n\n\n"
        f"def mask(text, eos):\n    marks = {value}\n    return marks.cumsum(dim=-1)\n\n\n"
        "print(mask(torch.ones(4).cuda(), 1))\n"
    )})
    assert bool(_found(tmp_path, "RPL202")) is reported


DOWNLOADS = (
    "import os\n\nimport torch\nfrom torchvision.datasets.utils import download_url\n\n"
    "MODELS = {'small.pt', 'large.pt'}\n\n\n"
    "def download(name):\n    path = f'models/{name}'\n    if not os.path.isfile(path):\n"
    "        download_url(f'https://example.org/{name}', 'models')\n    return torch.load(path)\n\n\n"
    "for name in MODELS:\n    {body}\n"
)


@pytest.mark.parametrize(("body", "reported"), [
    ("download(name)", False),  # each checkpoint fetched to its own file
    ("CHOSEN.append(name)", True),  # kept in the set's order
])
def test_a_set_loop_calling_a_function_that_touches_only_the_element(tmp_path: Path, body: str, reported: bool) -> None:
    text = DOWNLOADS.replace("{body}", body).replace("MODELS = {", "CHOSEN = []\nMODELS = {")
    write(tmp_path, {"download.py": text + "print(CHOSEN)\n"})
    assert bool(_found(tmp_path, "RPL401")) is reported


POOL = (
    "import os\nfrom multiprocessing import Pool\n\nfrom PIL import Image\n\n\n"
    "def shrink(item):\n    try:\n        with Image.open(item[0]) as im:\n"
    "            im.thumbnail((224, 224))\n            im.save('small/' + item[1], 'PNG')\n"
    "    except OSError:\n        print('Error!')\n\n\n"
    "images = []\nfor name in os.listdir('photos'):\n    images.append([os.path.join('photos', name), name])\n"
    "pool = Pool(processes=8)\n{use}\n"
)


@pytest.mark.parametrize(("use", "reported"), [
    ("pool.map(shrink, images)", False),  # each image saved under its own name, results discarded
    ("sizes = pool.map(shrink, images)\nprint(sizes[:10])", True),  # the results, in the listing's order
])
def test_a_listing_mapped_by_a_pool_with_a_per_entry_function(tmp_path: Path, use: str, reported: bool) -> None:
    write(tmp_path, {"prep.py": POOL.replace("{use}", use)})
    assert bool(_found(tmp_path, "RPL402")) is reported


def test_a_pool_made_in_a_listing_loop_is_no_effect_of_an_entry(tmp_path: Path) -> None:
    write(tmp_path, {"parse.py": (
        "import os\nfrom multiprocessing import Pool\n\n\n"
        "def fetch(line):\n    return len(line)\n\n\n"
        "for part in os.listdir('parts'):\n"
        "    lines = open(os.path.join('parts', part)).readlines()\n"
        "    print(part)\n    pool = Pool(processes=4)\n    pool.map(fetch, lines)\n"
    )})
    assert _found(tmp_path, "RPL402") == []


@pytest.mark.parametrize(("call", "reported"), [("time.sleep(random())", False), ("print(random())", True)])
def test_a_draw_that_only_decides_how_long_to_wait(tmp_path: Path, call: str, reported: bool) -> None:
    write(tmp_path, {"fetch.py": (
        "import time\nfrom random import random\n\nimport requests\n\n"
        "for url in ['https://example.org/a.jpg', 'https://example.org/b.jpg']:\n"
        f"    open(url[-5:], 'wb').write(requests.get(url).content)\n    {call}\n"
    )})
    assert bool(_found(tmp_path, "RPL101")) is reported


METRIC_NET = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
    "class Inception(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.conv = nn.Conv2d(3, 8, 3)\n\n"
    "    def forward(self, x):\n        x = F.interpolate(x, size=(32, 32), mode='bicubic')\n"
    "        return self.conv(x).mean()\n\n\n"
    "{parent}"
    "torch.manual_seed(0)\ninc = Inception().cuda()\nmodel = {model}.cuda()\n"
    "opt = torch.optim.Adam(model.parameters())\nx = torch.randn(4, 3, 16, 16).cuda()\n"
    "with torch.no_grad():\n    print(inc(x))\n"
    "for step in range(10):\n    loss = model(x).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
)
PARENT = (
    "class Parent(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.inc = Inception()\n\n"
    "    def forward(self, x):\n        return self.inc(x)\n\n\n"
)


@pytest.mark.parametrize(("parent", "model", "reported"), [
    ("", "nn.Conv2d(3, 3, 3)", False),  # the metric network runs only under no_grad
    (PARENT, "Parent()", True),  # a module trained with grad calls it too: its backward runs
])
def test_a_module_called_only_under_no_grad_runs_no_backward(
    tmp_path: Path, parent: str, model: str, reported: bool,
) -> None:
    write(tmp_path, {"train.py": METRIC_NET.replace("{parent}", parent).replace("{model}", model)})
    assert bool(_found(tmp_path, "RPL202")) is reported


SPLIT = (
    "import multiprocessing\nimport os\n\nimport cv2\nfrom tqdm import tqdm\n\n\n"
    "def worker(path, args):\n    name, ext = os.path.splitext(os.path.basename(path))\n"
    "    image = cv2.imread(os.path.join(args['inputs_dir'], path), cv2.IMREAD_UNCHANGED)\n"
    "    cv2.imwrite(os.path.join(args['output_dir'], f'{name}_0{ext}'), image[:128, :128])\n\n\n"
    "def split(args):\n    paths = os.listdir(args['inputs_dir'])\n    bar = tqdm(total=len(paths))\n"
    "    pool = multiprocessing.Pool(4)\n    for path in paths:\n        {submit}\n"
    "    pool.close()\n    pool.join()\n\n\n"
    "split({'inputs_dir': 'raw', 'output_dir': 'crops'})\n"
)


@pytest.mark.parametrize(("submit", "reported"), [
    ("pool.apply_async(worker, args=(path, args), callback=lambda _: bar.update(1))", False),
    ("pool.apply_async(worker, args=(path, args), callback=lambda out: RESULTS.append(out))", True),
])
def test_a_worker_submitted_per_entry_that_only_reads_its_configuration(
    tmp_path: Path, submit: str, reported: bool,
) -> None:
    write(tmp_path, {"split.py": "RESULTS = []\n" + SPLIT.replace("{submit}", submit)})
    assert bool(_found(tmp_path, "RPL402")) is reported


def test_a_worker_that_writes_into_its_configuration_takes_the_order(tmp_path: Path) -> None:
    text = SPLIT.replace("{submit}", "pool.apply_async(worker, args=(path, args))").replace(
        "    name, ext = ", "    args['seen'] = path\n    name, ext = ")
    write(tmp_path, {"split.py": text})
    assert _found(tmp_path, "RPL402") == [("split.py", 16)]


@pytest.mark.parametrize(("index", "reported"), [
    ("Variable(mask.nonzero().squeeze())", False),  # the nonzero positions of a mask: each once
    ("Variable(target % 7)", True),  # may repeat
])
def test_a_unique_index_wrapped_in_the_old_variable(tmp_path: Path, index: str, reported: bool) -> None:
    write(tmp_path, {"train.py": (
        "import torch\nimport torch.nn as nn\nfrom torch.autograd import Variable\n\n"
        "w = nn.Parameter(torch.randn(100, 8).cuda())\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "for step in range(10):\n    target = torch.randint(0, 100, (32,)).cuda()\n"
        "    mask = target.ge(10).mul(target.lt(50))\n"
        f"    rows = w.index_select(0, {index})\n"
        "    loss = rows.sum()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    )})
    found = check_paths([str(tmp_path)], jobs=1).diagnostics
    assert any(d.code in ("RPL201", "RPL301") for d in found) is reported


def test_variable_returns_the_tensor_it_wraps() -> None:
    """The claim the unique-index fact rests on: `Variable(t)` has `t`'s values (torch 0.4 on)."""
    torch = pytest.importorskip("torch")
    index = torch.tensor([0, 3, 5])
    assert torch.equal(torch.autograd.Variable(index), index)


PREDICT = (
    "import argparse\nimport os\n\nimport cv2\nimport numpy as np\nfrom keras.models import load_model\n\n\n"
    "def main(args):\n    model = load_model(args.weights)\n    paths = []\n"
    "    if os.path.isdir(args.input):\n        for name in os.listdir(args.input):\n"
    "            paths += [os.path.join(args.input, name)]\n    else:\n        paths += [args.input]\n"
    "    paths = [p for p in paths if p[-4:] in ('.jpg', '.png')]\n"
    "    for path in paths:\n        image = cv2.imread(path)\n        {use}\n\n\n"
    "parser = argparse.ArgumentParser()\nparser.add_argument('--input')\nparser.add_argument('--weights')\n"
    "main(parser.parse_args())\n"
)


@pytest.mark.parametrize(("name", "use", "reported"), [
    # an inference script: each image predicted and written to its own file
    ("predict.py", "cv2.imwrite('out/' + os.path.basename(path), model.predict(image[None])[0])", False),
    # the filled list's order reaches a model that trains on the images in turn
    ("train.py", "model.train_on_batch(image[None], image[None])", True),
])
def test_a_loop_over_a_list_a_listing_loop_filled_is_judged_like_a_loop_over_the_listing(
    tmp_path: Path, name: str, use: str, reported: bool,
) -> None:
    write(tmp_path, {name: PREDICT.replace("{use}", use)})
    assert bool(_found(tmp_path, "RPL402")) is reported
