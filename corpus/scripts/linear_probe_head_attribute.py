"""Linear probing of a ViT whose patch embedding is a convolution: the whole model is
frozen, then its head made trainable again, and the optimizer gets `model.head`'s
parameters only: no cuDNN convolution trains (no RPL302)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, 64, kernel_size=16, stride=16)
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, batch_first=True), 2)
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return self.head(self.blocks(x).mean(1))


model = ViT().to("cuda")
for _, p in model.named_parameters():
    p.requires_grad = False
for _, p in model.head.named_parameters():
    p.requires_grad = True
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1)
for step in range(100):
    loss = nn.functional.cross_entropy(model(torch.randn(4, 3, 64, 64, device="cuda")), torch.zeros(4, dtype=torch.long, device="cuda"))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
