import torch

from textgen.model import TinyLM


@torch.no_grad()
def main(prompt: str = "hello", length: int = 50, temperature: float = 0.8) -> None:
    model = TinyLM()
    model.load_state_dict(torch.load("pretrained.pt"))
    model.eval()
    tokens = torch.tensor([list(prompt.encode())])
    for _ in range(length):
        probs = torch.softmax(model(tokens)[:, -1] / temperature, dim=-1)
        tokens = torch.cat([tokens, torch.multinomial(probs, 1)], dim=1)  # expect: RPL101
    print(bytes(tokens[0].tolist()))
