"""The look-alike: the training script leaves `serial_batches` at its default, so its
loader shuffles with torch's generator, which it never seeds."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--serial_batches", action="store_true", help="take images in order")
opt = parser.parse_args()

model = torch.load("generator.pt")
optimizer = torch.optim.Adam(model.parameters())
loader = torch.utils.data.DataLoader(torch.load("train_set.pt"), batch_size=4, shuffle=not opt.serial_batches)  # expect: RPL101
for image, target in loader:
    loss = (model(image) - target).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
