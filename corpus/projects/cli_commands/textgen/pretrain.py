import torch

from textgen.model import TinyLM


def setup(steps: int = 100, lr: float = 3e-4) -> None:
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for _ in range(steps):
        tokens = torch.randint(0, 256, (8, 33))  # expect: RPL101
        logits = model(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "pretrained.pt")
