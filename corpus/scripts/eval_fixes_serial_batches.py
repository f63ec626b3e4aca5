"""A test script sharing its options with training: it fixes `serial_batches` for
itself right after parsing, so its loader takes the images in order and draws nothing."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--serial_batches", action="store_true", help="take images in order")
parser.add_argument("--batch_size", type=int, default=1)
opt = parser.parse_args()
opt.serial_batches = True  # no shuffle

model = torch.load("generator.pt")
model.eval()
loader = torch.utils.data.DataLoader(torch.load("test_set.pt"), batch_size=opt.batch_size, shuffle=not opt.serial_batches)
with torch.no_grad():
    for i, image in enumerate(loader):
        torch.save(model(image), f"out/{i}.pt")
