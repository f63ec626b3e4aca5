"""Fine-tuning a causal LM loaded with device_map="auto": accelerate puts it on the GPUs."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, set_seed

set_seed(0)
tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto", torch_dtype=torch.bfloat16)  # (no RPL301: no kernel that deterministic mode replaces)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
batch = tokenizer(["a short training text"], return_tensors="pt")
for step in range(3):
    loss = model(**batch, labels=batch["input_ids"]).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
