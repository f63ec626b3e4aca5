"""Skip-gram word2vec with NCE loss (TF2): TensorFlow is never seeded, and the embedding
lookup into a variable has an IndexedSlices gradient (UnsortedSegmentSum, nondeterministic
on GPU without op determinism)."""
import numpy as np  # expect: RPL304
import tensorflow as tf

VOCAB, DIM, SAMPLED = 5000, 128, 64
pairs = np.load("skipgram_pairs.npy")
embeddings = tf.Variable(tf.zeros([VOCAB, DIM]))
nce_weights = tf.Variable(tf.zeros([VOCAB, DIM]))
nce_biases = tf.Variable(tf.zeros([VOCAB]))
optimizer = tf.keras.optimizers.SGD(1.0)
fixed = tf.random.log_uniform_candidate_sampler(
    true_classes=tf.zeros([1, 1], tf.int64), num_true=1, num_sampled=SAMPLED, unique=True, range_max=VOCAB, seed=3
)

for start in range(0, len(pairs), 256):
    batch = pairs[start:start + 256]
    centers, contexts = batch[:, 0], batch[:, 1:2]
    with tf.GradientTape() as tape:
        embedded = tf.nn.embedding_lookup(embeddings, centers)  # expect: RPL204
        loss = tf.reduce_mean(tf.nn.nce_loss(nce_weights, nce_biases, contexts, embedded, SAMPLED, VOCAB))  # expect: RPL101
        eval_loss = tf.nn.sampled_softmax_loss(nce_weights, nce_biases, contexts, embedded, SAMPLED, VOCAB, sampled_values=fixed)
    grads = tape.gradient(loss, [embeddings, nce_weights, nce_biases])
    optimizer.apply_gradients(zip(grads, [embeddings, nce_weights, nce_biases]))
np.save("embeddings.npy", embeddings.numpy())
