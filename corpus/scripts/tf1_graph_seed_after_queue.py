"""The look-alike: the graph seed is set after the queue is built. A graph-mode op takes
its seed when it is built, so this queue's order is drawn unseeded, though the seed is set
before the session reads it."""
import tensorflow as tf


def main():
    with tf.Graph().as_default():
        queue = tf.train.string_input_producer(["a.jpg", "b.jpg", "c.jpg"], shuffle=True)  # expect: RPL101
        tf.set_random_seed(666)
        name = queue.dequeue()
        with tf.Session() as sess:
            coordinator = tf.train.Coordinator()
            tf.train.start_queue_runners(sess, coordinator)
            print(sess.run(name))
            coordinator.request_stop()


if __name__ == "__main__":
    main()
