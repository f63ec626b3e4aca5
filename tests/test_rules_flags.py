"""RPL301-RPL307: one finding per program, at the line that selects the GPU."""

from __future__ import annotations

import pytest

from reprolint.api import check_source, check_sources
from reprolint.config import Settings

TRAIN = (
    "import torch\n"
    "import torch.nn as nn\n"
    "net = nn.Conv2d(3, 8, 3)\n"
    "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
    "net = net.to(device)\n"
    "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
    # index_select's backward adds with atomics on CUDA: a kernel RPL301 is about
    "net(x).flatten(1).index_select(0, idx).sum().backward()\n"
)


# The rules these tests are about, by code rather than by the family's prefix: another
# rule of the family (one about how a flag is set, say) is tested by its own examples
# and does not change what these tests expect.
FLAG_RULES = ("RPL301", "RPL302", "RPL303", "RPL304", "RPL305", "RPL306", "RPL307")


def found(source: str, codes: tuple[str, ...] = FLAG_RULES, **settings: object) -> list[tuple[int, str]]:
    diags = check_source(source, "train.py", Settings(**settings))  # type: ignore[arg-type]
    return sorted((d.span.start_line, d.code) for d in diags if d.code in codes)


def test_missing_flags_are_reported_once_at_the_line_that_selects_the_gpu() -> None:
    assert found(TRAIN) == [(4, "RPL301"), (4, "RPL302")]


def test_cpu_program_gets_no_flag_findings() -> None:
    assert found(TRAIN.replace("'cuda' if torch.cuda.is_available() else 'cpu'", "'cpu'")) == []


def test_every_real_way_of_turning_the_flag_on_is_accepted() -> None:
    ways = [
        "torch.use_deterministic_algorithms(True)\n",
        "torch.use_deterministic_algorithms(mode=True)\n",
        "torch.use_deterministic_algorithms(True, warn_only=True)\n",
        "torch.set_deterministic_debug_mode('error')\n",
    ]
    env = "import os\nos.environ.setdefault('CUBLAS_WORKSPACE_CONFIG', ':4096:8')\n"
    for way in ways:
        assert found(env + TRAIN.replace("net = nn.Conv2d", way + "net = nn.Conv2d")) == [], way


def test_flag_behind_a_default_off_option_does_not_count() -> None:
    source = (
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--det', action='store_true')\n"
        "args = p.parse_args()\n" + TRAIN.replace(
            "net = nn.Conv2d", "if args.det:\n    torch.use_deterministic_algorithms(True)\nnet = nn.Conv2d"
        )
    )
    assert [code for _, code in found(source)] == ["RPL301", "RPL302"]


def test_cublas_is_required_up_to_29_and_advisory_after() -> None:
    source = "import torch\ntorch.use_deterministic_algorithms(True)\nm = torch.nn.Linear(2, 2).cuda()\n"
    [old] = [d for d in check_source(source, "t.py", Settings(torch_version="1.8")) if d.code == "RPL303"]
    [new] = [d for d in check_source(source, "t.py", Settings(torch_version="2.13")) if d.code == "RPL303"]
    assert "torch 1.8 raises RuntimeError" in old.message
    assert "advisory with torch 2.13" in new.message and "torch <= 2.9" in new.message


def test_framework_trainers_are_left_to_rpl306() -> None:
    source = (
        "import lightning as L\nL.seed_everything(0)\n"
        "trainer = L.Trainer(max_epochs=1, deterministic=False)\ntrainer.fit(model)\n"
    )
    assert found(source) == [(3, "RPL306")]
    project = {
        "train.py": "import argparse, lightning as L\np = argparse.ArgumentParser()\n"
                    "p.add_argument('--det', type=bool, default=True)\nargs = p.parse_args()\n"
                    "L.seed_everything(0)\ntrainer = L.Trainer(deterministic=args.det)\ntrainer.fit(m)\n",
    }
    assert [d for d in check_sources(project) if d.code in FLAG_RULES] == []


