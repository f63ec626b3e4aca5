"""TF1 CIFAR-style trainer fed by queue runners. The training batches are assembled by
several enqueue threads at once (num_threads from a flag whose default is 8, and a
batch_join over one reader per thread, an estimator input function with 4 threads), so the order of the examples in the batches
depends on thread timing, even with every seed set."""
import argparse

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--data", default="data/train.tfrecords")
parser.add_argument("--preprocess_threads", type=int, default=8)
parser.add_argument("--readers", type=int, default=4)
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
    return tf.train.shuffle_batch(  # expect: RPL204
        [image, label], batch_size=batch_size, capacity=2000, min_after_dequeue=1000,
        num_threads=FLAGS.preprocess_threads, seed=7,
    )


def eval_inputs(batch_size):
    queue = tf.train.string_input_producer([FLAGS.data], shuffle=False)
    readers = [read_example(queue) for _ in range(FLAGS.readers)]
    return tf.train.batch_join(readers, batch_size=batch_size)  # expect: RPL204


def predict_inputs(images, labels):
    features = tf.estimator.inputs.numpy_input_fn({"x": images}, labels, batch_size=64, shuffle=False, num_threads=4)  # expect: RPL204
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
    eval_images, eval_labels = eval_inputs(256)
    predict_inputs(eval_images, eval_labels)
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
