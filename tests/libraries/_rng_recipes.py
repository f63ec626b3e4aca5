"""How to exercise each API that ``rules/rng.toml`` makes a claim about, on the real library.

A recipe takes the object the catalog's qualified name resolves to (so a renamed or removed
API fails here rather than passing silently) and returns what it produced: numbers, a
permutation, a module's initial weights, a batch order. ``test_rng_catalog_real`` seeds the
entry's library, runs the recipe twice with the same seed and once with another, and
compares. Entries and APIs without a recipe carry ``unverified`` in the catalog.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from typing import Any, Callable, Dict

Recipe = Callable[[Any], Any]


# --------------------------------------------------------------------------- helpers


def _torch() -> Any:
    import torch

    return torch


def _params(module: Any) -> Any:
    torch = _torch()
    return torch.cat([p.detach().flatten() for p in module.parameters()])


def _forward(make: Callable[[], Any], shape: tuple, fill: float = 1.0) -> Callable[[Any], Any]:
    def run(cls: Any) -> Any:
        torch = _torch()
        module = cls(*make())
        module.train()
        return module(torch.full(shape, fill))

    return run


def _init(cls: Any, *args: Any, **kwargs: Any) -> Any:
    return _params(cls(*args, **kwargs))


def _lazy(cls: Any, *args: Any, shape: tuple) -> Any:
    torch = _torch()
    module = cls(*args)
    module(torch.ones(shape))
    return _params(module)


def _shuffled(fn: Callable[[list], None]) -> list:
    items = list(range(50))
    fn(items)
    return items


def _tf() -> Any:
    import tensorflow as tf

    return tf


def _images() -> Any:
    tf = _tf()
    return tf.reshape(tf.range(8 * 4 * 4, dtype=tf.float32) / 128.0, [8, 4, 4, 1])


def _keras_weights(layer: Any, shape: tuple) -> list:
    layer.build(shape)
    return [w.tolist() for w in layer.get_weights()]


def _keras_fit_shuffled(keras: Any = None, **inputs: Any) -> Any:
    """Weights after one epoch of fit() from fixed initial weights: they depend on nothing
    but the batch order. Default inputs: NumPy arrays, with fit's default shuffle."""
    import numpy as np

    if keras is None:
        import keras
    x, y = fit_arrays()
    model = keras.Sequential([
        keras.Input((4,)), keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(0.1)),
    ])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(**(inputs or {"x": x, "y": y, "batch_size": 8}), epochs=1, verbose=0)
    return np.concatenate([w.ravel() for w in model.get_weights()])


def fit_arrays() -> tuple:
    import numpy as np

    x = np.linspace(-1.0, 1.0, 256, dtype="float32").reshape(64, 4)
    return x, np.sin(x.sum(axis=1)).astype("float32")


@lru_cache(maxsize=None)
def _tiny_checkpoint(kind: str) -> str:
    """A tiny Hugging Face base model saved on disk: `from_pretrained` loads its body and
    draws the task head it does not hold (no network needed)."""
    import torch
    import transformers

    with torch.random.fork_rng():  # building the checkpoint must not move the caller's RNG
        return _save_tiny_checkpoint(transformers, kind)


def _save_tiny_checkpoint(transformers: Any, kind: str) -> str:
    path = tempfile.mkdtemp(prefix=f"reprolint-hf-{kind}-")
    atexit.register(shutil.rmtree, path, True)
    if kind == "vit":
        config = transformers.ViTConfig(
            image_size=8, patch_size=4, num_channels=1, hidden_size=8, num_hidden_layers=1,
            num_attention_heads=2, intermediate_size=8,
        )
        transformers.ViTModel(config).save_pretrained(path)
    elif kind == "wav2vec2":
        config = transformers.Wav2Vec2Config(
            vocab_size=32, hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
            intermediate_size=8, conv_dim=(8,), conv_stride=(5,), conv_kernel=(10,),
            num_conv_pos_embeddings=2, num_conv_pos_embedding_groups=2, classifier_proj_size=4,
        )
        transformers.Wav2Vec2Model(config).save_pretrained(path)
    else:
        config = transformers.BertConfig(
            vocab_size=32, hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
            intermediate_size=8, max_position_embeddings=16,
        )
        transformers.BertModel(config).save_pretrained(path)
    return path


def _from_pretrained(kind: str) -> Recipe:
    return lambda from_pretrained: _params(from_pretrained(_tiny_checkpoint(kind)))


def _xy() -> tuple:
    """Small fixed data (no RNG involved) for scikit-learn."""
    import numpy as np

    x = (np.arange(120, dtype=float).reshape(30, 4) * 7.3) % 11.0
    y = np.arange(30) % 2
    return x, y


def _sk_split(make: Any, **kwargs: Any) -> Any:
    x, y = _xy()
    splitter = make(**kwargs)
    return [(list(a), list(b)) for a, b in splitter.split(x, y, groups=_groups())]


def _groups() -> Any:
    import numpy as np

    return np.arange(30) % 10


