"""Trains an embedding with noise-contrastive estimation on the GPU. Negatives are drawn
with the alias method: `alias_tables.AliasSampler` keeps its two tables as plain tensor
attributes that factories made (`torch.zeros`, `torch.LongTensor([...])`), moved to the
GPU and filled in while it is built, so no gradient reaches them and the `index_select`
calls that read them have no backward pass to be nondeterministic: no RPL301 (the
look-alike `train_nce_bank.py` writes trained features into its table)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from alias_tables import AliasSampler


class NCEHead(nn.Module):
    def __init__(self, dim, n_classes, k):
        super().__init__()
        self.k = k
        self.classes = nn.Linear(dim, n_classes, bias=False)
        self.sampler = AliasSampler(torch.full((n_classes,), 1.0 / n_classes))
        self.sampler.cuda()

    def forward(self, z, target):
        negatives = self.sampler.draw(z.size(0) * self.k).view(z.size(0), self.k)
        pos = (z * self.classes.weight[target]).sum(1, keepdim=True)
        neg = torch.bmm(self.classes.weight[negatives], z.unsqueeze(2)).squeeze(2)
        return -F.log_softmax(torch.cat([pos, neg], 1), 1)[:, 0].mean()


def main():
    torch.manual_seed(0)
    encoder = nn.Linear(32, 16).cuda()
    head = NCEHead(16, 1000, 8).cuda()
    opt = torch.optim.SGD(list(encoder.parameters()) + list(head.parameters()), lr=0.1)
    for step in range(100):
        x = torch.randn(64, 32, device="cuda")
        target = torch.randint(0, 1000, (64,), device="cuda")
        loss = head(F.normalize(encoder(x), dim=1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
