"""The transform is inserted into a torchvision pipeline that a DataLoader with workers
applies: its operations draw in the workers, whose `random` torch seeds from its own
seed, which this program sets. Nothing to report."""
import torch
import torchvision
from torchvision import transforms

from randaug.ops import RandAugment


def main():
    torch.manual_seed(0)
    pipeline = transforms.Compose([transforms.ToTensor()])
    pipeline.transforms.insert(0, RandAugment(2, 9))
    data = torchvision.datasets.CIFAR10(root="data", train=True, download=True, transform=pipeline)
    loader = torch.utils.data.DataLoader(data, batch_size=64, shuffle=True, num_workers=8)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        loss = torch.nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "model.pt")


if __name__ == "__main__":
    main()
