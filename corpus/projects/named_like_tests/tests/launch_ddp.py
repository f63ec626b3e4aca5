"""Look-alike: a training script in a test folder, launched by the test suite
(`subprocess.run(["torchrun", "tests/launch_ddp.py"])`): what a test folder holds is test
code, even with a main block and no test case."""
import torch
from torch import nn


def main():
    model = nn.Linear(8, 2).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.randn(4, 8).cuda()).sum().backward()
    opt.step()


if __name__ == "__main__":
    main()
