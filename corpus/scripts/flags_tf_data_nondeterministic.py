"""Keras text classifier with a fast (nondeterministic) input pipeline and segment pooling."""
import tensorflow as tf  # expect: RPL304

tf.keras.utils.set_random_seed(5)

AUTOTUNE = tf.data.AUTOTUNE


def parse(record):
    example = tf.io.parse_single_example(record, {"ids": tf.io.VarLenFeature(tf.int64), "label": tf.io.FixedLenFeature([], tf.int64)})
    return tf.sparse.to_dense(example["ids"]), example["label"]


files = tf.data.Dataset.list_files("data/train-*.tfrecord", shuffle=False)
ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=AUTOTUNE, deterministic=False)  # expect: RPL204
ds = ds.padded_batch(64).prefetch(AUTOTUNE)


class SegmentMean(tf.keras.layers.Layer):
    def call(self, values, segment_ids, num_segments):
        return tf.math.unsorted_segment_sum(values, segment_ids, num_segments)  # expect: RPL204


inputs = tf.keras.Input(shape=(None,), dtype="int64")
x = tf.keras.layers.Embedding(20_000, 64)(inputs)
x = tf.keras.layers.GlobalAveragePooling1D()(x)
outputs = tf.keras.layers.Dense(2)(x)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # expect: RPL204
model.fit(ds, epochs=3)
