"""Evaluates a trained Flax classifier: restores its checkpoint
(`flax.training.checkpoints`), shards the batches (`common_utils.shard`) and computes the
loss with an optax loss function. Nothing is trained, so XLA's GPU determinism flag
decides nothing a run keeps (look-alike: jax_finetune_restored_checkpoint.py)."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import checkpoints, common_utils


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(nn.relu(nn.Dense(128)(x)))


model = Classifier()
params = checkpoints.restore_checkpoint("checkpoints/", target=None)["params"]
images = np.load("test_images.npy").reshape(-1, 784) / 255.0
labels = np.load("test_labels.npy")


@jax.pmap
def eval_step(params, batch):
    logits = model.apply({"params": params}, batch["image"])
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"]).mean()
    return loss, jnp.mean(jnp.argmax(logits, -1) == batch["label"])


replicated = jax.device_put_replicated(params, jax.local_devices())
for start in range(0, len(images), 512):
    batch = common_utils.shard({"image": images[start:start + 512], "label": labels[start:start + 512]})
    print(eval_step(replicated, batch))
