"""Writes TFRecords for one dataset; the call that would shuffle another dataset's files is
commented out, so that function never runs (its draws are no problem of this run)."""
import argparse

import numpy as np
import tensorflow as tf


def dump_imagenet(data_dir, out_dir):
    files = tf.data.Dataset.list_files(data_dir + "/train-*")
    files = files.shuffle(buffer_size=1024)
    order = np.random.permutation(1024)
    return files, order, out_dir


def dump_faces(data_dir, out_dir):
    names = sorted(tf.io.gfile.listdir(data_dir))
    perm = np.random.permutation(len(names))  # expect: RPL101
    with tf.io.TFRecordWriter(out_dir + "/faces.tfrecords") as writer:
        for i in perm:
            writer.write(tf.io.read_file(data_dir + "/" + names[i]).numpy())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    parser.add_argument("--out_dir", required=True)
    hps = parser.parse_args()
    # dump_imagenet(hps.data_dir, hps.out_dir)
    dump_faces(hps.data_dir, hps.out_dir)
