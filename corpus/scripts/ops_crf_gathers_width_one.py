"""A linear-chain CRF tagger trained on CUDA. Its gathers take one index per row along
the gathered axis: a view with a literal 1 there (`tags.view(seq_len, batch, 1)`), an
`expand` that keeps it, and the result of such a gather used as the next index. Each
backward scatter-add then writes every element at most once: deterministic."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")


class CRF(nn.Module):
    def __init__(self, tags):
        super().__init__()
        self.transitions = nn.Parameter(torch.zeros(tags + 2, tags + 2))

    def forward(self, scores, tags, mask):
        seq_len, batch, size = scores.size(0), scores.size(1), self.transitions.size(0)
        lengths = torch.sum(mask.long(), dim=1).view(batch, 1).long()
        last = torch.gather(tags, 1, lengths - 1)
        ends = self.transitions[:, -1].contiguous().view(1, size).expand(batch, size)
        end_energy = torch.gather(ends, 1, last)
        flat = scores.view(seq_len, batch, -1)
        energy = torch.gather(flat, 2, tags.transpose(1, 0).contiguous().view(seq_len, batch, 1))
        history = flat.view(batch, seq_len, size * size)
        position = lengths.view(batch, 1, 1).expand(batch, 1, size * size) - 1
        final = torch.gather(history, 1, position)
        return energy.sum() + end_energy.sum() + final.sum()


crf = CRF(5).to(device)
optimizer = torch.optim.SGD(crf.parameters(), lr=0.1)
for step in range(10):
    scores = torch.zeros(6, 4, 49, device=device, requires_grad=True)
    tags = torch.zeros(4, 6, dtype=torch.long, device=device)
    mask = torch.ones(4, 6, device=device)
    loss = crf(scores, tags, mask)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
