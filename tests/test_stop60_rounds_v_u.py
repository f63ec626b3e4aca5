"""What the two blind rounds on unseen code of stop 60 (rounds v and u) showed `check`
getting wrong, as mechanisms: a listing whose entries only reach a figure decides what is
shown, not a result; the exception a loop raises ends the program whichever entry comes
first; a method of a plain class no code names runs nowhere; an in-place draw of a tensor
not visibly a weight draws, it does not initialise weights; an op outside the tape of a
function that takes its gradients in one has no gradient; a listing kept in an attribute
its class only counts takes no order; a parameter the call passes a value for is not
None in the body. (Files CPython reads with mixed tab
indentation and notebook cells IPython dedents: tests/test_python2_files.py and
tests/test_notebooks.py.)"""
from __future__ import annotations

from pathlib import Path

from project_files import found, messages, write

from reprolint.api import check_paths

# ---------------------------------------------------------------- listings shown in a figure

SHOWN = (
    "import os\nimport matplotlib.pyplot as plt\nfrom PIL import Image\n\n"
    "root = './data/train/'\n"
    "im_list = [os.path.join(root, 'ants', i) for i in os.listdir(root + 'ants')[:4]]\n"
    "im_list += [os.path.join(root, 'bees', i) for i in os.listdir(root + 'bees')[:5]]\n"
    "_, figs = plt.subplots(3, 3)\n"
    "for i in range(3):\n    for j in range(3):\n"
    "        figs[i][j].imshow(Image.open(im_list[3 * i + j]))\n"
    "plt.show()\n"
)
KERAS_SHOWN = (
    "import os\nimport matplotlib.pyplot as plt\nfrom keras.preprocessing import image\n"
    "from keras.preprocessing.image import ImageDataGenerator\n\n"
    "datagen = ImageDataGenerator(rotation_range=40)\n"
    "fnames = [os.path.join('cats', f) for f in os.listdir('cats')]\n"
    "img = image.load_img(fnames[3], target_size=(150, 150))\n"
    "x = image.img_to_array(img)\nx = x.reshape((1,) + x.shape)\n"
    "for batch in datagen.flow(x, batch_size=1):\n"
    "    plt.imshow(image.array_to_img(batch[0]))\n    break\n"
    "plt.show()\n"
)


def test_a_listing_that_only_picks_the_images_a_figure_shows_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, {"show.py": SHOWN, "augment.py": KERAS_SHOWN})
    assert found(tmp_path, "RPL402") == []


def test_the_same_listing_feeding_training_or_files_is_reported(tmp_path: Path) -> None:
    trained = SHOWN.replace("_, figs = plt.subplots(3, 3)\n", "model = train(im_list)\n")
    copied = SHOWN + "import shutil\nfor p in im_list:\n    shutil.copy(p, 'subset/')\n"
    # the image shown also goes through a function of the project: what it computes is a result
    computed = KERAS_SHOWN.replace("x = image.img_to_array(img)", "x = preprocess(img)")
    write(tmp_path, {"trained.py": trained, "copied.py": copied, "computed.py": computed})
    assert found(tmp_path, "RPL402") == [
        ("computed.py", 7), ("copied.py", 6), ("copied.py", 7), ("trained.py", 6), ("trained.py", 7),
    ]


def test_a_figure_drawn_through_an_axes_the_plotting_library_returns_shows_the_listing(tmp_path: Path) -> None:
    # the axes come from a plotting call inside the chain, or from a name rebound to its own ravel()
    gca = SHOWN.replace("_, figs = plt.subplots(3, 3)\n", "").replace("figs[i][j].imshow", "plt.gca().imshow")
    ravel = SHOWN.replace("_, figs = plt.subplots(3, 3)\n", "_, figs = plt.subplots(3, 3)\nfigs = figs.ravel()\n")
    ravel = ravel.replace("figs[i][j].imshow", "figs[3 * i + j].imshow")
    # one axes or a grid of them: `figs.ravel() if n > 1 else [figs]`
    either = ravel.replace("figs = figs.ravel()", "figs = figs.ravel() if figs.ndim > 1 else [figs]")
    write(tmp_path, {"gca.py": gca, "ravel.py": ravel, "either.py": either})
    assert found(tmp_path, "RPL402") == []
    # an axes name also bound to something the project makes is not known to draw
    other = ravel + "figs = make_panels()\n"
    write(tmp_path, {"gca.py": gca, "ravel.py": other})
    assert found(tmp_path, "RPL402") == [("ravel.py", 6), ("ravel.py", 7)]


