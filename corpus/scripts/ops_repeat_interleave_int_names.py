"""Grouped-query attention language model trained on CUDA. The key/value heads are
repeated with `repeat_interleave` by a Python int held in a name, a parameter annotated
`int` or an attribute set from the head counts: on torch >= 2.1 that is an expand and a
copy, whose backward is a plain sum. Repeating rows by a tensor of counts (a ragged
batch) indexes, and its backward accumulates with atomic adds on CUDA."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True

N_REP = 2


def repeat_kv(hidden: torch.Tensor, n_rep: int) -> torch.Tensor:
    return torch.repeat_interleave(hidden, dim=1, repeats=n_rep)


def spread_rows(rows, counts):
    # counts: how many tokens each row stands for (a tensor)
    return rows.repeat_interleave(counts, dim=0)  # (RPL301 evidence: a related location)


class Attention(nn.Module):
    def __init__(self, dim=64, n_heads=8, n_kv_heads=2):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.n_rep = n_heads // n_kv_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim)
        self.wkv = nn.Linear(dim, 2 * n_kv_heads * self.head_dim)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.wq(x).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.wkv(x).view(b, t, 2 * self.n_kv_heads, self.head_dim).transpose(1, 2).chunk(2, dim=1)
        groups = self.n_heads // self.n_kv_heads
        k = k.repeat_interleave(groups, dim=1)
        v = repeat_kv(v, self.n_rep)
        out = F.softmax(q @ k.transpose(-2, -1) / self.head_dim ** 0.5, dim=-1) @ v
        return out.transpose(1, 2).reshape(b, t, -1)


class Pool(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, lengths):
        return spread_rows(self.proj(x.mean(1)), lengths)


def main():
    attn = Attention().cuda()  # expect: RPL301
    pool = Pool().cuda()
    opt = torch.optim.AdamW([*attn.parameters(), *pool.parameters()], lr=3e-4)
    for step in range(100):
        x = torch.randn(4, 16, 64, device="cuda")
        lengths = torch.randint(1, 4, (4,), device="cuda")
        y = attn(x).repeat_interleave(N_REP, dim=0)
        loss = y.pow(2).mean() + pool(x, lengths).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
