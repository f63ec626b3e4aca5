"""Pretraining instances for a BERT-style model: a seeded `random.Random` passed around."""
import random

import tensorflow as tf

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("input_file", None, "text, one sentence per line")
flags.DEFINE_integer("random_seed", 12345, "seed for data generation")
flags.DEFINE_integer("dupe_factor", 10, "how many times to duplicate the input")


def create_instances(documents, dupe_factor, rng):
    instances = []
    for _ in range(dupe_factor):
        rng.shuffle(documents)
        for document in documents:
            if rng.random() < 0.1:
                instances.append(document[: rng.randint(1, len(document))])
            else:
                instances.append(document)
    return instances


def main(_):
    with tf.gfile.GFile(FLAGS.input_file) as f:
        documents = [line.split() for line in f if line.strip()]
    rng = random.Random(FLAGS.random_seed)
    is_train = tf.get_variable("is_train", shape=[], dtype=tf.bool, trainable=False)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(is_train))
    for instance in create_instances(documents, FLAGS.dupe_factor, rng):
        print(" ".join(instance))


if __name__ == "__main__":
    tf.app.run()
