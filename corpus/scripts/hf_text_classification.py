"""Fine-tune DistilBERT on IMDB with the Hugging Face Trainer, seeded before model init."""
from dataclasses import dataclass, field

import numpy as np
from datasets import load_dataset
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
    set_seed,
)


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="distilbert-base-uncased")
    max_length: int = field(default=256)
    train_samples: int = field(default=5000)


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


def main():
    parser = HfArgumentParser((ModelArguments, TrainingArguments))  # expect: RPL306
    model_args, training_args = parser.parse_args_into_dataclasses()
    set_seed(training_args.seed)

    raw = load_dataset("imdb")
    tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path)

    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, max_length=model_args.max_length)

    train = raw["train"].shuffle(seed=training_args.seed).select(range(model_args.train_samples))
    train = train.map(tokenize, batched=True)
    test = raw["test"].select(range(2000)).map(tokenize, batched=True)

    model = AutoModelForSequenceClassification.from_pretrained(model_args.model_name_or_path, num_labels=2)
    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train,
        eval_dataset=test,
        tokenizer=tokenizer,
        data_collator=DataCollatorWithPadding(tokenizer),
        compute_metrics=compute_metrics,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
