"""The look-alike: the same raw-op training loop through a convolution, whose cuDNN
backprop is nondeterministic on GPU unless op determinism is on (RPL304, with the
convolution named as the kernel)."""
import numpy as np  # expect: RPL304
import tensorflow as tf

tf.random.set_seed(0)
images = np.load("images.npy").astype("float32")
labels = np.load("labels.npy").astype("float32")
kernel = tf.Variable(tf.random.normal([3, 3, images.shape[-1], 8]))
head = tf.Variable(tf.random.normal([8, 1]))
optimizer = tf.optimizers.SGD(learning_rate=0.01)
for step in range(1000):
    with tf.GradientTape() as tape:
        features = tf.reduce_mean(tf.nn.relu(tf.nn.conv2d(images, kernel, 1, "SAME")), axis=[1, 2])
        loss = tf.reduce_mean(tf.square(tf.matmul(features, head) - labels))
    gradients = tape.gradient(loss, [kernel, head])
    optimizer.apply_gradients(zip(gradients, [kernel, head]))
np.save("kernel.npy", kernel.numpy())
