"""Activation maximisation: builds the classifier, replaces every weight with the
trained checkpoint (`load_state_dict`, strict), then optimises an input image for one
class. The classifier's drawn initial weights never count, and the image starts from
zeros: seeded or not, two runs give the same image. Nothing to report (CPU only)."""
import argparse

import torch

from networks import SmallConvNet

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint", default="checkpoints/small_convnet.pt")
parser.add_argument("--target", type=int, default=3)
args = parser.parse_args()

net = SmallConvNet().eval()
net.load_state_dict(torch.load(args.checkpoint, map_location="cpu"))
for p in net.parameters():
    p.requires_grad_(False)
image = torch.zeros(1, 3, 32, 32, requires_grad=True)
optimizer = torch.optim.Adam([image], lr=0.05)
for step in range(200):
    optimizer.zero_grad()
    score = net(image)[0, args.target]
    (-score + 1e-3 * image.norm()).backward()
    optimizer.step()
torch.save(image.detach(), f"class_{args.target}.pt")
