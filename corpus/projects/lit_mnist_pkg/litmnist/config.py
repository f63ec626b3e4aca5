from dataclasses import dataclass, field
from typing import Optional


@dataclass
class TrainConfig:
    data_dir: str = "data"
    batch_size: int = 128
    max_epochs: int = 10
    lr: float = 1e-3
    hidden: int = 256
    val_size: int = 5000
    seed: Optional[int] = None
    accelerator: str = "auto"
    tags: list = field(default_factory=list)
