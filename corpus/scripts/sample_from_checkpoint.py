"""Generate text from a trained character-level Transformer checkpoint (no seed).

The model's initialisation draws are not findings: main() loads the checkpoint over
them (an evaluation program, issue 13). The sampling noise is.
"""
import sys

import torch
import torch.nn as nn


class CharTransformer(nn.Module):
    def __init__(self, vocab_size, d_model=192, n_head=6, n_layer=4, block=256):
        super().__init__()
        self.block = block
        self.embed = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Parameter(torch.empty(block, d_model).normal_(std=0.02))
        self.layers = nn.ModuleList(
            [nn.TransformerEncoderLayer(d_model, n_head, 4 * d_model, batch_first=True) for _ in range(n_layer)]
        )
        self.norm = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, idx):
        x = self.embed(idx) + self.pos[: idx.size(1)]
        for layer in self.layers:
            x = layer(x, is_causal=True, src_mask=nn.Transformer.generate_square_subsequent_mask(idx.size(1)))
        return self.lm_head(self.norm(x))


@torch.no_grad()
def generate(model, idx, steps, temperature=0.8, top_k=40):
    for _ in range(steps):
        logits = model(idx[:, -model.block :])[:, -1, :] / temperature
        kth = torch.topk(logits, top_k).values[:, [-1]]
        logits[logits < kth] = -float("inf")
        nxt = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)  # expect: RPL101
        idx = torch.cat([idx, nxt], dim=1)
    return idx


def main(ckpt_path, prompt="ROMEO:", steps=500):
    ckpt = torch.load(ckpt_path, map_location="cpu")
    stoi, itos = ckpt["stoi"], ckpt["itos"]
    model = CharTransformer(len(stoi))
    model.load_state_dict(ckpt["model"])
    model.eval()
    idx = torch.tensor([[stoi[c] for c in prompt]], dtype=torch.long)
    out = generate(model, idx, steps)
    print("".join(itos[i] for i in out[0].tolist()))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/ckpt.pt")
