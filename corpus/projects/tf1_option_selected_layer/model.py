import tensorflow as tf


class GraphRecommender(object):
    def __init__(self, n_users, n_items, args):
        self.alg_type = args.alg_type
        self.adj = tf.sparse_placeholder(tf.float32, name="adj")
        self.users = tf.placeholder(tf.int32, [None], name="users")
        self.embeddings = tf.get_variable("embeddings", [n_users + n_items, 64])
        if self.alg_type in ["ngcf"]:
            self.all_embeddings = self._ngcf_embed()
        elif self.alg_type in ["gcn"]:
            self.all_embeddings = self._gcn_embed()
        user_embeddings = tf.gather(self.all_embeddings, self.users)
        self.loss = tf.reduce_mean(tf.square(user_embeddings))
        self.opt = tf.train.AdamOptimizer(args.lr).minimize(self.loss)

    def _ngcf_embed(self):
        side = tf.sparse_tensor_dense_matmul(self.adj, self.embeddings)  # expect: RPL204
        return tf.nn.leaky_relu(side + self.embeddings)

    def _gcn_embed(self):
        # only with --alg_type gcn: not what the default run trains
        return tf.sparse_tensor_dense_matmul(self.adj, self.embeddings)
