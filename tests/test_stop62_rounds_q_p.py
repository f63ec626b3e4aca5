"""What the blind rounds on unseen code of stop 62 (rounds q and p) showed `check` getting
wrong, as mechanisms: a TensorFlow op on a branch the default options skip is not what the
program runs (RPL204 asks the same question as the torch op rules); a method is named only
as an attribute, so a local variable of that name in another module calls nothing."""
from __future__ import annotations

from pathlib import Path

from project_files import found, messages, write

PARSER = (
    "import argparse\n\n\n"
    "def parse_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--alg_type', nargs='?', default='{default}')\n"
    "    return parser.parse_args()\n"
)
MODEL = (
    "import tensorflow as tf\n\n\n"
    "class Model(object):\n"
    "    def __init__(self, args):\n"
    "        self.alg_type = args.alg_type\n"
    "        self.x = tf.sparse_placeholder(tf.float32)\n"
    "        self.w = tf.get_variable('w', [4, 4])\n"
    "        if self.alg_type in ['ngcf']:\n"
    "            self.e = self._ngcf()\n"
    "        elif self.alg_type in ['gcn']:\n"
    "            self.e = self._gcn()\n"
    "        self.opt = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(self.e))\n\n"
    "    def _ngcf(self):\n"
    "        return tf.sparse_tensor_dense_matmul(self.x, self.w)\n\n"
    "    def _gcn(self):\n"
    "        return 2 * tf.sparse_tensor_dense_matmul(self.x, self.w)\n"
)
MAIN = (
    "import tensorflow as tf\n\n"
    "from model import Model\n"
    "from options import parse_args\n\n"
    "if __name__ == '__main__':\n"
    "    tf.set_random_seed(2019)\n"
    "    model = Model(parse_args())\n"
    "    with tf.Session() as sess:\n"
    "        sess.run(tf.global_variables_initializer())\n"
    "        sess.run(model.opt)\n"
)


def test_a_tf_op_on_a_branch_the_default_option_skips_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, {"options.py": PARSER.format(default="ngcf"), "model.py": MODEL, "main.py": MAIN})
    assert found(tmp_path, "RPL204") == [("model.py", 16)]
    write(tmp_path, {"options.py": PARSER.format(default="gcn")})
    assert found(tmp_path, "RPL204") == [("model.py", 19)]


FLAGS = (
    "import tensorflow as tf\n\n"
    "flags = tf.flags\nFLAGS = flags.FLAGS\n"
    "flags.DEFINE_bool('crf', {default}, 'use a CRF layer')\n\n\n"
    "def loss(logits, labels):\n"
    "    if FLAGS.crf:\n"
    "        return tf.reduce_mean(tf.square(logits - tf.one_hot(labels, 4)))\n"
    "    else:\n"
    "        return tf.losses.softmax_cross_entropy(tf.one_hot(labels, 4), logits)\n\n\n"
    "def main(_):\n"
    "    tf.set_random_seed(1)\n"
    "    x = tf.placeholder(tf.float32, [None, 4])\n"
    "    y = tf.placeholder(tf.int32, [None])\n"
    "    logits = tf.matmul(x, tf.get_variable('w', [4, 4]))\n"
    "    train_op = tf.train.AdamOptimizer(0.1).minimize(loss(logits, y))\n"
    "    with tf.Session() as sess:\n"
    "        sess.run(tf.global_variables_initializer())\n"
    "        sess.run(train_op)\n\n\n"
    "if __name__ == '__main__':\n    tf.app.run()\n"
)


def test_a_tf_op_behind_a_flag_whose_default_skips_it_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": FLAGS.format(default="True")})
    assert ("train.py", 12) not in found(tmp_path, "RPL204")
    write(tmp_path, {"train.py": FLAGS.format(default="False")})
    assert ("train.py", 12) in found(tmp_path, "RPL204")


