"""Issue 13: program roles, cause-level RPL101/RPL105, worker draws, uncalled bodies."""

from __future__ import annotations

import json

from reprolint.api import check_sources
from reprolint.config import Settings
from reprolint.reporters import Report
from reprolint.reporters.json import render_json

MODEL = (
    "import torch\nimport torch.nn as nn\n\n"
    "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.fc = nn.Linear(4, 2)\n\n"
    "if __name__ == '__main__':\n    print(Net()(torch.randn(3, 4)).shape)\n"
)
TRAIN = (
    "import torch\nfrom model import Net\n\n"
    "net = Net()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
    "loss = net(torch.ones(1, 4)).sum()\nloss.backward()\nopt.step()\n"
)


def found(sources, settings=None):
    return sorted((d.path, d.span.start_line, d.code) for d in check_sources(sources, settings))


def test_one_finding_per_program_and_library_with_the_other_draws_related() -> None:
    source = "import torch\na = torch.randn(2)\nb = torch.rand(2)\nc = torch.randint(0, 3, (2,))\n"
    (d,) = check_sources({"train.py": source})
    assert (d.code, d.span.start_line) == ("RPL101", 2)
    assert [r.span.start_line for r in d.related] == [3, 4]
    assert d.entry_points == ("train.py",)


def test_one_library_each() -> None:
    source = "import random, torch\na = torch.randn(2)\nb = random.random()\nc = torch.rand(2)\n"
    assert found({"train.py": source}) == [("train.py", 2, "RPL101"), ("train.py", 3, "RPL101")]


def test_a_draw_several_programs_start_with_is_one_finding_naming_them_all() -> None:
    run = "from model import Net\n\nif __name__ == '__main__':\n    net = Net()\n"
    (d,) = check_sources({"model.py": MODEL.split("\nif __name__")[0] + "\n", "a.py": run, "b.py": run})
    assert (d.path, d.span.start_line) == ("model.py", 7)
    assert d.entry_points == ("a.py", "b.py")
    assert "entry point: a.py, b.py" in d.message


def test_suppressing_the_first_draw_moves_the_report_to_the_next() -> None:
    source = "import torch\na = torch.randn(2)  # noqa: RPL101\nb = torch.rand(2)\nc = torch.rand(3)\n"
    (d,) = check_sources({"train.py": source})
    assert d.span.start_line == 3 and [r.span.start_line for r in d.related] == [4]


def test_tests_are_not_programs_unless_configured() -> None:
    sources = {"tests/test_net.py": "import torch\n\ndef test_x():\n    assert torch.randn(2).shape == (2,)\n\ntest_x()\n"}
    assert found(sources) == []
    assert found(sources, Settings(include_tests=True)) == [("tests/test_net.py", 4, "RPL101")]


def test_a_smoke_demo_in_a_library_module_is_not_checked_but_the_training_program_is() -> None:
    sources = {"model.py": MODEL, "train.py": TRAIN}
    assert found(sources) == [("model.py", 7, "RPL101")]
    (d,) = check_sources(sources)
    assert d.entry_points == ("train.py",)
    # alone (nobody imports it) its `__main__` block is a self-test that prints only a
    # shape: a demo too; one that prints the values it computed is a program
    assert found({"model.py": MODEL}) == []
    assert found({"model.py": MODEL.replace(".shape)", ")")}) == [("model.py", 7, "RPL101")]


def test_evaluation_program_that_loads_weights_is_not_blamed_for_their_init() -> None:
    evaluate = (
        "import torch\nfrom model import Net\n\nnet = Net()\nnet.load_state_dict(torch.load('net.pt'))\n"
        "with torch.no_grad():\n    print(net(torch.ones(1, 4)) + torch.randn(1, 2))\n"
    )
    model = MODEL.split("\nif __name__")[0] + "\n"
    assert found({"model.py": model, "evaluate.py": evaluate}) == [("evaluate.py", 7, "RPL101")]
    # Without the load, the init draws are the evaluation's own.
    no_load = evaluate.replace("net.load_state_dict(torch.load('net.pt'))\n", "")
    assert ("model.py", 7, "RPL101") in found({"model.py": model, "evaluate.py": no_load})


def test_training_flags_only_for_training_programs() -> None:
    infer = "import torch\nnet = torch.nn.Conv2d(3, 8, 3).cuda()\nnet.load_state_dict(torch.load('w.pt'))\n"
    infer += "with torch.no_grad():\n    print(net(torch.ones(1, 3, 8, 8).cuda()))\n"
    assert [c for _, _, c in found({"infer.py": infer})] == []
    train = infer + (
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "net(torch.ones(1, 3, 8, 8).cuda()).flatten(1).index_select(0, idx).sum().backward()\nopt.step()\n"
    )
    codes = [c for _, _, c in found({"train.py": train})]
    assert "RPL301" in codes and "RPL302" in codes


