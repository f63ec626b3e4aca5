"""Look-alike of listing_flattened_sorted.py: the per-pattern lists are sorted as lists
(by their first file), so each list keeps the file system's order inside it."""
import tensorflow as tf


def shard_groups(patterns):
    return sorted([tf.io.gfile.glob(p) for p in patterns])  # expect: RPL402


if __name__ == "__main__":
    for group in shard_groups(["data/train-*", "data/extra-*"]):
        dataset = tf.data.TFRecordDataset(group)
        for record in dataset.take(1):
            print(len(record.numpy()))
