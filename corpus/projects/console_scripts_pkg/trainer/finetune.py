"""Look-alike: a training function in the package that no declared command targets and no
`__main__` block runs: library code, not a program (no RPL301/RPL302)."""
import torch

from trainer.blocks import make_model


def finetune(steps=10):
    model = make_model().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(steps):
        x = torch.zeros(4, 3, 32, 32).cuda()
        model(x).mean().backward()
        opt.step()