DATA = (
    "import random\nfrom torch.utils.data import Dataset\n\n"
    "class Flip(Dataset):\n    def __len__(self):\n        return 8\n\n"
    "    def __getitem__(self, i):\n        return i if random.random() < 0.5 else -i\n"
)


def _loader(workers: int) -> str:
    return (
        "import torch\nfrom torch.utils.data import DataLoader\nfrom data import Flip\n\n"
        f"torch.manual_seed(0)\nfor batch in DataLoader(Flip(), num_workers={workers}):\n    print(batch)\n"
    )


def test_worker_draws_need_only_torchs_seed() -> None:
    assert found({"data.py": DATA, "train.py": _loader(4)}) == []
    # In the main process nothing reseeds `random`.
    assert found({"data.py": DATA, "train.py": _loader(0)}) == [("data.py", 9, "RPL101")]


def test_a_seeding_helper_nobody_calls_seeds_nothing() -> None:
    source = (
        "import random\nimport torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n    random.seed(s)\n\n"
        "x = torch.randn(2)\n"
    )
    (d,) = check_sources({"train.py": source})
    assert d.data.get("variant") is None and "never seeded" in d.message
    assert "set_seed" not in d.message and "manual_seed" not in d.message


def test_another_scripts_class_runs_only_when_built() -> None:
    other = (
        "import torch\nimport torch.nn as nn\n\nclass QNet(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n\ndef args():\n    return 1\n\nif __name__ == '__main__':\n    q = QNet()\n"
        "    opt = torch.optim.SGD(q.parameters(), lr=0.1)\n    for _ in range(100):\n"
        "        q(1).sum().backward()\n        opt.step()\n"
    )
    jax_script = "import jax\nfrom dqn import args\n\nif __name__ == '__main__':\n    print(args())\n"
    result = check_sources({"dqn.py": other, "dqn_jax.py": jax_script})
    assert [(d.path, d.entry_points) for d in result if d.code == "RPL101"] == [("dqn.py", ("dqn.py",))]


def test_json_reports_the_role_of_each_entry_point() -> None:
    import io

    diagnostics = check_sources({"model.py": MODEL, "train.py": TRAIN})
    out = io.StringIO()
    render_json(Report(diagnostics, 2), out)
    (item,) = json.loads(out.getvalue())
    assert item["roles"] == {"train.py": "training"}


def test_an_imported_training_function_nobody_calls_does_not_make_a_training_program() -> None:
    chapter = (
        "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n        self.drop = nn.Dropout(0.1)\n\n"
        "def train(net, opt):\n    net(torch.ones(1, 4)).sum().backward()\n    opt.step()\n"
    )
    load = (
        "import torch\nfrom chapter import Net\n\n"
        "if __name__ == '__main__':\n    net = Net()\n    net.load_state_dict(torch.load('ft.pt'))\n"
        "    net.eval()\n    print(net(torch.ones(1, 4)))\n"
    )
    assert found({"chapter.py": chapter, "load_finetuned.py": load}) == []
    # The same script calling train() trains: its dropout masks are its own draws (the
    # drawn weights still never count: the strict load replaces them all).
    trains = load.replace("    net.eval()\n", "    train(net, torch.optim.SGD(net.parameters(), lr=0.1))\n")
    trains = trains.replace("from chapter import Net", "from chapter import Net, train")
    assert found({"chapter.py": chapter, "load_finetuned.py": trains}) == [("chapter.py", 8, "RPL101")]


def test_modules_reached_only_through_another_script_run_only_what_this_program_builds() -> None:
    sources = {
        # The package imports every algorithm: importing `algos.logx` runs them all.
        "algos/__init__.py": "from algos import torch_algo\nfrom algos import tf_algo\n",
        "algos/logx.py": "LEVEL = 1\n",
        "algos/torch_core.py": (
            "import torch.nn as nn\n\nclass Actor(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n"
        ),
        "algos/torch_algo.py": (
            "import torch\nfrom algos import torch_core\n\ndef run():\n    torch.manual_seed(0)\n"
            "    ac = torch_core.Actor()\n    ac(torch.ones(1, 4)).sum().backward()\n\n"
            "if __name__ == '__main__':\n    run()\n"
        ),
        "algos/tf_algo.py": (
            "import tensorflow as tf\nimport algos.logx\n\ndef run():\n    tf.random.set_seed(0)\n"
            "    x = tf.Variable(tf.random.normal([2]))\n    tf.keras.optimizers.SGD().apply_gradients([(x, x)])\n\n"
            "if __name__ == '__main__':\n    run()\n"
        ),
    }
    assert [d for d in check_sources(sources) if d.code in ("RPL101", "RPL105")] == []


