"""Greedy decoding with a key/value cache on CUDA, from a trained checkpoint. Each step
writes the new keys at positions from `torch.arange`, which repeats no position, so
`index_copy_` has one value per slot and the cache is the same on every run; so does
the cache module written at the positions its caller passes. The
sliding-window cache writes at positions modulo its window: a prompt longer than the
window writes two values into one slot, and which one survives is undefined."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class KVCache(nn.Module):
    """A cache module written at the positions its caller passes, once per step."""

    def __init__(self, max_len=512, dim=64):
        super().__init__()
        self.register_buffer("k", torch.zeros(1, max_len, dim))

    def update(self, input_pos, k):
        return self.k.index_copy_(1, input_pos, k)


class Decoder(nn.Module):
    def __init__(self, vocab=256, dim=64, max_len=512, window=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.head = nn.Linear(dim, vocab)
        self.window = window
        self.register_buffer("k_cache", torch.zeros(1, max_len, dim))
        self.register_buffer("v_cache", torch.zeros(1, window, dim))
        self.cache = KVCache(max_len, dim)

    def forward(self, tokens, start):
        q, k, v = self.qkv(self.emb(tokens)).chunk(3, dim=-1)
        positions = torch.arange(start, start + tokens.shape[1], device=tokens.device)
        self.k_cache.index_copy_(1, positions, k)
        slots = positions % self.window
        self.v_cache.index_copy_(1, slots, v)  # expect: RPL201
        self.cache.update(positions, k)
        keys = self.k_cache[:, : start + tokens.shape[1]]
        attn = torch.softmax(q @ keys.transpose(1, 2), dim=-1)
        return self.head(attn @ self.v_cache[:, : keys.shape[1]])


@torch.inference_mode()
def main():
    model = Decoder().cuda().eval()
    model.load_state_dict(torch.load("decoder.pt", map_location="cuda"))
    tokens = torch.tensor([[1, 5, 9, 2]], device="cuda")
    logits = model(tokens, 0)
    for step in range(64):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        logits = model(nxt, tokens.shape[1] + step)
        tokens = torch.cat([tokens, nxt], dim=1)
    print(tokens.tolist())


if __name__ == "__main__":
    main()
