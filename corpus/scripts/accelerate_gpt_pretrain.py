"""Small causal LM pre-training loop with Accelerate (seeded before anything draws)."""
import argparse
import math

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset


class TokenChunks(Dataset):
    def __init__(self, path, block_size):
        self.data = torch.load(path)
        self.block_size = block_size

    def __len__(self):
        return (len(self.data) - 1) // self.block_size

    def __getitem__(self, i):
        chunk = self.data[i * self.block_size : (i + 1) * self.block_size + 1]
        return chunk[:-1], chunk[1:]


class TinyGPT(nn.Module):
    def __init__(self, vocab, d_model=256, n_layer=4, n_head=4, block_size=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.zeros(1, block_size, d_model))
        layer = nn.TransformerEncoderLayer(d_model, n_head, 4 * d_model, dropout=0.1, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layer)
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        nn.init.trunc_normal_(self.pos, std=0.02)

    def forward(self, idx):
        T = idx.size(1)
        mask = torch.triu(torch.full((T, T), float("-inf"), device=idx.device), diagonal=1)
        x = self.blocks(self.tok(idx) + self.pos[:, :T], mask=mask)
        return self.head(self.ln(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="data/tokens.pt")
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--lr", type=float, default=6e-4)
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision="bf16")  # (no RPL301: no kernel that deterministic mode replaces)
    set_seed(args.seed)

    ds = TokenChunks(args.data, block_size=128)
    loader = DataLoader(ds, batch_size=32, shuffle=True, drop_last=True)
    model = TinyGPT(args.vocab)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95))
    model, opt, loader = accelerator.prepare(model, opt, loader)

    model.train()
    for step, (x, y) in enumerate(loader):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
        if step % 100 == 0:
            accelerator.print(f"step {step} loss {loss.item():.3f} ppl {math.exp(loss.item()):.1f}")


if __name__ == "__main__":
    main()
