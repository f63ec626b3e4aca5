"""What two blind rounds on unseen code (stop 59, rounds z and w) showed `check` getting
wrong, as mechanisms: a method of a plain class or a torch module runs only where code
names it (`model.sample(...)`, `getattr(model, "sample")`); `super().__init__(...)` runs the base's
constructor at the call; a weight computed from a draw through several assignments is an
initial weight a checkpoint load replaces; a configuration holding a time stamp is no
seed; tf.keras on a TensorFlow 2 before 2.11 draws initial weights from TensorFlow's
seed; a loop over a set that only counts takes no order."""
from __future__ import annotations

from pathlib import Path

from project_files import found, messages, write

# ---------------------------------------------------------------- methods run where named

DIFFUSION = (
    "import numpy as np\nimport torch\n\n\n"
    "class Diffusion:\n"
    "    def __init__(self, steps):\n        self.steps = steps\n\n"
    "    def noisy(self, x):\n        return x + np.random.standard_normal(x.shape)\n\n"
    "    def loss(self, model, x):\n        return ((model(x) - x) ** 2).mean()\n"
)
TRAIN = (
    "import torch\nfrom diffusion import Diffusion\n\n"
    "torch.manual_seed(0)\nmodel = torch.nn.Linear(4, 4)\nd = Diffusion(10)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for step in range(3):\n"
    "    loss = d.loss(model, torch.ones(2, 4))\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
)
SAMPLE = (
    "import torch\nfrom diffusion import Diffusion\n\n"
    "torch.manual_seed(0)\nd = Diffusion(10)\nprint({call})\n"
)


def test_a_method_runs_only_in_the_programs_that_name_it(tmp_path: Path) -> None:
    # both scripts build a Diffusion; only the sampling one names `noisy`
    write(tmp_path, {"diffusion.py": DIFFUSION, "train.py": TRAIN,
                     "sample.py": SAMPLE.format(call="d.noisy(torch.ones(1))")})
    [message] = messages(tmp_path, "RPL101")
    assert message.endswith(f"(entry point: {tmp_path / 'sample.py'})")
    assert found(tmp_path, "RPL101") == [("diffusion.py", 10)]


def test_a_method_getattr_names_with_a_literal_runs(tmp_path: Path) -> None:
    write(tmp_path, {"diffusion.py": DIFFUSION, "train.py": TRAIN,
                     "sample.py": SAMPLE.format(call="getattr(d, 'noisy')(torch.ones(1))")})
    [message] = messages(tmp_path, "RPL101")
    assert message.endswith(f"(entry point: {tmp_path / 'sample.py'})")


def test_a_method_no_program_names_runs_for_nobody(tmp_path: Path) -> None:
    write(tmp_path, {"diffusion.py": DIFFUSION, "train.py": TRAIN, "sample.py": SAMPLE.format(call="d.steps")})
    assert found(tmp_path, "RPL101") == []


# ---------------------------------------------------------------- super().__init__ runs at the call

CLASSIFIER = (
    "import numpy as np\nimport torch\nimport torch.nn as nn\n\n\n"
    "class Classifier(object):\n"
    "    def __init__(self, dim, seed=1111):\n        np.random.seed(seed)\n        torch.manual_seed(seed)\n"
    "        self.dim = dim\n\n"
    "    def fit(self, x, y):\n"
    "        opt = torch.optim.Adam(self.model.parameters())\n"
    "        loss = nn.functional.cross_entropy(self.model(x), y)\n"
    "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n\n\n"
    "class MLP(Classifier):\n"
    "    def __init__(self, dim, seed=1111):\n"
    "        {call}\n"
    "        self.model = nn.Linear(dim, 2)\n"
)
RUN = "import torch\nfrom clf import MLP\n\nMLP(4, seed=3).fit(torch.ones(8, 4), torch.zeros(8, dtype=torch.long))\n"


def test_super_init_runs_the_base_constructor_at_the_call(tmp_path: Path) -> None:
    for call in ("super().__init__(dim, seed)", "super(MLP, self).__init__(dim, seed)",
                 "super(self.__class__, self).__init__(dim, seed)"):
        write(tmp_path, {"clf.py": CLASSIFIER.replace("{call}", call), "run.py": RUN})
        assert found(tmp_path, "RPL101") == [], call


def test_a_layer_built_before_super_init_is_drawn_before_its_seed(tmp_path: Path) -> None:
    late = CLASSIFIER.replace("        {call}\n        self.model = nn.Linear(dim, 2)\n",
                              "        self.model = nn.Linear(dim, 2)\n        super().__init__(dim, seed)\n")
    write(tmp_path, {"clf.py": late, "run.py": RUN})
    [message] = messages(tmp_path, "RPL101")
    assert "before `torch.manual_seed` runs" in message


# ---------------------------------------------------------------- weights computed from a draw

