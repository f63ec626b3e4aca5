"""Fine-tune a small BERT with the Trainer: seeded, but GPU kernels are left nondeterministic."""
from datasets import load_dataset
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(13)
tokenizer = AutoTokenizer.from_pretrained("prajjwal1/bert-tiny")
raw = load_dataset("glue", "sst2")
encoded = raw.map(lambda b: tokenizer(b["sentence"], truncation=True), batched=True)
model = AutoModelForSequenceClassification.from_pretrained("prajjwal1/bert-tiny", num_labels=2)
args = TrainingArguments(  # expect: RPL306
    output_dir="out/sst2",
    seed=13,
    per_device_train_batch_size=32,
    num_train_epochs=1,
)
trainer = Trainer(model=model, args=args, train_dataset=encoded["train"], tokenizer=tokenizer)
trainer.train()
