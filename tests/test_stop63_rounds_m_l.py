"""What the blind rounds on unseen code of stop 63 (and round n of stop 62, read but not
fixed then) showed `check` getting wrong, as mechanisms."""
from __future__ import annotations

from pathlib import Path

from project_files import found, messages, write

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


BACKBONE = (
    "import torch\n"
    "from torch import nn\n\n\n"
    "class Backbone(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())\n"
    "        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))\n\n"
    "    def forward(self, x):\n"
    "        {forward}\n\n\n"
    "def backbone():\n"
    "    model = Backbone()\n"
    "    {after}\n"
    "    return model\n"
)
SEGMENTER = (
    "import torch\n"
    "from torch import nn\n\n"
    "from backbone import backbone\n\n"
    "torch.manual_seed(0)\n"
    "net = backbone().cuda()\n"
    "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
    "for step in range(10):\n"
    "    loss = net(torch.rand(2, 3, 32, 32).cuda()).mean()\n"
    "    opt.zero_grad()\n"
    "    loss.backward()\n"
    "    opt.step()\n"
)


def test_a_layer_stored_in_an_attribute_nothing_reads_never_runs(tmp_path: Path) -> None:
    """n (unet-pytorch): VGG's `self.avgpool` is built, its forward's use is commented
    out, and `del model.avgpool` drops it; the op rules report only a layer something
    reads (forward, another module, a computed getattr, a walk of the children)."""
    unused = "# x = self.avgpool(x)\n        return self.features(x)"
    write(tmp_path, {"backbone.py": BACKBONE.format(forward=unused, after="del model.avgpool"), "train.py": SEGMENTER})
    assert found(tmp_path, "RPL202") == []
    for forward, after in [
        ("return self.avgpool(self.features(x))", "del model.features"),
        (unused, "model.head = nn.Sequential(*model.children())"),
        (unused, "model.pooled = getattr(model, 'avg' + 'pool')"),
        (unused, "model.forward = lambda x: model.avgpool(model.features(x))"),
    ]:
        write(tmp_path, {"backbone.py": BACKBONE.format(forward=forward, after=after)})
        assert found(tmp_path, "RPL202") == [("backbone.py", 9)], (forward, after)


def test_a_library_base_class_may_read_the_layer(tmp_path: Path) -> None:
    """A layer replaced on a torchvision model's subclass runs in the library's forward."""
    source = (
        "import torch\n"
        "from torch import nn\n"
        "from torchvision.models.resnet import ResNet, BasicBlock\n\n\n"
        "class Net(ResNet):\n"
        "    def __init__(self):\n"
        "        super().__init__(BasicBlock, [2, 2, 2, 2])\n"
        "        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))\n\n\n"
        "torch.manual_seed(0)\n"
        "net = Net().cuda()\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "loss = net(torch.rand(2, 3, 64, 64).cuda()).mean()\n"
        "loss.backward()\n"
        "opt.step()\n"
    )
    write(tmp_path, {"train.py": source})
    assert found(tmp_path, "RPL202") == [("train.py", 9)]


NET = (
    "import torch\n"
    "from torch import nn\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.conv = nn.Conv2d(3, 8, 3)\n\n"
    "    def forward(self, x):\n"
    "        outputs = []\n"
    "        outputs.append(self.conv(x))\n"
    "        return outputs[0]\n\n\n"
    "def get_net():\n"
    "    return Net()\n\n\n"
    "if __name__ == '__main__':\n"
    "    img = torch.randn(2, 3, 32, 32)\n"
    "    model = get_net()\n"
    "{tail}"
)


def test_a_smoke_test_that_drops_the_output_draws_nothing_that_matters(tmp_path: Path) -> None:
    """m (awesome-semantic-segmentation-pytorch, ×3), l (Pointnet_Pointnet2_pytorch): a
    model's `__main__` block runs it on a random input and drops the output, or reads
    only its shape; the input and the weights reach no result. The model's `forward`
    binding a local `outputs` of its own does not read the block's."""
    for tail in ("    outputs = model(img)\n", "    model.eval()\n    model(img)\n", "    out = model(img)\n    print(out.shape)\n"):
        write(tmp_path, {"net.py": NET.format(tail=tail)})
        assert found(tmp_path, "RPL101") == [], tail
    for tail in ("    outputs = model(img)\n    print(outputs)\n", "    torch.save(model(img), 'out.pt')\n"):
        write(tmp_path, {"net.py": NET.format(tail=tail)})
        assert found(tmp_path, "RPL101") == [("net.py", 21)], tail  # the first draw: the input


