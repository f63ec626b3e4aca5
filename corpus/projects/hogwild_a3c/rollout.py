import torch


def rollout(model, steps=20):
    states = torch.zeros(steps, 4)
    with torch.no_grad():
        logits, _ = model(states)
    actions = logits.argmax(-1)
    return states, actions, torch.ones(steps)
