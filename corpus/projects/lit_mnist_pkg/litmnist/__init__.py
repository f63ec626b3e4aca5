"""MNIST classifier packaged as a Lightning project (run: python -m litmnist.train)."""
