import torch
import torch.nn.functional as F

from model import ActorCritic
from rollout import rollout


def ensure_shared_grads(model, shared_model):
    for param, shared_param in zip(model.parameters(), shared_model.parameters()):
        if shared_param.grad is not None:
            return
        shared_param._grad = param.grad


def train(rank, args, shared_model, counter, lock, optimizer):
    model = ActorCritic(4, 2)
    while counter.value < 1_000_000:
        model.load_state_dict(shared_model.state_dict())
        states, actions, returns = rollout(model)
        logits, values = model(states)
        advantage = returns - values.squeeze(1)
        policy_loss = -(F.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1) * advantage.detach()).mean()
        loss = policy_loss + 0.5 * advantage.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        ensure_shared_grads(model, shared_model)
        optimizer.step()
        with lock:
            counter.value += len(states)
