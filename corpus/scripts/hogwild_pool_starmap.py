"""Hogwild with a process pool: each task trains the shared policy network on its own
batch of episodes and writes straight into the shared weights."""
import torch
import torch.multiprocessing as mp


def run_episodes(worker_id, policy, episodes):
    torch.manual_seed(worker_id)
    optimizer = torch.optim.RMSprop(policy.parameters(), lr=7e-4)
    for _ in range(episodes):
        obs = torch.randn(16, 8)
        loss = -policy(obs).log_softmax(-1).max(-1).values.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.Tanh(), torch.nn.Linear(32, 4))
    policy.share_memory()
    with mp.Pool(processes=8) as pool:
        pool.starmap(run_episodes, [(i, policy, 100) for i in range(8)])  # expect: RPL405
    torch.save(policy.state_dict(), "policy.pt")