FLOW = (
    "import torch\nimport torch.nn as nn\n\n\n"
    "class InvConv(nn.Module):\n"
    "    def __init__(self, n):\n        super().__init__()\n"
    "        w = torch.linalg.qr(torch.randn(n, n))[0]\n"
    "        p, lower, upper = torch.linalg.lu(w)\n"
    "        self.register_buffer('p', p)\n        self.lower = nn.Parameter(lower)\n"
    "        self.upper = nn.Parameter(torch.triu(upper, 1))\n{extra}\n"
    "    def forward(self, x):\n        return x @ (self.p @ self.lower @ self.upper)\n"
)
LOAD = (
    "import torch\nfrom flow import InvConv\n\n"
    "model = InvConv(4)\nmodel.load_state_dict(torch.load('flow.pth'))\nprint(model(torch.ones(1, 4)))\n"
)


def test_a_weight_computed_from_a_draw_is_replaced_by_a_load(tmp_path: Path) -> None:
    write(tmp_path, {"flow.py": FLOW.format(extra=""), "sample.py": LOAD})
    assert found(tmp_path, "RPL101") == []


def test_a_draw_kept_as_a_plain_attribute_is_not_replaced(tmp_path: Path) -> None:
    write(tmp_path, {"flow.py": FLOW.format(extra="        self.noise = torch.rand(n)\n"), "sample.py": LOAD})
    assert found(tmp_path, "RPL101") == [("flow.py", 13)]


# ---------------------------------------------------------------- a configuration is no seed

LAUNCHER = (
    "import random\n\nimport numpy as np\n\n\n"
    "def run(fn, seed=None, variant=None):\n"
    "    if seed is None:\n        seed = 1234\n"
    "    random.seed(seed)\n    np.random.seed(seed)\n    return fn(variant)\n"
)


def test_a_configuration_holding_a_time_stamp_is_no_seed(tmp_path: Path) -> None:
    go = (
        "import time\nfrom datetime import datetime\nfrom launcher import run\n\n"
        "variant = {value}\nrun(print, {args})\n"
    )
    cases = [
        ("dict(epochs=1, launch=str(datetime.now()))", "variant=variant", []),
        ("{'launch': time.time()}", "variant=variant", []),
        ("[datetime.now()]", "variant=variant", []),
        ("int(time.time())", "seed=variant", [("go.py", 6)]),
    ]
    for value, args, expected in cases:
        write(tmp_path, {"launcher.py": LAUNCHER, "go.py": go.format(value=value, args=args)})
        assert found(tmp_path, "RPL103") == expected, value


# ---------------------------------------------------------------- tf.keras before 2.11

KERAS = (
    "import random\n\nimport numpy as np\nimport tensorflow as tf\n\n"
    "random.seed(0)\nnp.random.seed(0)\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(4)])\n"
    "model.compile(optimizer='adam', loss='mse')\n"
    "model.fit(np.zeros((8, 2)), np.zeros((8, 4)), epochs=1)\n"
)


def test_tf_keras_before_2_11_draws_initial_weights_from_tensorflow(tmp_path: Path) -> None:
    write(tmp_path, {"requirements.txt": "tensorflow==2.4.1\n", "train.py": KERAS})
    [message] = messages(tmp_path, "RPL101")
    assert message.startswith("`tf.keras.layers.Dense(...)` initialises weights from TensorFlow's global RNG")
    assert found(tmp_path, "RPL101") == [("train.py", 8)]


def test_tf_keras_from_2_11_draws_initial_weights_from_random(tmp_path: Path) -> None:
    # `random` is seeded, so only `fit`'s shuffling is left to TensorFlow
    write(tmp_path, {"requirements.txt": "tensorflow==2.13.0\n", "train.py": KERAS})
    assert found(tmp_path, "RPL101") == [("train.py", 10)]


# ---------------------------------------------------------------- a set loop that counts

COUNT = (
    "import torch\n\nnames = set(open('entities.txt').read().split())\npairs = set()\nranks = [0]\n"
    "for name in names:\n{body}\n"
    "torch.save(torch.tensor(ranks), 'ranks.pt')\n"
)


def test_a_loop_over_a_set_that_only_counts_takes_no_order(tmp_path: Path) -> None:
    bodies = [
        ("    if ('a', name) in pairs: continue\n    if name < 'm':\n        ranks[-1] += 1\n", False),
        ("    if name in pairs:\n        ranks[0] -= 2\n    else:\n        pass\n", False),
        ("    ranks[-1] += 1\n    if name < 'm':\n        break\n", True),  # the first name decides
        ("    if name < 'm':\n        ranks.append(1)\n", True),
        ("    if len(name) > 3:\n        ranks[-1] += 1\n", True),  # a call in the test: not visibly pure
    ]
    for body, reported in bodies:
        write(tmp_path, {"rank.py": COUNT.format(body=body)})
        assert bool(found(tmp_path, "RPL401")) is reported, body