def test_a_warm_up_run_before_export_is_an_example_input(tmp_path: Path) -> None:
    """m (gen-efficientnet-pytorch, YOLOX): `model(example_input)` as a statement before
    `torch.onnx.export(model, example_input, ...)`, and torch's older `torch.onnx._export`."""
    source = (
        "import torch\n"
        "import torchvision\n\n"
        "model = torchvision.models.resnet18()\n"
        "model.load_state_dict(torch.load('resnet18.pth'))\n"
        "model.eval()\n"
        "example_input = torch.randn((1, 3, 224, 224), requires_grad=True)\n"
        "model(example_input)\n"
        "torch.onnx.{export}(model, example_input, 'model.onnx')\n"
    )
    for export in ("export", "_export"):
        write(tmp_path, {"onnx_export.py": source.format(export=export)})
        assert found(tmp_path, "RPL101") == [], export
    write(tmp_path, {"onnx_export.py": source.format(export="export") + "print(model(example_input).argmax())\n"})
    assert found(tmp_path, "RPL101") == [("onnx_export.py", 7)]


FOLDERS = (
    "import random\n"
    "import numpy as np\n\n\n"
    "class SequenceFolder(object):\n"
    "    def __init__(self, root, seed=None, train=True):\n"
    "        np.random.seed(seed)\n"
    "        random.seed(seed)\n"
    "        self.items = list(range(10))\n\n"
    "    def __getitem__(self, i):\n"
    "        return np.random.rand() + self.items[i]\n\n"
    "    def __len__(self):\n"
    "        return 10\n"
)
SEQUENCE_TRAIN = (
    "import argparse\n"
    "import torch\n"
    "from folders import SequenceFolder\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('data', metavar='DIR')\n"
    "parser.add_argument('--seed', {seed_default}type=int)\n"
    "args = parser.parse_args()\n"
    "torch.manual_seed(0)\n"
    "train_set = SequenceFolder({arguments})\n"
    "for x in torch.utils.data.DataLoader(train_set, batch_size=2, shuffle=True):\n"
    "    print(x)\n"
)


def test_a_helper_seeded_from_an_option_reads_the_option_its_seed_parameter_is_given(tmp_path: Path) -> None:
    """l (SfmLearner-Pytorch ×3): `SequenceFolder(args.data, seed=args.seed)` seeds with
    `--seed` (0 by default), not with the dataset path it passes first."""
    write(tmp_path, {"folders.py": FOLDERS})
    for arguments in ("args.data, seed=args.seed, train=True", "args.data, args.seed"):
        write(tmp_path, {"train.py": SEQUENCE_TRAIN.format(seed_default="default=0, ", arguments=arguments)})
        assert found(tmp_path, "RPL103") == [], arguments
        write(tmp_path, {"train.py": SEQUENCE_TRAIN.format(seed_default="", arguments=arguments)})
        assert [m for m in messages(tmp_path, "RPL103")] == [
            "`SequenceFolder(...)` seeds NumPy and `random` from OS entropy on a default run: its seed `--seed` defaults to None"
        ], arguments


LEARNER = (
    "import random\n"
    "import tensorflow as tf\n\n\n"
    "class Loader(object):\n"
    "    def load_train_batch(self):\n"
    "        seed = random.randint(0, 2**31 - 1)\n"
    "        return tf.random_uniform([2], seed=seed)\n\n\n"
    "class Learner(object):\n"
    "    def __init__(self):\n"
    "        self.ready = True\n\n"
    "    def build_train_graph(self):\n"
    "        self.batch = Loader().load_train_batch()\n\n"
    "    def train(self):\n"
    "        self.build_train_graph()\n"
    "        with tf.Session() as sess:\n"
    "            sess.run(self.batch)\n\n"
    "    def setup_inference(self):\n"
    "        self.image = tf.placeholder(tf.float32, [1, 4])\n"
)
LEARNER_TEST = (
    "import tensorflow as tf\n"
    "from learner import Learner\n\n"
    "sfm = Learner()\n"
    "sfm.setup_inference()\n"
    "saver = tf.train.Saver(tf.model_variables())\n"
    "with tf.Session() as sess:\n"
    "    saver.restore(sess, 'model.ckpt')\n"
    "{more}"
)


