"""Deep-dream style gradient ascent: nearest resizes inside GradientTape blocks have
their gradient taken; the resize between octaves, outside any tape, has none."""
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()

model = keras.applications.InceptionV3(weights="imagenet", include_top=False)


def gradient_ascent_step(image, lr):
    with tf.GradientTape() as tape:
        tape.watch(image)
        small = tf.image.resize(image, (64, 64), method="nearest")  # expect: RPL204
        loss = tf.reduce_mean(model(small))
    grads = tape.gradient(loss, image)
    return image + lr * grads


img = tf.random.uniform((1, 128, 128, 3), seed=1)
for shape in [(96, 96), (128, 128)]:
    img = tf.image.resize(img, shape, method="nearest")
    img = gradient_ascent_step(img, 0.01)
    with tf.GradientTape() as tape:
        up = tf.image.resize(img, (256, 256), method="nearest")  # expect: RPL204
        loss = tf.reduce_sum(up)
    img = img + tape.gradient(loss, img)