def _sk_fit(make: Any, **kwargs: Any) -> Any:
    """Fit an estimator on fixed data; its pickled state shows any randomness it used."""
    import pickle
    import warnings

    x, y = _xy()
    estimator = make(**kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            estimator.fit(x, y)
        except TypeError:
            estimator.fit(x)
    return pickle.dumps(estimator)


# --------------------------------------------------------------------------- recipes

_RANDOM: Dict[str, Recipe] = {
    "random.random": lambda f: [f() for _ in range(3)],
    "random.randint": lambda f: [f(0, 10**9) for _ in range(3)],
    "random.randrange": lambda f: [f(10**9) for _ in range(3)],
    "random.choice": lambda f: [f(range(10**6)) for _ in range(3)],
    "random.choices": lambda f: f(range(10**6), k=5),
    "random.shuffle": lambda f: _shuffled(f),
    "random.sample": lambda f: f(range(10**6), 5),
    "random.uniform": lambda f: [f(0, 1) for _ in range(3)],
    "random.gauss": lambda f: [f(0, 1) for _ in range(3)],
    "random.normalvariate": lambda f: [f(0, 1) for _ in range(3)],
    "random.lognormvariate": lambda f: [f(0, 1) for _ in range(3)],
    "random.expovariate": lambda f: [f(1.0) for _ in range(3)],
    "random.vonmisesvariate": lambda f: [f(0, 1) for _ in range(3)],
    "random.gammavariate": lambda f: [f(2, 1) for _ in range(3)],
    "random.betavariate": lambda f: [f(2, 3) for _ in range(3)],
    "random.paretovariate": lambda f: [f(2) for _ in range(3)],
    "random.weibullvariate": lambda f: [f(1, 2) for _ in range(3)],
    "random.triangular": lambda f: [f(0, 1) for _ in range(3)],
    "random.getrandbits": lambda f: [f(64) for _ in range(3)],
    "random.randbytes": lambda f: f(16),
}

_NUMPY_ARGS: Dict[str, tuple] = {
    "rand": (5,), "randn": (5,), "randint": (0, 10**6, 5), "random": (5,),
    "random_sample": (5,), "random_integers": (1, 10**6, 5), "ranf": (5,), "sample": (5,),
    "choice": (10**6, 5), "permutation": (50,), "bytes": (16,), "normal": (0, 1, 5),
    "uniform": (0, 1, 5), "binomial": (10, 0.5, 5), "poisson": (3, 5), "beta": (2, 3, 5),
    "gamma": (2, 1, 5), "exponential": (1, 5), "standard_normal": (5,),
    "standard_exponential": (5,), "standard_gamma": (2, 5), "standard_cauchy": (5,),
    "standard_t": (3, 5), "multivariate_normal": ([0, 0], [[1, 0], [0, 1]], 5),
    "multinomial": (10, [0.5, 0.5], 5), "dirichlet": ([1, 1], 5), "laplace": (0, 1, 5),
    "logistic": (0, 1, 5), "lognormal": (0, 1, 5), "geometric": (0.3, 5),
    "hypergeometric": (10, 5, 5, 5), "negative_binomial": (5, 0.5, 5), "chisquare": (3, 5),
    "f": (3, 4, 5), "gumbel": (0, 1, 5), "pareto": (3, 5), "rayleigh": (1, 5),
    "triangular": (0, 1, 2, 5), "vonmises": (0, 1, 5), "wald": (1, 1, 5), "weibull": (2, 5),
    "zipf": (2, 5), "power": (2, 5), "logseries": (0.5, 5), "noncentral_chisquare": (3, 1, 5),
    "noncentral_f": (3, 4, 1, 5),
}
_NUMPY: Dict[str, Recipe] = {
    f"numpy.random.{name}": (lambda args: lambda f: f(*args))(args)
    for name, args in _NUMPY_ARGS.items()
}
_NUMPY["numpy.random.shuffle"] = lambda f: _shuffled(f)


def _t(*shape: int, fill: float = 1.0) -> Any:
    return _torch().full(shape, fill)


_TORCH: Dict[str, Recipe] = {
    "torch.rand": lambda f: f(5),
    "torch.rand_like": lambda f: f(_t(5)),
    "torch.randn": lambda f: f(5),
    "torch.randn_like": lambda f: f(_t(5)),
    "torch.randint": lambda f: f(0, 10**6, (5,)),
    "torch.randint_like": lambda f: f(_t(5), 10**6),
    "torch.randperm": lambda f: f(50),
    "torch.bernoulli": lambda f: f(_t(64, fill=0.5)),
    "torch.multinomial": lambda f: f(_t(100), 5),
    "torch.normal": lambda f: f(_t(5, fill=0.0), _t(5)),
    "torch.poisson": lambda f: f(_t(5, fill=3.0)),
    "torch.nn.functional.gumbel_softmax": lambda f: f(_t(10, fill=0.0)),
    "torch.nn.functional.rrelu": lambda f: f(_t(64, fill=-1.0), training=True),
    # nn.init: fill a tensor in place.
    **{
        f"torch.nn.init.{name}": (lambda f: f(_torch().empty(4, 4)))
        for name in (
            "uniform_", "normal_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
            "kaiming_normal_", "trunc_normal_", "orthogonal_", "uniform", "normal",
            "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal",
        )
    },
    "torch.nn.init.sparse_": lambda f: f(_torch().empty(4, 4), 0.5),
    # Modules that draw their weights at construction.
    "torch.nn.Linear": lambda c: _init(c, 4, 4),
    "torch.nn.Bilinear": lambda c: _init(c, 2, 2, 2),
    "torch.nn.LazyLinear": lambda c: _lazy(c, 4, shape=(1, 3)),
    "torch.nn.Conv1d": lambda c: _init(c, 2, 2, 3),
    "torch.nn.Conv2d": lambda c: _init(c, 2, 2, 3),
    "torch.nn.Conv3d": lambda c: _init(c, 2, 2, 3),
    "torch.nn.ConvTranspose1d": lambda c: _init(c, 2, 2, 3),
    "torch.nn.ConvTranspose2d": lambda c: _init(c, 2, 2, 3),
    "torch.nn.ConvTranspose3d": lambda c: _init(c, 2, 2, 3),
    "torch.nn.LazyConv1d": lambda c: _lazy(c, 2, 3, shape=(1, 2, 5)),
    "torch.nn.LazyConv2d": lambda c: _lazy(c, 2, 3, shape=(1, 2, 5, 5)),
    "torch.nn.LazyConv3d": lambda c: _lazy(c, 2, 3, shape=(1, 2, 5, 5, 5)),
    "torch.nn.Embedding": lambda c: _init(c, 10, 4),
    "torch.nn.EmbeddingBag": lambda c: _init(c, 10, 4),
    "torch.nn.RNN": lambda c: _init(c, 4, 4),
    "torch.nn.LSTM": lambda c: _init(c, 4, 4),
    "torch.nn.GRU": lambda c: _init(c, 4, 4),
    "torch.nn.RNNCell": lambda c: _init(c, 4, 4),
    "torch.nn.LSTMCell": lambda c: _init(c, 4, 4),
    "torch.nn.GRUCell": lambda c: _init(c, 4, 4),
    "torch.nn.MultiheadAttention": lambda c: _init(c, 4, 2),
    "torch.nn.Transformer": lambda c: _init(
        c, d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8
    ),
    "torch.nn.TransformerEncoderLayer": lambda c: _init(c, 8, 2, 8),
    "torch.nn.TransformerDecoderLayer": lambda c: _init(c, 8, 2, 8),
    # Dropout-like modules and functions draw when applied in training mode.
    "torch.nn.Dropout": _forward(lambda: (0.5,), (64,)),
    "torch.nn.Dropout1d": _forward(lambda: (0.5,), (2, 8, 4)),
    "torch.nn.Dropout2d": _forward(lambda: (0.5,), (2, 8, 4, 4)),
    "torch.nn.Dropout3d": _forward(lambda: (0.5,), (2, 8, 2, 2, 2)),
    "torch.nn.AlphaDropout": _forward(lambda: (0.5,), (64,)),
    "torch.nn.FeatureAlphaDropout": _forward(lambda: (0.5,), (2, 8, 4, 4)),
    "torch.nn.RReLU": _forward(lambda: (), (64,), fill=-1.0),
    "torch.nn.functional.dropout": lambda f: f(_t(64), 0.5),
    "torch.nn.functional.dropout1d": lambda f: f(_t(2, 8, 4), 0.5),
    "torch.nn.functional.dropout2d": lambda f: f(_t(2, 8, 4, 4), 0.5),
    "torch.nn.functional.dropout3d": lambda f: f(_t(2, 8, 2, 2, 2), 0.5),
    "torch.nn.functional.alpha_dropout": lambda f: f(_t(64), 0.5, True),
    "torch.nn.functional.feature_alpha_dropout": lambda f: f(_t(2, 8, 4, 4), 0.5, True),
    # Data loading: the order of one epoch.
    "torch.utils.data.DataLoader": lambda c: [b.tolist() for b in c(range(20), 4, True)],
    "torch.utils.data.RandomSampler": lambda c: list(c(range(20))),
    "torch.utils.data.SubsetRandomSampler": lambda c: list(c(list(range(20)))),
    "torch.utils.data.WeightedRandomSampler": lambda c: list(c([1.0] * 20, 20)),
    "torch.utils.data.random_split": lambda f: [list(s) for s in f(range(20), [10, 10])],
}
for _alias, _name in (
    ("torch.utils.data.dataloader.DataLoader", "torch.utils.data.DataLoader"),
    ("torch.utils.data.sampler.RandomSampler", "torch.utils.data.RandomSampler"),
    ("torch.utils.data.sampler.SubsetRandomSampler", "torch.utils.data.SubsetRandomSampler"),
    ("torch.utils.data.sampler.WeightedRandomSampler", "torch.utils.data.WeightedRandomSampler"),
    ("torch.utils.data.dataset.random_split", "torch.utils.data.random_split"),
):
    _TORCH[_alias] = _TORCH[_name]

_MODEL_ZOO: Dict[str, Recipe] = {
    "torchvision.models.*": lambda models: _params(models.resnet18()),
    "timm.create_model": lambda f: _params(f("resnet18")),
    "transformers.AutoModelForSequenceClassification.from_pretrained": _from_pretrained("bert"),
    "transformers.AutoModelForTokenClassification.from_pretrained": _from_pretrained("bert"),
    "transformers.AutoModelForQuestionAnswering.from_pretrained": _from_pretrained("bert"),
    "transformers.AutoModelForMultipleChoice.from_pretrained": _from_pretrained("bert"),
    "transformers.AutoModelForImageClassification.from_pretrained": _from_pretrained("vit"),
    "transformers.AutoModelForAudioClassification.from_pretrained": _from_pretrained("wav2vec2"),
}

_TENSORFLOW: Dict[str, Recipe] = {
    "tensorflow.random.uniform": lambda f: f([5]),
    "tensorflow.random.normal": lambda f: f([5]),
    "tensorflow.random.truncated_normal": lambda f: f([5]),
    "tensorflow.random.shuffle": lambda f: f(_tf().range(50)),
    "tensorflow.random.categorical": lambda f: f(_tf().zeros([1, 10]), 5),
    "tensorflow.random.gamma": lambda f: f([5], 2.0),
    "tensorflow.random.poisson": lambda f: f([5], 3.0),
    "tensorflow.nn.dropout": lambda f: f(_tf().ones([64]), rate=0.5),
    "tensorflow.image.random_flip_left_right": lambda f: f(_images()),
    "tensorflow.image.random_flip_up_down": lambda f: f(_images()),
    "tensorflow.image.random_crop": lambda f: f(_images(), [8, 2, 2, 1]),
    "tensorflow.image.random_brightness": lambda f: f(_images(), 0.5),
    "tensorflow.image.random_contrast": lambda f: f(_images(), 0.2, 1.8),
}

_METHODS: Dict[str, Recipe] = {
    # method_draws: the recipe gets the method name.
    **{
        f"torch:{m}": (lambda m: lambda _: getattr(_torch().empty(16), m)())(m)
        for m in ("uniform_", "normal_", "random_", "bernoulli_", "exponential_", "log_normal_", "cauchy_")
    },
    "torch:geometric_": lambda _: _torch().empty(16).geometric_(0.5),
    # torch.distributions: a policy's sampled actions, and reparameterised noise
    "torch:sample": lambda _: _torch().distributions.Categorical(probs=_torch().ones(10) / 10).sample((32,)),
    "torch:rsample": lambda _: _torch().distributions.Normal(_torch().zeros(16), _torch().ones(16)).rsample(),
    "tensorflow:shuffle": lambda _: list(_tf().data.Dataset.range(20).shuffle(20).as_numpy_iterator()),
    "tensorflow:fit": lambda _: _keras_fit_shuffled(),
    "keras:fit": lambda _: _keras_fit_shuffled(),
}

def _sk_tree() -> Any:
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=0)


