"""A TF 1 contrib estimator trained with `fit(input_fn=...)`: not Keras's `fit` (no NumPy
shuffling, no `keras.utils.set_random_seed` to ask for); the shuffling is the input
function's, drawn from TensorFlow's graph seed, which the program never sets."""
from __future__ import print_function

import numpy as np
import tensorflow as tf
from tensorflow.contrib.boosted_trees.estimator_batch.estimator import GradientBoostedDecisionTreeClassifier
from tensorflow.contrib.boosted_trees.proto import learner_pb2

features = np.load("features.npy").astype(np.float32)
labels = np.load("labels.npy").astype(np.int32)

config = learner_pb2.LearnerConfig()
config.num_classes = 10
model = GradientBoostedDecisionTreeClassifier(
    learner_config=config, n_classes=10, examples_per_layer=1000, num_trees=10, center_bias=False)
input_fn = tf.estimator.inputs.numpy_input_fn(  # expect: RPL101
    x={"images": features}, y=labels, batch_size=4096, num_epochs=None, shuffle=True)
model.fit(input_fn=input_fn, max_steps=10000)
