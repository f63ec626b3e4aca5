"""A TF 2 image model on a GPU without op determinism. The input pipeline resizes each
image in a function `tf.data` runs (`ds.map(preprocess)`, and through a lambda): the
pipeline runs it on the CPU and no gradient flows through it, so the resize's
nondeterministic GPU gradient never runs there. The model resizes its feature map in
its own forward too, where the gradient does flow: reported (look-alike), as is the
fused sparse cross-entropy; op determinism is never turned on (RPL304)."""
import tensorflow as tf  # expect: RPL304

tf.keras.utils.set_random_seed(0)


def preprocess(image, label):
    image = tf.image.resize(image, [64, 64])
    return image / 255.0, label


def augment(image, label, size):
    return tf.image.resize(image, [size, size]), label


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(8, 3, padding="same")
        self.head = tf.keras.layers.Dense(10)

    def call(self, x):
        x = self.conv(x)
        x = tf.image.resize(x, [32, 32])  # expect: RPL204
        return self.head(tf.reduce_mean(x, axis=[1, 2]))


images = tf.random.uniform([256, 80, 80, 3], maxval=255.0)
labels = tf.random.uniform([256], maxval=10, dtype=tf.int32)
ds = tf.data.Dataset.from_tensor_slices((images, labels)).map(preprocess)
ds = ds.map(lambda image, label: augment(image, label, 64)).batch(32)
model = Net()
optimizer = tf.keras.optimizers.Adam(1e-3)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)  # expect: RPL204
for x, y in ds:
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
