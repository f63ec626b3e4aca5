"""An interactive model: it reseeds NumPy per object it edits. No constructor of its own
(BaseModel's `initialize` sets it up), built only when `--model` asks for it."""
import numpy as np

from models.base import BaseModel


class UIModel(BaseModel):
    def sample_features(self, clusters):
        np.random.seed(clusters + 1)
        return np.random.randint(0, clusters)
