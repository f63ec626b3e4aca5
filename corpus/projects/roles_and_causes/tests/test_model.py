import torch

from model import Net


def test_shape():
    out = Net()(torch.randn(2, 3, 8, 8))
    assert out.shape == (2, 2)


if __name__ == "__main__":
    test_shape()
