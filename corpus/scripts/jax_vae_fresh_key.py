"""Tiny JAX VAE; the run key comes from the clock "so every run is different"."""
import time  # expect: RPL305

import jax
import jax.numpy as jnp
import numpy as np


def init(key, d_in=784, d_hidden=256, d_latent=16):
    k1, k2, k3 = jax.random.split(key, 3)
    scale = lambda fan_in: jnp.sqrt(1.0 / fan_in)
    return {
        "enc": jax.random.normal(k1, (d_in, d_hidden)) * scale(d_in),
        "mu_logvar": jax.random.normal(k2, (d_hidden, 2 * d_latent)) * scale(d_hidden),
        "dec": jax.random.normal(k3, (d_latent, d_in)) * scale(d_latent),
    }


def elbo(params, key, x):
    h = jnp.tanh(x @ params["enc"])
    mu, logvar = jnp.split(h @ params["mu_logvar"], 2, axis=-1)
    z = mu + jnp.exp(0.5 * logvar) * jax.random.normal(key, mu.shape)
    logits = z @ params["dec"]
    rec = -jnp.sum(jnp.logaddexp(0.0, logits) - x * logits, axis=-1)
    kl = -0.5 * jnp.sum(1 + logvar - mu**2 - jnp.exp(logvar), axis=-1)
    return jnp.mean(rec - kl)


def batches(x, batch_size):
    order = np.random.permutation(len(x))  # expect: RPL101
    for start in range(0, len(x) - batch_size + 1, batch_size):
        yield x[order[start:start + batch_size]]


if __name__ == "__main__":
    data = np.load("data/binarized_mnist.npy").astype(np.float32)
    key = jax.random.PRNGKey(int(time.time()))  # expect: RPL102
    key, init_key = jax.random.split(key)
    params = init(init_key)
    grad_fn = jax.jit(jax.grad(lambda p, k, x: -elbo(p, k, x)))
    lr = 1e-3
    for epoch in range(10):
        for xb in batches(data, 100):
            key, sub = jax.random.split(key)
            grads = grad_fn(params, sub, xb)
            params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        print(epoch, float(elbo(params, key, data[:1000])))