def test_tf_in_an_uncalled_helper_of_an_imported_logger_is_no_tf_training() -> None:
    logger = (
        "import tensorflow as tf\n\ndef restore_and_finetune(sess, loss):\n"
        "    out = tf.compat.v1.layers.dense(tf.ones([1, 2]), 1)\n"
        "    tf.compat.v1.train.AdamOptimizer().minimize(tf.reduce_sum(out))\n"
    )
    train = (
        "import torch\nimport logx\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
        "    net = torch.nn.Linear(2, 1)\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "    net(torch.ones(1, 2)).sum().backward()\n    opt.step()\n"
    )
    assert [c for _, _, c in found({"logx.py": logger, "ppo.py": train})] == []
    called = train + "    logx.restore_and_finetune(None, None)\n"
    assert "RPL304" in [c for _, _, c in found({"logx.py": logger, "ppo.py": called})]


def test_benchmarks_are_not_programs_and_docs_are_demos() -> None:
    script = "import torch\nx = torch.randn(2)\n"
    assert found({"benchmarks/speed.py": script, "docs/guide.py": script}) == []
    assert found({"scripts/speed.py": script}) == [("scripts/speed.py", 2, "RPL101")]


def test_torchvision_random_transforms_draw_in_the_workers() -> None:
    source = (
        "import torch\nimport torchvision.transforms as T\nfrom torch.utils.data import DataLoader\n"
        "from torchvision.datasets import FakeData\n\ntorch.manual_seed(0)\n"
        "aug = T.RandomChoice([T.RandomHorizontalFlip(), T.RandomVerticalFlip()])\n"
        "loader = DataLoader(FakeData(transform=aug), num_workers={n})\nfor batch in loader:\n    pass\n"
    )
    assert [c for _, _, c in found({"train.py": source.replace("{n}", "4")})] == []
    assert "RPL101" in [c for _, _, c in found({"train.py": source.replace("{n}", "0")})]


def test_a_spawned_worker_that_resumes_from_a_checkpoint_still_trains() -> None:
    source = (
        "import torch\nimport torch.nn as nn\n\ndef main_worker(gpu):\n    net = nn.Linear(2, 1).cuda(gpu)\n"
        "    net.load_state_dict(torch.load('ckpt.pt'))\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "    net(torch.ones(1, 2).cuda(gpu)).index_select(0, idx).sum().backward()\n    opt.step()\n\n"
        "if __name__ == '__main__':\n    torch.multiprocessing.spawn(main_worker, nprocs=2)\n"
    )
    (d,) = [d for d in check_sources({"main.py": source}) if d.code == "RPL301"]
    assert d.data["roles"] == {"main.py": "training"}


SMOKE = (
    "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
    "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n"
    "if __name__ == '__main__':\n    net = Net()\n"
)


def test_one_training_step_in_a_library_modules_main_block_is_a_smoke_demo() -> None:
    # vit-pytorch: `loss.backward(); opt.step()` once on random input, or a bare backward
    once = SMOKE + "    opt = torch.optim.Adam(net.parameters())\n    net(torch.randn(2, 4)).sum().backward()\n    opt.step()\n"
    bare = SMOKE + "    for n in (1, 2):\n        net(torch.randn(n, 4)).sum().backward()\n"
    for main in (once, bare):
        assert found({"pkg/__init__.py": "", "pkg/net.py": main}) == []
    # the same module trained in a loop with an optimizer is a training program
    looped = SMOKE + (
        "    opt = torch.optim.Adam(net.parameters())\n    for step in range(100):\n"
        "        net(torch.randn(2, 4)).sum().backward()\n        opt.step()\n"
    )
    assert found({"pkg/__init__.py": "", "pkg/net.py": looped}) == [("pkg/net.py", 7, "RPL101")]
    # and a script of its own (no package, nobody imports it) that steps once still is
    assert found({"net.py": once}) == [("net.py", 7, "RPL101")]
    # a Lightning module's __main__ block runs its loop in the Trainer: training
    lightning = (
        "import torch\nimport torch.nn as nn\nimport lightning as L\n\n"
        "class Lit(L.LightningModule):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n\n    def configure_optimizers(self):\n"
        "        return torch.optim.Adam(self.parameters())\n\n"
        "if __name__ == '__main__':\n    L.Trainer(max_epochs=3).fit(Lit())\n"
    )
    result = check_sources({"pkg/__init__.py": "", "pkg/lit.py": lightning})
    assert [(d.path, d.span.start_line, d.data["roles"]) for d in result if d.code == "RPL101"] == [
        ("pkg/lit.py", 8, {"pkg/lit.py": "training"})
    ]


