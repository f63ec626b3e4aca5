"""Look-alike of tf1_seed_before_new_graph: the seed is set inside the new graph (and a
graph bound to a name works the same way), so its ops are seeded."""
import numpy as np
import tensorflow as tf

np.random.seed(1234)
graph = tf.Graph()
with graph.as_default():
    tf.set_random_seed(1234)
    x = tf.placeholder(tf.float32, [None, 16])
    w = tf.Variable(tf.truncated_normal([16, 4], stddev=0.1))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session(graph=graph) as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(100):
            sess.run(train_op, feed_dict={x: np.random.rand(8, 16)})
