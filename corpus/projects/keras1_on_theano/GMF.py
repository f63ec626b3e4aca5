"""Generalized matrix factorisation with Keras 1 on Theano."""
import numpy as np
import theano.tensor as T
from keras import initializations
from keras.layers import Embedding, Flatten, Input, Dense, merge
from keras.models import Model
from keras.optimizers import Adam


def init_normal(shape, name=None):
    return initializations.normal(shape, scale=0.01, name=name)


def get_model(num_users, num_items, latent_dim):
    user_input = Input(shape=(1,), dtype="int32")
    item_input = Input(shape=(1,), dtype="int32")
    user_embedding = Embedding(input_dim=num_users, output_dim=latent_dim, init=init_normal, input_length=1)  # expect: RPL101
    item_embedding = Embedding(input_dim=num_items, output_dim=latent_dim, init=init_normal, input_length=1)  # expect: RPL101
    vector = merge([Flatten()(user_embedding(user_input)), Flatten()(item_embedding(item_input))], mode="mul")
    prediction = Dense(1, activation="sigmoid", init="lecun_uniform")(vector)  # expect: RPL101
    return Model(input=[user_input, item_input], output=prediction)


if __name__ == "__main__":
    model = get_model(100, 200, 8)
    model.compile(optimizer=Adam(lr=0.001), loss="binary_crossentropy")
    users = np.random.randint(0, 100, size=1000)  # expect: RPL101
    items = np.random.randint(0, 200, size=1000)  # expect: RPL101
    labels = (T.ones_like(users).eval() > 0).astype("float32")
    model.fit([users, items], labels, batch_size=256, nb_epoch=2, shuffle=True)  # expect: RPL101