def test_gradients_of_inputs_only_do_not_make_a_training_program() -> None:
    # classifier guidance in a sampling script: autograd.grad of the input, a loaded model
    sample = (
        "import torch\nfrom model import Net\n\nnet = Net()\nnet.load_state_dict(torch.load('m.pt'))\n"
        "def cond_fn(x):\n    x = x.detach().requires_grad_(True)\n"
        "    return torch.autograd.grad(net(x).sum(), x)[0]\n\n"
        "noise = torch.randn(2, 4)\nprint(cond_fn(noise))\n"
    )
    model = "import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n"
    result = check_sources({"guide.py": sample, "model.py": model})
    # the weight init is overwritten by the load: only the sampling noise is reported
    assert [(d.path, d.span.start_line, d.data["roles"]) for d in result if d.code == "RPL101"] == [
        ("guide.py", 10, {"guide.py": "evaluation"})
    ]


def test_a_benchmark_that_times_backward_passes_trains_nothing() -> None:
    # LLMs-from-scratch mha-implementations: forward+backward timed with CUDA events, no optimizer
    bench = (
        "import torch\nimport torch.nn.functional as F\n\nx = torch.ones(2, 4, 8, 16, device='cuda', requires_grad=True)\n"
        "start = torch.cuda.Event(enable_timing=True)\nend = torch.cuda.Event(enable_timing=True)\n"
        "for _ in range(10):\n    start.record()\n"
        "    F.scaled_dot_product_attention(x, x, x).sum().backward()\n    end.record()\n"
        "print(start.elapsed_time(end))\n"
    )
    result = check_sources({"bench_attention.py": bench})
    assert [d.code for d in result if d.code in ("RPL201", "RPL301")] == []
    # the same loop with an optimizer step trains: its attention backward is reported,
    # once, by RPL301, which lists the call as related (no per-site RPL201)
    trains = bench.replace(
        "for _ in range(10):\n", "opt = torch.optim.SGD([x], lr=0.1)\nfor _ in range(10):\n"
    ).replace("    end.record()\n", "    opt.step()\n    end.record()\n")
    result = check_sources({"bench_attention.py": trains})
    (program,) = [d for d in result if d.code == "RPL301"]
    assert [r.span.start_line for r in program.related] == [10]
    assert "scaled_dot_product_attention" in program.message
    assert [d.code for d in result if d.code == "RPL201"] == []


def test_a_benchmark_that_trains_and_evaluates_nothing_is_no_program_of_its_draws() -> None:
    # random matrices only timed: the program's results are its timings
    bench = (
        "import timeit\nimport tensorflow as tf\n\na = tf.random.normal([100, 10])\nb = tf.random.normal([10, 20])\n\n"
        "def run():\n    return tf.matmul(a, b)\n\nprint(timeit.timeit(run, number=10))\n"
    )
    result = check_sources({"matmul_speed.py": bench})
    assert [d.code for d in result if d.code == "RPL101"] == []
    # without the timing the same draws are a program's, reported (at the first draw)
    untimed = bench.replace("import timeit\n", "").replace("print(timeit.timeit(run, number=10))", "print(run())")
    assert [(d.code, d.span.start_line) for d in check_sources({"matmul_speed.py": untimed})] == [("RPL101", 3)]


def test_a_package_modules_smoke_run_of_a_model_that_loads_its_own_weights_is_a_demo() -> None:
    # the model's constructor loads pretrained weights: the smoke run is no evaluation
    backbone = (
        "import torch\nimport torch.nn as nn\nimport torch.utils.model_zoo as model_zoo\n\n\n"
        "class Backbone(nn.Module):\n    def __init__(self, pretrained=True):\n        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n        if pretrained:\n            self._load()\n\n"
        "    def _load(self):\n        self.load_state_dict(model_zoo.load_url('https://example.org/b.pth'))\n\n\n"
        "if __name__ == '__main__':\n    x = torch.rand(1, 4)\n    print(Backbone()(x).size())\n"
    )
    package = {"pkg/__init__.py": "from pkg import backbone\n", "pkg/backbone.py": backbone}
    assert [d for d in check_sources(package) if d.code == "RPL101"] == []
    # the module's own code loads a checkpoint and runs the model on a random input: an evaluation
    evaluates = backbone.replace(
        "    print(Backbone()(x).size())\n",
        "    net = Backbone(pretrained=False)\n    net.load_state_dict(torch.load('trained.pt'))\n    print(net(x))\n",
    )
    found = [(d.path, d.span.start_line) for d in check_sources({**package, "pkg/backbone.py": evaluates}) if d.code == "RPL101"]
    assert found == [("pkg/backbone.py", 18)]
