"""A JAX/optax training loop whose input pipeline and logging are TensorFlow's:
TensorFlow runs no training kernel here (tf.data on the CPU, TensorBoard summaries)."""
import jax  # expect: RPL305
import jax.numpy as jnp
import numpy as np
import optax
import tensorflow as tf

rng = jax.random.PRNGKey(0)
data = np.load("features.npy").astype("float32")
ds = tf.data.Dataset.from_tensor_slices(data).batch(32).prefetch(2)
writer = tf.summary.create_file_writer("logs")

params = {"w": jnp.zeros((data.shape[1],))}
opt = optax.sgd(0.1)
state = opt.init(params)


def loss_fn(p, x):
    return jnp.mean((x @ p["w"]) ** 2)


for step, batch in enumerate(ds.as_numpy_iterator()):
    grads = jax.grad(loss_fn)(params, batch)
    updates, state = opt.update(grads, state)
    params = optax.apply_updates(params, updates)
    with writer.as_default():
        tf.summary.scalar("loss", float(loss_fn(params, batch)), step=step)
