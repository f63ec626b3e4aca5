"""Trains a small upsampling network on CUDA. Before training, a helper resizes a
pretrained kernel: it interpolates NumPy data and hands the result back with
`.numpy()` (which raises on a tensor that needs grad), and a preview image is
interpolated and detached at once: neither passes a gradient back, so their bicubic
backward never runs. The look-alike is the model's own bicubic upsampling in
`forward`, which training backpropagates through: no deterministic CUDA kernel."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def resize_kernel(kernel, size):
    resized = []
    for row in kernel:
        t = torch.Tensor(row)[None, None, ...]
        resized.append(F.interpolate(t, size=size, mode="bicubic", align_corners=False)[0, 0].numpy())
    return np.stack(resized)


class Upsampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(16, 16)

    def forward(self, x):
        x = self.body(x.flatten(1)).view(-1, 1, 4, 4)
        return F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False)  # expect: RPL202


def main():
    device = torch.device("cuda")
    init = resize_kernel(np.load("kernel.npy"), (4, 4))
    model = Upsampler().to(device)
    with torch.no_grad():
        model.body.weight.copy_(torch.from_numpy(init.reshape(16, 16)))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(100):
        x = torch.randn(8, 1, 4, 4, device=device)
        target = torch.randn(8, 1, 8, 8, device=device)
        out = model(x)
        preview = F.interpolate(out, size=(16, 16), mode="bicubic", align_corners=False).detach()
        loss = F.mse_loss(out, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save(preview, "preview.pt")


if __name__ == "__main__":
    main()
