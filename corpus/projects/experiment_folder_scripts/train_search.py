"""Copies the project's scripts into the experiment folder before training: the listing
is handed whole to `exp_utils.create_exp_dir`, which only copies each script to a file of
its own, so the order reaches nothing (no RPL402). The look-alike hands another listing to
`write_manifest`, which numbers the files in the order it gets them and writes that into
the experiment's manifest (RPL402)."""
import glob

import torch

import exp_utils

exp_utils.create_exp_dir("search-exp", scripts_to_save=glob.glob("*.py"))
exp_utils.write_manifest("search-exp", glob.glob("data/*.npy"))  # expect: RPL402
torch.manual_seed(2)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(20):
    loss = model(torch.randn(4, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
