"""Instruction tuning with the Trainer. The script adds its own fields to
`TrainingArguments` by subclassing it, so the parser still builds Hugging Face's
training arguments with their defaults (`full_determinism` off). The evaluation
arguments next to it are a plain dataclass: no trainer is built from them."""
from dataclasses import dataclass, field
from typing import Optional

import transformers
from transformers import HfArgumentParser


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default="facebook/opt-125m")


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    cache_dir: Optional[str] = field(default=None)
    model_max_length: int = field(default=512)


@dataclass
class EvalArguments:
    batch_size: int = field(default=8)


def train():
    parser = HfArgumentParser((ModelArguments, TrainingArguments))  # expect: RPL306
    model_args, training_args = parser.parse_args_into_dataclasses()
    eval_args, = HfArgumentParser(EvalArguments).parse_args_into_dataclasses(args=[])
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
    print(eval_args.batch_size)


if __name__ == "__main__":
    train()
