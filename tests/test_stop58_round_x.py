"""What a blind round on unseen code (stop 58, round x) showed `check` getting wrong, as
mechanisms: a listing flattened into a sorted list; a function of the scripts' own
package that nothing calls; what an ImageDataGenerator's `fit(x, seed=...)` seeds and
that it trains nothing; the multi-backend Keras API (TensorFlow 1 only) and its layer
modules; a seed skipped by an option where a default run draws nothing it would seed;
a dataset's split passed on to its transform through `self`; a transform built and
never used."""
from __future__ import annotations

from pathlib import Path

import pytest

from project_files import found, messages as _messages, write


# ---------------------------------------------------------------- a flattened listing, sorted

FLAT = (
    "import glob\nimport itertools\n\nimport torch\n\n\n"
    "def load(patterns):\n"
    "    return {expr}\n\n\n"
    "if __name__ == '__main__':\n"
    "    print(load(['a/*', 'b/*']))\n"
    "    torch.zeros(1)\n"
)


@pytest.mark.parametrize(("expr", "reported"), [
    ("sorted(sum([glob.glob(p) for p in patterns], []))", False),
    ("sorted(itertools.chain.from_iterable(glob.glob(p) for p in patterns))", False),
    ("sorted(sum([glob.glob(patterns[0]), glob.glob(patterns[1])], []))", False),
    # sorting lists of lists keeps each list's own order
    ("sorted([glob.glob(p) for p in patterns])", True),
    ("sum([glob.glob(p) for p in patterns], [])", True),
])
def test_a_flattened_listing_sorted_as_a_whole_takes_no_order(tmp_path: Path, expr: str, reported: bool) -> None:
    write(tmp_path, {"load.py": FLAT.format(expr=expr)})
    assert bool(found(tmp_path, "RPL402")) is reported


# ---------------------------------------------------------------- an uncalled function of the scripts' package

HELPERS = (
    "import os\n\n\n"
    "def load_checkpoints(directory):\n"
    "    names = os.listdir(directory)\n"
    "    return os.path.join(directory, names[0])\n\n\n"
    "def load_model(path):\n"
    "    return path\n"
)
MAIN = (
    "import torch\n\nfrom pkg.utils.model_io import load_model\n{extra}\n\n"
    "if __name__ == '__main__':\n"
    "    torch.manual_seed(0)\n"
    "    print(load_model('m.pt'))\n"
)


@pytest.mark.parametrize(("extra_files", "extra", "reported"), [
    ({}, "", False),
    # a project that builds its package for others: the function is its API
    ({"setup.py": "from setuptools import setup\nsetup(name='pkg', packages=['pkg'])\n"}, "", True),
    ({"pyproject.toml": "[project]\nname = 'pkg'\nversion = '0.1'\n"}, "", True),
    # a pyproject.toml that only configures tools declares no distribution
    ({"pyproject.toml": "[tool.black]\nline-length = 100\n"}, "", False),
    # a function a module names (a table, a callback) may run where no call shows it
    ({}, "from pkg.utils.model_io import load_checkpoints\nLOADERS = {'all': load_checkpoints}\n", True),
])
def test_a_function_of_the_scripts_package_that_nothing_calls_runs_nowhere(
    tmp_path: Path, extra_files: dict[str, str], extra: str, reported: bool,
) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "", "pkg/utils/__init__.py": "", "pkg/utils/model_io.py": HELPERS,
        "main.py": MAIN.format(extra=extra), **extra_files,
    })
    assert bool(found(tmp_path, "RPL402")) is reported


def test_a_class_of_the_scripts_package_built_by_name_stays_reported(tmp_path: Path) -> None:
    # `eval(DATASETS[name])` builds classes no call names: a method is not "uncalled"
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/datasets.py": (
            "import glob\n\nDATASETS = {'celeba': 'CelebA'}\n\n\n"
            "def get_dataset(name):\n    return eval(DATASETS[name])\n\n\n"
            "class CelebA:\n"
            "    def __init__(self, root='data'):\n"
            "        self.imgs = glob.glob(root + '/*')\n\n"
            "    def __getitem__(self, i):\n        return self.imgs[i]\n"
        ),
        "main.py": (
            "import torch\n\nfrom pkg.datasets import get_dataset\n\n\n"
            "if __name__ == '__main__':\n    torch.manual_seed(0)\n    ds = get_dataset('mnist')\n"
        ),
    })
    assert found(tmp_path, "RPL402") == [("pkg/datasets.py", 12)]


