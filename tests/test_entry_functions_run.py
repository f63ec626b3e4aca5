"""Which functions of an entry script run: one whose only call is commented out
(`# dump_imagenet(...)`) or that nothing names runs for nobody, and a function defined
inside a function that never runs does not exist; a function some running code names
(a callback, a returned closure), one a decorator may register, `main` (absl's
`app.run` calls it) and every function of a `fire.Fire()` script still run. absl's
`app.run(main)` / `tf.app.run()` calls `main`, so its seeds count, and flags defined
with `flags.DEFINE_*` have their defaults, as argparse options do."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

DRAWS = '''import numpy as np


def dump_a(n):
    return np.random.permutation(n)


def dump_b(n):
    return sorted(range(n))


if __name__ == "__main__":
    CALLS
'''


def rpl101_lines(source: str) -> list[int]:
    return [d.span.start_line for d in check_source(source, "dump.py") if d.code == "RPL101"]


@pytest.mark.parametrize("calls", ["# dump_a(10)\n    dump_b(10)", "dump_b(10)"])
def test_a_function_nothing_running_names_does_not_run(calls: str) -> None:
    assert rpl101_lines(DRAWS.replace("CALLS", calls)) == []


@pytest.mark.parametrize("calls", [
    "dump_a(10)",
    "jobs = {'a': dump_a, 'b': dump_b}\n    print(jobs['a'](3))",  # named by code that runs
    "import atexit\n    atexit.register(dump_a, 3)",  # passed on as a callback
])
def test_a_function_named_by_running_code_runs(calls: str) -> None:
    assert rpl101_lines(DRAWS.replace("CALLS", calls)) == [5]


def test_a_decorated_function_may_be_registered() -> None:
    source = DRAWS.replace("def dump_a(n):", "@register\ndef dump_a(n):").replace("CALLS", "dump_b(3)")
    source = "registry = []\nregister = registry.append\n" + source
    assert rpl101_lines(source) == [8]


@pytest.mark.parametrize("calls", ["import fire\n    fire.Fire()", "from fire import Fire\n    Fire()"])
def test_fire_exposes_every_function(calls: str) -> None:
    assert rpl101_lines(DRAWS.replace("CALLS", calls)) == [5]


def test_a_name_fire_without_the_fire_package_exposes_nothing() -> None:
    source = DRAWS.replace("CALLS", "Fire = dump_b\n    Fire(10)")
    assert rpl101_lines(source) == []


def test_a_closure_of_a_function_that_never_runs_does_not_exist() -> None:
    source = '''import numpy as np


def get_input_fn(n):
    def input_fn(params):
        return np.random.permutation(n)
    return input_fn


def main():
    return sorted(range(3))


if __name__ == "__main__":
    main()
'''
    assert rpl101_lines(source) == []
    assert rpl101_lines(source.replace("    return sorted(range(3))", "    return get_input_fn(3)({})")) == [6]


ABSL = '''from absl import app, flags
import numpy as np

FLAGS = flags.FLAGS
flags.DEFINE_integer("seed", DEFAULT, "Random seed.")


def main(argv):
    if FLAGS.seed is not None:
        np.random.seed(FLAGS.seed)
    print(np.random.rand(3))


if __name__ == "__main__":
    RUN
'''


@pytest.mark.parametrize("run", ["app.run(main)", "app.run(main=main)"])
def test_absl_runs_main_and_reads_the_flag_default(run: str) -> None:
    seeded = check_source(ABSL.replace("DEFAULT", "0").replace("RUN", run), "train.py")
    assert [d.code for d in seeded] == []
    unseeded = check_source(ABSL.replace("DEFAULT", "None").replace("RUN", run), "train.py")
    assert [(d.code, d.span.start_line) for d in unseeded] == [("RPL104", 10)]
    assert "`FLAGS.seed is not None`, which is false with the default options" in unseeded[0].message


def test_tf_app_run_calls_the_module_main_and_tf_flags_define_options() -> None:
    source = ABSL.replace("from absl import app, flags\n", "import tensorflow as tf\n").replace(
        "FLAGS = flags.FLAGS\nflags.DEFINE_integer", "flags = tf.app.flags\nFLAGS = flags.FLAGS\nflags.DEFINE_integer"
    ).replace("RUN", "tf.app.run()")
    assert [d.code for d in check_source(source.replace("DEFAULT", "7"), "train.py")] == []
    assert [d.code for d in check_source(source.replace("DEFAULT", "None"), "train.py")] == ["RPL104"]


@pytest.mark.parametrize(("fid", "reported"), [
    # an empty `__init__.py` mentions nothing (it is no module of unknown text)
    ("from pkg.loaders import get_eval_loader\n\nprint(get_eval_loader([3, 1, 2]))\n", False),
    # handed on as a callback: it may run
    ("from pkg.loaders import get_train_loader\n\nprint(list(map(get_train_loader, [[3, 1, 2]])))\n", True),
])
def test_a_plain_function_of_a_package_module_that_nothing_names_runs_for_nobody(fid: str, reported: bool) -> None:
    from reprolint.api import check_sources

    loaders = (
        "import random\n\n\ndef get_train_loader(items):\n    random.shuffle(items)\n    return items\n\n\n"
        "def get_eval_loader(items):\n    return list(items)\n"
    )
    found = check_sources({"pkg/__init__.py": "", "pkg/loaders.py": loaders, "fid.py": fid})
    assert [(d.path, d.span.start_line) for d in found if d.code == "RPL101"] == ([("pkg/loaders.py", 5)] if reported else [])


@pytest.mark.parametrize(("evaluate", "reported"), [
    # `model.train(False)` is a method of the model, not the module's own `train`
    ("def evaluate(model):\n    model.train(False)\n    return model(torch.ones(4, 8))\n", False),
    # the module's own function, named as it is: it may run
    ("def evaluate(model):\n    train(model)\n    return model(torch.ones(4, 8))\n", True),
])
def test_an_attribute_of_the_same_name_does_not_name_a_module_function(evaluate: str, reported: bool) -> None:
    from reprolint.api import check_sources

    utils = (
        "import torch\n\n\ndef train(model):\n    x = torch.randn(4, 8)\n    model(x).sum().backward()\n\n\n" + evaluate
    )
    evaluation = "import torch.nn as nn\nfrom utils import evaluate\n\nprint(evaluate(nn.Identity()))\n"
    found = check_sources({"utils.py": utils, "eval_model.py": evaluation})
    assert [(d.path, d.span.start_line) for d in found if d.code == "RPL101"] == ([("utils.py", 5)] if reported else [])


@pytest.mark.parametrize(("decorator", "reported"), [
    # a registry's decorator: code the analysis does not see may build it by its key
    ("@register_model\n", True),
    ("@MODELS.register('tiny')\n", True),
    # a decorator that only wraps the function registers it nowhere
    ("@torch.no_grad()\n", False),
    ("@functools.lru_cache(maxsize=None)\n", False),
    ("@try_except('plot failed')\n", False),  # a project's wrapper
])
def test_a_decorated_function_of_an_imported_module_may_run_through_a_registry(decorator: str, reported: bool) -> None:
    from reprolint.api import check_sources

    models = (
        "import functools\nimport torch\nfrom registry import register_model, try_except, MODELS\n\n\n"
        f"{decorator}def tiny():\n    return torch.nn.Linear(4, 2)\n"
    )
    registry = (
        "MODELS = {}\n\n\ndef register_model(fn):\n    MODELS[fn.__name__] = fn\n    return fn\n\n\n"
        "def try_except(msg):\n    def wrap(fn):\n        return fn\n    return wrap\n"
    )
    train = (
        "import sys\nimport torch\nimport models\nfrom registry import MODELS\n\n"
        "net = MODELS[sys.argv[1]]()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "net(torch.ones(1, 4)).sum().backward()\nopt.step()\n"
    )
    found = check_sources({"models.py": models, "registry.py": registry, "train.py": train})
    assert [(d.path, d.span.start_line) for d in found if d.code == "RPL101"] == ([("models.py", 8)] if reported else [])
