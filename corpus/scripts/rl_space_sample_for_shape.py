"""DQN on CartPole: the first action-space sample only tells the shape of an action; the
random actions of exploration are drawn from the space later."""
import gym
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(1)
np.random.seed(1)
env = gym.make("CartPole-v0")
env.seed(1)
N_ACTIONS = env.action_space.n
N_STATES = env.observation_space.shape[0]
ENV_A_SHAPE = 0 if isinstance(env.action_space.sample(), int) else env.action_space.sample().shape
net = nn.Sequential(nn.Linear(N_STATES, 50), nn.ReLU(), nn.Linear(50, N_ACTIONS))
opt = torch.optim.Adam(net.parameters(), lr=0.01)

for episode in range(400):
    s = env.reset()
    done = False
    while not done:
        if np.random.uniform() < 0.9:
            a = int(net(torch.FloatTensor(s)).argmax())
        else:
            a = env.action_space.sample()  # expect: RPL102
        s_, r, done, info = env.step(a)
        loss = (net(torch.FloatTensor(s))[a] - r) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        s = s_
