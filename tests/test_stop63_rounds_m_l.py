"""What the blind rounds on unseen code of stop 63 (and round n of stop 62, read but not
fixed then) showed `check` getting wrong, as mechanisms."""
from __future__ import annotations

from pathlib import Path

from project_files import found, write

ASSERTED = (
    "import os\n\n"
    "import torch\n\n\n"
    "class Folders(torch.utils.data.Dataset):\n"
    "    def __init__(self, root):\n"
    "        assert {compared}, 'every image needs its mask'\n"
    "        self.items = [os.path.join(root, 'img', n) for n in {listed}]\n\n"
    "    def __len__(self):\n"
    "        return len(self.items)\n\n"
    "    def __getitem__(self, i):\n"
    "        return torch.load(self.items[i])\n\n\n"
    "torch.manual_seed(0)\n"
    "loader = torch.utils.data.DataLoader(Folders('data'), batch_size=4)\n"
    "for batch in loader:\n"
    "    print(batch.sum())\n"
)


def test_listings_an_assertion_compares_take_no_order(tmp_path: Path) -> None:
    """n (pytorch-semantic-segmentation): `assert os.listdir(a) == os.listdir(b)` only
    stops the run or not; the listing the items come from is what keeps an order."""
    compared = "os.listdir(os.path.join(root, 'img')) == os.listdir(os.path.join(root, 'mask'))"
    write(tmp_path, {"train.py": ASSERTED.format(compared=compared, listed="sorted(os.listdir(os.path.join(root, 'img')))")})
    assert found(tmp_path, "RPL402") == []
    write(tmp_path, {"train.py": ASSERTED.format(compared=compared, listed="os.listdir(os.path.join(root, 'img'))")})
    assert found(tmp_path, "RPL402") == [("train.py", 9)]
