"""A TF1 multi-GPU trainer in the classic layout: variables on the CPU, one tower per GPU
built inside `with tf.device("/gpu:%d" % i):` within the CPU block. The towers' ops and
the gradients the optimizer computes for them run on the GPUs: the dense layer's
bias_add gradient and the fused sparse softmax cross-entropy are nondeterministic there
(RPL204 at each, as the tower function builds them; look-alike of tf1_a3c_built_on_cpu)."""
import numpy as np
import tensorflow as tf

N_GPUS = 2


def tower_loss(x, y):
    logits = tf.layers.dense(x, 10, name="fc", reuse=tf.AUTO_REUSE)  # expect: RPL204
    return tf.losses.sparse_softmax_cross_entropy(y, logits)  # expect: RPL204


def main():
    tf.set_random_seed(0)
    np.random.seed(0)
    x = tf.placeholder(tf.float32, [None, 32])
    y = tf.placeholder(tf.int32, [None])
    with tf.device("/cpu:0"):
        optimizer = tf.train.GradientDescentOptimizer(0.1)
        grads = []
        for i in range(N_GPUS):
            with tf.device("/gpu:%d" % i):
                grads.append(optimizer.compute_gradients(tower_loss(x, y)))
        averaged = [(tf.add_n([g for g, _ in pairs]) / N_GPUS, pairs[0][1]) for pairs in zip(*grads)]
        train = optimizer.apply_gradients(averaged)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(100):
            sess.run(train, {x: np.random.randn(16, 32), y: np.random.randint(0, 10, 16)})


if __name__ == "__main__":
    main()
