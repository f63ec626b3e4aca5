import numpy as np
import tensorflow as tf

from model import GraphRecommender
from options import parse_args

if __name__ == "__main__":
    tf.set_random_seed(2019)
    np.random.seed(2019)
    args = parse_args()
    model = GraphRecommender(100, 200, args)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(10):
            users = np.random.randint(0, 100, size=32)
            _, loss = sess.run([model.opt, model.loss], {model.users: users})
            print(epoch, loss)
