"""REINFORCE on CUDA: the policy draws one action per state (`multinomial(num_samples=1)`
gives a column of width 1) and gathers its log-probability with that column, so the
backward adds one gradient into each row and no two adds meet: no nondeterministic
kernel trains, and it seeds first (no cuDNN op either). Nothing to report. The look-alike is in
`reinforce_sampled_actions_with_replacement.py`."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self, n_obs, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, 64), nn.Tanh(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.body(obs)


def episode_batch(n, n_obs, device):
    return torch.randn(n, n_obs, device=device), torch.randn(n, device=device)


def main():
    device = torch.device("cuda")
    policy = Policy(8, 4).to(device)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    for update in range(100):
        obs, returns = episode_batch(32, 8, device)
        logits = policy(obs)
        action = F.softmax(logits, dim=-1).multinomial(num_samples=1).data
        chosen = F.log_softmax(logits, dim=-1).gather(1, action).squeeze(1)
        loss = -(chosen * returns).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