def test_a_method_named_only_in_a_method_that_does_not_run_does_not_run(tmp_path: Path) -> None:
    """l (SfMLearner ×2): a test script builds the learner and restores it; its
    `build_train_graph`, the only code naming the loader's `load_train_batch`, runs only
    from `train`, which the script never calls (`tf.train.Saver` names TensorFlow's
    module, not the method)."""
    write(tmp_path, {"learner.py": LEARNER, "test_depth.py": LEARNER_TEST.format(more="")})
    assert found(tmp_path, "RPL101") == []
    write(tmp_path, {"test_depth.py": LEARNER_TEST.format(more="sfm.train()\n")})
    assert [line for _, line in found(tmp_path, "RPL101")] == [7]


def test_a_draw_formatted_into_text_by_percent_or_format_decides_no_data(tmp_path: Path) -> None:
    """m (fashion-mnist), l (fast-style-transfer): `'%s-%d' % (name, randint(0, 100))`
    and `'{}'.format(random.randint(...))` name a run or a folder, as an f-string field
    does; a draw the program computes with is still one."""
    source = (
        "import random\n"
        "import numpy as np\n\n"
        "APP_NAME = '%s-%d' % ('fashion-mnist', random.randint(0, 100))\n"
        "TMP_DIR = '.frames_{}/'.format(random.randint(0, 99999))\n"
        "np.random.seed(0)\n"
        "weights = np.random.rand(4)\n"
        "{more}"
        "np.save(TMP_DIR + APP_NAME + '.npy', weights)\n"
    )
    write(tmp_path, {"app.py": source.replace("{more}", "")})
    assert found(tmp_path, "RPL101") == []
    write(tmp_path, {"app.py": source.replace("{more}", "weights = weights * random.random()\n")})
    assert found(tmp_path, "RPL101") == [("app.py", 8)]


GRAPH = (
    "import random\n\n\n"
    "class Graph(dict):\n"
    "    def random_walk(self, path_length, alpha=0, rand=random.Random(), start=None):\n"
    "        path = [start or rand.choice(list(self.keys()))]\n"
    "        while len(path) < path_length:\n"
    "            path.append(rand.choice(self[path[-1]]))\n"
    "        return path\n\n\n"
    "def build_corpus(G, num_paths, path_length, rand=random.Random(0)):\n"
    "    walks = []\n"
    "    for node in list(G.keys()):\n"
    "        walks.append({call})\n"
    "    return walks\n"
)


def test_a_generator_built_as_a_default_that_every_call_passes_draws_nothing(tmp_path: Path) -> None:
    """m (deepwalk): `rand=random.Random()` is evaluated once, from OS entropy, but every
    call of `random_walk` in the project passes `rand`; a call that leaves it out (or
    spreads `**kwargs`) uses it."""
    main = "from graph import Graph, build_corpus\n\nG = Graph({1: [2], 2: [1]})\nprint(build_corpus(G, 2, 5))\n"
    for call in ("G.random_walk(path_length, rand=rand, alpha=0, start=node)", "G.random_walk(path_length, 0, rand)"):
        write(tmp_path, {"graph.py": GRAPH.format(call=call), "main.py": main})
        assert found(tmp_path, "RPL102") == [], call
    for call in ("G.random_walk(path_length, start=node)", "G.random_walk(path_length, **options)"):
        write(tmp_path, {"graph.py": GRAPH.format(call=call)})
        assert found(tmp_path, "RPL102") == [("graph.py", 5)], call


