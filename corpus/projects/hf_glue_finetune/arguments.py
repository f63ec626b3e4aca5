from dataclasses import dataclass, field
from typing import Optional


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="bert-base-cased")
    cache_dir: Optional[str] = field(default=None)


@dataclass
class DataArguments:
    task_name: str = field(default="mrpc")
    max_seq_length: int = field(default=128)
    max_train_samples: Optional[int] = field(default=None)
