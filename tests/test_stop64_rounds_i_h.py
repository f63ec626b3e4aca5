"""What the blind rounds on unseen code of stop 64 (i, h) showed `check` getting wrong
about directory listings (RPL402), as mechanisms: each test has the look-alike that
still uses the order."""
from __future__ import annotations

from pathlib import Path

from project_files import found, write


def _check(tmp_path: Path, source: str) -> list[tuple[str, int]]:
    write(tmp_path, {"prepare.py": source})
    return found(tmp_path, "RPL402")


FILLED = (
    "import os\n\n"
    "labels = []\n"
    "for group in ['train', 'val']:\n"
    "    folders = [d for d in os.listdir(group) if os.path.isdir(os.path.join(group, d))]\n"
    "    {before}\n"
    "    for folder in folders:\n"
    "        labels.append(os.path.join(group, folder))\n"
    "    {after}\n"
    "print(labels)\n"
)


def test_a_listing_sorted_in_place_fills_lists_in_sorted_order(tmp_path: Path) -> None:
    """h (CloserLookFewShot): `folders.sort()` before the loop that fills `labels`."""
    assert _check(tmp_path, FILLED.format(before="folders.sort()", after="pass")) == []
    assert _check(tmp_path, FILLED.format(before="pass", after="folders.sort()")) == [("prepare.py", 5)]


NEWEST = (
    "import glob\n"
    "import os\n\n"
    "import numpy as np\n\n\n"
    "def resume_file(folder):\n"
    "    files = glob.glob('checkpoints/*')\n"
    "    epochs = np.array([int(os.path.basename(x)[:-4]) for x in files])\n"
    "    return os.path.join(folder, '%d.tar' % {pick})\n\n\n"
    "print(resume_file('out'))\n"
)


def test_an_array_of_a_listing_is_the_listing(tmp_path: Path) -> None:
    """h (CloserLookFewShot): the newest checkpoint is `np.max` of an array made from the
    listing; element 0 of that array is a position."""
    assert _check(tmp_path, NEWEST.format(pick="np.max(epochs)")) == []
    assert _check(tmp_path, NEWEST.format(pick="epochs[0]")) == [("prepare.py", 8)]


CONVERTED = (
    "import glob\n"
    "import os\n\n"
    "for name in glob.glob('annotations/*.xml'):\n"
    "    with open(name) as f:\n"
    "        rows = f.read().split()\n"
    "    with open({path}, 'a') as out:\n"
    "        for row in rows:\n"
    "            out.write(row + '\\n')\n"
)


def test_appending_to_the_entrys_own_file_is_per_entry(tmp_path: Path) -> None:
    """h (tensorflow-yolov3's mAP converters): each annotation is appended into the text
    file named after it; appending to one file per folder keeps the listing's order."""
    assert _check(tmp_path, CONVERTED.format(path="name.replace('.xml', '.txt')")) == []
    assert _check(tmp_path, CONVERTED.format(path="os.path.join(os.path.dirname(name), 'all.txt')")) == [
        ("prepare.py", 4)]


SEARCH = (
    "import glob\n"
    "import os\n\n"
    "kept = []\n"
    "for name in glob.glob('labels/*.txt'):\n"
    "    for image in os.listdir('images'):\n"
    "        if image.startswith(name[:-4]):\n"
    "            break\n"
    "    {orelse}\n"
    "    kept.append(name)\n"
    "print(sorted(kept))\n"
)


def test_a_break_of_an_inner_loop_does_not_stop_the_outer_one(tmp_path: Path) -> None:
    """h (tensorflow-yolov3): the search for an entry's image breaks out of the inner loop
    only: the list it fills is sorted before use; a `break` in that loop's `else` ends the
    outer loop at the first entry without one, and the first entry kept is a position."""
    assert _check(tmp_path, SEARCH.format(orelse="")) == []
    assert _check(tmp_path, SEARCH.format(orelse="else:\n        break").replace("sorted(kept)", "kept[0]")) == [
        ("prepare.py", 5)]


REBOUND = (
    "import glob\n\n"
    "with open('classes.txt') as f:\n"
    "    classes = f.read().split()\n"
    "for name in glob.glob('labels/*.txt'):\n"
    "    with open(name) as f:\n"
    "        rows = f.read().split()\n"
    "    with open(name + '.out', 'w') as out:\n"
    "        out.write(' '.join(r for r in rows if r in classes))\n"
    "{later}\n"
)


