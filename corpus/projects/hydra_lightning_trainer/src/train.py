"""A lightning-hydra-template-style entry point: the Trainer is built from the
configuration's `_target_` (`hydra.utils.instantiate(cfg.trainer)`), whose default group
option `trainer: default` sets `deterministic: False` on a GPU."""
import hydra
import lightning as L
from omegaconf import DictConfig


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg: DictConfig):
    L.seed_everything(cfg.seed, workers=True)
    datamodule = hydra.utils.instantiate(cfg.data)
    model = hydra.utils.instantiate(cfg.model)
    trainer = hydra.utils.instantiate(cfg.trainer)  # expect: RPL306
    trainer.fit(model=model, datamodule=datamodule)


if __name__ == "__main__":
    main()
