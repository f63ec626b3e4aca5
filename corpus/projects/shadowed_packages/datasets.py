"""A local module named like the Hugging Face `datasets` library."""
import random


def build_dataset(n):
    return [random.random() for _ in range(n)]  # expect: RPL101
