"""TF1 input pipeline over TFRecord shards found with tf.gfile.Glob: the shard order is
the file system's (GetMatchingPaths does not sort), so the epoch's example order, and
with it the trained weights, differ between machines. The graph seed is set, so
tf.get_variable's default initialiser is seeded. The evaluation shards are sorted, and
counting the shards does not depend on their order."""
import tensorflow as tf

tf.set_random_seed(1)

train_files = tf.gfile.Glob("data/train-*.tfrecord")  # expect: RPL402
eval_files = sorted(tf.gfile.Glob("data/eval-*.tfrecord"))
n_shards = len(tf.gfile.ListDirectory("data"))
print("shards:", n_shards)

dataset = tf.data.TFRecordDataset(train_files).batch(32)
features = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
w = tf.get_variable("w", [8, 1], initializer=tf.zeros_initializer())
b = tf.get_variable("b", [1])
loss = tf.reduce_mean(tf.square(tf.matmul(tf.io.parse_tensor(features, tf.float32), w) + b))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for _ in range(100):
        session.run(train_op)
