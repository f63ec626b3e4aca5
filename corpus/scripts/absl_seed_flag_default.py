"""An absl program that seeds when `--seed` is set; the flag defaults to 0, so
the default run is seeded."""
from absl import app, flags
import numpy as np
import torch

FLAGS = flags.FLAGS
flags.DEFINE_integer("seed", 0, "Random seed.")
flags.DEFINE_integer("steps", 100, "Training steps.")


def main(argv):
    if FLAGS.seed is not None:
        np.random.seed(FLAGS.seed)
        torch.manual_seed(FLAGS.seed)
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
