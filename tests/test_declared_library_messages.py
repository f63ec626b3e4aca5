"""Messages that follow the library versions a project declares: RPL102 on an environment
reset (gym before 0.22 seeds an environment when it is built; `reset()` takes no seed)
and RPL306 on a Lightning trainer (`deterministic` defaults to False before 1.6.4)."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

PROGRAM = (
    "import gym\nimport torch\n\ntorch.manual_seed(0)\nenv = gym.make('CartPole-v1')\n"
    "obs = env.reset()\nprint(obs)\n"
)


@pytest.mark.parametrize(("requirement", "expected"), [
    ("gym==0.15.4", "which gym 0.15.4 (declared in requirements.txt as `gym==0.15.4`) seeds from OS entropy"),
    ("gym>=0.17,<0.20", "which gym before 0.22 (declared in requirements.txt as `gym>=0.17,<0.20`) seeds"),
    ("gym>=0.15.4,<0.16.0", "which gym before 0.22 (declared in requirements.txt as `gym>=0.15.4,<0.16.0`)"),
    ("gym==0.26.2", "`env.reset()` without `seed=` seeds the environment's own generator"),
    # no gym version declared: only what holds for every gym (ale-py's Atari environments
    # seed at construction, gym's own ones at the first use of their generator)
    ("numpy", "`env.reset()` starts from the environment's own generator, which is seeded from OS entropy "
              "unless the program seeds the environment (`reset(seed=...)`, or `env.seed(...)` before gym 0.26)"),
    ("gym", "`env.reset()` starts from the environment's own generator, which is seeded from OS entropy unless"),
])
def test_the_message_follows_the_declared_gym(tmp_path: Path, requirement: str, expected: str) -> None:
    (tmp_path / "requirements.txt").write_text(requirement + "\n")
    (tmp_path / "play.py").write_text(PROGRAM)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL102"]
    assert [d.span.start_line for d in found] == [6]
    assert expected in found[0].message


def test_the_declaration_is_quoted_with_its_extras(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\n\nsetup(name='rl', install_requires=[\n"
        "    'gym[atari, box2d]~=0.15.3',\n    'torch',\n])\n"
    )
    (tmp_path / "play.py").write_text(PROGRAM)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL102"]
    assert len(found) == 1
    assert "(declared in setup.py as `gym[atari,box2d]~=0.15.3`)" in found[0].message


def test_gymnasium_keeps_the_reset_seed_message(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("gym==0.15.4\ngymnasium\n")
    (tmp_path / "play.py").write_text(PROGRAM.replace("import gym\n", "import gymnasium as gym\n"))
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL102"]
    assert len(found) == 1 and "without `seed=`" in found[0].message


LIGHTNING = (
    "import pytorch_lightning as pl\nimport torch\n\n\nclass Lit(pl.LightningModule):\n"
    "    def __init__(self):\n        super().__init__()\n        self.layer = torch.nn.Linear(2, 2)\n\n\n"
    "pl.seed_everything(1)\ntrainer = pl.Trainer(max_epochs=3, gpus=1)\ntrainer.fit(Lit())\n"
)


@pytest.mark.parametrize(("requirement", "expected"), [
    ("pytorch-lightning==1.4.2",
     "`deterministic` is left at its default, False in Lightning 1.4.2 (declared in requirements.txt as "
     "`pytorch-lightning==1.4.2`)"),
    ("pytorch-lightning==1.6.4", "`deterministic` is left at its default, None (cuDNN"),
    ("pytorch-lightning>=1.3,<1.6", "`deterministic` is left at its default, False in Lightning before 1.6.4 "
     "(declared in requirements.txt as `pytorch-lightning>=1.3,<1.6`)"),
    ("torch", "`deterministic` is left at its default, None (cuDNN"),
    # 0.7.5's Trainer has no `deterministic` (0.7.6 adds it: read in both releases' trainer.py)
    ("pytorch-lightning==0.7.5", "`deterministic` is no argument of Lightning 0.7.5 (declared in requirements.txt "
     "as `pytorch-lightning==0.7.5`): it arrives in 0.7.6, so set `torch.backends.cudnn.deterministic = True` yourself"),
    ("pytorch-lightning==0.7.6", "`deterministic` is left at its default, False in Lightning 0.7.6"),
])
def test_rpl306_names_the_declared_lightning_default(tmp_path: Path, requirement: str, expected: str) -> None:
    (tmp_path / "requirements.txt").write_text(requirement + "\n")
    (tmp_path / "train.py").write_text(LIGHTNING)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL306"]
    assert [d.span.start_line for d in found] == [12]
    assert expected in found[0].message
    # `Trainer(deterministic=True)` raises TypeError on a Lightning without the argument
    assert (found[0].fix is None) is requirement.endswith("0.7.5")


def test_a_range_stands_for_no_version_under_its_own_lower_bound() -> None:
    from reprolint.analysis.declared import Declared, assume

    found = [Declared("gym", ">=0.15.4,<0.16.0", "setup.py")]
    assert assume("gym", None, found, "0.26.2", "").version == "0.15.4"
    assert assume("torch", None, [Declared("torch", ">=1.4,<1.9", "setup.py")], "2.13.0", "").version == "1.8.0"


JAX_TRAIN = "import jax\nimport optax\n\n\ndef loss(p):\n    return (p ** 2).sum()\n\n\nprint(jax.grad(loss)(1.0))\n"


@pytest.mark.parametrize(("requirements", "reported"), [
    ("jax[tpu]>=0.4\n", False),
    ("jax[ tpu ]==0.4.20 ; python_version >= '3.9'\nlibtpu\n", False),
    ("jax[cuda12]>=0.4\n", True),
    ("jax[tpu]\njax[cuda12]\n", True),  # both: it may run on a GPU
    ("jax\n", True),
])
def test_rpl305_leaves_a_project_that_installs_jax_for_tpus(tmp_path: Path, requirements: str, reported: bool) -> None:
    (tmp_path / "requirements.txt").write_text(requirements)
    (tmp_path / "train.py").write_text(JAX_TRAIN)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL305"]
    assert bool(found) == reported