def test_a_per_file_loop_through_torch_tensor_functions_keeps_no_order(tmp_path: Path) -> None:
    """l (melgan's preprocess): each wav becomes its own `.mel` through torch tensor
    functions (`torch.from_numpy`, `F.pad`), which keep no state between files; a draw
    from torch's generator in the loop does (the noise each file gets follows the order)."""
    source = (
        "import glob\n"
        "import numpy as np\n"
        "import torch\n"
        "import torch.nn.functional as F\n\n"
        "for wavpath in glob.glob('data/**/*.wav', recursive=True):\n"
        "    wav = np.load(wavpath)\n"
        "    mel = F.pad(torch.from_numpy(wav).unsqueeze(0), (0, 4)){noise}\n"
        "    torch.save(mel, wavpath.replace('.wav', '.mel'))\n"
    )
    write(tmp_path, {"preprocess.py": source.format(noise="")})
    assert found(tmp_path, "RPL402") == []
    write(tmp_path, {"preprocess.py": source.format(noise=" + torch.randn(1)")})
    assert found(tmp_path, "RPL402") == [("preprocess.py", 6)]


CRITERION = (
    "import torch\n"
    "import torch.nn.functional as F\n"
    "from torch import nn\n\n\n"
    "class SetCriterion(nn.Module):\n"
    "    def __init__(self, losses):\n"
    "        super().__init__()\n"
    "        self.losses = losses\n\n"
    "    def loss_labels(self, outputs, targets):\n"
    "        return F.cross_entropy(outputs.transpose(1, 2), targets)\n\n"
    "    def loss_boxes(self, outputs, targets):\n"
    "        return (outputs - targets).abs().mean()\n\n"
    "    def get_loss(self, loss, outputs, targets):\n"
    "        loss_map = {'labels': self.loss_labels, 'boxes': self.loss_boxes}\n"
    "        return loss_map[loss](outputs, targets)\n\n"
    "    def forward(self, outputs, targets):\n"
    "        return sum(self.get_loss(loss, outputs, targets) for loss in self.losses)\n\n\n"
    "torch.manual_seed(0)\n"
    "criterion = SetCriterion(['labels', 'boxes'])\n"
    "logits = torch.randn(2, 5, 3, device='cuda', requires_grad=True)\n"
    "loss = criterion(logits, torch.zeros(2, 5, dtype=torch.long, device='cuda'))\n"
    "loss.backward()\n"
)


def test_a_method_named_by_a_method_that_forward_calls_runs(tmp_path: Path) -> None:
    """dev (detr): `forward` calls `self.get_loss`, whose table names `self.loss_labels`:
    the loss method runs, two names deep, where the class is built."""
    write(tmp_path, {"train.py": CRITERION})
    assert found(tmp_path, "RPL202") == [("train.py", 12)]


def test_a_command_line_runner_calls_the_main_it_is_given(tmp_path: Path) -> None:
    """j (tianshou ×3): `logging.run_cli(main)` (sensai), like absl's `app.run(main)`, calls
    `main`: its seeds are the program's, before the draws the trainer makes later."""
    source = (
        "import numpy as np\n"
        "import torch\n"
        "{imports}\n\n"
        "class Policy(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.net = torch.nn.Linear(4, 2)\n\n"
        "    def forward(self, obs):\n"
        "        return torch.distributions.Normal(self.net(obs), 1.0).rsample()\n\n\n"
        "def main(seed: int = 0):\n"
        "    np.random.seed(seed)\n"
        "    torch.manual_seed(seed)\n"
        "    policy = Policy()\n"
        "    opt = torch.optim.Adam(policy.parameters())\n"
        "    loss = policy(torch.zeros(3, 4)).sum()\n"
        "    loss.backward()\n"
        "    opt.step()\n\n\n"
        "if __name__ == '__main__':\n"
        "    {run}\n"
    )
    for imports, run in [
        ("from sensai.util import logging", "logging.run_cli(main, level=logging.INFO)"),
        ("import typer", "typer.run(main)"),
        ("import tyro", "tyro.cli(main)"),
    ]:
        write(tmp_path, {"train_sac.py": source.format(imports=imports, run=run)})
        assert found(tmp_path, "RPL101") == [], run
    write(tmp_path, {"train_sac.py": source.format(imports="import mylauncher", run="mylauncher.submit(main)")})
    assert found(tmp_path, "RPL101") != []


