"""Character-level language model trained on CUDA, which prints a sample every few
hundred steps. The sampler's nucleus (top-p) branch runs a floating-point cumsum, but
every call leaves `top_p` at its default of None, so the branch never runs. The feature
upsampling helper is called once with its nearest-neighbour default and once asking for
bicubic, so its bicubic branch runs; the blur helper receives its options through
`**options`, which may pass anything."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1234)
torch.backends.cudnn.deterministic = True


def sample(model, idx, steps, temperature=1.0, top_p=None):
    for _ in range(steps):
        logits = model(idx)[:, -1, :] / temperature
        if top_p is not None:
            probs, order = torch.sort(F.softmax(logits, dim=-1), descending=True)
            mass = torch.cumsum(probs, dim=-1)
            logits = logits.masked_fill(mass.gather(-1, order.argsort(-1)) > top_p, float("-inf"))
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx


def upsample(x, mode="nearest"):
    if mode == "bicubic":
        return F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False)  # expect: RPL202
    return F.interpolate(x, scale_factor=2, mode="nearest")


def blur(x, reflect=False):
    if reflect:
        x = F.pad(x, (1, 1, 1, 1), mode="reflect")  # expect: RPL202
    return F.avg_pool2d(x, 3, stride=1)


class CharModel(nn.Module):
    def __init__(self, vocab=65, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        out, _ = self.rnn(self.emb(idx))
        return self.head(out)


def main(options):
    model = CharModel().cuda()
    conv = nn.Conv2d(3, 3, 3, padding=1).cuda()
    opt = torch.optim.AdamW([*model.parameters(), *conv.parameters()], lr=3e-4)
    for step in range(2000):
        idx = torch.randint(0, 65, (32, 64), device="cuda")
        loss = F.cross_entropy(model(idx[:, :-1]).reshape(-1, 65), idx[:, 1:].reshape(-1))
        image = torch.randn(4, 3, 16, 16, device="cuda")
        features = upsample(conv(image)) + upsample(conv(image), mode="bicubic")
        loss = loss + blur(features, **options).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 500 == 0:
            with torch.no_grad():
                print(sample(model, idx[:1, :8], 100))


if __name__ == "__main__":
    main({"reflect": False})
