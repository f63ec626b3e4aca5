"""Segmentation training that runs on CUDA when present, on Apple's MPS or the CPU
otherwise. The dataset resizes and histograms its samples inside DataLoader workers, on
CPU tensors with no autograd graph: no CUDA kernel runs there. A class-count helper
takes an `index_add_` path only on MPS or CPU. The model's own label histogram
(`index_add_` on CUDA, in the loss) is what deterministic mode would change."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(7)
torch.backends.cudnn.deterministic = True

if torch.cuda.is_available():
    device = torch.device("cuda")  # expect: RPL301
elif torch.backends.mps.is_available():
    device = torch.device("mps")
else:
    device = torch.device("cpu")


class Tiles(Dataset):
    def __init__(self, n=512):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        image = torch.rand(3, 48, 48, generator=g)
        image = F.interpolate(image[None], size=(64, 64), mode="bilinear", align_corners=False)[0]
        mask = (image.mean(0) > 0.5).long()
        classes = torch.zeros(2).index_add_(0, mask.flatten(), torch.ones(mask.numel()))
        return image, mask, classes


def class_counts(mask, n_classes=2):
    if device.type != "cuda":
        return torch.zeros(n_classes, device=device).index_add_(0, mask.flatten(), torch.ones(mask.numel(), device=device))
    return torch.bincount(mask.flatten(), minlength=n_classes).float()


def main():
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Tiles(), batch_size=16, shuffle=True, num_workers=4)
    for epoch in range(5):
        for image, mask, _ in loader:
            image, mask = image.to(device), mask.to(device)
            logits = model(image)
            weights = 1.0 / (class_counts(mask) + 1.0)
            per_class = torch.zeros(2, device=device).index_add_(0, mask.flatten(), logits[:, 1].flatten())
            loss = F.cross_entropy(logits.permute(0, 2, 3, 1).reshape(-1, 2), mask.flatten(), weight=weights)
            loss = loss + 1e-3 * per_class.pow(2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
