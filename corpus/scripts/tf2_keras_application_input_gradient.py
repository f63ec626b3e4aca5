"""Gradients through a pretrained Keras application (style transfer: the image is the
variable): VGG19's convolutions run cuDNN's backprop on GPU, which differs between runs
unless op determinism is on. The application loads ImageNet weights, so it draws no
initial weights; the image starts from a file."""
import numpy as np  # expect: RPL304
import tensorflow as tf
from tensorflow import keras

extractor = keras.applications.vgg19.VGG19(weights="imagenet", include_top=False)
style = tf.constant(np.load("style.npy"))
image = tf.Variable(np.load("content.npy"))
optimizer = keras.optimizers.Adam(learning_rate=0.02)
for step in range(200):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(extractor(image) - extractor(style)))
    grads = tape.gradient(loss, image)
    optimizer.apply_gradients([(grads, image)])
np.save("stylised.npy", image.numpy())
