"""Look-alike of eval_unused_train_transform.py: this one evaluates with the training
transform (test-time augmentation), so its random crops draw from torch's global RNG."""
import torch
import torchvision
import torchvision.transforms as transforms


def main():
    transform_train = transforms.Compose([
        transforms.RandomCrop(32, padding=4),  # expect: RPL101
        transforms.ToTensor(),
    ])
    test_set = torchvision.datasets.CIFAR10("../data", train=False, transform=transform_train)
    loader = torch.utils.data.DataLoader(test_set, batch_size=100, shuffle=False, num_workers=2)
    model = torch.load("model_best.pth")
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    print(correct / len(test_set))


if __name__ == "__main__":
    main()
