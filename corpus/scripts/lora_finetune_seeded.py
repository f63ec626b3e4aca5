"""The same LoRA fine-tuning, seeded first: the adapters' initial weights and the
datasets shuffle (which takes its seed from NumPy) repeat."""
import transformers
from datasets import load_dataset
from peft import LoraConfig, get_peft_model

transformers.set_seed(42)
model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
model = get_peft_model(model, LoraConfig(r=8, target_modules=["c_attn"]))
data = load_dataset("json", data_files="alpaca.json")
train_data = data["train"].shuffle()
trainer = transformers.Trainer(
    model=model,
    train_dataset=train_data,
    args=transformers.TrainingArguments(output_dir="out", use_cpu=True, full_determinism=True),
)
trainer.train()