# ---------------------------------------------------------------- ImageDataGenerator.fit(x, seed=...)

KERAS = (
    "import numpy as np\n"
    "from keras.layers import Dense\n"
    "from keras.models import Sequential\n"
    "from keras.preprocessing.image import ImageDataGenerator\n\n"
    "x = np.zeros((8, 4, 4, 1))\n"
    "y = np.zeros((8, 1))\n"
    "generator = ImageDataGenerator(horizontal_flip=True)\n"
    "generator.fit(x{seed})\n"
    "model = Sequential([Dense(1)])\n"
    "model.compile(loss='mse', optimizer='adam')\n"
    "model.fit_generator(generator.flow(x, y, batch_size=2), steps_per_epoch=4, epochs=2)\n"
)


@pytest.mark.parametrize(("seed", "numpy_unseeded"), [(", seed=0", False), ("", True), (", seed=None", True)])
def test_an_image_generators_fit_with_a_seed_seeds_numpy(tmp_path: Path, seed: str, numpy_unseeded: bool) -> None:
    write(tmp_path, {"train.py": KERAS.format(seed=seed)})
    flow = [m for m in _messages(tmp_path, "RPL101") if "generator.flow" in m]
    assert bool(flow) is numpy_unseeded


def test_an_image_generators_fit_trains_nothing(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": KERAS.format(seed=", seed=0")})
    assert found(tmp_path, "RPL306") == [("train.py", 12)]


# ---------------------------------------------------------------- multi-backend Keras (TF 1 only)

OLD_KERAS = (
    "import numpy as np\n"
    "from keras import backend as K\n"
    "from keras.layers.convolutional import Convolution2D\n"
    "from keras.layers.core import Dense, Flatten\n"
    "from keras.models import Sequential\n"
    "from keras.preprocessing.image import ImageDataGenerator\n\n"
    "shape = {shape}\n"
    "model = Sequential([Convolution2D(4, (3, 3), input_shape=shape), Flatten(), Dense(1)])\n"
    "model.compile(loss='mse', optimizer='adam')\n"
    "x = np.zeros((8, 8, 8, 3))\n"
    "y = np.zeros((8, 1))\n"
    "generator = ImageDataGenerator(horizontal_flip=True)\n"
    "generator.fit(x, seed=0)\n"
    "model.fit_generator(generator.flow(x, y, batch_size=2), steps_per_epoch=4, epochs=2)\n"
)
DIM_ORDERING = "(3, 8, 8) if K.image_dim_ordering() == 'th' else (8, 8, 3)"


def test_the_multi_backend_keras_api_runs_on_tensorflow_1(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": OLD_KERAS.format(shape=DIM_ORDERING)})
    assert found(tmp_path, "RPL304") == []  # no TF 2 switch to ask for
    messages = _messages(tmp_path, "RPL101")
    # its layers take their weights' seeds from NumPy, here before the generator seeds it
    assert any(m.startswith("`Convolution2D(...)` initialises weights from NumPy's global RNG before") for m in messages)
    # and fit_generator shuffles a Sequence's batches with Python's `random`
    assert any(m.startswith("`model.fit_generator(...)` shuffles with the `random` module's") for m in messages)


def test_without_the_old_api_the_program_runs_the_keras_of_today(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": OLD_KERAS.format(shape="(8, 8, 3)")})
    assert found(tmp_path, "RPL304") == [("train.py", 1)]
    messages = _messages(tmp_path, "RPL101")
    assert any(m.startswith("`Convolution2D(...)` initialises weights from the `random` module's") for m in messages)


# ---------------------------------------------------------------- RPL104 with nothing to seed by default

SPLIT = (
    "import argparse\n\nimport numpy as np\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--seed', type=int, default=0)\n"
    "args = parser.parse_args()\n"
    "ids = np.arange(10)\n"
    "if args.seed:\n"
    "    np.random.seed(args.seed)\n"
    "    np.random.shuffle(ids)\n"
    "{after}"
    "np.save('split.npy', ids)\n"
)


@pytest.mark.parametrize(("after", "reported"), [
    ("", False),  # the draw is skipped with the seed: a default run is the same every time
    ("ids = ids[np.random.permutation(10)]\n", True),
])
def test_a_seed_skipped_by_default_matters_only_where_a_default_run_draws(
    tmp_path: Path, after: str, reported: bool,
) -> None:
    write(tmp_path, {"split.py": SPLIT.format(after=after)})
    assert bool(found(tmp_path, "RPL104")) is reported


# ---------------------------------------------------------------- a split passed on through `self`

DATASETS = (
    "import random\n\n\n"
    "class Transforms:\n"
    "    def __init__(self, split, size):\n"
    "        self.split = split.lower()\n"
    "        self.size = size\n\n"
    "    def __call__(self, img):\n"
    "        if self.split == 'train':\n"
    "            left = random.randint(0, 10)\n"
    "            return img[left:left + self.size]\n"
    "        return img[:self.size]\n\n\n"
    "class Images:\n"
    "    def __init__(self, split):\n"
    "        self.split = split.lower()\n"
    "        self.transform = Transforms(split=self.split, size=4)\n\n"
    "    def __len__(self):\n        return 8\n\n"
    "    def __getitem__(self, i):\n        return self.transform(list(range(20)))\n"
)
EVAL = (
    "import torch\n\nfrom datasets import Images\n\n\n"
    "if __name__ == '__main__':\n"
    "    loader = torch.utils.data.DataLoader(Images(split='{split}'), batch_size=2, num_workers=2)\n"
    "    for batch in loader:\n"
    "        print(batch)\n"
)


@pytest.mark.parametrize(("split", "reported"), [("Test", False), ("TRAIN", True)])
def test_a_split_passed_on_through_self_decides_the_branch(tmp_path: Path, split: str, reported: bool) -> None:
    write(tmp_path, {"datasets.py": DATASETS, "eval.py": EVAL.format(split=split)})
    assert bool([m for m in _messages(tmp_path, "RPL101") if "random.randint" in m]) is reported


# ---------------------------------------------------------------- a transform built and never used

UNUSED = (
    "import torch\nimport torchvision\nfrom torchvision import transforms\n\n\n"
    "def main():\n"
    "    transform_train = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])\n"
    "    transform_test = transforms.Compose([transforms.ToTensor()])\n"
    "    ds = torchvision.datasets.CIFAR10('d', train=False, transform={used})\n"
    "    for x, y in torch.utils.data.DataLoader(ds, batch_size=8):\n"
    "        print(x.sum())\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


@pytest.mark.parametrize(("used", "reported"), [("transform_test", False), ("transform_train", True)])
def test_a_transform_never_used_never_draws(tmp_path: Path, used: str, reported: bool) -> None:
    write(tmp_path, {"test.py": UNUSED.format(used=used)})
    assert bool([m for m in _messages(tmp_path, "RPL101") if "RandomCrop" in m]) is reported


# ---------------------------------------------------------------- round y: constants, and text the callers pass

MODES = (
    "import numpy as np\n\n"
    "MODE_Z = 2\nMODE_Z_HIDDEN = 3\nMODE_ZH = 4\n\n"
    "EXP_MODE = {mode}\n\n\n"
    "class Model:\n"
    "    def __init__(self):\n"
    "        if EXP_MODE == MODE_Z_HIDDEN:\n"
    "            self.hidden = np.random.randn(8, 4)\n"
    "        self.out = np.zeros((4, 2))\n\n\n"
    "if __name__ == '__main__':\n"
    "    model = Model()\n"
    "    np.save('out.npy', model.out)\n"
)


@pytest.mark.parametrize(("mode", "reported"), [("MODE_ZH", False), ("MODE_Z_HIDDEN", True), ("3", True)])
def test_a_module_constant_compared_with_another_decides_the_branch(tmp_path: Path, mode: str, reported: bool) -> None:
    write(tmp_path, {"model.py": MODES.format(mode=mode)})
    assert bool(found(tmp_path, "RPL101")) is reported


MAPS = (
    "import torch\n\n\n"
    "def construct_maps(keys):\n"
    "    d = dict()\n"
    "    keys = list(set(keys))\n"
    "    for k in keys:\n"
    "        d[k] = len(d)\n"
    "    return d\n\n\n"
    "ks_map = construct_maps(keys={keys})\n\n"
    "if __name__ == '__main__':\n"
    "    print(ks_map, torch.zeros(1))\n"
)


@pytest.mark.parametrize(("keys", "reported"), [("(3, 5, 7)", False), ("['a', 'b', 'c']", True)])
def test_a_name_rebound_from_a_set_of_its_parameter_is_text_only_where_callers_pass_text(
    tmp_path: Path, keys: str, reported: bool,
) -> None:
    write(tmp_path, {"maps.py": MAPS.format(keys=keys)})
    assert bool(found(tmp_path, "RPL401")) is reported
