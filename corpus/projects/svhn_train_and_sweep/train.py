"""Final training run with the chosen hyper-parameters (seeded)."""
import torch

from loop import fit, svhn_loaders
from net import ConvNet

if __name__ == "__main__":
    torch.manual_seed(0)
    train_loader, test_loader = svhn_loaders()
    model = ConvNet(width=48, p_drop=0.3)
    acc = fit(model, train_loader, test_loader, lr=0.05, epochs=20)
    torch.save(model.state_dict(), "convnet_svhn.pt")
    print(f"test accuracy {acc:.4f}")
