"""TFRecord shards from several patterns: each pattern's files are flattened into one list,
which is sorted as a whole before the reader takes it."""
import itertools

import tensorflow as tf


def shard_files(patterns):
    files = sorted(sum([tf.io.gfile.glob(p) for p in patterns], []))
    extra = sorted(itertools.chain.from_iterable(tf.io.gfile.glob(p + ".gz") for p in patterns))
    return files + extra


if __name__ == "__main__":
    dataset = tf.data.TFRecordDataset(shard_files(["data/train-*", "data/extra-*"]))
    for record in dataset.take(4):
        print(len(record.numpy()))