def test_a_name_read_before_the_loop_or_rebound_after_it_lives_one_entry(tmp_path: Path) -> None:
    """h (tensorflow-yolov3): `f` holds another file before the loop, and a later `with
    ... as out` binds its own `out`; a later read of the loop's `out` carries it on."""
    assert _check(tmp_path, REBOUND.format(later="with open('log.txt', 'w') as out:\n    out.write('done')")) == []
    assert _check(tmp_path, REBOUND.format(later="out.write('done')")) == [("prepare.py", 5)]


RESIZED = (
    "import argparse\n"
    "import glob\n"
    "import os\n\n"
    "import cv2\n"
    "from tqdm import tqdm\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--size', type=int, default=96)\n"
    "args = parser.parse_args()\n\n\n"
    "def pad(image, border, value=0):\n"
    "    return cv2.copyMakeBorder(image, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=[value] * 3 if border else None)\n\n\n"
    "def main():\n"
    "    size = 96\n"
    "    paths = glob.glob('inputs/*')\n"
    "    {state}\n"
    "    for i in tqdm(range(len(paths))):\n"
    "        path = paths[i]\n"
    "        image = pad(cv2.imread(path), True, value=255)\n"
    "        mask = (image > 127).astype('uint8')\n"
    "        image = cv2.resize(image, (size, args.size))\n"
    "        cv2.imwrite(os.path.join('out', os.path.basename(path)), {written})\n\n\n"
    "main()\n"
)


def test_an_indexed_loop_given_constants_and_options_is_per_entry(tmp_path: Path) -> None:
    """i (pytorch-nested-unet, pixel-nerf): `tqdm(range(len(paths)))`, a size bound once
    to a literal, an option's value, literal arguments and a method of a comparison are
    all the entry's own business; a list of images filled in entry order is not."""
    assert _check(tmp_path, RESIZED.format(state="pass", written="mask * image")) == []
    assert _check(tmp_path, RESIZED.format(state="total = 0", written="mask * image")) == []
    carried = RESIZED.format(state="seen = []", written="mask * image").replace(
        "        mask = (image > 127)", "        seen.append(image)\n        mask = (image > 127)")
    assert _check(tmp_path, carried) == [("prepare.py", 19)]


SHOWN = (
    "import os\n\n\n"
    "def convert(folder, out):\n"
    "    scenes = os.listdir(folder)\n"
    "    print(scenes)\n"
    "    for scene in scenes:\n"
    "        {log}\n"
    "        os.rename(os.path.join(folder, scene), os.path.join(out, scene))\n\n\n"
    "convert('in', 'out')\n"
)


def test_a_bare_print_is_a_log_line_where_the_code_prints_words(tmp_path: Path) -> None:
    """h (mipnerf's converter): `print(dirs)` beside `print('Converting from', d)` is a
    log; where the code prints only bare values, what it prints is its output."""
    assert _check(tmp_path, SHOWN.format(log="print('converting', scene)")) == []
    assert _check(tmp_path, SHOWN.format(log="pass")) == [("prepare.py", 5)]


LOADERS = (
    "import torch\n"
    "from torch.utils.data import DataLoader, TensorDataset\n\n\n"
    "def get_loaders(args):\n"
    "    data = TensorDataset(torch.zeros(64, 3), torch.zeros(64))\n"
    "    sampler = None\n"
    "    if args.distributed:\n"
    "        sampler = torch.utils.data.distributed.DistributedSampler(data)\n"
    "    return DataLoader(data, batch_size=8, shuffle=sampler is None, sampler=sampler)\n"
)
LAUNCHED = (
    "import argparse\n\n"
    "import torch\n"
    "import torch.distributed as dist\n"
    "from torch import nn\n\n"
    "from data import get_loaders\n\n\n"
    "def main(args):\n"
    "    {seed}\n"
    "    model = nn.Linear(3, 1).cuda()\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    for epoch in range(args.epochs):\n"
    "        for x, y in get_loaders(args):\n"
    "            loss = (model(x.cuda()).squeeze(1) - y.cuda()).pow(2).mean()\n"
    "            opt.zero_grad()\n"
    "            loss.backward()\n"
    "            opt.step()\n\n\n"
    "def init_processes(rank, size, fn, args):\n"
    "    dist.init_process_group(backend='nccl', init_method='env://', rank=rank, world_size=size)\n"
    "    fn(args)\n\n\n"
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--seed', type=int, default=1)\n"
    "    parser.add_argument('--epochs', type=int, default=10)\n"
    "    args = parser.parse_args()\n"
    "    args.distributed = {distributed}\n"
    "    init_processes(0, 1, main, args)\n"
)


