"""What the blind rounds on unseen code of stop 61 (rounds s and r) showed `check` getting
wrong, as mechanisms: a TF 1 initialiser object draws nothing when it is made (the graph seed is
read when a variable's initial value is built with it), so a default argument made at
import comes before no draw; a generator built into a name nothing reads draws nothing
(tests/test_per_entry_outputs.py: listings whose entries become their own files)."""
from __future__ import annotations

from pathlib import Path

from project_files import found, messages, write

TF1 = (
    "import tensorflow as tf\n\n\n"
    "def dense(x, n, w_init=tf.{init}(stddev=0.02)):\n"
    "    w = tf.get_variable('w', [4, n], initializer=w_init)\n"
    "    return tf.matmul(x, w)\n\n\n"
    "def main():\n"
    "{seed}"
    "    x = tf.placeholder(tf.float32, [None, 4])\n"
    "    y = dense(x, 8)\n"
    "    with tf.Session() as sess:\n"
    "        sess.run(tf.global_variables_initializer())\n"
    "        print(sess.run(y, {{x: [[1.0, 2.0, 3.0, 4.0]]}}))\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


def test_an_initialiser_made_at_import_draws_when_the_variable_is_built_after_the_seed(tmp_path: Path) -> None:
    for init in ("random_normal_initializer", "truncated_normal_initializer"):
        write(tmp_path, {"train.py": TF1.format(init=init, seed="    tf.set_random_seed(42)\n")})
        assert found(tmp_path, "RPL101") == [], init
    contrib = TF1.format(init="random_normal_initializer", seed="    tf.set_random_seed(42)\n").replace(
        "tf.random_normal_initializer(stddev=0.02)", "tf.contrib.layers.xavier_initializer()")
    write(tmp_path, {"train.py": contrib})
    assert found(tmp_path, "RPL101") == []


def test_an_initialiser_of_a_program_that_never_seeds_tensorflow_is_reported(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TF1.format(init="random_normal_initializer", seed="")})
    assert found(tmp_path, "RPL101") == [("train.py", 4)]
    assert "never seeded" in messages(tmp_path, "RPL101")[0]


