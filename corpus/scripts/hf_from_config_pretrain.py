"""Pre-training a small causal LM from a config: the model is built before set_seed."""
import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, set_seed

config = AutoConfig.from_pretrained("gpt2", n_layer=4, n_head=4, n_embd=256)
tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_config(config)  # expect: RPL101
set_seed(1234)

text = open("corpus.txt").read()
ids = torch.tensor(tokenizer(text)["input_ids"][:4096]).view(8, 512)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
for step in range(100):
    loss = model(input_ids=ids, labels=ids).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
model.save_pretrained("tiny-gpt2")
