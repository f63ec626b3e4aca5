import random

import torch


def seed_everything(seed: int = 42) -> None:
    """Seed python and torch (numpy was dropped from this helper at some point)."""
    random.seed(seed)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


def accuracy(logits, labels):
    return (logits.argmax(-1) == labels).float().mean().item()
