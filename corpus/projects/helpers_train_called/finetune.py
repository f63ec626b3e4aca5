"""The look-alike: a script that calls the engine's `train` on a loaded model, never
seeding torch: its DataLoader shuffle is reported."""
import sys

import torch

from engine import evaluate, train

if __name__ == "__main__":
    model = torch.load(sys.argv[1], weights_only=False)
    train(model, torch.load(sys.argv[2]), epochs=2, lr=0.01)
    print(evaluate(model, torch.load(sys.argv[3])))
    torch.save(model, "finetuned.pt")