def test_a_listing_or_nothing_is_judged_by_its_uses(tmp_path: Path) -> None:
    """k (DPR): `glob(p) if args.output_dir else []` bound to a name is the listing, judged
    by what is done with the name: the newest checkpoint by `max(..., key=getctime)` takes
    no order; a split by position does."""
    source = (
        "import glob\n"
        "import os\n\n\n"
        "def pick(output_dir, prefix):\n"
        "    files = glob.glob(os.path.join(output_dir, prefix + '*')) if output_dir else []\n"
        "    {use}\n"
    )
    write(tmp_path, {"ckpt.py": source.format(use="return max(files, key=os.path.getctime) if files else None")})
    assert found(tmp_path, "RPL402") == []
    write(tmp_path, {"ckpt.py": source.format(use="return files[:10]")})
    assert found(tmp_path, "RPL402") == [("ckpt.py", 6)]


STYLE_GENERATOR = (
    "import random\n"
    "import torch\n"
    "from torch import nn\n\n\n"
    "def mixing_index(styles, n_latent, inject_index=None):\n"
    "    if len(styles) < 2:\n"
    "        inject_index = n_latent\n"
    "    else:\n"
    "        if inject_index is None:\n"
    "            inject_index = random.randint(1, n_latent - 1)\n"
    "    return inject_index\n\n\n"
    "torch.manual_seed(0)\n"
    "net = nn.Linear(8, 3)\n"
    "opt = torch.optim.Adam(net.parameters())\n"
    "codes = torch.randn(4, 8)\n"
    "loss = (net(codes) * mixing_index({styles}, 14)).mean()\n"
    "loss.backward()\n"
    "opt.step()\n"
)


def test_a_length_test_reads_the_list_a_call_writes_out(tmp_path: Path) -> None:
    """k (GFPGAN ×2, pixel2style2pixel), j (restyle): StyleGAN2's style mixing draws only
    for two or more styles; the call passes `[codes]`, one style. (Their generators'
    `forward` is run by torch, where what `model([codes])` passes is not read: those
    findings stay.)"""
    write(tmp_path, {"train.py": STYLE_GENERATOR.format(styles="[codes]")})
    assert found(tmp_path, "RPL101") == []
    write(tmp_path, {"train.py": STYLE_GENERATOR.format(styles="[codes, codes.flip(0)]")})
    assert found(tmp_path, "RPL101") == [("train.py", 11)]


def test_an_op_on_a_parameter_times_a_mask_has_the_gradient_the_parameter_has(tmp_path: Path) -> None:
    """k (FlowNetPytorch): `F.adaptive_max_pool2d(input * positive, size)` with `positive =
    (input > 0).float()` (a comparison's tensor needs no grad) takes the gradient its
    parameter `input` has: none, where every call passes the target a loader yields."""
    source = (
        "import torch\n"
        "import torch.nn.functional as F\n\n\n"
        "def sparse_max_pool(input, size):\n"
        "    positive = (input > 0).float()\n"
        "    return F.adaptive_max_pool2d(input * positive, size)\n\n\n"
        "torch.manual_seed(0)\n"
        "net = torch.nn.Conv2d(2, 2, 3, padding=1).cuda()\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "loader = torch.utils.data.DataLoader(torch.randn(8, 2, 16, 16), batch_size=2)\n"
        "for target in loader:\n"
        "    target = target.cuda()\n"
        "    out = net(target)\n"
        "    loss = (out - sparse_max_pool({pooled}, (16, 16))).abs().mean()\n"
        "    opt.zero_grad()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
    )
    write(tmp_path, {"train.py": source.format(pooled="target")})
    assert found(tmp_path, "RPL202") == []
    write(tmp_path, {"train.py": source.format(pooled="out")})
    assert found(tmp_path, "RPL202") == [("train.py", 7)]


