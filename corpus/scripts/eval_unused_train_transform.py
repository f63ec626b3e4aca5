"""An evaluation script copied from training: it still builds the training transform,
but the test set takes the test transform, so the random crop and flip never run."""
import torch
import torchvision
import torchvision.transforms as transforms


def main():
    normalize = transforms.Normalize(mean=[0.49, 0.48, 0.45], std=[0.25, 0.24, 0.26])
    transform_train = transforms.Compose([
        transforms.RandomCrop(32, padding=4),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        normalize,
    ])
    transform_test = transforms.Compose([transforms.ToTensor(), normalize])
    test_set = torchvision.datasets.CIFAR10("../data", train=False, transform=transform_test)
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
