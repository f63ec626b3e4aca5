"""An absl program that seeds only when `--seed` is given; the flag defaults to None, so
the default run is unseeded."""
from absl import app, flags
import numpy as np
import torch

FLAGS = flags.FLAGS
flags.DEFINE_integer("seed", None, "Random seed (unseeded when left out).")
flags.DEFINE_integer("steps", 100, "Training steps.")


def main(argv):
    if FLAGS.seed is not None:
        np.random.seed(FLAGS.seed)  # expect: RPL104
        torch.manual_seed(FLAGS.seed)  # expect: RPL104
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(FLAGS.steps):
        x = torch.from_numpy(np.random.randn(16, 8).astype(np.float32))
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    app.run(main)
