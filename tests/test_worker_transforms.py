"""What a DataLoader's workers run, and what only demos run.

- A helper method that a Dataset's ``__getitem__`` calls (``self.pick(ix)``) draws in the
  workers, where torch reseeds ``random`` and NumPy: with torch seeded and workers on,
  nothing is reported; with no worker, the draw is the main process's, unseeded.
- A transform class with no constructor of its own runs only where code of the program
  names it: a validation script that imports ``Augmenter`` but builds ``Normalizer()``
  draws nothing.
- The order of a set taken only by a package module's ``__main__`` smoke demo is no
  result (RPL401), as a demo's draws are not (RPL101).
- With torch < 1.9, workers copy NumPy's global RNG (RPL403) unless a method they run
  seeds NumPy itself (``np.random.seed(index)`` on a worker's first item)."""
from __future__ import annotations

import pytest

from reprolint.api import check_sources

DATA = '''import random

import torch.utils.data as data


class Captions(data.Dataset):
    def __init__(self, items):
        self.items = items

    def pick(self, ix):
        return self.items[ix][random.randint(0, 1)]

    def __getitem__(self, index):
        return self.pick(index)

    def __len__(self):
        return len(self.items)
'''

TRAIN = '''import torch
import torch.utils.data as data

from pkg.captions import Captions

torch.manual_seed(0)
loader = data.DataLoader(Captions([[1, 2]] * 8), batch_size=2, num_workers=WORKERS)
model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in loader:
    model(batch.float().unsqueeze(1)).sum().backward()
    optimizer.step()
'''


def findings(sources: dict[str, str], code: str) -> list[tuple[str, int]]:
    return sorted((d.path, d.span.start_line) for d in check_sources(sources) if d.code == code)


@pytest.mark.parametrize("workers, expected", [("4", []), ("0", [("pkg/captions.py", 11)])])
def test_a_dataset_helper_method_draws_in_the_workers(workers: str, expected: list) -> None:
    sources = {"pkg/__init__.py": "", "pkg/captions.py": DATA, "train.py": TRAIN.replace("WORKERS", workers)}
    assert findings(sources, "RPL101") == expected


TRANSFORMS = '''import numpy as np
from torch.utils.data import Dataset


class Boxes(Dataset):
    def __init__(self, images, transform=None):
        self.images = images
        self.transform = transform

    def __getitem__(self, idx):
        return self.transform(self.images[idx])

    def __len__(self):
        return len(self.images)


class Augmenter(object):
    def __call__(self, img):
        return img[::-1] if np.random.rand() < 0.5 else img


class Normalizer(object):
    def __call__(self, img):
        return img / 2
'''

EVALUATE = '''import sys

import torch
from torchvision import transforms

from pkg.data import Augmenter, Boxes, Normalizer

torch.manual_seed(0)
dataset = Boxes(torch.load(sys.argv[1]), transform=transforms.Compose([BUILT]))
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(len(dataset)):
    model(dataset[i]).sum().backward()
    optimizer.step()
'''


@pytest.mark.parametrize("built, expected", [
    ("Normalizer()", []),
    ("Normalizer(), Augmenter()", [("pkg/data.py", 19)]),
])
def test_a_transform_runs_only_where_the_program_builds_it(built: str, expected: list) -> None:
    sources = {"pkg/__init__.py": "", "pkg/data.py": TRANSFORMS, "train.py": EVALUATE.replace("BUILT", built)}
    assert findings(sources, "RPL101") == expected


VOCAB = '''def build(text):
    return {c: i for i, c in enumerate(sorted(set(text)))}


if __name__ == "__main__":
    chars = list(set(open(__file__).read()))
    print(chars[:10])
'''


@pytest.mark.parametrize("module, expected", [
    ("pkg/vocab.py", []),  # a package module's smoke demo
    ("vocab.py", [("vocab.py", 6)]),  # a script no other module imports: the program users run
])
def test_a_set_order_only_a_demo_takes_is_not_reported(module: str, expected: list) -> None:
    sources = {"pkg/__init__.py": "", module: VOCAB, "train.py": "import sys\nprint(sorted(set(sys.argv)))\n"}
    assert findings(sources, "RPL401") == expected



OLD_TORCH_DATASET = '''import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    def __init__(self):
        self.first = True

    def __len__(self):
        return 8

    def __getitem__(self, index):
        RESEED
        return np.random.randint(0, 8)


loader = DataLoader(Crops(), batch_size=2, num_workers=4)
'''


@pytest.mark.parametrize("reseed, expected", [
    ("if self.first:\\n            np.random.seed(index)\\n            self.first = False", []),
    ("pass", [18]),
])
def test_old_torch_workers_of_a_dataset_that_reseeds_numpy_differ(reseed: str, expected: list) -> None:
    from reprolint.config import Settings

    source = OLD_TORCH_DATASET.replace("RESEED", reseed.replace("\\n", "\n"))
    found = check_sources({"train.py": source}, Settings(torch_version="0.4.1"))
    assert [d.span.start_line for d in found if d.code == "RPL403"] == expected
