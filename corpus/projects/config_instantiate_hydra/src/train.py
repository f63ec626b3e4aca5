"""Hydra training script: the model is built from the configuration's `_target_`
(`hydra.utils.instantiate(cfg.model)`), the default group option `model: mlp`."""
import hydra
import torch
from omegaconf import DictConfig


@hydra.main(config_path="../configs", config_name="train", version_base=None)
def main(cfg: DictConfig):
    if cfg.get("seed"):
        torch.manual_seed(cfg.seed)  # expect: RPL104
    model = hydra.utils.instantiate(cfg.model)
    opt = torch.optim.Adam(model.parameters())
    for _ in range(cfg.epochs):
        loss = model(torch.randn(4, 8)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