def _sk_linear() -> Any:
    from sklearn.linear_model import LinearRegression

    return LinearRegression()


_SKLEARN_ESTIMATORS = (
    "ensemble.RandomForestClassifier", "ensemble.RandomForestRegressor",
    "ensemble.ExtraTreesClassifier", "ensemble.ExtraTreesRegressor",
    "ensemble.GradientBoostingClassifier", "ensemble.GradientBoostingRegressor",
    "ensemble.IsolationForest", "ensemble.BaggingClassifier", "ensemble.BaggingRegressor",
    "ensemble.AdaBoostClassifier", "ensemble.AdaBoostRegressor", "ensemble.RandomTreesEmbedding",
    "tree.DecisionTreeClassifier", "tree.DecisionTreeRegressor", "tree.ExtraTreeClassifier",
    "cluster.KMeans", "cluster.MiniBatchKMeans", "mixture.GaussianMixture",
    "mixture.BayesianGaussianMixture", "neural_network.MLPClassifier",
    "neural_network.MLPRegressor", "linear_model.SGDClassifier", "linear_model.SGDRegressor",
"linear_model.PassiveAggressiveClassifier", "manifold.TSNE",
    "decomposition.TruncatedSVD", "decomposition.FastICA",
    "decomposition.LatentDirichletAllocation", "decomposition.NMF",
    "decomposition.MiniBatchDictionaryLearning", "random_projection.GaussianRandomProjection",
    "random_projection.SparseRandomProjection", "kernel_approximation.RBFSampler",
    "kernel_approximation.Nystroem", "cluster.SpectralClustering",
    "ensemble.HistGradientBoostingClassifier", "ensemble.HistGradientBoostingRegressor",
)
_SKLEARN: Dict[str, Recipe] = {f"sklearn.{name}": _sk_fit for name in _SKLEARN_ESTIMATORS}
_SKLEARN.update({
    # Each with the argument value the catalog's `when` names.
    "sklearn.linear_model.LogisticRegression": lambda c: _sk_fit(c, solver="saga", max_iter=5),
    "sklearn.svm.SVC": lambda c: _sk_fit(c, probability=True),
    "sklearn.svm.NuSVC": lambda c: _sk_fit(c, probability=True, nu=0.3),
    "sklearn.decomposition.PCA": lambda c: _sk_fit(c, n_components=2, svd_solver="randomized"),
    "sklearn.mixture.GaussianMixture": lambda c: _sk_fit(c, n_components=2, init_params="random"),
    "sklearn.mixture.BayesianGaussianMixture": lambda c: _sk_fit(c, n_components=2, init_params="random"),
    "sklearn.manifold.TSNE": lambda c: _sk_fit(c, perplexity=5, init="random", max_iter=250),
    "sklearn.random_projection.GaussianRandomProjection": lambda c: _sk_fit(c, n_components=2),
    "sklearn.random_projection.SparseRandomProjection": lambda c: _sk_fit(c, n_components=2),
    "sklearn.model_selection.RandomizedSearchCV": lambda c: repr(
        c(_sk_tree(), {"max_depth": list(range(1, 20))}, n_iter=3, cv=2).fit(*_xy()).cv_results_["params"]
    ),
    "sklearn.inspection.permutation_importance": lambda f: f(
        _sk_linear().fit(*_xy()), *_xy(), n_repeats=3
    ).importances,
    "sklearn.linear_model.Lasso": lambda c: _sk_fit(c, alpha=0.01, selection="random"),
    "sklearn.linear_model.ElasticNet": lambda c: _sk_fit(c, alpha=0.01, selection="random"),
    "sklearn.model_selection.train_test_split": lambda f: [a.tolist() for a in f(*_xy())],
    "sklearn.model_selection.KFold": lambda c: _sk_split(c, n_splits=3, shuffle=True),
    "sklearn.model_selection.StratifiedKFold": lambda c: _sk_split(c, n_splits=3, shuffle=True),
    "sklearn.model_selection.GroupKFold": lambda c: _sk_split(c, n_splits=3, shuffle=True),
    "sklearn.model_selection.ShuffleSplit": lambda c: _sk_split(c, n_splits=2),
    "sklearn.model_selection.StratifiedShuffleSplit": lambda c: _sk_split(c, n_splits=2),
    "sklearn.model_selection.GroupShuffleSplit": lambda c: _sk_split(c, n_splits=2),
    "sklearn.model_selection.RepeatedKFold": lambda c: _sk_split(c, n_splits=3, n_repeats=2),
    "sklearn.model_selection.RepeatedStratifiedKFold": lambda c: _sk_split(c, n_splits=3, n_repeats=2),
    "sklearn.utils.shuffle": lambda f: f(_xy()[0]),
    "sklearn.utils.resample": lambda f: f(_xy()[0]),
    "sklearn.datasets.make_classification": lambda f: f(n_samples=10),
    "sklearn.datasets.make_regression": lambda f: f(n_samples=10),
    "sklearn.datasets.make_blobs": lambda f: f(n_samples=10),
    "sklearn.datasets.make_moons": lambda f: f(n_samples=10, noise=0.1),
    "sklearn.datasets.make_circles": lambda f: f(n_samples=10, noise=0.1),
    "sklearn.datasets.make_multilabel_classification": lambda f: f(n_samples=10),
})