BASE = (
    "import tensorflow as tf\n\n\n"
    "class Base:\n"
    "    def loss(logits, labels):\n"
    "        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))\n\n"
    "    def masked_loss(logits, labels):\n"
    "        return tf.reduce_mean(tf.square(logits - tf.one_hot(labels, 4)))\n\n\n"
    "class Net(Base):\n"
    "    def inference(x):\n"
    "        return tf.matmul(x, tf.get_variable('w', [4, 4]))\n"
)
RUN = (
    "import tensorflow as tf\n\n"
    "from models import Net\n\n"
    "model = Net\n"
    "tf.set_random_seed(1)\n"
    "x = tf.placeholder(tf.float32, [None, 4])\n"
    "y = tf.placeholder(tf.int32, [None])\n"
    "logits = model.inference(x)\n"
    "loss = model.{method}(logits, y)\n"
    "train_op = tf.train.AdamOptimizer(0.1).minimize(loss)\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    sess.run(train_op)\n"
)


def test_a_method_no_code_names_as_an_attribute_runs_for_nobody(tmp_path: Path) -> None:
    # `loss = model.masked_loss(...)` binds a local named `loss`: it does not call `Base.loss`
    write(tmp_path, {"models.py": BASE, "run.py": RUN.format(method="masked_loss")})
    assert found(tmp_path, "RPL204") == []
    write(tmp_path, {"run.py": RUN.format(method="loss")})
    assert found(tmp_path, "RPL204") == [("models.py", 6)]


SEED_FROM_CONFIG = (
    "import argparse\nimport json\nimport random\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--config')\n"
    "parser.add_argument('--seed', help='overrides the configuration')\n"
    "args = parser.parse_args()\n"
    "with open(args.config) as f:\n"
    "    config = json.load(f)\n"
    "params = config['params']\n"
    "{override}"
    "random.seed({seed})\n"
    "print(random.random())\n"
)


def test_a_seed_key_the_program_assigns_is_not_an_options_none_default(tmp_path: Path) -> None:
    # the configuration's seed, which `--seed` overrides only when it is given
    override = "if args.seed is not None:\n    params['seed'] = int(args.seed)\n"
    write(tmp_path, {"train.py": SEED_FROM_CONFIG.format(override=override, seed="params['seed']")})
    assert found(tmp_path, "RPL103") == []
    write(tmp_path, {"train.py": SEED_FROM_CONFIG.format(override="", seed="args.seed")})
    assert found(tmp_path, "RPL103") == [("train.py", 12)]


FIND_FILES = (
    "import fnmatch\nimport os\nimport sys\n\n\n"
    "def find_files(root_dir, query=('*.wav',), include_root_dir=True):\n"
    "    files = []\n"
    "    for root, dirnames, filenames in os.walk(root_dir):\n"
    "        for q in query:\n"
    "            for filename in fnmatch.filter(filenames, q):\n"
    "                files.append(os.path.join(root, filename))\n"
    "    if not include_root_dir:\n"
    "        files = [f.replace(root_dir + '/', '') for f in files]\n"
    "{end}"
    "\n\nif __name__ == '__main__':\n"
    "    for name in sorted(find_files(sys.argv[1])):\n"
    "        print(name)\n"
)


def test_a_walk_filled_list_mapped_entry_by_entry_and_returned_is_the_callers_to_order(tmp_path: Path) -> None:
    write(tmp_path, {"find.py": FIND_FILES.format(end="    return files\n")})
    assert found(tmp_path, "RPL402") == []
    written = "    with open('list.txt', 'w') as out:\n        out.write('\\n'.join(files))\n    return files\n"
    write(tmp_path, {"find.py": FIND_FILES.format(end=written)})
    assert found(tmp_path, "RPL402") == [("find.py", 8)]


CLEAN = (
    "import sys\n\n\n"
    "def clean(s):\n"
    "    both_sides = {both}\n"
    "    for p in both_sides:\n"
    "        s = s.replace(p, p.strip())\n"
    "    return s\n\n\n"
    "if __name__ == '__main__':\n"
    "    print(clean(sys.argv[1]))\n"
)


