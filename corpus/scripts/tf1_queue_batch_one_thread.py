"""TF1 trainer fed by queue runners with one enqueue thread everywhere: the default
num_threads, a flag whose default is 1, a literal 1, a join over one reader, an estimator
input function with its default num_threads, and a parallel interleave that keeps its
order (sloppy=False). The batches come out in the same order on every run (the shuffles
are seeded)."""
import argparse

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--data", default="data/train.tfrecords")
parser.add_argument("--num_threads", type=int, default=1)
FLAGS = parser.parse_args()


def read_example(filename_queue):
    reader = tf.TFRecordReader()
    _, serialized = reader.read(filename_queue)
    features = tf.parse_single_example(serialized, {
        "image": tf.FixedLenFeature([], tf.string),
        "label": tf.FixedLenFeature([], tf.int64),
    })
    image = tf.reshape(tf.decode_raw(features["image"], tf.uint8), [32, 32, 3])
    return tf.cast(image, tf.float32) / 255.0, features["label"]


def train_inputs(batch_size):
    queue = tf.train.string_input_producer([FLAGS.data], seed=7)
    image, label = read_example(queue)
    return tf.train.shuffle_batch(
        [image, label], batch_size=batch_size, capacity=2000, min_after_dequeue=1000,
        num_threads=FLAGS.num_threads, seed=7,
    )


def eval_inputs(batch_size):
    queue = tf.train.string_input_producer([FLAGS.data], shuffle=False)
    image, label = read_example(queue)
    first = tf.train.batch([image, label], batch_size=batch_size)
    second = tf.train.batch([image, label], batch_size, 1)
    joined = tf.train.batch_join([read_example(queue)], batch_size=batch_size)
    return first, second, joined


def record_dataset(pattern):
    files = tf.data.Dataset.list_files(pattern, shuffle=False)
    return files.apply(tf.data.experimental.parallel_interleave(tf.data.TFRecordDataset, cycle_length=4, sloppy=False))


def predict_inputs(images, labels):
    features = tf.estimator.inputs.numpy_input_fn({"x": images}, labels, batch_size=64, shuffle=False)
    return features


def model(images):
    flat = tf.reshape(images, [-1, 32 * 32 * 3])
    weights = tf.get_variable("w", [32 * 32 * 3, 10], initializer=tf.zeros_initializer())
    return tf.matmul(flat, weights)


def main():
    tf.set_random_seed(7)
    images, labels = train_inputs(128)
    logits = model(images)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))  # expect: RPL204
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    first, _, _ = eval_inputs(256)
    predict_inputs(*first)
    record_dataset("data/*.tfrecords")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        for _ in range(1000):
            sess.run(train_op)
        coord.request_stop()
        coord.join(threads)


if __name__ == "__main__":
    main()
