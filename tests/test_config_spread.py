"""A Lightning Trainer given a mapping of a loaded configuration (``Trainer(**config["trainer_params"])``,
issue 25 item 3): its keywords are the configuration files' keys on a default run, and a
key the files do not hold leaves Lightning's default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from project_files import write

RUN = (
    "import argparse\nimport yaml\nimport torch\n"
    "from pytorch_lightning import LightningModule, Trainer, seed_everything\n\n\n"
    "class VAE(LightningModule):\n    def __init__(self):\n        super().__init__()\n"
    "        self.enc = torch.nn.Conv2d(3, 8, 3)\n\n"
    "    def training_step(self, batch, idx):\n        return self.enc(batch).mean()\n\n"
    "    def configure_optimizers(self):\n        return torch.optim.Adam(self.parameters())\n\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--config', '-c', dest='filename', default='configs/vae.yaml')\n"
    "args = parser.parse_args()\n"
    "with open(args.filename) as file:\n    config = yaml.safe_load(file)\n"
    "seed_everything(config['exp_params']['manual_seed'], True)\n"
    "runner = Trainer(max_epochs=3, **config['trainer_params'])\n"
    "runner.fit(VAE())\n"
)
CONFIG = "exp_params:\n  manual_seed: 1265\ntrainer_params:\n  gpus: [1]\n  max_epochs: 100\n"


def rpl306(cli, project: Path) -> list[dict]:
    out = cli("check", "--no-cache", "--select", "RPL306", "--output-format", "json", str(project)).out
    return json.loads(out)


def test_a_spread_configuration_without_the_key_leaves_lightnings_default(cli, tmp_path: Path) -> None:
    project = write(tmp_path, {
        "run.py": RUN, "configs/vae.yaml": CONFIG, "requirements.txt": "pytorch-lightning==1.5.6\n", ".git/HEAD": "",
    })
    (item,) = rpl306(cli, project)
    assert item["line"] == 25
    assert "`deterministic` is left at its default, False in Lightning 1.5.6" in item["message"]
    assert "the configuration it spreads (`configs/vae.yaml`) does not set it" in item["message"]


@pytest.mark.parametrize(
    "files, reported",
    [
        ({"configs/vae.yaml": CONFIG.replace("  max_epochs: 100\n", "  max_epochs: 100\n  deterministic: true\n")}, False),
        ({"configs/vae.yaml": CONFIG.replace("  max_epochs: 100\n", "  max_epochs: 100\n  deterministic: false\n")}, True),
        ({}, False),  # the file is not there: what it gives is unknown
    ],
)
def test_the_files_decide_the_keyword(cli, tmp_path: Path, files: dict, reported: bool) -> None:
    project = write(tmp_path, {"run.py": RUN, ".git/HEAD": "", **files})
    assert bool(rpl306(cli, project)) is reported


def test_a_mapping_that_is_no_configuration_stays_unknown(cli, tmp_path: Path) -> None:
    run = RUN.replace("**config['trainer_params']", "**make_kwargs()").replace(
        "parser = argparse", "def make_kwargs():\n    return {}\n\n\nparser = argparse")
    project = write(tmp_path, {"run.py": run, "configs/vae.yaml": CONFIG, ".git/HEAD": ""})
    assert rpl306(cli, project) == []


HYDRA = (
    "import hydra\nimport lightning as L\n\n\n"
    "@hydra.main(version_base='1.3', config_path='../configs', config_name='train.yaml')\n"
    "def main(cfg):\n    L.seed_everything(cfg.seed, workers=True)\n"
    "    model = hydra.utils.instantiate(cfg.model)\n"
    "    trainer = hydra.utils.instantiate(cfg.trainer)\n"
    "    trainer.fit(model=model)\n\n\nif __name__ == '__main__':\n    main()\n"
)
HYDRA_MAIN = "defaults:\n  - trainer: default\n  - _self_\n\nseed: 7\nmodel:\n  _target_: torchvision.models.resnet18\n"
TRAINER = "_target_: lightning.pytorch.trainer.Trainer\nmax_epochs: 10\naccelerator: gpu\ndevices: 1\n"


@pytest.mark.parametrize(
    "trainer, reported",
    [
        (TRAINER + "deterministic: False\n", "`deterministic` is False"),
        (TRAINER, "`deterministic` is left at its default"),
        (TRAINER + "deterministic: True\n", None),
        (TRAINER.replace("lightning.pytorch.trainer.Trainer", "my_project.Runner") + "deterministic: False\n", None),
    ],
)
def test_a_trainer_hydra_instantiates_from_its_target_is_a_lightning_trainer(
    cli, tmp_path: Path, trainer: str, reported: "str | None"
) -> None:
    project = write(tmp_path, {
        "src/train.py": HYDRA, "configs/train.yaml": HYDRA_MAIN, "configs/trainer/default.yaml": trainer, ".git/HEAD": "",
    })
    found = rpl306(cli, project)
    if reported is None:
        assert found == []
    else:
        (item,) = found
        assert (item["path"].endswith("src/train.py"), item["line"]) == (True, 9)
        assert reported in item["message"]


def test_the_instantiation_call_s_own_keywords_override_the_node(cli, tmp_path: Path) -> None:
    """`hydra.utils.instantiate(cfg.trainer, deterministic=True)`, what `fix` writes, wins over
    the file's `deterministic: False`."""
    project = write(tmp_path, {
        "src/train.py": HYDRA.replace("instantiate(cfg.trainer)", "instantiate(cfg.trainer, deterministic=True)"),
        "configs/train.yaml": HYDRA_MAIN, "configs/trainer/default.yaml": TRAINER + "deterministic: False\n",
        ".git/HEAD": "",
    })
    assert rpl306(cli, project) == []


def test_an_instantiation_in_a_function_above_the_hydra_main_is_read(cli, tmp_path: Path) -> None:
    """The template's layout: `train(cfg)` instantiates the Trainer and is defined above the
    `@hydra.main` function that passes it the configuration."""
    source = (
        "import hydra\nimport lightning as L\n\n\n"
        "def train(cfg):\n    model = hydra.utils.instantiate(cfg.model)\n"
        "    trainer = hydra.utils.instantiate(cfg.trainer, callbacks=[])\n    trainer.fit(model=model)\n\n\n"
        "@hydra.main(version_base='1.3', config_path='../configs', config_name='train.yaml')\n"
        "def main(cfg):\n    L.seed_everything(cfg.seed, workers=True)\n    train(cfg)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    project = write(tmp_path, {
        "src/train.py": source, "configs/train.yaml": HYDRA_MAIN,
        "configs/trainer/default.yaml": TRAINER + "deterministic: False\n", ".git/HEAD": "",
    })
    (item,) = rpl306(cli, project)
    assert item["line"] == 7 and "`deterministic` is False" in item["message"]
