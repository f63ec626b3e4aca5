"""Export with a warm-up run: the random example input and its dropped output decide no
exported value (the weights come from the checkpoint)."""
import torch

from models.fcn import get_fcn

model = get_fcn()
model.load_state_dict(torch.load("fcn.pth"))
model.eval()
example = torch.randn(1, 3, 64, 64)
model(example)
torch.onnx.export(model, example, "fcn.onnx")
