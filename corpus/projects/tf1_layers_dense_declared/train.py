"""A TF1 policy-gradient style trainer: dense layers (bias_add) trained in a Session."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)
obs = tf.placeholder(tf.float32, [None, 4])
act = tf.placeholder(tf.int32, [None])
hidden = tf.layers.dense(obs, 32, activation=tf.tanh)  # expect: RPL204
logits = tf.layers.dense(hidden, 2)
no_bias = tf.layers.dense(hidden, 2, use_bias=False)
logp = tf.reduce_sum(tf.one_hot(act, 2) * tf.nn.log_softmax(logits), axis=1)
loss = -tf.reduce_mean(logp) + 0.0 * tf.reduce_sum(no_bias)
train = tf.train.AdamOptimizer(1e-2).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(50):
        batch_obs = np.random.randn(64, 4).astype("float32")
        batch_act = np.random.randint(0, 2, 64)
        sess.run(train, {obs: batch_obs, act: batch_act})
