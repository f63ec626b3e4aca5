"""A controller whose layout an experiment-mode constant picks: `EXP_MODE` names another
module constant, and the hidden layer (drawn from NumPy) exists only in the mode this
script does not use. Its weights are loaded from a file."""
import json

import numpy as np

MODE_Z = 2
MODE_Z_HIDDEN = 3
MODE_ZH = 4

EXP_MODE = MODE_ZH


class Controller:
    def __init__(self, z_size, out_size):
        if EXP_MODE == MODE_Z_HIDDEN:
            self.weight_hidden = np.random.randn(z_size, 40)
        self.weight = np.zeros((z_size, out_size))

    def load(self, path):
        with open(path) as f:
            self.weight = np.array(json.load(f))


if __name__ == "__main__":
    controller = Controller(32, 3)
    controller.load("controller.json")
    np.save("policy.npy", controller.weight)
