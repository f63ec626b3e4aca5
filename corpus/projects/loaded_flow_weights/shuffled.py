"""Applies a trained shuffling flow: the checkpoint has no entry for the permutation."""
import torch

from flows import Flow

flow = Flow(4, shuffle=True)
flow.load_state_dict(torch.load("flow.pth"))
print(flow(torch.ones(2, 4)))
