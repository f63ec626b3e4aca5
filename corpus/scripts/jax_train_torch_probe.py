"""Trains a JAX model with a seeded key, then scores it with a torch probe built fresh
(no checkpoint loaded, torch never seeded): the probe's random weights change the
reported score from run to run."""
import jax  # expect: RPL305
import jax.numpy as jnp
import optax
import torch
from flax import linen as nn


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(x)


def train(features, labels, steps=100):
    model = Head()
    params = model.init(jax.random.PRNGKey(0), features[:1])
    tx = optax.sgd(1e-2)
    state = tx.init(params)
    for _ in range(steps):
        grads = jax.grad(
            lambda p: optax.softmax_cross_entropy_with_integer_labels(model.apply(p, features), labels).mean()
        )(params)
        updates, state = tx.update(grads, state)
        params = optax.apply_updates(params, updates)
    return model.apply(params, features)


if __name__ == "__main__":
    feats = jnp.linspace(0, 1, 64 * 32).reshape(64, 32)
    logits = train(feats, jnp.arange(64) % 10)
    probe = torch.nn.Linear(10, 1)  # expect: RPL101
    with torch.no_grad():
        print(probe(torch.tensor(logits.tolist())).mean())
