"""A JAX MLP on synthetic data: every draw takes an explicit key."""
import jax  # expect: RPL305
import jax.numpy as jnp
import numpy as np
import optax


def init_params(key, sizes):
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, (n_in, n_out) in zip(keys, zip(sizes[:-1], sizes[1:])):
        w = jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        params.append((w, jnp.zeros(n_out)))
    return params


def forward(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


def main(seed=0, steps=500):
    data_rng = np.random.default_rng(seed)
    x = data_rng.normal(size=(2048, 8)).astype(np.float32)
    y = np.sin(x).sum(axis=1, keepdims=True)

    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    params = init_params(init_key, [8, 128, 128, 1])
    opt = optax.adam(1e-3)
    state = opt.init(params)

    @jax.jit
    def update(params, state, xb, yb):
        loss, grads = jax.value_and_grad(loss_fn)(params, xb, yb)
        updates, state = opt.update(grads, state)
        return optax.apply_updates(params, updates), state, loss

    for step in range(steps):
        key, batch_key = jax.random.split(key)
        idx = jax.random.choice(batch_key, x.shape[0], (128,), replace=False)
        params, state, loss = update(params, state, x[idx], y[idx])
        if step % 100 == 0:
            print(step, float(loss))


if __name__ == "__main__":
    main()
