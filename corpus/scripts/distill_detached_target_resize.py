"""Distillation whose target comes from a frozen teacher, detached, then resized with
bicubic `F.interpolate` in two of the loss branches: no gradient flows into the
target, so its interpolation runs no backward kernel; the student's own output is
resized with the same call and does train through the bicubic backward, which has no
deterministic CUDA kernel (RPL202)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
student = nn.Conv2d(3, 3, 3, padding=1).cuda()
teacher = nn.Conv2d(3, 3, 3, padding=1).cuda().eval()
opt = torch.optim.Adam(student.parameters(), lr=1e-4)
loss_norm = "lpips"
for step in range(100):
    x = torch.randn(8, 3, 64, 64, device="cuda")
    out = student(x)
    with torch.no_grad():
        target = teacher(x)
    target = target.detach()
    if loss_norm == "l2-32":
        out = F.interpolate(out, size=32, mode="bicubic")
        target = F.interpolate(target, size=32, mode="bicubic")
    elif loss_norm == "lpips":
        out = F.interpolate(out, size=224, mode="bicubic")  # expect: RPL202
        target = F.interpolate(target, size=224, mode="bicubic")
    loss = (out - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
