"""Character-level LSTM language model; the character vocabulary comes from a set."""
import torch
import torch.nn as nn

torch.manual_seed(42)
with open("input.txt", encoding="utf-8") as f:
    text = f.read()
chars = list(set(text))  # expect: RPL401
stoi = {ch: i for i, ch in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)

device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
embed = nn.Embedding(len(chars), 128).to(device)
lstm = nn.LSTM(128, 256, num_layers=2, batch_first=True).to(device)
head = nn.Linear(256, len(chars)).to(device)
params = [*embed.parameters(), *lstm.parameters(), *head.parameters()]
opt = torch.optim.Adam(params, lr=2e-3)
for step in range(5000):
    i = torch.randint(0, len(data) - 65, (32,))
    xb = torch.stack([data[j : j + 64] for j in i]).to(device)
    yb = torch.stack([data[j + 1 : j + 65] for j in i]).to(device)
    out, _ = lstm(embed(xb))
    loss = nn.functional.cross_entropy(head(out).transpose(1, 2), yb)  # expect: RPL202
    opt.zero_grad()
    loss.backward()
    opt.step()
