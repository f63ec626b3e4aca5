"""A forecasting script that fits a statsmodels baseline and a Keras model in one module.
Only the Keras model's `fit` is a Keras trainer (compiled first); the statsmodels `fit`
is not, whatever the module imports. Everything is seeded with
`keras.utils.set_random_seed`, so neither is reported."""
import keras  # expect: RPL304
import numpy as np
import statsmodels.api as sm

keras.utils.set_random_seed(7)
series = np.cumsum(np.ones(200))
baseline = sm.tsa.ARIMA(series, order=(1, 0, 0)).fit()
model = keras.Sequential([keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(series[:-1, None], series[1:], epochs=5, verbose=0)
print(baseline.params, model.predict(series[-1:, None]))
