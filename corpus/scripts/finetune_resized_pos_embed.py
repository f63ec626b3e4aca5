"""Fine-tunes a patch model at a larger resolution on the GPU under deterministic mode.
The checkpoint's position embedding is resized once while loading: `resize_grid` runs
bicubic interpolation on a view of its parameter, and the only call passes a tensor read
with `torch.load`, which needs no gradient, so the backward kernel deterministic mode
rejects never runs. The look-alike `upsample_tokens` interpolates a view of what
`forward` passes, the model's own trainable embedding: its backward runs on every step
and raises under `torch.use_deterministic_algorithms(True)` (RPL202)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def resize_grid(pos_embed, new_size):
    tokens = pos_embed[:, 1:]
    grid = int(tokens.shape[1] ** 0.5)
    tokens = tokens.reshape(1, grid, grid, -1).permute(0, 3, 1, 2)
    tokens = F.interpolate(tokens, size=(new_size, new_size), mode="bicubic", align_corners=False)
    return torch.cat([pos_embed[:, :1], tokens.flatten(2).transpose(1, 2)], dim=1)


def upsample_tokens(embed, size):
    grid = embed[:, 1:].reshape(1, 7, 7, -1).permute(0, 3, 1, 2)
    return F.interpolate(grid, size=(size, size), mode="bicubic", align_corners=False)  # expect: RPL202


class PatchModel(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.pos_embed = nn.Parameter(torch.zeros(1, 50, dim))
        self.head = nn.Linear(dim, 10)

    def forward(self, x):
        pos = upsample_tokens(self.pos_embed, 14).flatten(2).mean(-1)
        return self.head(x + pos)


def main():
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)  # expect: RPL303
    model = PatchModel().cuda()
    checkpoint = torch.load("pretrained.pth", map_location="cpu")
    state_dict = checkpoint["model"]
    state_dict["pos_embed"] = resize_grid(state_dict["pos_embed"], 14)
    model.load_state_dict(state_dict, strict=False)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(100):
        x = torch.randn(8, 64, device="cuda")
        loss = model(x).logsumexp(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
