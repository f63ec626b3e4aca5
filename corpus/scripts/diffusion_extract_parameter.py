"""Like diffusion_extract_buffers.py, but one call of the helper reads a learned
per-timestep weight (an `nn.Parameter`): the gather's backward accumulates that
parameter's gradient with atomic adds on CUDA, repeated timesteps collide, and the
program never turns deterministic algorithms on."""
import torch
import torch.nn as nn


def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=1000):
        super().__init__()
        self.model = model
        register_buffer = lambda name, val: self.register_buffer(name, val.to(torch.float32))
        betas = torch.linspace(1e-4, 0.02, timesteps)
        register_buffer("sqrt_alphas_cumprod", torch.cumprod(1.0 - betas, dim=0).sqrt())
        self.loss_weight = nn.Parameter(torch.ones(timesteps))

    def forward(self, x_start):
        t = torch.randint(0, 1000, (x_start.shape[0],), device=x_start.device)
        noise = torch.randn_like(x_start)
        x_t = extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start + noise
        weight = extract(self.loss_weight, t, x_start.shape)
        return (weight * (self.model(x_t) - noise).pow(2)).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.backends.cudnn.deterministic = True
    diffusion = GaussianDiffusion(nn.Linear(64, 64)).cuda()  # expect: RPL301
    opt = torch.optim.Adam(diffusion.parameters(), lr=1e-4)
    for step in range(100):
        loss = diffusion(torch.randn(16, 64, device="cuda"))
        opt.zero_grad()
        loss.backward()
        opt.step()
