"""LoRA fine-tuning as instruction-tuning scripts write it: the adapters are added and the
data shuffled before anything seeds torch or NumPy (the Trainer seeds only when built)."""
import torch
import transformers
from datasets import load_dataset
from peft import LoraConfig, get_peft_model

model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
config = LoraConfig(r=8, lora_alpha=16, target_modules=["c_attn"], lora_dropout=0.0)
model = get_peft_model(model, config)  # expect: RPL101
data = load_dataset("json", data_files="alpaca.json")
train_data = data["train"].shuffle()  # expect: RPL101
eval_data = data["test"].shuffle(seed=42)
trainer = transformers.Trainer(
    model=model,
    train_dataset=train_data,
    eval_dataset=eval_data,
    args=transformers.TrainingArguments(output_dir="out", use_cpu=True, full_determinism=True),
)
trainer.train()
torch.save(model.state_dict(), "adapter.pt")
