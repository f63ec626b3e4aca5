"""DALL-E-style loss: logits rearranged to (batch, classes, positions) and sliced per
modality; cross-entropy on a three-dimensional input runs the 2-D NLL kernel, which has
no deterministic CUDA implementation."""
import torch
import torch.nn.functional as F
from torch import nn


class Decoder(nn.Module):
    def __init__(self, dim=64, vocab=512, text_len=16):
        super().__init__()
        self.to_logits = nn.Linear(dim, vocab)
        self.text_len = text_len

    def forward(self, x, labels):
        logits = self.to_logits(x).transpose(1, 2)
        loss_text = F.cross_entropy(logits[:, :, :self.text_len], labels[:, :self.text_len])  # expect: RPL202
        loss_img = F.cross_entropy(logits[:, :, self.text_len:], labels[:, self.text_len:])  # expect: RPL202
        return (loss_text + 7 * loss_img) / 8


torch.manual_seed(0)
model = Decoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
for x, labels in torch.load("batches.pt"):
    loss = model(x.cuda(), labels.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