def test_a_function_a_launcher_is_given_runs_where_the_launcher_calls_it(tmp_path: Path) -> None:
    """i (NVAE): `init_processes(0, size, main, args)` calls `fn(args)`: `main` runs there,
    its seed before the weights it builds; a `main` that seeds nothing leaves them unseeded."""
    write(tmp_path, {"data.py": LOADERS,
                     "train.py": LAUNCHED.format(seed="torch.manual_seed(args.seed)", distributed="False")})
    assert found(tmp_path, "RPL101") == []
    write(tmp_path, {"train.py": LAUNCHED.format(seed="pass", distributed="False")})
    assert found(tmp_path, "RPL101") == [("train.py", 12)]


def test_an_attribute_the_entry_script_fixes_decides_conditions(tmp_path: Path) -> None:
    """i (NVAE): `args.distributed = False`, written once in the entry script's main block,
    is no option, yet `if args.distributed:` in the loaders is false on that program: no
    sampler is built that could lack `set_epoch`."""
    write(tmp_path, {"data.py": LOADERS,
                     "train.py": LAUNCHED.format(seed="torch.manual_seed(args.seed)", distributed="False")})
    assert found(tmp_path, "RPL404") == []
    write(tmp_path, {"train.py": LAUNCHED.format(seed="torch.manual_seed(args.seed)", distributed="True")})
    assert found(tmp_path, "RPL404") == [("data.py", 9)]


TF_MODULES = (
    "import tensorflow as tf\n\n\n"
    "def conv1d(inputs, filters, training=True):\n"
    "    tensor = tf.layers.conv1d(inputs, filters, 3)\n"
    "    return tf.layers.dropout(tensor, rate=0.1, training=training)\n"
)
TF_GRAPH = (
    "import tensorflow as tf\n\n"
    "from modules import conv1d\n\n\n"
    "class Graph:\n"
    "    def __init__(self, mode='train'):\n"
    "        training = {training}\n"
    "        self.x = tf.placeholder(tf.float32, (None, 10, 4))\n"
    "        self.y = conv1d(self.x, 8, training={passed})\n"
    "        if training:\n"
    "            self.train_op = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_mean(self.y))\n"
)
TF_SYNTHESIZE = (
    "import tensorflow as tf\n\n"
    "from graph import Graph\n\n"
    "g = Graph(mode='{mode}')\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    tf.train.Saver().restore(sess, tf.train.latest_checkpoint('logdir'))\n"
    "    print(sess.run(g.y, {{g.x: [[[0.0] * 4] * 10]}}))\n"
)


def test_a_test_passed_as_an_argument_is_the_callers(tmp_path: Path) -> None:
    """i (dc_tts): `training = True if mode == "train" else False` is the test `mode ==
    "train"`, and passed on (`conv1d(..., training=training)`) it is read with what the
    caller's call bound `mode` to: a synthesis graph draws no dropout, and its restored
    weights replace the drawn ones; a graph built for training does draw."""
    for training, passed in (("True if mode == 'train' else False", "training"), ("mode == 'train'", "mode == 'train'")):
        write(tmp_path, {"modules.py": TF_MODULES, "graph.py": TF_GRAPH.format(training=training, passed=passed),
                         "synthesize.py": TF_SYNTHESIZE.format(mode="synthesize")})
        assert found(tmp_path, "RPL101") == []
        write(tmp_path, {"synthesize.py": TF_SYNTHESIZE.format(mode="train")})
        assert found(tmp_path, "RPL101") == [("modules.py", 5)]


HELPER_SEEDED = (
    "import argparse\n\n"
    "import numpy as np\n\n\n"
    "class Config:\n"
    "    RNG_SEED = 3\n\n\n"
    "cfg = Config()\n\n\n"
    "def convert(snapshot, seed):\n"
    "    np.random.seed({seeded})\n"
    "    return np.random.rand(3), snapshot\n\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--snapshot', default=None)\n"
    "parser.add_argument('--seed', type=int, default=None)\n"
    "args = parser.parse_args()\n"
    "print(convert(args.snapshot, args.seed))\n"
)