GPU_OPTION = (
    "import argparse\nimport time\n\nimport torch\nimport torch.nn as nn\n\n\n"
    "def time_wrap(use_gpu):\n    if use_gpu:\n        torch.cuda.synchronize()\n    return time.time()\n\n\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--use-gpu', action='store_true', default=False)\n"
    "    parser.add_argument('--deterministic', action='store_true')\n"
    "    args = parser.parse_args()\n"
    "    use_gpu = args.use_gpu and torch.cuda.is_available()\n"
    "{flag}"
    "    if use_gpu:\n{same}        device = torch.device('cuda', 0)\n"
    "    else:\n        device = torch.device('cpu')\n"
    "    torch.manual_seed(0)\n"
    "    model = nn.Sequential(nn.Conv1d(4, 8, 3), nn.ReLU()).to(device)\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    for _ in range(10):\n"
    "        t0 = time_wrap(use_gpu)\n"
    "        loss = model(torch.randn(2, 4, 16, device=device)).sum()\n"
    "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n"
    "        print(time_wrap(use_gpu) - t0)\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)
SET_WITH_GPU = "        torch.backends.cudnn.deterministic = True\n"


def test_a_flag_set_under_the_option_that_selects_cuda_is_set_whenever_cuda_runs(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": GPU_OPTION.format(flag="", same=SET_WITH_GPU)})
    assert found(tmp_path, "RPL302") == []


def test_a_flag_under_another_option_or_none_is_reported_at_the_cuda_line_the_option_selects(tmp_path: Path) -> None:
    # the CUDA work of `time_wrap(use_gpu)` runs only when `--use-gpu` is passed too: the
    # finding names the device line that option selects, not a default-run CUDA call
    write(tmp_path, {"train.py": GPU_OPTION.format(flag="", same="")})
    assert found(tmp_path, "RPL302") == [("train.py", 21)]
    (message,) = messages(tmp_path, "RPL302")
    assert "when run with `--use-gpu`" in message and "never sets" in message
    other = "    if args.deterministic:\n" + SET_WITH_GPU
    write(tmp_path, {"train.py": GPU_OPTION.format(flag=other, same="")})
    (message,) = messages(tmp_path, "RPL302")
    assert "only when `args.deterministic`" in message


CPU_TIMED = (
    "import time\n\nimport torch\nimport torch.nn as nn\n\n"
    "torch.manual_seed(0)\n"
    "model = nn.Conv2d(3, 8, 3)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for _ in range(3):\n"
    "    out = model(torch.randn(1, 3, 8, 8))\n"
    "    if out.is_cuda:\n        torch.cuda.synchronize()\n"
    "    out.sum().backward()\n    opt.step()\n"
)


def test_cuda_work_behind_an_is_cuda_test_selects_no_cuda(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": CPU_TIMED})
    assert found(tmp_path, "RPL302") == []
    # the same sync where the model is moved to CUDA: the program runs cuDNN there
    write(tmp_path, {"train.py": CPU_TIMED.replace("nn.Conv2d(3, 8, 3)", "nn.Conv2d(3, 8, 3).cuda()")})
    assert found(tmp_path, "RPL302") == [("train.py", 7)]


KEYED = (
    "import numpy as np\n\n"
    "INPUT_KEYS = {{'ob', 'ac', 'first', 'logp'}}\n\n\n"
    "def minibatch(seg):\n"
    "    batch = {value}\n"
    "    return batch\n\n\n"
    "np.random.seed(0)\n"
    "print(minibatch({{'ob': 1, 'ac': 2, 'first': 3, 'logp': 4}}))\n"
)


def test_a_mapping_keyed_by_each_entry_of_a_set_holds_the_same_pairs_in_any_order(tmp_path: Path) -> None:
    write(tmp_path, {"ppo.py": KEYED.format(value="{k: seg[k] for k in INPUT_KEYS}")})
    assert found(tmp_path, "RPL401") == []
    write(tmp_path, {"ppo.py": KEYED.format(value="{k: np.asarray(seg[k]) for k in INPUT_KEYS}")})
    assert found(tmp_path, "RPL401") == []


def test_a_mapping_whose_values_take_the_entrys_place_takes_the_sets_order(tmp_path: Path) -> None:
    # a draw per key, a counter, a position: which key gets which value follows the order
    for value in ("{k: np.random.rand() for k in INPUT_KEYS}", "{k: next(ids) for k in INPUT_KEYS}",
                  "{k: i for i, k in enumerate(INPUT_KEYS)}"):
        write(tmp_path, {"ppo.py": KEYED.format(value=value)})
        assert found(tmp_path, "RPL401") == [("ppo.py", 7)], value


BASELINES = (
    "import time\n\nimport numpy as np\nimport tensorflow as tf\n"
    "from baselines.common import set_global_seeds\n\n\n"
    "def main():\n"
    "    set_global_seeds({seed})\n"
    "    order = np.arange(100)\n"
    "    np.random.shuffle(order)\n"
    "    print(order[:10])\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


def test_baselines_set_global_seeds_seeds_numpy_random_and_tensorflow(tmp_path: Path) -> None:
    write(tmp_path, {"train_agent.py": BASELINES.format(seed="1234")})
    assert found(tmp_path, "RPL101") == [] and found(tmp_path, "RPL103") == []
    # a seed from the clock: the helper seeds them all from it
    write(tmp_path, {"train_agent.py": BASELINES.format(seed="int(time.time()) % 10000")})
    assert found(tmp_path, "RPL101") == []
    assert found(tmp_path, "RPL103") == [("train_agent.py", 9)]
    assert "seeds NumPy, `random` and TensorFlow" in messages(tmp_path, "RPL103")[0]


RANKED_EVAL = (
    "import os\n\nimport torch\nimport torch.distributed as dist\nimport torch.nn as nn\n\n\n"
    "class Policy(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n"
    "    def forward(self, x):\n        return self.fc(x)\n\n\n"
    "def main():\n"
    "    dist.init_process_group('gloo')\n"
    "    rank = dist.get_rank()\n"
    "    torch.manual_seed(1234 + rank)\n"
    "    model = Policy()\n"
    "{load}"
    "    model.eval()\n"
    "    with torch.no_grad():\n"
    "        print(rank, model(torch.randn(8, 4)).argmax(-1))\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


def test_rank_seeded_processes_whose_weights_a_checkpoint_replaces_start_no_replica_apart(tmp_path: Path) -> None:
    # each rank draws its own inputs, but the weights are the checkpoint's on every rank
    write(tmp_path, {"evaluate.py": RANKED_EVAL.format(load="    model.load_state_dict(torch.load('policy.pt'))\n")})
    assert found(tmp_path, "RPL404") == []
    # without the load, each rank keeps the weights its own seed drew
    write(tmp_path, {"evaluate.py": RANKED_EVAL.format(load="")})
    assert found(tmp_path, "RPL404") == [("evaluate.py", 20)]


LAUNCHER = (
    "import argparse\n\nimport torch\nimport torch.multiprocessing as mp\n\nfrom train import train\n\n"
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--evaluate', action='store_true')\n"
    "    args = parser.parse_args()\n"
    "    torch.manual_seed(0)\n"
    "    if {test}:\n"
    "        processes = []\n"
    "        for rank in range(2):\n"
    "            p = mp.Process(target=train, args=(rank, args))\n"
    "            p.start()\n"
    "            processes.append(p)\n"
    "        for p in processes:\n            p.join()\n"
)
WORKER = (
    "import torch\nimport torch.nn as nn\n\n\n"
    "def train(rank, args):\n"
    "    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2)).cuda()\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.01)\n"
    "    for step in range(100):\n"
    "        loss = model(torch.randn(4, 3, 16, 16, device='cuda')).pow(2).mean()\n"
    "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n"
)


def test_worker_processes_started_under_a_test_the_defaults_pass_run_their_training(tmp_path: Path) -> None:
    # `if not args.evaluate:` holds by default: the workers train, on cuDNN
    write(tmp_path, {"main.py": LAUNCHER.format(test="not args.evaluate"), "train.py": WORKER})
    assert found(tmp_path, "RPL302") == [("train.py", 6)]
    # started only with `--evaluate`'s opposite turned on: no default run trains
    write(tmp_path, {"main.py": LAUNCHER.format(test="args.evaluate"), "train.py": WORKER})
    assert found(tmp_path, "RPL302") == []


A3C = (
    "import torch\nimport torch.multiprocessing as mp\nimport torch.nn as nn\n\n\n"
    "class Policy(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n"
    "    def forward(self, x):\n        return self.fc(x)\n\n\n"
    "def worker(rank, seed, shared_model, optimizer):\n"
    "    torch.manual_seed(seed + rank)\n"
    "    model = Policy()\n"
    "    for episode in range(10):\n"
    "        model.load_state_dict(shared_model.state_dict())\n"
    "        loss = model(torch.randn(8, 4)).pow(2).mean()\n"
    "        optimizer.zero_grad()\n"
    "        loss.backward()\n"
    "        for p, shared in zip(model.parameters(), shared_model.parameters()):\n"
    "            shared._grad = p.grad\n"
    "        optimizer.step()\n\n\n"
    "if __name__ == '__main__':\n"
    "    torch.manual_seed(1)\n"
    "    shared = Policy()\n    {share}\n"
    "    optimizer = torch.optim.SGD(shared.parameters(), lr=0.1)\n"
    "    procs = [mp.Process(target=worker, args=(r, 1, shared, optimizer)) for r in range(4)]\n"
    "    for p in procs:\n        p.start()\n"
    "    for p in procs:\n        p.join()\n"
)


def test_rank_seeded_workers_of_one_shared_memory_model_start_no_replica_apart(tmp_path: Path) -> None:
    # A3C: each worker syncs its copy from the shared model, which is the one trained
    write(tmp_path, {"main.py": A3C.format(share="shared.share_memory()")})
    assert found(tmp_path, "RPL404") == []
    assert found(tmp_path, "RPL405") != []
