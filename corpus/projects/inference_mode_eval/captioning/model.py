"""A captioning decoder with scheduled sampling: while training, a share of the inputs
are the model's own samples, drawn with torch."""
import torch
from torch import nn


class ShowTell(nn.Module):
    def __init__(self, vocab=100, hidden=64, ss_prob=0.25):
        super().__init__()
        self.ss_prob = ss_prob
        self.embed = nn.Embedding(vocab, hidden)
        self.cell = nn.LSTMCell(hidden, hidden)
        self.logit = nn.Linear(hidden, vocab)

    def forward(self, feats, seq):
        h, c = feats, torch.zeros_like(feats)
        outputs = []
        for t in range(seq.size(1)):
            it = seq[:, t]
            if self.training and self.ss_prob > 0.0 and t > 0:
                picked = torch.rand(it.size(0), device=it.device) < self.ss_prob
                sampled = torch.multinomial(torch.softmax(outputs[-1].detach(), 1), 1).squeeze(1)
                it = torch.where(picked, sampled, it)
            h, c = self.cell(self.embed(it), (h, c))
            outputs.append(self.logit(h))
        return torch.stack(outputs, 1)
