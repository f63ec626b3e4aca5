"""A linear regression written with raw TensorFlow 2 ops: matmul, add, square and mean.
Their GPU kernels repeat run to run without op determinism (none of them is a kernel the
switch changes: no convolution, bias_add, softmax cross-entropy or segment sum), so
RPL304 has nothing to report; seeding is done. No finding."""
import numpy as np
import tensorflow as tf

tf.random.set_seed(0)
x_data = np.load("features.npy").astype("float32")
y_data = np.load("targets.npy").astype("float32")
w = tf.Variable(tf.random.normal([x_data.shape[1], 1]))
b = tf.Variable(tf.zeros([1]))
optimizer = tf.optimizers.SGD(learning_rate=0.01)
for step in range(1000):
    with tf.GradientTape() as tape:
        prediction = tf.matmul(x_data, w) + b
        loss = tf.reduce_mean(tf.square(prediction - y_data))
    gradients = tape.gradient(loss, [w, b])
    optimizer.apply_gradients(zip(gradients, [w, b]))
np.save("weights.npy", w.numpy())
