"""Fine-tuning with options parsed into `Seq2SeqTrainingArguments` and a
`Seq2SeqTrainer`: the Trainer seeds from `seed`, but `full_determinism` is left off, so
its GPU kernels may differ between runs (look-alike: hf_generation_parsed_args.py)."""
from dataclasses import dataclass, field

from datasets import load_dataset
from transformers import (
    AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq, HfArgumentParser, Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
)


@dataclass
class DataArguments:
    model_name: str = field(default="t5-small")
    train_file: str = field(default="train.jsonl")


def main():
    parser = HfArgumentParser((DataArguments, Seq2SeqTrainingArguments))  # expect: RPL306
    data_args, training_args = parser.parse_args_into_dataclasses()
    tokenizer = AutoTokenizer.from_pretrained(data_args.model_name)
    model = AutoModelForSeq2SeqLM.from_pretrained(data_args.model_name)
    data = load_dataset("json", data_files=data_args.train_file)["train"]
    data = data.map(lambda row: tokenizer(row["source"], text_target=row["target"], truncation=True), batched=True)
    trainer = Seq2SeqTrainer(
        model=model, args=training_args, train_dataset=data, tokenizer=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
    )
    trainer.train()


if __name__ == "__main__":
    main()
