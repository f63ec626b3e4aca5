"""A policy that draws four actions per state with replacement and gathers their
log-probabilities: the index column is four wide and may hold one action twice, so the
gather's backward adds two gradients into one element with CUDA atomics (the order of
the adds varies), and the program never turns deterministic algorithms on."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def main():
    device = torch.device("cuda")  # expect: RPL301
    policy = nn.Linear(8, 4).to(device)
    optimizer = torch.optim.SGD(policy.parameters(), lr=0.01)
    for update in range(100):
        obs = torch.randn(32, 8, device=device)
        logits = policy(obs)
        actions = F.softmax(logits, dim=-1).multinomial(4, replacement=True)
        chosen = F.log_softmax(logits, dim=-1).gather(1, actions)
        loss = -chosen.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
