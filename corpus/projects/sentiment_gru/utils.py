import logging
import random

import numpy as np
import torch

logger = logging.getLogger(__name__)


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    logger.info("seeded everything with %d", seed)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
