"""k-NN evaluation of the trained backbone: features at two scales, without gradients."""
import torch
from torch import nn

import utils

torch.manual_seed(0)


@torch.no_grad()
def extract(model, batches):
    return [utils.multi_scale(x.cuda(), model) for x in batches]


model = nn.Sequential(nn.Flatten(), nn.LazyLinear(16)).cuda().eval()
feats = extract(model, [torch.randn(4, 3, 8, 8) for _ in range(3)])
print(torch.stack(feats).shape)
