"""Trains on CUDA with a loader whose `collate_fn` resizes each batch of images
bilinearly: the collate function runs where the samples are made, on CPU tensors without
an autograd graph, so its `interpolate` has no backward (no RPL202 there). The model's
own bicubic upsampling of an activation (the input scaled by a parameter) does, and has
no deterministic CUDA kernel."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def resize_batch(batch):
    images = torch.stack([image for image, _ in batch])
    labels = torch.stack([label for _, label in batch])
    return F.interpolate(images, size=(32, 32), mode="bilinear", align_corners=False), labels


def pad_batch(batch):
    return torch.utils.data.default_collate(batch)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1, 3, 1, 1))
        self.proj = nn.Linear(3 * 64 * 64, 10)

    def forward(self, x):
        x = x * self.scale  # an activation: the gradient reaches `scale` through the upsampling
        x = F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False)  # expect: RPL202
        return self.proj(x.flatten(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    quad = False
    data = TensorDataset(torch.rand(64, 3, 48, 48), torch.randint(0, 10, (64,)))
    loader = DataLoader(data, batch_size=8, num_workers=2, collate_fn=resize_batch if not quad else pad_batch)
    model = Net().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for images, labels in loader:
        loss = F.cross_entropy(model(images.cuda()), labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
