"""A Colab notebook's code, exported: JAX is connected to the runtime's TPU
(`jax.tools.colab_tpu.setup_tpu()`), so it trains on no GPU and XLA's GPU determinism
flag has nothing to do. Its only randomness is an explicit PRNG key. No finding."""
import jax
import jax.numpy as jnp
import jax.tools.colab_tpu
import numpy as np
import optax

jax.tools.colab_tpu.setup_tpu()

key = jax.random.PRNGKey(0)
params = {"w": jax.random.normal(key, (128, 10)) * 0.01}
optimizer = optax.adamw(1e-3)
state = optimizer.init(params)
features = jnp.asarray(np.load("features.npy"))
labels = jnp.asarray(np.load("labels.npy"))


def loss_fn(p):
    logits = features @ p["w"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


for step in range(100):
    grads = jax.grad(loss_fn)(params)
    updates, state = optimizer.update(grads, state, params)
    params = optax.apply_updates(params, updates)
np.save("w.npy", np.asarray(params["w"]))
