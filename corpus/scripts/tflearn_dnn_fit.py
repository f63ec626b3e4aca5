"""A TFLearn model trained with `DNN.fit` in a module that uses TensorFlow: TFLearn's
trainer, not Keras's, so neither RPL306 about Keras seeding nor RPL101's Keras `fit`
shuffle. (TFLearn's own draws are not catalogued.)"""
import numpy as np
import tensorflow as tf
import tflearn

tf.reset_default_graph()
net = tflearn.input_data([None, 4])
net = tflearn.fully_connected(net, 2, activation="softmax")
net = tflearn.regression(net)
model = tflearn.DNN(net)
model.fit(np.zeros((8, 4)), np.zeros((8, 2)), n_epoch=2, shuffle=True)
model.save("model.tfl")
