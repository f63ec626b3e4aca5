"""Seeding helpers collected from old experiment repos (library code)."""
import os
import random
import secrets

import jax
import numpy as np
import tensorflow as tf


def seed_from_os():
    """Re-seed from OS entropy between trials."""
    random.seed()  # expect: RPL103
    np.random.seed()  # expect: RPL103


def seed_from_secrets():
    seed = secrets.randbits(32)
    random.seed(seed)  # expect: RPL103
    return seed


def seed_tensorflow_from_urandom():
    tf.random.set_seed(int.from_bytes(os.urandom(4), "little"))  # expect: RPL103


def seed_everything(seed=0):
    random.seed(seed)
    np.random.seed(seed)


def jax_key_from_pid():
    return jax.random.PRNGKey(os.getpid())  # expect: RPL102