def test_tf_and_jax_programs_are_taken_to_run_on_a_gpu() -> None:
    tf = "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=1)\n"
    assert (1, "RPL304") in found(tf)
    hidden = tf.replace("\nmodel =", "\ntf.config.set_visible_devices([], 'GPU')\nmodel =")
    assert (1, "RPL304") not in found(hidden)
    jax = "import jax\ng = jax.grad(f)(p)\nprint(g)\n"
    assert found(jax) == [(1, "RPL305")]
    assert found("import os\nos.environ['JAX_PLATFORMS'] = 'cpu'\n" + jax) == []


@pytest.mark.parametrize(
    "setup, gpu",
    [
        ("import os\nos.environ['JAX_PLATFORMS'] = 'tpu'\n", False),
        ("import os\nos.environ['JAX_PLATFORMS'] = 'tpu,cpu'\n", False),
        ("import os\nos.environ['JAX_PLATFORMS'] = 'cuda,cpu'\n", True),
        ("import jax\njax.config.update('jax_platforms', 'tpu')\n", False),
        ("import jax\njax.config.update('jax_platform_name', 'gpu')\n", True),
        ("import jax.tools.colab_tpu\njax.tools.colab_tpu.setup_tpu()\n", False),  # a Colab TPU runtime
        # connected only in a TPU runtime: on a GPU runtime the same notebook runs on the GPU
        ("import os, jax.tools.colab_tpu\nif 'COLAB_TPU_ADDR' in os.environ:\n    jax.tools.colab_tpu.setup_tpu()\n", True),
    ],
)
def test_a_jax_program_on_tpu_or_cpu_only_is_no_gpu_program(setup: str, gpu: bool) -> None:
    jax = "import jax\ng = jax.grad(f)(p)\nprint(g)\n"
    assert any(code == "RPL305" for _, code in found(setup + jax)) is gpu


def test_pythonhashseed_follows_set_order_across_modules() -> None:
    project = {
        "train.py": "import vocab\nprint(vocab.build(open('a').read().split()))\n",
        "vocab.py": "def build(words):\n    return {w: i for i, w in enumerate(set(words))}\n",
    }
    # one cause, one finding: RPL401 reports the site (its message names the hash seed)
    diags = check_sources(project)
    assert sorted((d.path, d.code) for d in diags) == [("vocab.py", "RPL401")]
    assert "PYTHONHASHSEED" in diags[0].message
    # the site silenced for RPL401: the program's dependence is reported once, at train.py
    silenced = dict(project, **{"vocab.py": project["vocab.py"].replace("))}\n", "))}  # noqa: RPL401\n")})
    diags = check_sources(silenced)
    assert sorted((d.path, d.code) for d in diags) == [("train.py", "RPL307")]
    assert "vocab.py:2" in diags[0].message


_PARSED_ARGS = (
    "import torch\nfrom transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments, Trainer\n"
    "(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"
    "model = AutoModelForCausalLM.from_pretrained('out/checkpoint').cuda()\n"
    "BODY\n"
)


@pytest.mark.parametrize(("body", "reported"), [
    ("with torch.no_grad():\n    print(model.generate(ids, max_new_tokens=8))", False),  # evaluates
    ("Trainer(model=model, args=args, train_dataset=data).train()", True),
])
def test_rpl306_reports_training_arguments_only_where_the_program_trains(body: str, reported: bool) -> None:
    found = [d.code for d in check_source(_PARSED_ARGS.replace("BODY", body), "run.py") if d.code == "RPL306"]
    assert found == (["RPL306"] if reported else [])


_JAX = (
    "import jax\nimport optax\nfrom flax.training import checkpoints, common_utils\n"
    "params = checkpoints.restore_checkpoint('ckpt/', target=None)\n"
    "def step(params, x, y):\n    BODY\n"
    "for batch in common_utils.shard(data):\n    params = step(params, *batch)\n"
)


@pytest.mark.parametrize(("body", "reported"), [
    ("return optax.softmax_cross_entropy_with_integer_labels(f(params, x), y).mean()", False),  # evaluates
    ("return optax.l2_loss(f(params, x), y).mean()", False),
    ("return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, jax.grad(loss)(params, x, y))", True),
    ("return optax.apply_updates(params, grads)", True),
])
def test_rpl305_counts_optimizer_steps_not_losses_or_checkpoint_helpers(body: str, reported: bool) -> None:
    found = [d.code for d in check_source(_JAX.replace("BODY", body), "run.py") if d.code == "RPL305"]
    assert found == (["RPL305"] if reported else [])