RECIPES: Dict[str, Recipe] = {
    **_RANDOM, **_NUMPY, **_TORCH, **_MODEL_ZOO, **_TENSORFLOW, **_METHODS, **_SKLEARN,
}


# --------------------------------------------------------------------------- torchvision transforms


def _image(dtype: str = "uint8") -> Any:
    torch = _torch()
    image = (torch.arange(3 * 32 * 32) % 251).reshape(3, 32, 32).to(torch.uint8)
    return image if dtype == "uint8" else image.float() / 255


def _fixed_transforms(module: Any) -> list:
    return [module.Grayscale(3), module.RandomHorizontalFlip(p=1.0), module.RandomVerticalFlip(p=1.0)]


# Constructor arguments; the transform is then applied eight times (a p=0.5 coin alone
# would match under two seeds half the time).
_TRANSFORM_ARGS: Dict[str, Callable[[Any], tuple]] = {
    "RandomCrop": lambda m: (8,), "RandomResizedCrop": lambda m: (8,),
    "RandomHorizontalFlip": lambda m: (), "RandomVerticalFlip": lambda m: (),
    "RandomRotation": lambda m: (30,), "RandomAffine": lambda m: (30,),
    "RandomPerspective": lambda m: (), "RandomErasing": lambda m: (),
    "RandomGrayscale": lambda m: (), "RandomApply": lambda m: (_fixed_transforms(m)[:1],),
    "RandomChoice": lambda m: (_fixed_transforms(m),), "RandomOrder": lambda m: ([m.Lambda(lambda x: x // 2), m.Lambda(lambda x: x + 7)],),
    "ColorJitter": lambda m: (0.5, 0.5, 0.5, 0.1), "AutoAugment": lambda m: (),
    "RandAugment": lambda m: (), "TrivialAugmentWide": lambda m: (), "AugMix": lambda m: (),
    "RandomInvert": lambda m: (), "RandomPosterize": lambda m: (4,), "RandomSolarize": lambda m: (128,),
    "RandomAdjustSharpness": lambda m: (2,), "RandomAutocontrast": lambda m: (),
    "RandomEqualize": lambda m: (), "GaussianBlur": lambda m: (3, (0.1, 2.0)),
    "ElasticTransform": lambda m: (), "RandomChannelPermutation": lambda m: (),
    "RandomPhotometricDistort": lambda m: (), "RandomResize": lambda m: (8, 16),
    "RandomShortestSize": lambda m: ([8, 12, 16],), "RandomZoomOut": lambda m: (),
    "ScaleJitter": lambda m: ((16, 16),), "GaussianNoise": lambda m: (), "JPEG": lambda m: ((50, 90),),
}
_FLOAT_INPUT = {"RandomErasing", "GaussianNoise"}


def _transform_recipe(name: str, v2: bool) -> Recipe:
    def run(cls: Any) -> Any:
        import importlib

        module = importlib.import_module("torchvision.transforms.v2" if v2 else "torchvision.transforms")
        if name in ("CutMix", "MixUp"):
            torch = _torch()
            images = torch.stack([_image("float")] * 4) * torch.arange(1.0, 5.0).reshape(4, 1, 1, 1)
            labels = torch.arange(4)
            mix = cls(num_classes=4)
            return [mix(images, labels)[1] for _ in range(8)]
        transform = cls(*_TRANSFORM_ARGS[name](module))
        image = _image("float" if name in _FLOAT_INPUT else "uint8")
        return [transform(image) for _ in range(8)]

    return run


for _name in _TRANSFORM_ARGS:
    if _name not in ("RandomChannelPermutation", "RandomPhotometricDistort", "RandomResize",
                     "RandomShortestSize", "RandomZoomOut", "ScaleJitter", "GaussianNoise", "JPEG"):
        RECIPES[f"torchvision.transforms.{_name}"] = _transform_recipe(_name, v2=False)
    RECIPES[f"torchvision.transforms.v2.{_name}"] = _transform_recipe(_name, v2=True)
for _name in ("CutMix", "MixUp"):
    RECIPES[f"torchvision.transforms.v2.{_name}"] = _transform_recipe(_name, v2=True)


# --------------------------------------------------------------------------- Keras 3 initialisers, TF sampled losses


def _keras_initializer(cls: Any) -> Any:
    return cls()((4, 4))


for _name in ("GlorotUniform", "GlorotNormal", "HeUniform", "HeNormal", "LecunUniform", "LecunNormal",
              "RandomUniform", "RandomNormal", "TruncatedNormal", "VarianceScaling", "Orthogonal",
              "glorot_uniform", "glorot_normal", "he_uniform", "he_normal", "lecun_uniform",
              "lecun_normal", "random_uniform", "random_normal", "truncated_normal",
              "variance_scaling", "orthogonal"):
    RECIPES[f"keras.initializers.{_name}"] = _keras_initializer


def _sampled_loss(loss: Any) -> Any:
    tf = _tf()
    weights = tf.reshape(tf.range(50 * 4, dtype=tf.float32) / 200.0, [50, 4])
    inputs = tf.reshape(tf.range(8 * 4, dtype=tf.float32) / 32.0, [8, 4])
    labels = tf.reshape(tf.range(8, dtype=tf.int64), [8, 1])
    return loss(weights, tf.zeros([50]), labels, inputs, num_sampled=5, num_classes=50)


for _name in ("tensorflow.nn.nce_loss", "tensorflow.nn.sampled_softmax_loss",
              "tensorflow.compat.v1.nn.nce_loss", "tensorflow.compat.v1.nn.sampled_softmax_loss"):
    RECIPES[_name] = _sampled_loss


# --------------------------------------------------------------------------- models from a config


def _tiny_bert_config() -> Any:
    import transformers

    return transformers.BertConfig(
        vocab_size=32, hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=8, max_position_embeddings=16,
    )


for _name in ("AutoModel", "AutoModelForCausalLM", "AutoModelForMaskedLM",
              "AutoModelForSequenceClassification", "AutoModelForTokenClassification"):
    RECIPES[f"transformers.{_name}.from_config"] = lambda from_config: _params(from_config(_tiny_bert_config()))


# Static get_params (paired image/mask augmentation), each called as its docs show.
_GET_PARAMS: Dict[str, Recipe] = {
    "RandomCrop": lambda f: [f(_image(), (8, 8)) for _ in range(8)],
    "RandomResizedCrop": lambda f: [f(_image(), [0.08, 1.0], [0.75, 1.33]) for _ in range(8)],
    "RandomRotation": lambda f: [f([-30.0, 30.0]) for _ in range(8)],
    "RandomAffine": lambda f: [f([-30.0, 30.0], [0.1, 0.1], [0.9, 1.1], [-5.0, 5.0], [32, 32]) for _ in range(8)],
    "ColorJitter": lambda f: [repr(f((0.6, 1.4), (0.6, 1.4), (0.6, 1.4), (-0.1, 0.1))) for _ in range(8)],
    "RandomErasing": lambda f: [f(_image("float"), (0.02, 0.33), (0.3, 3.3)) for _ in range(8)],
    "RandomPerspective": lambda f: [f(32, 32, 0.5) for _ in range(8)],
}
for _name, _recipe in _GET_PARAMS.items():
    RECIPES[f"torchvision.transforms.{_name}.get_params"] = _recipe


# --------------------------------------------------------------------------- Keras layers (Keras 3, and Keras 2 as tf-keras)


def _keras_masks(make: Callable[[Any], Any], shape: tuple) -> Recipe:
    """A layer applied in training mode twice: its masks (or noise, or augmentation)."""

    def run(cls: Any) -> Any:
        import numpy as np

        layer = make(cls)
        data = (np.arange(int(np.prod(shape)), dtype="float32").reshape(shape) % 7 + 1) / 8
        return [np.asarray(layer(data, training=True)) for _ in range(2)]

    return run


_KERAS_LAYERS: Dict[str, Recipe] = {
    "Dense": lambda c: _keras_weights(c(4), (None, 3)),
    "Conv1D": lambda c: _keras_weights(c(2, 3), (None, 5, 2)),
    "Conv2D": lambda c: _keras_weights(c(2, 3), (None, 5, 5, 2)),
    "Conv3D": lambda c: _keras_weights(c(2, 3), (None, 5, 5, 5, 2)),
    "Conv2DTranspose": lambda c: _keras_weights(c(2, 3), (None, 5, 5, 2)),
    "MultiHeadAttention": lambda c: _keras_mha(c),
    "DepthwiseConv2D": lambda c: _keras_weights(c(3), (None, 5, 5, 2)),
    "Embedding": lambda c: _keras_weights(c(10, 4), (None, 3)),
    "SeparableConv2D": lambda c: _keras_weights(c(2, 3), (None, 5, 5, 2)),
    "LSTM": lambda c: _keras_weights(c(3), (None, 4, 2)),
    "GRU": lambda c: _keras_weights(c(3), (None, 4, 2)),
    "SimpleRNN": lambda c: _keras_weights(c(3), (None, 4, 2)),
    "Dropout": _keras_masks(lambda c: c(0.5), (64,)),
    "SpatialDropout1D": _keras_masks(lambda c: c(0.5), (2, 4, 16)),
    "SpatialDropout2D": _keras_masks(lambda c: c(0.5), (2, 4, 4, 16)),
    "GaussianDropout": _keras_masks(lambda c: c(0.5), (64,)),
    "GaussianNoise": _keras_masks(lambda c: c(0.5), (64,)),
    "RandomFlip": _keras_masks(lambda c: c(), (8, 4, 4, 1)),
    "RandomRotation": _keras_masks(lambda c: c(0.3), (8, 6, 6, 1)),
    "RandomCrop": _keras_masks(lambda c: c(3, 3), (8, 6, 6, 1)),
    "RandomZoom": _keras_masks(lambda c: c(0.3), (8, 6, 6, 1)),
}


def _keras_mha(cls: Any) -> Any:
    import numpy as np

    layer = cls(num_heads=2, key_dim=2)
    data = np.ones((1, 3, 4), "float32")
    layer(data, data)
    return [w.tolist() for w in layer.get_weights()]


for _name, _recipe in _KERAS_LAYERS.items():
    RECIPES[f"keras.layers.{_name}"] = _recipe
    RECIPES[f"tensorflow.keras.layers.{_name}"] = _recipe
for _name in ("GlorotUniform", "GlorotNormal", "HeUniform", "HeNormal", "LecunUniform", "LecunNormal",
              "RandomUniform", "RandomNormal", "TruncatedNormal", "VarianceScaling", "Orthogonal",
              "glorot_uniform", "glorot_normal", "he_uniform", "he_normal", "lecun_uniform",
              "lecun_normal", "random_uniform", "random_normal", "truncated_normal",
              "variance_scaling", "orthogonal"):
    RECIPES[f"tensorflow.keras.initializers.{_name}"] = _keras_initializer


# --------------------------------------------------------------------------- TF1 graphs (tf.compat.v1)


def tf1_graph(build: Callable[[Any], Any], runs: int = 2) -> list:
    """Build ``build(tf)`` in a fresh TF1-style graph and run it ``runs`` times in a session
    (queue runners started). The graph gets the global seed the test set (what
    ``tf.compat.v1.set_random_seed`` does in a TF1 program); none when it set none."""
    tf = _tf()
    graph_seed, _ = tf.compat.v1.get_seed(None)
    with tf.Graph().as_default():
        if graph_seed is not None:
            tf.compat.v1.set_random_seed(graph_seed)
        out = build(tf)
        with tf.compat.v1.Session() as session:
            session.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer()])
            coordinator = tf.compat.v1.train.Coordinator()
            threads = tf.compat.v1.train.start_queue_runners(session, coordinator)
            values = [session.run(out) for _ in range(runs)]
            values = [v.tolist() if getattr(v, "dtype", None) == object else v for v in values]
            coordinator.request_stop()
            coordinator.join(threads)
    return values


def _v1_layer(call: Callable[[Any, Any, Any], Any]) -> Recipe:
    return lambda layer: tf1_graph(lambda tf: call(layer, tf, tf.ones), runs=1)


def _queue(make: Callable[[Any, Any], Any]) -> Recipe:
    return lambda fn: tf1_graph(lambda tf: make(fn, tf))


# One epoch of 100 elements into a queue that can hold them all and asks for more before it
# dequeues: the first dequeue waits until the producer has enqueued everything and closed
# the queue, so what it samples from does not depend on thread timing.
def _producer(tf: Any) -> Any:
    (value,) = tf.compat.v1.train.slice_input_producer([tf.range(100)], num_epochs=1, shuffle=False)
    return value


_QUEUE = dict(batch_size=10, capacity=200, min_after_dequeue=150, allow_smaller_final_batch=True)


def _shuffle_batch(fn: Any, tf: Any) -> Any:
    return fn([_producer(tf)], num_threads=1, **_QUEUE)


def _shuffle_batch_join(fn: Any, tf: Any) -> Any:
    return fn([[_producer(tf)]], **_QUEUE)


for _prefix in ("tensorflow.compat.v1.", "tensorflow."):
    RECIPES.update({
        f"{_prefix}train.shuffle_batch": _queue(_shuffle_batch),
        f"{_prefix}train.shuffle_batch_join": _queue(_shuffle_batch_join),
        f"{_prefix}train.slice_input_producer": _queue(lambda fn, tf: fn([tf.range(20)])),
        f"{_prefix}train.string_input_producer": _queue(
            lambda fn, tf: fn([f"file{i}" for i in range(20)]).dequeue_many(20)
        ),
    })
RECIPES.update({
    "tensorflow.compat.v1.layers.dense": _v1_layer(lambda f, tf, ones: f(ones([2, 3]), 4)),
    "tensorflow.compat.v1.layers.conv1d": _v1_layer(lambda f, tf, ones: f(ones([1, 5, 2]), 2, 3)),
    "tensorflow.compat.v1.layers.conv2d": _v1_layer(lambda f, tf, ones: f(ones([1, 5, 5, 2]), 2, 3)),
    "tensorflow.compat.v1.layers.conv3d": _v1_layer(lambda f, tf, ones: f(ones([1, 5, 5, 5, 2]), 2, 3)),
    "tensorflow.compat.v1.layers.conv2d_transpose": _v1_layer(lambda f, tf, ones: f(ones([1, 5, 5, 2]), 2, 3)),
    "tensorflow.compat.v1.layers.separable_conv2d": _v1_layer(lambda f, tf, ones: f(ones([1, 5, 5, 2]), 2, 3)),
    "tensorflow.get_variable": lambda f: tf1_graph(lambda tf: f("w", [4, 4]), runs=1),
    "tensorflow.compat.v1.get_variable": lambda f: tf1_graph(lambda tf: f("w", [4, 4]), runs=1),
    "tensorflow.compat.v1.layers.dropout": lambda f: tf1_graph(lambda tf: f(tf.ones([64]), 0.5, training=True)),
    # TF 1.x names, run as their tf.compat.v1 twins (the test resolves them there).
    **{
        f"tensorflow.{prefix}{name}_initializer": lambda f: tf1_graph(
            lambda tf: tf.compat.v1.get_variable("w", [4, 4], initializer=f()), runs=1
        )
        for prefix in ("", "compat.v1.")
        for name in ("truncated_normal", "random_normal", "random_uniform", "glorot_uniform", "glorot_normal",
                     "variance_scaling", "orthogonal", "uniform_unit_scaling")
    },
    "tensorflow.random_uniform": lambda f: f([5]),
    "tensorflow.random_normal": lambda f: f([5]),
    "tensorflow.truncated_normal": lambda f: f([5]),
    "tensorflow.random_shuffle": lambda f: f(_tf().range(50)),
})


def _keras_application(applications: Any) -> Any:
    """A small application model built with weights=None (its layers' initial weights)."""
    import numpy as np

    model = applications.MobileNet(weights=None, input_shape=(32, 32, 3), alpha=0.25, classes=2)
    return np.concatenate([w.ravel() for w in model.get_weights()])


RECIPES["keras.applications.*"] = _keras_application
RECIPES["tensorflow.keras.applications.*"] = _keras_application


def _keras2_fit_generator_on_a_flow() -> Any:
    """tf-keras fit_generator on an ImageDataGenerator.flow iterator (shuffle=False: its
    own order is fixed), with fit_generator's default shuffle of the batch order."""
    import numpy as np
    import pytest

    tf_keras = pytest.importorskip("tf_keras")
    x = np.linspace(0.0, 1.0, 64 * 16, dtype="float32").reshape(64, 4, 4, 1)
    y = np.arange(64, dtype="float32") / 64
    flow = tf_keras.preprocessing.image.ImageDataGenerator().flow(x, y, batch_size=8, shuffle=False)
    model = tf_keras.Sequential([
        tf_keras.Input((4, 4, 1)), tf_keras.layers.Flatten(),
        tf_keras.layers.Dense(1, kernel_initializer=tf_keras.initializers.Constant(0.1)),
    ])
    model.compile(optimizer="sgd", loss="mse")
    model.fit_generator(flow, epochs=1, verbose=0)
    return np.concatenate([w.ravel() for w in model.get_weights()])


RECIPES["tensorflow:fit_generator"] = lambda _: _keras2_fit_generator_on_a_flow()
RECIPES["keras:fit_generator"] = RECIPES["tensorflow:fit_generator"]


# --------------------------------------------------------------------------- hub, adapters, datasets


@lru_cache(maxsize=None)
def _local_hub() -> str:
    """A hub repository on disk (`source="local"`: no network): one entrypoint that builds
    a small model, as a published hubconf.py does."""
    path = tempfile.mkdtemp(prefix="reprolint-hub-")
    atexit.register(shutil.rmtree, path, True)
    with open(f"{path}/hubconf.py", "w") as hubconf:
        hubconf.write(
            "dependencies = ['torch']\n\n\n"
            "def tiny(width=4):\n"
            "    import torch\n\n"
            "    return torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.Linear(width, 2))\n"
        )
    return path


RECIPES["torch.hub.load"] = lambda load: _params(load(_local_hub(), "tiny", source="local"))


def _lora(get_peft_model: Any) -> Any:
    """LoRA adapters put on a small model whose own weights are fixed (built under a forked
    RNG): only the adapter weights get_peft_model draws can differ."""
    import peft

    torch = _torch()

    class Base(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(4, 4)

        def forward(self, x: Any) -> Any:
            return self.proj(x)

    with torch.random.fork_rng():
        torch.manual_seed(0)
        base = Base()
    model = get_peft_model(base, peft.LoraConfig(r=2, target_modules=["proj"]))
    return torch.cat([p.detach().flatten() for name, p in model.named_parameters() if "lora_" in name])


RECIPES["peft.get_peft_model"] = _lora
RECIPES["peft.mapping_func.get_peft_model"] = _lora


def _datasets_shuffle(datasets: Any) -> Any:
    """Dataset.shuffle() and DatasetDict.shuffle() without seed= (in memory, no cache file)."""
    rows = {"x": list(range(50))}
    one = datasets.Dataset.from_dict(rows).shuffle()["x"]
    split = datasets.DatasetDict({"train": datasets.Dataset.from_dict(rows)}).shuffle()["train"]["x"]
    return [list(one), list(split)]


RECIPES["datasets:shuffle"] = _datasets_shuffle


def _pandas_sample(pandas: Any) -> Any:
    """DataFrame.sample, Series.sample and GroupBy.sample without random_state."""
    frame = pandas.DataFrame({"x": list(range(60)), "y": [i % 3 for i in range(60)]})
    return [
        frame.sample(frac=1.0)["x"].tolist(),
        frame["x"].sample(10).tolist(),
        frame.groupby("y").sample(n=4)["x"].tolist(),
    ]


RECIPES["pandas:sample"] = _pandas_sample


# --------------------------------------------------------------------------- Keras 2 ImageDataGenerator


def _image_generator_batches(flow: Callable[[Any, bool], Any]) -> list:
    """Two batches of a plain generator's shuffled iterator (its sample order) and one of an
    augmenting generator's unshuffled iterator (its transformed pixels): tf-keras's
    ImageDataGenerator (Keras 3 keeps it only as keras._legacy)."""
    import pytest

    tf_keras = pytest.importorskip("tf_keras")
    make = tf_keras.preprocessing.image.ImageDataGenerator
    plain = flow(make(), True)
    augmenting = flow(make(rotation_range=40, width_shift_range=0.2, zoom_range=0.2, horizontal_flip=True), False)
    return [plain[0][1].tolist(), plain[1][1].tolist(), augmenting[0][0].round(4).tolist()]


def _images_array() -> tuple:
    import numpy as np

    x = np.linspace(0.0, 1.0, 24 * 8 * 8, dtype="float32").reshape(24, 8, 8, 1)
    return x, np.arange(24, dtype="float32")


@lru_cache(maxsize=1)
def _image_folder() -> str:
    """24 small PNG images, 12 per class folder (flow_from_directory's layout)."""
    import os

    import numpy as np
    import pytest

    Image = pytest.importorskip("PIL.Image")

    path = tempfile.mkdtemp(prefix="reprolint-images-")
    atexit.register(shutil.rmtree, path, True)
    for i in range(24):
        folder = f"{path}/class{i % 2}"
        os.makedirs(folder, exist_ok=True)
        pixels = (np.arange(64).reshape(8, 8) * 3 + i * 7) % 256
        Image.fromarray(pixels.astype("uint8")).save(f"{folder}/img{i:02d}.png")
    return path


def _from_directory(generator: Any, shuffle: bool) -> Any:
    return generator.flow_from_directory(
        _image_folder(), target_size=(8, 8), color_mode="grayscale", class_mode="sparse", batch_size=6, shuffle=shuffle,
    )


def _from_dataframe(generator: Any, shuffle: bool) -> Any:
    import pytest

    pd = pytest.importorskip("pandas")

    files = [f"class{i % 2}/img{i:02d}.png" for i in range(24)]
    frame = pd.DataFrame({"filename": files, "class": [str(i % 2) for i in range(24)]})
    return generator.flow_from_dataframe(
        frame, _image_folder(), target_size=(8, 8), color_mode="grayscale", class_mode="sparse", batch_size=6,
        shuffle=shuffle,
    )


_FLOWS: Dict[str, Callable[[Any, bool], Any]] = {
    "flow": lambda generator, shuffle: generator.flow(*_images_array(), batch_size=6, shuffle=shuffle),
    "flow_from_directory": _from_directory,
    "flow_from_dataframe": _from_dataframe,
}
for _requires in ("keras", "tensorflow"):
    for _method, _flow in _FLOWS.items():
        RECIPES[f"{_requires}:{_method}"] = (lambda flow: lambda _module: _image_generator_batches(flow))(_flow)