def test_a_name_reused_for_training_after_the_figure_is_followed_only_until_rebound(tmp_path: Path) -> None:
    # `x` is bound again (to the training data) after the figure: the shown value ends there
    later = KERAS_SHOWN + "x = load_all('cats')\nmodel.fit(x)\n"
    write(tmp_path, {"nb.py": later})
    assert found(tmp_path, "RPL402") == []
    # without the new binding, the shown array is what trains
    write(tmp_path, {"nb.py": KERAS_SHOWN + "model.fit(x)\n"})
    assert found(tmp_path, "RPL402") == [("nb.py", 7)]


# ---------------------------------------------------------------- a loop that raises

LOADER = (
    "import os\n\n\n"
    "def pairs(images, segs):\n"
    "    found = {}\n"
    "    for entry in os.listdir(segs):\n"
    "        name, ext = os.path.splitext(entry)\n"
    "        if name in found:\n"
    "            raise ValueError('{} is there twice'.format(name))\n"
    "        found[name] = os.path.join(segs, entry)\n"
    "    return [(os.path.join(images, n), found[n]) for n in sorted(os.listdir(images))]\n\n\n"
    "if __name__ == '__main__':\n    print(pairs('img', 'seg'))\n"
)


def test_a_loop_that_fills_a_table_by_name_and_raises_on_a_duplicate_takes_no_order(tmp_path: Path) -> None:
    write(tmp_path, {"loader.py": LOADER})
    assert found(tmp_path, "RPL402") == []
    # the same loop that logs each entry it keeps (a call with an effect) stays reported
    logged = LOADER.replace("        found[name] =", "        log.write(entry)\n        found[name] =")
    write(tmp_path, {"loader.py": logged})
    assert found(tmp_path, "RPL402") == [("loader.py", 6)]


# ---------------------------------------------------------------- methods nobody names

ENV = (
    "import gym\n\n\n"
    "class Env(object):\n"
    "    def __init__(self, name):\n        self.env = gym.make(name)\n        self.action_space = self.env.action_space\n\n"
    "    def get_random_action(self):\n        return self.action_space.sample()\n\n"
    "    def step(self, a):\n        return self.env.step(a)\n"
)
MAIN = "from utils.env import Env\n\nenv = Env('CartPole-v1')\nenv.env.reset(seed=0)\nenv.step({action})\n"


def test_a_method_of_a_plain_class_that_no_code_names_runs_nowhere(tmp_path: Path) -> None:
    write(tmp_path, {"utils/__init__.py": "", "utils/env.py": ENV, "main.py": MAIN.format(action="0")})
    assert found(tmp_path, "RPL102") == []
    write(tmp_path, {"main.py": MAIN.format(action="env.get_random_action()")})
    assert found(tmp_path, "RPL102") == [("utils/env.py", 10)]


def test_a_method_named_in_a_string_or_of_a_class_on_a_library_base_may_run(tmp_path: Path) -> None:
    write(tmp_path, {"utils/__init__.py": "", "utils/env.py": ENV,
                     "main.py": MAIN.format(action="getattr(env, 'get_random_action')()")})
    assert found(tmp_path, "RPL102") == [("utils/env.py", 10)]
    write(tmp_path, {"utils/env.py": ENV.replace("class Env(object):", "class Env(gym.Wrapper):"),
                     "main.py": MAIN.format(action="0")})
    assert found(tmp_path, "RPL102") == [("utils/env.py", 10)]


# ---------------------------------------------------------------- what an in-place draw fills

