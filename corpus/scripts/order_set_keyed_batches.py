"""A PPO-style update: the rollout holds arrays by name, and each minibatch is a dict of
the keys the loss needs, built from a set of key names. The dict holds the same pairs
whatever order the set gives, and the loss reads it by key.

Positive: the per-key noise, drawn in the set's order, so which key gets which draw
changes with `PYTHONHASHSEED`."""
import numpy as np
import torch

INPUT_KEYS = {"obs", "act", "logp", "adv"}
NOISY_KEYS = {"obs", "adv"}


def minibatches(rollout, size):
    n = len(rollout["obs"])
    order = np.random.permutation(n)
    for start in range(0, n, size):
        index = order[start:start + size]
        batch = {k: torch.as_tensor(rollout[k][index]) for k in INPUT_KEYS}
        yield batch


def jitter(rollout, scale):
    noise = {k: np.random.normal(0, scale) for k in NOISY_KEYS}  # expect: RPL401
    return {k: rollout[k] + noise.get(k, 0.0) for k in rollout}


def loss_of(policy, batch):
    logits = policy(batch["obs"])
    logp = torch.log_softmax(logits, -1).gather(1, batch["act"].long().unsqueeze(1)).squeeze(1)
    ratio = torch.exp(logp - batch["logp"])
    return -(ratio * batch["adv"]).mean()


if __name__ == "__main__":
    np.random.seed(0)
    torch.manual_seed(0)
    policy = torch.nn.Linear(4, 2)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rollout = {
        "obs": np.random.rand(64, 4).astype(np.float32),
        "act": np.random.randint(0, 2, 64),
        "logp": np.log(np.full(64, 0.5, dtype=np.float32)),
        "adv": np.random.rand(64).astype(np.float32),
    }
    rollout = jitter(rollout, 0.01)
    for batch in minibatches(rollout, 16):
        loss = loss_of(policy, batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
