"""TD3-style off-policy training (old gym): the script seeds torch, NumPy and the
environment (`env.seed(seed)`), then fills the replay buffer with random actions from
`env.action_space.sample()` for the first steps. Seeding the environment leaves its action
space's generator alone (it is seeded from OS entropy), so the warm-up actions, and
everything learned from them, differ per run."""
import gym
import numpy as np
import torch
import torch.nn as nn


def main(seed=0, start_steps=1000, total_steps=5000):
    env = gym.make("Pendulum-v0")
    env.seed(seed)
    torch.manual_seed(seed)
    np.random.seed(seed)
    actor = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())
    opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    buffer = []
    state = env.reset()
    for t in range(total_steps):
        if t < start_steps:
            action = env.action_space.sample()  # expect: RPL102
        else:
            with torch.no_grad():
                action = actor(torch.as_tensor(state, dtype=torch.float32)).numpy() * 2.0
            action = (action + np.random.normal(0, 0.1, size=1)).clip(-2.0, 2.0)
        next_state, reward, done, _ = env.step(action)
        buffer.append((state, action, reward, next_state, done))
        state = env.reset() if done else next_state
        if t >= start_steps:
            batch = [buffer[i] for i in np.random.randint(0, len(buffer), size=64)]
            states = torch.as_tensor(np.array([b[0] for b in batch]), dtype=torch.float32)
            loss = -actor(states).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
