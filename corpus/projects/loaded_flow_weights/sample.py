"""Samples from a trained flow: the drawn rotation is replaced by the checkpoint, the
sampling noise is drawn from torch's unseeded generator."""
import torch

from flows import Flow

flow = Flow(4)
flow.load_state_dict(torch.load("flow.pth"))
flow.eval()
print(flow.sample(8))
