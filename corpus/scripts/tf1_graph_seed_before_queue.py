"""TF1 graph code seeds the graph, then builds a shuffling input queue in it: the queue's
op seed comes from that graph seed when the op is built, so the file order is the same on
every run, though the queue is read only later in the session. No finding."""
import tensorflow as tf


def main():
    with tf.Graph().as_default():
        tf.set_random_seed(666)
        queue = tf.train.string_input_producer(["a.jpg", "b.jpg", "c.jpg"], shuffle=True)
        name = queue.dequeue()
        with tf.Session() as sess:
            coordinator = tf.train.Coordinator()
            tf.train.start_queue_runners(sess, coordinator)
            print(sess.run(name))
            coordinator.request_stop()


if __name__ == "__main__":
    main()
