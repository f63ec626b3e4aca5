"""Fine-tunes a ViT in JAX, then checks the exported weights load into timm and give
the same logits. The timm model's random initialisation is replaced by
`load_checkpoint`: not a finding (torch trains nothing here). The JAX training is
seeded with an explicit key."""
import jax  # expect: RPL305
import jax.numpy as jnp
import optax
import timm
import torch
from flax import linen as nn


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(x)


def train(features, labels, steps=100):
    model = Head()
    params = model.init(jax.random.PRNGKey(0), features[:1])
    tx = optax.adam(1e-3)
    state = tx.init(params)

    @jax.jit
    def step(params, state):
        loss, grads = jax.value_and_grad(
            lambda p: optax.softmax_cross_entropy_with_integer_labels(model.apply(p, features), labels).mean()
        )(params)
        updates, state = tx.update(grads, state)
        return optax.apply_updates(params, updates), state, loss

    for _ in range(steps):
        params, state, _ = step(params, state)
    return params


def compare(checkpoint, images):
    timm_model = timm.create_model("vit_base_patch16_224", num_classes=10)
    timm.models.load_checkpoint(timm_model, checkpoint)
    timm_model.eval()
    with torch.no_grad():
        return timm_model(images).numpy()


if __name__ == "__main__":
    feats = jnp.linspace(0, 1, 64 * 768).reshape(64, 768)
    train(feats, jnp.arange(64) % 10)
    print(compare("vit_b16.npz", torch.zeros(2, 3, 224, 224)))
