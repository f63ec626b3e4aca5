"""A gradient-boosted forest beside a Keras network."""
import numpy as np  # expect: RPL304
import pandas as pd
import tensorflow as tf
import tensorflow_decision_forests as tfdf

# TensorFlow Decision Forests trains its trees in Yggdrasil's C++ learners, deterministic
# by the model's own random_seed (123456 by default): nothing here needs TF's seeds.
frame = pd.read_csv("train.csv")
forest_data = tfdf.keras.pd_dataframe_to_tf_dataset(frame, label="label")
forest = tfdf.keras.GradientBoostedTreesModel(num_trees=200)
forest.compile(metrics=["accuracy"])
forest.fit(forest_data)

# The network trains with TensorFlow's kernels and draws from its seeds and `random`.
features = frame.drop(columns=["label"]).to_numpy(dtype=np.float32)
net = tf.keras.Sequential([tf.keras.Input(shape=(features.shape[1],)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
net.compile(optimizer="adam", loss="binary_crossentropy")
net.fit(features, frame["label"].to_numpy(), epochs=3, shuffle=False)  # expect: RPL306
print(forest.evaluate(forest_data), net.evaluate(features, frame["label"].to_numpy()))
