from .random import random_seed
from .noise import add_noise as jitter
