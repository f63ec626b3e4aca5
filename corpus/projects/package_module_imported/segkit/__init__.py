from segkit.datasets import get_dataset
