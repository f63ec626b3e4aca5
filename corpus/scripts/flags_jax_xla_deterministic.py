"""JAX/optax MLP with XLA's deterministic GPU ops requested before JAX starts."""
import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_gpu_deterministic_ops=true"

import jax
import jax.numpy as jnp
import optax


def init(key, sizes=(784, 256, 10)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (m, n)) * 0.01, jnp.zeros(n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def loss_fn(params, x, y):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return optax.softmax_cross_entropy_with_integer_labels(x @ w + b, y).mean()


params = init(jax.random.PRNGKey(0))
opt = optax.adam(1e-3)
state = opt.init(params)
x, y = jnp.load("x.npy"), jnp.load("y.npy")
for step in range(500):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, state = opt.update(grads, state)
    params = optax.apply_updates(params, updates)
