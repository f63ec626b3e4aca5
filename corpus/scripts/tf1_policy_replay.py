"""Replays a saved TF1 policy: a Session that trains nothing and relies on no op
determinism (no RPL204, no RPL304)."""
import sys

import numpy as np
import tensorflow as tf

graph = tf.Graph()
with tf.compat.v1.Session(graph=graph) as sess:
    tf.compat.v1.saved_model.loader.load(sess, ["serve"], sys.argv[1])
    obs_ph = graph.get_tensor_by_name("obs:0")
    action = graph.get_tensor_by_name("pi:0")
    obs = np.zeros((1, 8), dtype=np.float32)
    for _ in range(10):
        print(sess.run(action, {obs_ph: obs}))
