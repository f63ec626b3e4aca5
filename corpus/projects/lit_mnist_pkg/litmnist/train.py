"""Entry point: python -m litmnist.train"""
import dataclasses
import json

import pytorch_lightning as pl

from .config import TrainConfig
from .datamodule import MNISTDataModule
from .model import LitMNIST
from .seeding import seed_all


def main(cfg: TrainConfig) -> None:
    seed_all(cfg.seed)
    print(json.dumps(dataclasses.asdict(cfg), indent=2))
    dm = MNISTDataModule(cfg.data_dir, cfg.batch_size, cfg.val_size)
    model = LitMNIST(hidden=cfg.hidden, lr=cfg.lr)
    trainer = pl.Trainer(max_epochs=cfg.max_epochs, accelerator=cfg.accelerator, deterministic=True)
    trainer.fit(model, datamodule=dm)
    trainer.test(model, datamodule=dm)


if __name__ == "__main__":
    main(TrainConfig())
