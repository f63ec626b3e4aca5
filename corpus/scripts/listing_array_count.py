"""A Keras notebook's file list kept in a NumPy array only to count the images for
`steps_per_epoch`; the generator reads the folder itself, shuffled by Keras (look-alike:
the validation split below takes the array's first entries)."""
import os
from glob import glob

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()
DATA = "data/celeb"
filenames = np.array(glob(os.path.join(DATA, "*/*.jpg")))
NUM_IMAGES = len(filenames)
held_out = np.array(glob(os.path.join(DATA, "*/*.png")))  # expect: RPL402
validation = held_out[:500]
flow = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255).flow_from_directory(
    DATA, target_size=(64, 64), batch_size=32, shuffle=True, class_mode="input", seed=0)
model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
model.compile("adam", "mse")
model.fit(flow, steps_per_epoch=NUM_IMAGES // 32, epochs=1)
print(validation)
