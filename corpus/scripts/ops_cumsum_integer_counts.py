"""Multi-crop self-supervised training on CUDA (torch 2.13: cumsum raised under
deterministic mode on floating-point CUDA input). The crop boundaries are the cumulative
sum of integer counts from unique_consecutive, on a CPU tensor: exact and deterministic.
Integer running totals (a mask cast to long, `dtype=torch.long`) are exact too; a
cumulative sum of float probabilities on CUDA is not."""
import random

import numpy as np
import torch
import torch.nn as nn

random.seed(31)
np.random.seed(31)
torch.manual_seed(31)
torch.backends.cudnn.deterministic = True


class MultiCropWrapper(nn.Module):
    def __init__(self, dim=32, prototypes=300):
        super().__init__()
        self.backbone = nn.Sequential(nn.Flatten(), nn.LazyLinear(dim))
        self.prototypes = nn.Linear(dim, prototypes, bias=False)

    def forward(self, inputs):
        idx_crops = torch.cumsum(torch.unique_consecutive(
            torch.tensor([inp.shape[-1] for inp in inputs]),
            return_counts=True,
        )[1], 0)
        start = 0
        outs = []
        for end in idx_crops:
            outs.append(self.backbone(torch.cat(inputs[start:end]).cuda(non_blocking=True)))
            start = end
        return self.prototypes(torch.cat(outs))


def positions(attention_mask):
    counts = attention_mask.long()
    first = counts.cumsum(dim=1) - 1
    totals = torch.cumsum(attention_mask, dim=1, dtype=torch.long)
    # a mask counted: bool cumsum runs in int64
    image_slots = (attention_mask == 2).cumsum(dim=1)
    kept = (~(attention_mask == 0) & (attention_mask < 3)).cumsum(dim=-1)
    return first, totals, image_slots, kept


def sample_top_p(logits, p=0.9):
    probs = torch.softmax(logits, dim=-1)
    sorted_probs, order = torch.sort(probs, descending=True)
    mass = torch.cumsum(sorted_probs, dim=-1)  # expect: RPL202
    keep = mass - sorted_probs < p
    return order, keep


model = MultiCropWrapper().cuda()  # (no RPL301: no kernel that deterministic mode replaces)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(50):
    crops = [torch.randn(8, 3, 224, 224) for _ in range(2)] + [torch.randn(8, 3, 96, 96) for _ in range(4)]
    scores = model(crops)
    order, keep = sample_top_p(scores)
    first, totals = positions(torch.ones(8, 12, device="cuda", dtype=torch.bool))
    loss = scores.logsumexp(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