def test_a_helper_seeding_from_its_own_configuration_takes_no_seed_from_the_call(tmp_path: Path) -> None:
    """g (tf-faster-rcnn): `convert(..., args.snapshot, ...)` runs `tf.set_random_seed(
    cfg.RNG_SEED)`: the configuration decides the seed, not the checkpoint prefix the call
    passes first; a helper that seeds from its parameter takes the call's `args.seed`."""
    write(tmp_path, {"convert.py": HELPER_SEEDED.format(seeded="cfg.RNG_SEED")})
    assert found(tmp_path, "RPL103") == []
    write(tmp_path, {"convert.py": HELPER_SEEDED.format(seeded="seed")})
    assert found(tmp_path, "RPL103") == [("convert.py", 22)]


BROKEN_IMPORT = (
    "import random\n\n"
    "import torch\n"
    "{imported}\n\n"
    "model = Model().cuda()\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for step in range(10):\n"
    "    x = torch.rand(4, 3).cuda() * random.random()\n"
    "    loss = model(x).pow(2).mean()\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)
MODEL_FILE = (
    "import torch\n"
    "from torch import nn\n\n\n"
    "class {name}(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(3, 1)\n\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n"
    "{extra}\n"
)


def test_a_script_that_imports_a_name_its_module_lacks_runs_nothing_after_it(tmp_path: Path) -> None:
    """g (DenseDepth): `from model import Model` where the model file next to the script
    defines only `PTModel` raises ImportError: nothing after it runs. A name the module
    binds on any branch, an import in a `try`, or a module with a star import may work."""
    write(tmp_path, {"train.py": BROKEN_IMPORT.format(imported="from model import Model"),
                     "model.py": MODEL_FILE.format(name="PTModel", extra="")})
    assert found(tmp_path, "RPL101") == []
    for imported, extra in (
        ("from model import Model", "if torch.cuda.is_available():\n    Model = PTModel\n"),
        ("try:\n    from model import Model\nexcept ImportError:\n    from model import PTModel as Model", ""),
        ("from model import Model", "from torch.nn import *\n"),
    ):
        write(tmp_path, {"train.py": BROKEN_IMPORT.format(imported=imported),
                         "model.py": MODEL_FILE.format(name="PTModel", extra=extra)})
        assert "train.py" in {path for path, _ in found(tmp_path, "RPL101")}, imported


def test_an_absolute_import_inside_a_package_is_not_its_siblings(tmp_path: Path) -> None:
    """B (timm): `from typing import Dict` in `timm/layers/_fx.py` imports the standard
    library's `typing`, not the package's own `timm/layers/typing.py` (no implicit relative
    imports in Python 3; only the script's folder comes first): nothing fails there."""
    write(tmp_path, {
        "train.py": BROKEN_IMPORT.format(imported="from pkg.model import Model"),
        "pkg/__init__.py": "",
        "pkg/typing.py": "Tensor = object\n",
        "pkg/model.py": "from typing import Dict, List\n\n" + MODEL_FILE.format(name="Model", extra=""),
    })
    assert "train.py" in {path for path, _ in found(tmp_path, "RPL101")}


POOLED = (
    "from concurrent.futures import ProcessPoolExecutor\n"
    "from functools import partial\n"
    "from pathlib import Path\n\n"
    "from PIL import Image\n\n"
    "DEST = Path.home() / 'small'\n"
    "SIZES = (160, 352)\n\n\n"
    "def resize_img(p, im, fn, sz):\n"
    "    {use}\n"
    "    out = DEST / str(sz) / fn.name\n"
    "    im.resize((sz, sz)).save(out)\n\n\n"
    "def resizes(p, fn):\n"
    "    im = Image.open(fn)\n"
    "    for sz in SIZES:\n"
    "        resize_img(p, im, fn, sz)\n\n\n"
    "def resize_imgs(p):\n"
    "    files = p.glob('*/*.JPEG')\n"
    "    with ProcessPoolExecutor(4) as e: e.map(partial(resizes, p), files)\n\n\n"
    "resize_imgs(Path.home() / 'imagenet')\n"
)


def test_a_pool_given_a_partial_of_a_per_image_function_takes_no_order(tmp_path: Path) -> None:
    """f (fast_adversarial): `with ProcessPoolExecutor() as e: e.map(partial(resizes, p),
    files)` on one line: each image becomes its own file; `p` reaches a parameter no
    function uses. A worker that appends its image to a list `p` names keeps the order."""
    write(tmp_path, {"resize.py": POOLED.format(use="pass")})
    assert found(tmp_path, "RPL402") == []
    write(tmp_path, {"resize.py": POOLED.format(use="p.append(fn)")})
    assert found(tmp_path, "RPL402") == [("resize.py", 24)]
