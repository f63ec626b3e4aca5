"""A diffusion trainer whose schedule lives in buffers (registered through a local
lambda, as lucidrains' trainers do) and is read at the sampled timesteps by a helper,
`extract(a, t, shape)`: every call passes a buffer, which needs no gradient, so the
gather's nondeterministic backward never runs (look-alike:
diffusion_extract_parameter.py)."""
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
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        register_buffer("sqrt_one_minus_alphas_cumprod", (1.0 - alphas_cumprod).sqrt())

    def q_sample(self, x_start, t, noise):
        return (
            extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
            + extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise
        )

    def forward(self, x_start):
        t = torch.randint(0, 1000, (x_start.shape[0],), device=x_start.device)
        noise = torch.randn_like(x_start)
        return (self.model(self.q_sample(x_start, t, noise)) - noise).pow(2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.backends.cudnn.deterministic = True
    diffusion = GaussianDiffusion(nn.Linear(64, 64)).cuda()
    opt = torch.optim.Adam(diffusion.parameters(), lr=1e-4)
    for step in range(100):
        loss = diffusion(torch.randn(16, 64, device="cuda"))
        opt.zero_grad()
        loss.backward()
        opt.step()
