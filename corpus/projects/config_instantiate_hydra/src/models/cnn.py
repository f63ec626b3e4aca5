"""Another network of the model group (configs/model/cnn.yaml): only `model=cnn` on the
command line builds it, so its draw is not on the default run."""
import random
from torch import nn


class CNN(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, 3)
        self.jitter = random.random()
