"""A lightning-hydra-template-style entry point: `train(cfg)`, defined above the
`@hydra.main` function that passes it the configuration, builds the Trainer from the
configuration's `_target_` (`hydra.utils.instantiate(cfg.trainer)`), whose default group
option `trainer: default` sets `deterministic: False` on a GPU."""
from typing import Any, Dict, Tuple

import hydra
import lightning as L
from lightning import LightningDataModule, LightningModule, Trainer
from omegaconf import DictConfig


def train(cfg: DictConfig) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    L.seed_everything(cfg.seed, workers=True)
    datamodule: LightningDataModule = hydra.utils.instantiate(cfg.data)
    model: LightningModule = hydra.utils.instantiate(cfg.model)
    trainer: Trainer = hydra.utils.instantiate(cfg.trainer, callbacks=[], logger=[])  # expect: RPL306
    trainer.fit(model=model, datamodule=datamodule)
    return trainer.callback_metrics, {"cfg": cfg}


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig) -> None:
    train(cfg)


if __name__ == "__main__":
    main()
