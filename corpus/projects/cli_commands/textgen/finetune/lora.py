import torch

from textgen.model import TinyLM


def setup(steps: int = 20, seed: int = 1337) -> None:
    torch.manual_seed(seed)
    model = TinyLM()
    model.load_state_dict(torch.load("pretrained.pt"))
    for p in model.embed.parameters():
        p.requires_grad_(False)
    optimizer = torch.optim.AdamW(model.head.parameters(), lr=1e-4)
    for _ in range(steps):
        tokens = torch.randint(0, 256, (4, 17))
        loss = torch.nn.functional.cross_entropy(model(tokens[:, :-1]).flatten(0, 1), tokens[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
