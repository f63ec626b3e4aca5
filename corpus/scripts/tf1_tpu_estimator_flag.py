"""A TF1 language model trained with TPUEstimator; `--use_tpu` defaults to True, and
`--use_tpu=False` trains the same model on the GPU: a GPU program (a flag selects it).
Its flags are absl's, defined through `tf.app.flags`."""
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_bool("use_tpu", True, "Train on a TPU.")
flags.DEFINE_string("tpu", None, "TPU name.")
FLAGS = flags.FLAGS


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features["x"], 1000, use_bias=False)  # expect: RPL101
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))  # expect: RPL204
    optimizer = tf.train.AdamOptimizer(1e-3)
    if FLAGS.use_tpu:
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def input_fn(params):
    dataset = tf.data.TFRecordDataset("train.tfrecords").repeat()
    return dataset.batch(params["batch_size"], drop_remainder=True)


def main(_):
    resolver = tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu)
    config = tf.contrib.tpu.RunConfig(cluster=resolver, tpu_config=tf.contrib.tpu.TPUConfig(100))
    estimator = tf.contrib.tpu.TPUEstimator(
        model_fn=model_fn, config=config, use_tpu=FLAGS.use_tpu, train_batch_size=64)
    estimator.train(input_fn=input_fn, max_steps=1000)


if __name__ == "__main__":
    tf.app.run()