def test_a_set_of_one_element_has_one_order(tmp_path: Path) -> None:
    for one in ("set([' - '])", "{' - '}", "frozenset((' - ',))"):
        write(tmp_path, {"clean.py": CLEAN.format(both=one)})
        assert found(tmp_path, "RPL401") == [], one
    write(tmp_path, {"clean.py": CLEAN.format(both="set([' - ', ' / '])")})
    assert found(tmp_path, "RPL401") == [("clean.py", 6)]


COLLATE = (
    "import functools\n\nimport numpy as np\nimport torch\n\n\n"
    "def load(batch, offset):\n"
    "    noise = np.random.randint(0, 10)\n"
    "    return torch.stack(batch) + offset + noise\n\n\n"
    "def main():\n"
    "    torch.manual_seed(0)\n"
    "    data = [torch.zeros(3) for _ in range(8)]\n"
    "    loader = torch.utils.data.DataLoader(data, batch_size=2, collate_fn={collate}, num_workers={workers})\n"
    "    for x in loader:\n"
    "        print(x)\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


def test_a_collate_function_a_lambda_or_partial_calls_runs_in_the_loaders_workers(tmp_path: Path) -> None:
    # torch (>= 1.9) seeds NumPy in each worker from its own seed, which the program fixes
    for collate in ("lambda b: load(b, 1)", "functools.partial(load, offset=1)"):
        write(tmp_path, {"train.py": COLLATE.format(collate=collate, workers=4)})
        assert found(tmp_path, "RPL101") == [], collate
    write(tmp_path, {"train.py": COLLATE.format(collate="lambda b: load(b, 1)", workers=0)})
    assert found(tmp_path, "RPL101") == [("train.py", 8)]


KERAS_ON_THEANO = (
    "import numpy as np\n"
    "{theano}"
    "from keras.models import Sequential\n"
    "from keras.layers import Dense\n\n"
    "model = Sequential([Dense(1, input_dim=4)])\n"
    "model.compile(optimizer='sgd', loss='mse')\n"
    "model.fit(np.zeros((8, 4)), np.zeros(8), nb_epoch=2)\n"
)


def test_keras_that_builds_with_theano_and_imports_no_tensorflow_runs_on_theano(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": KERAS_ON_THEANO.format(theano="import theano.tensor as T\n")})
    assert found(tmp_path, "RPL304") == []
    # multi-backend Keras draws its initial weights from NumPy's global RNG
    assert [m.split(" initialises")[1][:30] for m in messages(tmp_path, "RPL101")] == [" weights from NumPy's global R"]
    write(tmp_path, {"train.py": KERAS_ON_THEANO.format(theano="")})
    assert found(tmp_path, "RPL304") == [("train.py", 1)]


GRAPH = (
    "import tensorflow as tf\n\n\n"
    "class Graph:\n"
    "    def __init__(self, mode='train'):\n"
    "        self.x = tf.placeholder(tf.float32, [None, 4])\n"
    "        self.y = tf.layers.dense(self.x, 4)\n"
    "        self.loss = tf.reduce_mean(tf.square(self.y))\n"
    "        if mode == 'train':\n"
    "            self.train_op = tf.train.AdamOptimizer(0.1).minimize(self.loss)\n"
)
SYNTHESIZE = (
    "import numpy as np\nimport tensorflow as tf\n\n"
    "from graph import Graph\n\n"
    "g = Graph(mode='synthesize')\n"
    "saver = tf.train.Saver()\n"
    "with tf.Session() as sess:\n"
    "{restore}"
    "    print(sess.run(g.y, {{g.x: np.ones((1, 4))}}))\n"
)


def test_a_program_that_trains_nothing_and_restores_its_variables_replaces_their_initial_values(tmp_path: Path) -> None:
    restore = "    saver.restore(sess, tf.train.latest_checkpoint('logdir'))\n"
    write(tmp_path, {"graph.py": GRAPH, "speak.py": SYNTHESIZE.format(restore=restore)})
    assert found(tmp_path, "RPL101") == []
    write(tmp_path, {"speak.py": SYNTHESIZE.format(restore="    sess.run(tf.global_variables_initializer())\n")})
    assert found(tmp_path, "RPL101") == [("graph.py", 7)]


INSTANCES = (
    "import random\n\nimport tensorflow as tf\n\n"
    "flags = tf.flags\nFLAGS = flags.FLAGS\n"
    "flags.DEFINE_integer('random_seed', 12345, 'seed for data generation')\n\n\n"
    "def make_instances(documents, rng):\n"
    "    rng.shuffle(documents)\n"
    "    return [d for d in documents if rng.random() < 0.9]\n\n\n"
    "def main(_):\n"
    "    rng = random.Random(FLAGS.random_seed)\n"
    "    print(make_instances([[1, 2], [3], [4, 5, 6]], rng))\n"
    "{more}"
    "\n\nif __name__ == '__main__':\n    tf.app.run()\n"
)


def test_a_shuffle_whose_value_its_statement_drops_is_no_dataset_shuffle(tmp_path: Path) -> None:
    write(tmp_path, {"create_instances.py": INSTANCES.format(more="")})
    assert found(tmp_path, "RPL101") == []
    dataset = (
        "    d = tf.data.Dataset.from_tensor_slices([1, 2, 3])\n"
        "    d = d.shuffle(3)\n"
        "    for x in d:\n        print(x)\n"
    )
    write(tmp_path, {"create_instances.py": INSTANCES.format(more=dataset)})
    assert found(tmp_path, "RPL101") == [("create_instances.py", 19)]


def test_a_keras_fit_called_as_a_statement_still_shuffles(tmp_path: Path) -> None:
    fit = (
        "import numpy as np\nimport tensorflow as tf\n\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='zeros')])\n"
        "model.compile(optimizer='sgd', loss='mse')\n"
        "model.fit(np.zeros((8, 4)), np.zeros(8), epochs=2)\n"
    )
    write(tmp_path, {"train.py": fit})
    assert ("train.py", 6) in found(tmp_path, "RPL101")


RESAMPLE = (
    "import os\nimport sys\n\nimport librosa\nimport numpy as np\nfrom scipy.io import wavfile\n\n\n"
    "def resample(in_dir, out_dir, sampling_rate):\n"
    "    for name in os.listdir(in_dir):\n"
    "        wav, _ = librosa.load(os.path.join(in_dir, name), sr=sampling_rate)\n"
    "        wav = wav / max(abs(wav)) * 32767\n"
    "        wavfile.write({destination}, sampling_rate, wav.astype(np.int16))\n"
    "\n\nif __name__ == '__main__':\n"
    "    resample(sys.argv[1], sys.argv[2], 22050)\n"
)


def test_a_listing_whose_entries_are_read_and_written_to_their_own_files_takes_no_order(tmp_path: Path) -> None:
    write(tmp_path, {"resample.py": RESAMPLE.format(destination="os.path.join(out_dir, name)")})
    assert found(tmp_path, "RPL402") == []
    # one file for every entry: the listing's order is the order of its samples
    write(tmp_path, {"resample.py": RESAMPLE.format(destination="os.path.join(out_dir, 'all.wav')")})
    assert found(tmp_path, "RPL402") == [("resample.py", 10)]


REGISTRY = (
    "import argparse\nimport importlib\nimport os\n\n"
    "MODEL_REGISTRY = {{}}\n\n\n"
    "def register_model(model_name):\n"
    "    def wrap(cls):\n"
    "        MODEL_REGISTRY[model_name] = cls\n"
    "        return cls\n"
    "    return wrap\n\n\n"
    "{before}"
    "for file in os.listdir(os.path.dirname(__file__)):\n"
    "    if file.endswith('.py') and not file.startswith('_'):\n"
    "        model_name = file[:file.find('.py')]\n"
    "        module = importlib.import_module('models.' + model_name)\n"
    "        if model_name in MODEL_REGISTRY:\n"
    "            parser = argparse.ArgumentParser(add_help=False)\n"
    "            MODEL_REGISTRY[model_name].add_args(parser)\n"
    "            globals()[model_name + '_parser'] = parser\n"
    "{more}"
)


def test_a_registry_that_imports_each_module_of_its_folder_takes_no_order(tmp_path: Path) -> None:
    write(tmp_path, {"models/__init__.py": REGISTRY.format(before="", more=""), "train.py": "import models\n"})
    assert found(tmp_path, "RPL402") == []
    # names written to one index file as they come keep the listing's order
    index = REGISTRY.format(before="index = open('index.txt', 'w')\n", more="            index.write(model_name + '\\n')\n")
    write(tmp_path, {"models/__init__.py": index})
    assert found(tmp_path, "RPL402") == [("models/__init__.py", 16)]


def test_a_tf1_variable_of_bool_or_integer_dtype_draws_nothing(tmp_path: Path) -> None:
    program = (
        "import tensorflow as tf\n\n"
        "is_train = tf.get_variable('is_train', shape=[], dtype=tf.{dtype}, trainable=False)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run(is_train))\n"
    )
    for dtype in ("bool", "int32"):
        write(tmp_path, {"model.py": program.format(dtype=dtype)})
        assert found(tmp_path, "RPL101") == [], dtype
    write(tmp_path, {"model.py": program.format(dtype="float32")})
    assert found(tmp_path, "RPL101") == [("model.py", 3)]


EMBED_THEN_KERAS = (
    "import numpy as np\nimport torch\nimport torch.nn as nn\n"
    "from tensorflow.keras.layers import Dense\nfrom tensorflow.keras.models import Sequential\n\n"
    "torch.backends.cudnn.benchmark = False\n"
    "encoder = nn.LSTM(16, 32, batch_first=True).cuda().eval()\n"
    "with torch.no_grad():\n"
    "    embeddings = encoder(torch.zeros(8, 5, 16).cuda())[0][:, -1].cpu().numpy()\n"
    "{torch_step}"
    "classifier = Sequential([Dense(2, activation='softmax')])\n"
    "classifier.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
    "classifier.fit(embeddings, np.zeros(8), epochs=2)\n"
)


def test_rpl302_asks_for_a_torch_training_step_not_a_keras_one(tmp_path: Path) -> None:
    # a torch encoder run forward under no_grad, then a Keras classifier trained: no cuDNN backward
    write(tmp_path, {"embed.py": EMBED_THEN_KERAS.format(torch_step="")})
    assert found(tmp_path, "RPL302") == []
    step = (
        "opt = torch.optim.SGD(encoder.parameters(), lr=0.1)\n"
        "encoder.train()\n"
        "encoder(torch.zeros(8, 5, 16).cuda())[0].sum().backward()\n"
        "opt.step()\n"
    )
    write(tmp_path, {"embed.py": EMBED_THEN_KERAS.format(torch_step=step)})
    assert found(tmp_path, "RPL302") != []


def test_entries_filled_into_the_group_their_key_names_keep_the_listing_order(tmp_path: Path) -> None:
    grouping = (
        "import os\nimport sys\nfrom collections import defaultdict\n\n\n"
        "def first_of_each_class(folder):\n"
        "    groups = defaultdict(list)\n"
        "    for name in os.listdir(folder):\n"
        "        key = name.split('_')[0]\n"
        "        groups[key].append(name)\n"
        "    return {k: v[0] for k, v in sorted(groups.items())}\n\n\n"
        "print(first_of_each_class(sys.argv[1]))\n"
    )
    write(tmp_path, {"group.py": grouping})
    assert found(tmp_path, "RPL402") == [("group.py", 8)]
