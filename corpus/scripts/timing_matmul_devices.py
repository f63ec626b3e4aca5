"""Times a large matrix product on the CPU and the GPU with `timeit`: the random
matrices only feed the timed products, and what the script prints is timings (and the
devices). A benchmark that trains and evaluates nothing: its unseeded draws reach no
result. The look-alike, `timing_training_epochs.py`, times a training loop."""
import timeit

import numpy as np
import tensorflow as tf

with tf.device("/cpu:0"):
    cpu_a = tf.random.normal([4000, 1000])
    cpu_b = tf.random.normal([1000, 2000])
with tf.device("/gpu:0"):
    gpu_a = tf.random.normal([4000, 1000])
    gpu_b = tf.random.normal([1000, 2000])
noise = np.random.rand(10)


def on_cpu():
    with tf.device("/cpu:0"):
        return tf.matmul(cpu_a, cpu_b)


def on_gpu():
    with tf.device("/gpu:0"):
        return tf.matmul(gpu_a, gpu_b)


if __name__ == "__main__":
    timeit.timeit(on_cpu, number=3)  # warm-up
    timeit.timeit(on_gpu, number=3)
    print("cpu", timeit.timeit(on_cpu, number=10), "gpu", timeit.timeit(on_gpu, number=10))
    print("devices", cpu_a.device, gpu_a.device, noise.shape)