NOISE = (
    "import torch\n\n\n"
    "def fill_noise(x):\n    x.uniform_()\n    return x\n\n\n"
    "net_input = fill_noise(torch.zeros(1, 32, 64, 64))\ntorch.save(net_input, 'input.pt')\n"
)


def test_an_in_place_draw_of_a_tensor_not_visibly_a_weight_draws(tmp_path: Path) -> None:
    write(tmp_path, {"noise.py": NOISE})
    [message] = messages(tmp_path, "RPL101")
    assert message.startswith("`x.uniform_(...)` draws from torch's global RNG")


def test_an_in_place_draw_of_a_weight_initialises_it(tmp_path: Path) -> None:
    weights = (
        "import torch\n\n\n"
        "def init(m):\n    m.weight.data.normal_(0.0, 0.02)\n\n\n"
        "net = torch.nn.Conv2d(3, 8, 3)\ninit(net)\ntorch.save(net.state_dict(), 'net.pt')\n"
    )
    write(tmp_path, {"init.py": weights})
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert "`m.weight.data.normal_` also initialises weights from torch's global RNG" in [r.message for r in finding.related]


# ---------------------------------------------------------------- outside the tape

DISTILLER = (
    "import tensorflow as tf\n\n\n"
    "class Distiller(tf.keras.Model):\n"
    "    def __init__(self, student):\n        super().__init__()\n        self.student = student\n\n"
    "    def train_step(self, data):\n"
    "        small = tf.image.resize(data, (64, 64))\n"
    "        with tf.GradientTape() as tape:\n"
    "            out = self.student(small, training=True)\n"
    "            big = tf.image.resize(out, (256, 256))\n"
    "            loss = tf.reduce_mean(tf.square(big - data))\n"
    "        grads = tape.gradient(loss, self.student.trainable_variables)\n"
    "        self.optimizer.apply_gradients(zip(grads, self.student.trainable_variables))\n"
    "        return {'loss': loss}\n\n\n"
    "tf.keras.utils.set_random_seed(0)\n"
    "model = Distiller(tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding='same')]))\n"
    "model.compile(optimizer='adam')\nmodel.fit(tf.zeros((8, 256, 256, 3)), epochs=1)\n"
)


def test_an_op_before_the_tape_of_a_train_step_has_no_gradient(tmp_path: Path) -> None:
    write(tmp_path, {"distill.py": DISTILLER, "requirements.txt": "tensorflow==2.15.0\n"})
    resized = [line for path, line in found(tmp_path, "RPL204") if path == "distill.py"]
    assert 10 not in resized  # the input resized before the tape: forward only
    assert 13 in resized  # the output resized under the tape: its gradient runs


# ---------------------------------------------------------------- a dataset's sample order

DATASET = (
    "import os\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n\n\n"
    "class Folder(Dataset):\n"
    "    def __init__(self, root):\n        self.files = os.listdir(root)\n\n"
    "    def __len__(self):\n        return len(self.files)\n\n"
    "    def __getitem__(self, index):\n        return torch.load(self.files[index])\n\n\n"
    "torch.manual_seed(0)\nloader = DataLoader(Folder('data'), batch_size=4{loader})\n"
    "model = torch.nn.Linear(4, 4)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "for x in loader:\n    loss = model(x).sum()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    "{after}"
)


def test_a_listing_that_orders_a_datasets_samples_is_reported_shuffled_or_not(tmp_path: Path) -> None:
    # a seeded shuffle permutes the listing's order repeatably: another file system,
    # other samples per step (set B's labels); an unseeded one is RPL101's cause too
    write(tmp_path, {"train.py": DATASET.format(loader=", shuffle=True", after="")})
    assert found(tmp_path, "RPL402") == [("train.py", 8)]


def test_the_same_dataset_read_in_order_or_its_files_read_elsewhere_is_reported(tmp_path: Path) -> None:
    write(tmp_path, {"train.py": DATASET.format(loader="", after="")})
    assert found(tmp_path, "RPL402") == [("train.py", 8)]
    # shuffled, but the file list is read outside the class, in an order unknown
    write(tmp_path, {"train.py": DATASET.format(loader=", shuffle=True", after="print(loader.dataset.files[:3])\n")})
    assert found(tmp_path, "RPL402") == [("train.py", 8)]