def test_a_set_loop_that_renames_each_key_under_a_test_keeps_no_order(tmp_path: Path) -> None:
    """k (stable-baselines3-contrib's ARS): `for name in {"weight", "bias"}:` moves each
    key to its new name when the old one is there: each element's own keys, in any order;
    a list the loop fills in the set's order keeps it."""
    source = (
        "import torch\n\n\n"
        "def load(params):\n"
        "    for name in {{'weight', 'bias'}}:\n"
        "        if f'action_net.{{name}}' in params.get('policy', {{}}):\n"
        "            {body}\n"
        "    return params\n\n\n"
        "policy = torch.nn.Linear(2, 2)\n"
        "params = load(torch.load('policy.pt'))\n"
        "policy.load_state_dict(params['policy'])\n"
    )
    renamed = ("params['policy'][f'action_net.0.{name}'] = params['policy'][f'action_net.{name}']\n"
               "            del params['policy'][f'action_net.{name}']")
    write(tmp_path, {"load.py": source.format(body=renamed)})
    assert found(tmp_path, "RPL401") == []
    write(tmp_path, {"load.py": source.format(body="params.setdefault('order', []).append(name)")})
    assert found(tmp_path, "RPL401") == [("load.py", 5)]


def test_an_op_whose_value_the_function_only_detaches_runs_no_backward(tmp_path: Path) -> None:
    """m (Transfer-Learning-Library's soft triplet loss): the gathered reference
    distances reach the loss only through `F.softmax(...).detach()`, so no gradient
    comes back to the gather; a value the loss takes as it is does."""
    source = (
        "import torch\n"
        "import torch.nn.functional as F\n\n\n"
        "def soft_triplet(features, reference, idx):\n"
        "    dist = torch.cdist(features, features)\n"
        "    dist_ref = torch.gather(torch.cdist(reference, reference), 1, idx)\n"
        "    weights = F.softmax(dist_ref, dim=1){detach}\n"
        "    return (weights * dist).sum()\n\n\n"
        "torch.manual_seed(0)\n"
        "net = torch.nn.Linear(4, 4).cuda()\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "x = torch.randn(8, 4, device='cuda')\n"
        "idx = torch.randint(0, 8, (8, 8), device='cuda')\n"
        "loss = soft_triplet(net(x), net(x.flip(0)), idx)\n"
        "loss.backward()\n"
        "opt.step()\n"
    )

    def gathers() -> list[int]:
        return [r.span.start_line for d in check_source_of(tmp_path) for r in d.related if d.code == "RPL301"] + [
            d.span.start_line for d in check_source_of(tmp_path) if d.code == "RPL201"]

    write(tmp_path, {"train.py": source.format(detach=".detach()")})
    assert 7 not in gathers()
    write(tmp_path, {"train.py": source.format(detach="")})
    assert 7 in gathers()


def check_source_of(root: Path) -> list:
    from reprolint.api import check_paths

    return list(check_paths([str(root)], jobs=1).diagnostics)


def test_a_model_files_self_test_that_prints_shapes_sets_no_benchmark_that_matters(tmp_path: Path) -> None:
    """k (SC-SfMLearner ×2): `cudnn.benchmark = True` in a model file's `__main__` block that
    builds the model, runs it on random input and prints the output's size: no result
    shows the kernel cuDNN picked; the training script's flag is reported."""
    model = (
        "import torch\n"
        "from torch import nn\n\n\n"
        "class DispNet(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.conv = nn.Conv2d(3, 1, 3, padding=1)\n\n"
        "    def forward(self, x):\n"
        "        return self.conv(x)\n\n\n"
        "if __name__ == '__main__':\n"
        "    torch.backends.cudnn.benchmark = True\n"
        "    model = DispNet().cuda()\n"
        "    model.train()\n"
        "    depth = model(torch.randn(2, 3, 64, 64).cuda())\n"
        "    print(depth.size())\n"
    )
    train = (
        "import torch\n"
        "from disp import DispNet\n\n"
        "torch.manual_seed(0)\n"
        "torch.backends.cudnn.benchmark = True\n"
        "model = DispNet().cuda()\n"
        "opt = torch.optim.Adam(model.parameters())\n"
        "loss = model(torch.zeros(2, 3, 64, 64).cuda()).mean()\n"
        "loss.backward()\n"
        "opt.step()\n"
    )
    write(tmp_path, {"disp.py": model, "train.py": train})
    assert found(tmp_path, "RPL203") == [("train.py", 5)]
