"""TF1 adaptive embedding: each cluster's rows are scattered back at the coordinates of its
mask (`tf.where(mask)`, each position once), so the scatter is deterministic; the
per-token mean activations scatter-added at token ids repeat indices (float sums in
thread order)."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)

tokens = tf.placeholder(tf.int64, [None, 64])
targets = tf.placeholder(tf.int64, [None, 64])
y = tf.zeros([32, 64, 128])
for i, (lo, hi) in enumerate([(0, 2000), (2000, 10000)]):
    with tf.variable_scope("cutoff_{}".format(i)):
        mask = (tokens >= lo) & (tokens < hi)
        table = tf.get_variable("table", [hi - lo, 128])
        rows = tf.nn.embedding_lookup(table, tf.boolean_mask(tokens, mask) - lo)  # expect: RPL204
        mask_idx = tf.to_int64(tf.where(mask))
        y += tf.scatter_nd(mask_idx, rows, tf.to_int64(tf.shape(y)))
token_sums = tf.scatter_nd(tf.reshape(tokens, [-1, 1]), tf.reshape(tf.reduce_mean(y, -1), [-1]), [10000])  # expect: RPL204
logits = tf.layers.dense(y, 10000, use_bias=False)
loss = tf.reduce_mean(tf.square(tf.reduce_logsumexp(logits, -1))) + 1e-4 * tf.reduce_sum(tf.square(token_sums))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(100):
        batch = np.random.randint(0, 10000, (32, 64))
        sess.run(train_op, {tokens: batch, targets: batch})
