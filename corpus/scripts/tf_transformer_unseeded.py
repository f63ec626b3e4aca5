"""A small Keras Transformer classifier on token ids; no global seed is ever set."""
import numpy as np  # expect: RPL304
import tensorflow as tf

VOCAB, MAXLEN, D = 20000, 200, 64


class TransformerBlock(tf.keras.layers.Layer):
    def __init__(self, d_model, heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=d_model)  # expect: RPL101
        self.ffn1 = tf.keras.layers.Dense(ff_dim, activation="relu")  # expect: RPL101
        self.ffn2 = tf.keras.layers.Dense(d_model)  # expect: RPL101
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)

    def call(self, x, training=False):
        x = self.norm1(x + self.att(x, x, training=training))
        return self.norm2(x + self.ffn2(self.ffn1(x)))


def build(num_classes=2):
    inputs = tf.keras.Input(shape=(MAXLEN,))
    x = tf.keras.layers.Embedding(VOCAB, D)(inputs)  # expect: RPL101
    x = TransformerBlock(D, 2, 128)(x)
    x = tf.keras.layers.GlobalAveragePooling1D()(x)
    outputs = tf.keras.layers.Dense(num_classes, activation="softmax")(x)  # expect: RPL101
    return tf.keras.Model(inputs, outputs)


if __name__ == "__main__":
    (x_train, y_train), (x_val, y_val) = tf.keras.datasets.imdb.load_data(num_words=VOCAB)
    x_train = tf.keras.utils.pad_sequences(x_train, maxlen=MAXLEN)
    x_val = tf.keras.utils.pad_sequences(x_val, maxlen=MAXLEN)

    train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    train_ds = train_ds.shuffle(25000).batch(32)  # expect: RPL101
    val_ds = tf.data.Dataset.from_tensor_slices((x_val, y_val)).shuffle(1000, seed=5).batch(64)

    token_dropout = tf.cast(tf.random.uniform((MAXLEN,)) > 0.05, tf.int32)  # expect: RPL101
    probe = tf.random.normal((2, D), seed=42)
    model = build()
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(train_ds.map(lambda x, y: (x * token_dropout, y)), validation_data=val_ds, epochs=2)
    print(np.asarray(probe).shape, model.evaluate(val_ds, verbose=0))
