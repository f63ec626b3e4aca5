"""Reward-model training on CUDA: the reward of each sequence is the score at its last
token, taken with a gather whose index has width 1 along the gathered axis (a
`keepdim=True` count minus one, bound to a name first, or an unsqueezed length). Each
row's gradient lands on one element, so the backward's atomic adds never collide: the
program runs no nondeterministic kernel and needs no deterministic mode for it."""
import torch
from torch import nn

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False


class RewardHead(nn.Module):
    def __init__(self, vocab=100, width=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.score = nn.Linear(width, 1)

    def forward(self, ids):
        return self.score(self.embed(ids)).squeeze(-1)


def pair_loss(model, chosen, rejected, chosen_mask, rejected_mask):
    chosen_scores = model(chosen)
    rejected_scores = model(rejected)
    last = (chosen_mask.sum(-1, keepdim=True) - 1).long()
    chosen_reward = chosen_scores.gather(dim=-1, index=last).squeeze(-1)
    lengths = rejected_mask.sum(dim=1)
    rejected_reward = rejected_scores.gather(-1, (lengths - 1).unsqueeze(-1)).squeeze(-1)
    return -nn.functional.logsigmoid(chosen_reward - rejected_reward).mean()


def main():
    device = torch.device("cuda")
    model = RewardHead().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(10):
        chosen = torch.randint(0, 100, (8, 16), device=device)
        rejected = torch.randint(0, 100, (8, 16), device=device)
        mask = torch.ones(8, 16, dtype=torch.long, device=device)
        loss = pair_loss(model, chosen, rejected, mask, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
