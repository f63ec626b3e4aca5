"""Look-alike: a pytest module (test functions) that also has a main block: a runner
collects it, so it stays a test module."""
import torch

from helpers import fake_batch


def test_step():
    x = torch.as_tensor(fake_batch(4)).float()
    w = torch.randn(4, requires_grad=True)
    (x @ w).sum().backward()
    assert w.grad is not None


if __name__ == "__main__":
    test_step()
