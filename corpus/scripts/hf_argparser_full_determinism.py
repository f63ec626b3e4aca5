"""Look-alike of hf_argparser_trainer.py: the program turns full determinism on itself."""
from transformers import (
    AutoModelForSequenceClassification,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
    enable_full_determinism,
)


def main():
    parser = HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    enable_full_determinism(training_args.seed)
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    trainer = Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
