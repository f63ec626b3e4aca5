"""A TF1 asynchronous actor-critic: each worker's net, with its gradients and the
optimizer step that applies them, is built by a class whose constructor runs inside
`with tf.device("/cpu:0"):`. TensorFlow places every op created there, the gradients
included, on the CPU: the dense layers' bias_add gradient never runs on a GPU (look-alike
of tf1_towers_on_gpu: no RPL204)."""
import numpy as np
import tensorflow as tf

N_S, N_A, N_WORKERS = 4, 2, 4


class ActorCritic(object):
    def __init__(self, scope, optimizer):
        with tf.variable_scope(scope):
            self.s = tf.placeholder(tf.float32, [None, N_S])
            self.a = tf.placeholder(tf.int32, [None])
            hidden = tf.layers.dense(self.s, 32, tf.nn.relu)
            self.logits = tf.layers.dense(hidden, N_A)
        self.params = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=scope)
        logp = tf.reduce_sum(tf.one_hot(self.a, N_A) * tf.nn.log_softmax(self.logits), axis=1)
        grads = tf.gradients(-tf.reduce_mean(logp), self.params)
        self.push = optimizer.apply_gradients(zip(grads, self.params))


if __name__ == "__main__":
    tf.set_random_seed(0)
    np.random.seed(0)
    sess = tf.Session()
    with tf.device("/cpu:0"):
        optimizer = tf.train.RMSPropOptimizer(1e-3)
        workers = [ActorCritic("w%d" % i, optimizer) for i in range(N_WORKERS)]
    sess.run(tf.global_variables_initializer())
    for step in range(100):
        for worker in workers:
            feed = {worker.s: np.random.randn(8, N_S), worker.a: np.random.randint(0, N_A, 8)}
            sess.run(worker.push, feed)
