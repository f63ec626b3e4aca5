"""The look-alike: the notebook connects JAX to a TPU only in a Colab TPU runtime
(`COLAB_TPU_ADDR` set); in a GPU runtime the same code trains on the GPU without XLA's
determinism flag."""
import os  # expect: RPL305

import jax
import jax.numpy as jnp
import numpy as np
import optax

if "COLAB_TPU_ADDR" in os.environ:
    import jax.tools.colab_tpu
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
