import numpy as np

from models.base import BaseModel


class HDModel(BaseModel):
    def sample_features(self, clusters):
        return np.random.randint(0, clusters)  # expect: RPL101
