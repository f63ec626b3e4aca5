"""run_glue-style fine-tuning: TrainingArguments parsed from the command line, so
`full_determinism` keeps its default (False)."""
from transformers import (
    AutoModelForSequenceClassification,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
    set_seed,
)


def main():
    parser = HfArgumentParser((TrainingArguments,))  # expect: RPL306
    (training_args,) = parser.parse_args_into_dataclasses()
    set_seed(training_args.seed)
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    trainer = Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
