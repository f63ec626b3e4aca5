"""Text classifier in TF 2 on a GPU without op determinism: the embedding table and its
lookup are pinned to the CPU (`with tf.device("/cpu:0")`), the idiom for a large table:
the lookup runs on the CPU and its gradient reaches the table as IndexedSlices, applied
on the CPU. A segment sum pinned there too runs on the CPU. The same lookup outside the
block, and a segment sum whose gradient is taken on the GPU, are reported."""
import tensorflow as tf  # expect: RPL304

VOCAB, WIDTH = 20000, 64
tf.keras.utils.set_random_seed(0)

with tf.device("/cpu:0"):
    table = tf.Variable(tf.random.uniform([VOCAB, WIDTH], -1.0, 1.0))
head = tf.keras.layers.Dense(2)
positions = tf.Variable(tf.random.normal([VOCAB, WIDTH]))
optimizer = tf.keras.optimizers.Adam(1e-3)


def step(ids, segments, labels):
    with tf.GradientTape() as tape:
        with tf.device("/cpu:0"):
            words = tf.nn.embedding_lookup(table, ids)
            pooled = tf.math.unsorted_segment_sum(words, segments, 8)
        extra = tf.nn.embedding_lookup(positions, ids)  # expect: RPL204
        mixed = tf.math.unsorted_segment_sum(extra, segments, 8)  # expect: RPL204
        logits = head(pooled + mixed)
        loss = tf.reduce_mean(tf.square(logits - tf.cast(labels, tf.float32)[:, None]))
    variables = [table, positions] + head.trainable_variables
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss


for _ in range(10):
    ids = tf.random.uniform([32, 16], 0, VOCAB, dtype=tf.int32)
    segments = tf.random.uniform([32, 16], 0, 8, dtype=tf.int32)
    step(ids, segments, tf.random.uniform([8], 0, 2, dtype=tf.int32))
