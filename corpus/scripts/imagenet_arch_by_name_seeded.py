"""Look-alike of imagenet_arch_by_name.py: the registry is only listed (`__dict__.keys()`)
before torch is seeded, and the model picked by name is built after the seed."""
import argparse

import torch
import torchvision.models as models

model_names = sorted(n for n in models.__dict__.keys() if n.islower() and not n.startswith("_"))

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet18", choices=model_names)
parser.add_argument("--seed", type=int, default=0)

if __name__ == "__main__":
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    model = vars(models)[args.arch]()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.zeros(2, 3, 224, 224)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
