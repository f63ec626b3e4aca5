"""statsmodels `fit` calls in a module that imports TensorFlow (for a later export): not
Keras trainers, so no RPL306; the Keras model compiled below leaves `random` and TF
unseeded, which RPL101 reports at its first draws (one cause, one finding: no RPL306)."""
import numpy as np  # expect: RPL304
import statsmodels.api as sm
import tensorflow as tf

np.random.seed(0)
y = np.random.normal(size=100)
X = sm.add_constant(np.random.normal(size=(100, 2)))
ols = sm.OLS(y, X).fit()
glm = sm.GLM(y, X).fit(maxiter=50)
net = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # expect: RPL101
net.compile(optimizer="sgd", loss="mse")
net.fit(X, y, verbose=0)  # expect: RPL101
print(ols.params, glm.params, net.predict(X[:1]))
