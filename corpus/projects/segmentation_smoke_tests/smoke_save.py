"""The same smoke test, but its output is saved: the random image and the weights reach a
file, an unseeded result."""
import torch

from models.fcn import get_fcn

img = torch.randn(1, 3, 64, 64)  # expect: RPL101
model = get_fcn()
torch.save(model(img), "smoke.pt")
