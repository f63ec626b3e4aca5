"""A JAX training script whose project installs JAX for TPUs (`jax[tpu]`): it runs on
TPU cores, where `--xla_gpu_deterministic_ops` has nothing to act on (no RPL305)."""
import jax
import jax.numpy as jnp
import optax


def loss(params, x, y):
    return jnp.mean((x @ params - y) ** 2)


key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (64, 4))
y = x.sum(axis=1)
params = jnp.zeros(4)
opt = optax.sgd(0.1)
state = opt.init(params)
for _ in range(100):
    grads = jax.grad(loss)(params, x, y)
    updates, state = opt.update(grads, state)
    params = optax.apply_updates(params, updates)
print(params)
