"""A waveform generator trained on CUDA (MelGAN-style): reflection padding of the time
axis adds at most two gradient values into each input element (its own and one
mirrored), and two additions give the same sum in either order, so without
deterministic mode it is no problem. The 2-D reflection of a spectrogram adds four values
into a corner: nondeterministic."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")
generator = nn.Sequential(nn.ReflectionPad1d(3), nn.Conv1d(8, 8, kernel_size=7)).to(device)
image = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(1, 1, kernel_size=3)).to(device)  # expect: RPL202
optimizer = torch.optim.Adam([*generator.parameters(), *image.parameters()], lr=1e-4)
for step in range(10):
    wave = torch.zeros(2, 8, 8192, device=device)
    spec = torch.zeros(2, 1, 80, 32, device=device)
    out = generator(wave) + F.pad(wave, (3, 3), mode="reflect")[..., :8192]
    loss = out.pow(2).mean() + image(spec).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
