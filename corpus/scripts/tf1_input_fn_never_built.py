"""Converts a corpus to TFRecords. The input function factory in this module is used by
the training scripts; this script never calls it, so its shuffles do not run here."""
import numpy as np
import tensorflow as tf

np.random.seed(1)


def get_input_fn(record_dir, batch_size):
    def input_fn(params):
        dataset = tf.data.Dataset.list_files(record_dir + "/*.tfrecords")
        dataset = dataset.shuffle(len(params["files"]))
        return dataset.batch(batch_size)
    return input_fn


def main(_):
    data = np.arange(1000)
    perm = np.random.permutation(len(data))
    with tf.io.TFRecordWriter("train.tfrecords") as writer:
        for i in perm:
            writer.write(tf.io.serialize_tensor(tf.constant(data[i])).numpy())


if __name__ == "__main__":
    tf.compat.v1.app.run(main)
