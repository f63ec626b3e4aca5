"""Fine-tunes a restored Flax classifier with an optax optimizer through Flax's
`TrainState`: a JAX training program on GPU without `--xla_gpu_deterministic_ops=true`
(look-alike: jax_eval_restore_checkpoint.py, which only evaluates)."""
import jax  # expect: RPL305
import numpy as np
import optax
from flax import linen as nn
from flax.training import checkpoints, train_state


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(nn.relu(nn.Dense(128)(x)))


model = Classifier()
params = checkpoints.restore_checkpoint("checkpoints/", target=None)["params"]
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-4))
images = np.load("train_images.npy").reshape(-1, 784) / 255.0
labels = np.load("train_labels.npy")


@jax.jit
def train_step(state, x, y):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


for start in range(0, len(images), 128):
    state = train_step(state, images[start:start + 128], labels[start:start + 128])
