"""A TF 2 notebook turned script: a few images are flipped, resized and contrast-adjusted
only to show the augmentations in a figure, then the training pipeline resizes in a
`tf.data` map (on the CPU, no gradient) and trains a CNN (op determinism never turned
on: the program-level finding)."""
import matplotlib.pyplot as plt  # expect: RPL304
import tensorflow as tf

tf.keras.utils.set_random_seed(1)
examples = [tf.zeros((218, 178, 3), tf.uint8) for _ in range(3)]
fig = plt.figure(figsize=(10, 4))
for i, image in enumerate(examples):
    ax = fig.add_subplot(2, 3, i + 1)
    resized = tf.image.resize(image, size=(128, 128))
    ax.imshow(tf.cast(resized, tf.uint8))
    ax = fig.add_subplot(2, 3, i + 4)
    ax.imshow(tf.image.adjust_contrast(image, contrast_factor=2))
plt.show()

train = tf.data.Dataset.from_tensor_slices((tf.zeros((64, 218, 178, 3)), tf.zeros((64,))))
train = train.map(lambda x, y: (tf.image.resize(x, (64, 64)), y)).batch(8)
model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3), tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(train, epochs=2)