def test_a_listing_kept_in_an_attribute_and_only_counted_takes_no_order(tmp_path: Path) -> None:
    kept = DATASET.replace("        return torch.load(self.files[index])\n", "        return torch.zeros(4)\n")
    write(tmp_path, {"train.py": kept.format(loader="", after="")})
    assert found(tmp_path, "RPL402") == []


# ---------------------------------------------------------------- what a call passes

EPISODE = (
    "import gym\nimport numpy as np\n\n\n"
    "def run_episode(env, policy=None):\n"
    "    obs = env.reset(seed=0)\n"
    "    if policy is None:\n        action = env.action_space.sample()\n"
    "    else:\n        action = policy[obs]\n"
    "    return env.step(action)\n\n\n"
    "env = gym.make('MountainCar-v0')\n{policy}print(run_episode(env{passed}))\n"
)


def test_a_branch_on_a_parameter_the_call_passes_a_value_for_is_not_taken(tmp_path: Path) -> None:
    write(tmp_path, {"play.py": EPISODE.format(policy="best = np.zeros(10, dtype=int)\n", passed=", best")})
    assert found(tmp_path, "RPL102") == []
    write(tmp_path, {"play.py": EPISODE.format(policy="", passed=", policy=[0, 1, 2]")})
    assert found(tmp_path, "RPL102") == []


def test_a_branch_on_a_parameter_left_out_or_passed_an_unknown_value_may_run(tmp_path: Path) -> None:
    write(tmp_path, {"play.py": EPISODE.format(policy="", passed="")})
    assert found(tmp_path, "RPL102") == [("play.py", 8)]
    # a project function's result may be None
    write(tmp_path, {"play.py": EPISODE.format(policy="best = load_policy()\n", passed=", best")})
    assert found(tmp_path, "RPL102") == [("play.py", 8)]
    # the body ran at the first call, which passed a value; a later call passes None
    write(tmp_path, {"play.py": EPISODE.format(
        policy="best = np.zeros(10, dtype=int)\nprint(run_episode(env, best))\n", passed=", None")})
    assert found(tmp_path, "RPL102") == [("play.py", 8)]


def test_a_name_rebound_by_a_loop_or_a_with_block_may_hold_none(tmp_path: Path) -> None:
    # `best` was a container, but the loop (or the `with` block) binds it again: the
    # body's `is None` test is no longer decided
    loop = "best = np.zeros(10, dtype=int)\nfor best in [None, best]:\n    print(run_episode(env, best))\n"
    write(tmp_path, {"play.py": EPISODE.format(policy=loop, passed="").replace("print(run_episode(env))\n", "")})
    assert found(tmp_path, "RPL102") == [("play.py", 8)]
    # `nullcontext(None)` enters None
    block = "best = np.zeros(10, dtype=int)\nwith contextlib.nullcontext(None) as best:\n    print(run_episode(env, best))\n"
    source = "import contextlib\n" + EPISODE.format(policy=block, passed="").replace("print(run_episode(env))\n", "")
    write(tmp_path, {"play.py": source})
    assert found(tmp_path, "RPL102") == [("play.py", 9)]


# ---------------------------------------------------------------- listings of several patterns

PATTERNS = (
    "from pathlib import Path\nimport torch\n\nEXTS = ['jpg', 'png']\n"
    "paths = [p for ext in EXTS for p in Path('data').glob(f'**/*.{{ext}}')]\n{sort}"
    "torch.save([str(p) for p in paths], 'index.pt')\n"
)


def test_a_nested_comprehension_over_patterns_is_the_listings_order(tmp_path: Path) -> None:
    # each pattern's listing in turn: sorting the whole list later orders it all
    write(tmp_path, {"index.py": PATTERNS.format(sort="paths.sort()\n")})
    assert found(tmp_path, "RPL402") == []
    write(tmp_path, {"index.py": PATTERNS.format(sort="")})
    assert found(tmp_path, "RPL402") == [("index.py", 5)]
