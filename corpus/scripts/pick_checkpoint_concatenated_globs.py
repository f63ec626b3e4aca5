"""Loads the checkpoint a run left in its folder. The three globs are concatenated into
one list that is sorted in place before anything reads it, so the file system's order
reaches nothing. The look-alike for the teacher concatenates two globs and takes the last
entry unsorted: one listing, reported once at its first glob."""
from pathlib import Path

import torch

run_dir = Path("runs/exp3")
checkpoints = list(run_dir.glob("*.safetensors")) + list(run_dir.glob("*.bin")) + list(run_dir.glob("*.pth"))
if not checkpoints:
    raise SystemExit("no checkpoint")
checkpoints.sort()
checkpoints.sort(key=lambda p: p.suffix == ".safetensors", reverse=True)
state = torch.load(checkpoints[0], map_location="cpu")

teachers = list(Path("teachers").glob("*.bin")) + list(Path("teachers").glob("*.pth"))  # expect: RPL402
teacher = torch.load(teachers[-1], map_location="cpu")

torch.manual_seed(0)
model = torch.nn.Linear(8, 2)
model.load_state_dict(state)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(50):
    x = torch.randn(16, 8)
    loss = (model(x) - teacher["scale"] * x[:, :2]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
