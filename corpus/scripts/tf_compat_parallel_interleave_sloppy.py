"""TFRecord reading through tf.compat.v1's parallel_interleave with sloppy=True: the shards'
records come out as the reader threads produce them, so the batch order follows thread
timing. The evaluation pipeline keeps the deterministic default (sloppy=False), and the
Dataset.interleave with parallel calls keeps its deterministic default too."""
import tensorflow as tf  # expect: RPL304

tf.keras.utils.set_random_seed(0)
files = tf.data.Dataset.from_tensor_slices(["a.tfrecord", "b.tfrecord", "c.tfrecord"])
train = files.apply(
    tf.compat.v1.data.experimental.parallel_interleave(tf.data.TFRecordDataset, cycle_length=3, sloppy=True)  # expect: RPL204
)
evaluation = files.apply(tf.compat.v1.data.experimental.parallel_interleave(tf.data.TFRecordDataset, cycle_length=3))
also = files.interleave(tf.data.TFRecordDataset, cycle_length=3, num_parallel_calls=3)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile("sgd", "mse")
model.fit(train.map(lambda r: (tf.ones([4]), 1.0)).batch(8), epochs=1)
model.evaluate(evaluation.map(lambda r: (tf.ones([4]), 1.0)).batch(8))
print(also)
