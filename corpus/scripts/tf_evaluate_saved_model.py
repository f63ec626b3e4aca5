"""Evaluates and exports a trained Keras model: nothing is trained, no kernel's
nondeterminism can change a trained weight."""
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("checkpoints/best.h5")
x_test = np.load("x_test.npy")
y_test = np.load("y_test.npy")
loss, accuracy = model.evaluate(x_test, y_test, batch_size=256)
print(f"test accuracy {accuracy:.4f}")
np.save("predictions.npy", model.predict(x_test))
tf.saved_model.save(model, "export/1")
