from __future__ import annotations

from typing import Any, Iterator, Optional

from reprolint.analysis.determinism import match_op, program_usages, tf_determinism
from reprolint.analysis.tf_versions import program_tf, tf_switch, trains_tf_kernels
from reprolint.analysis.usage_events import GpuSelected, KerasFit, OpCall
from reprolint.catalog import ops as catalog_ops
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.determinism import determinism_available, plan_determinism
from reprolint.model import Applicability, Related


class MissingTfOpDeterminism(Rule):
    """
    ## What it does
    Reports a TensorFlow training program that never turns on op determinism:
    `tf.config.experimental.enable_op_determinism()` from TF 2.8, `TF_DETERMINISTIC_OPS=1`
    in TF 2.1-2.7. Before TF 2.1 stock TensorFlow has no such switch (only
    `TF_CUDNN_DETERMINISTIC=1` from 1.14, for cuDNN convolution and max-pooling
    algorithms), so this rule does not report a TF 1.x or 2.0 program: RPL204 reports
    its nondeterministic GPU kernels, each kind once per program (cuDNN convolutions and pooling trained
    without `TF_CUDNN_DETERMINISTIC`, bias_add's gradient).

    Training programs only (not tests, demos or evaluation scripts). A TensorFlow
    program is one that imports `tensorflow` or `keras` and trains
    (`model.fit`, `tf.GradientTape`, `apply_gradients`, `minimize`, a TF1 `Session`)
    through a kernel that op determinism changes, named as a related location: a Keras
    model it fits or builds (Keras 2's Dense and convolution layers add their bias with
    bias_add; convolutions run cuDNN's backprop), a Keras layer or model class of its
    own (`class Block(tf.keras.layers.Layer)`, under any name of the API such as
    `tensorflow.compat.v2`; no place is named then) or an op of `rules/tf.toml`
    (convolutions, `bias_add`, softmax cross-entropy, segment sums, gather gradients...).
    A program that trains through plain arithmetic only (`tf.matmul(x, w) + b`,
    reductions: a linear or logistic regression written with raw ops) runs kernels that
    repeat without the switch, and is not reported.
    TensorFlow uses a visible GPU on its own, so the program is taken to run on one
    unless it hides the GPU (`tf.config.set_visible_devices([], "GPU")`,
    `CUDA_VISIBLE_DEVICES=""` or `"-1"`). Accepted: the call, or the environment
    variable `TF_DETERMINISTIC_OPS` set to `1`/`true` in the code (honoured from TF 2.1,
    deprecated from 2.8); `TF_CUDNN_DETERMINISTIC` alone is reported with a note where a
    better switch exists (TF 2.1 on), and accepted where it is the only one (TF 1.14-2.0).

    The TensorFlow version, and where it came from, is in the message and in JSON
    (`assumed.version`: `version`, `source`, `kind`): what the project of the entry point
    declares (`tensorflow`, `tensorflow-gpu`, `tensorflow-cpu`, `tf-nightly` in
    requirements files, setup.py/cfg, pyproject, conda, Pipfile, lock files), else
    "TensorFlow 1.x" when the program calls the TF1 API that TF 2 removed (`tf.Session`,
    `tf.placeholder`, `tf.get_variable`, `tf.train.AdamOptimizer`, `tf.contrib.*`,
    `tf.app.run`, `tf.flags.*`, `tf.layers.*`), else the installed TensorFlow, else
    "TensorFlow 2.x", the newest catalogued. A declared range open to TF 1 and TF 2 is
    narrowed to 1.15 by TF1 API calls. TF1 graph code written against `tf.compat.v1`
    runs on TF 2: it keeps the TF 2 version, and the message names its first call. Which
    switch a version honours comes from `rules/tf.toml`'s flags. It is reported once per
    program, at the line that selects a GPU (`tf.device("/GPU:0")`,
    `MirroredStrategy()`, `set_memory_growth`) or else the entry point's first
    statement. A program that selects another Keras backend (`KERAS_BACKEND="jax"` or
    `"torch"`: Keras 3 then trains with that framework's kernels; or Theano, where it
    builds its model with Theano's ops, `import theano.tensor as T`, and imports no
    TensorFlow: multi-backend Keras then runs on Theano) is a TensorFlow training
    program only where it trains with TensorFlow itself (`tf.GradientTape`,
    `apply_gradients`), not for its Keras `fit` calls.

    ## Why is this bad?
    Without op determinism TensorFlow's GPU kernels for convolution backprop, bias
    addition, reductions, scatter and segment ops, softmax cross-entropy and more
    accumulate in nondeterministic order, so two runs with the same seeds differ
    (NVIDIA's framework-reproducibility notes; Chen et al. 2022).

    Mitigation: `keras.utils.set_random_seed(seed)` and
    `tf.config.experimental.enable_op_determinism()` at the start of the entry point,
    then replace the ops that raise under it (RPL204).

    ## Example
    ```python
    import tensorflow as tf
    model.fit(x, y, epochs=3)
    ```

    Use instead:
    ```python
    import tensorflow as tf
    tf.keras.utils.set_random_seed(0)
    tf.config.experimental.enable_op_determinism()
    model.fit(x, y, epochs=3)
    ```

    ## Fix safety
    Unsafe: ops without a deterministic kernel start raising, and no catalog lists
    TensorFlow's; deterministic kernels can also be slower. `hooks`: `reprolint.runtime.install()` at the
    entry point (it calls `enable_op_determinism()` when TensorFlow has it, else sets
    `TF_DETERMINISTIC_OPS=1`); `inline`: what
    the assumed version supports, right after the entry point's imports (before its first
    op, where NVIDIA's examples set the variables): `enable_op_determinism()` (2.8+) or
    `os.environ["TF_DETERMINISTIC_OPS"] = "1"` (2.1-2.7).

    ## References
    - https://www.tensorflow.org/api_docs/python/tf/config/experimental/enable_op_determinism
    - https://github.com/NVIDIA/framework-reproducibility/blob/master/doc/d9m/tensorflow.md
    - https://github.com/NVIDIA/framework-reproducibility/blob/master/README.md (stock TF 1.14/1.15/2.0 need a patch; 2.1+ `TF_DETERMINISTIC_OPS`)
    - https://github.com/tensorflow/tensorflow/blob/master/RELEASE.md (2.8: `enable_op_determinism` replaces `TF_DETERMINISTIC_OPS`)
    - https://www.tensorflow.org/guide/migrate (TF1 API under `tf.compat.v1`; `tf.contrib` and `tf.flags` removed)
    """

    code = "RPL304"
    message = (
        "this TensorFlow training program never turns on op determinism ({tf}), so its GPU kernels "
        "may differ between runs: {advice}{note}"
    )
    fix_title = "Call `tf.config.experimental.enable_op_determinism()` at the entry point"
    fix_applicability = Applicability.UNSAFE
    framework = "tensorflow"

    VALID = [
        Valid(  # TF1 code: no op-determinism switch before TF 2.1 (RPL204 reports its ops)
            "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\n"
            "op = tf.train.AdamOptimizer().minimize(tf.reduce_sum(x))\nwith tf.Session() as s:\n    s.run(op)\n"
        ),
        Valid("import tensorflow as tf\ntf.config.experimental.enable_op_determinism()\nmodel.fit(x, y, epochs=2)\n"),
        Valid("import os\nos.environ['TF_DETERMINISTIC_OPS'] = '1'\nimport tensorflow as tf\nmodel.fit(x, y, epochs=2)\n"),
        Valid("import tensorflow as tf\ntf.config.set_visible_devices([], 'GPU')\nmodel.fit(x, y, epochs=2)\n"),
        Valid("import tensorflow as tf\nprint(tf.constant(1))\n"),  # no training
        Valid(  # plain arithmetic: its GPU kernels repeat without the switch
            "import tensorflow as tf\nw = tf.Variable(tf.zeros([4, 1]))\nb = tf.Variable(0.0)\n"
            "opt = tf.optimizers.SGD(0.1)\nfor x, y in data:\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))\n"
        ),
        Valid(  # Keras 3 on JAX: fit runs JAX kernels (RPL305's concern), tf only loads data
            "import os\nos.environ['KERAS_BACKEND'] = 'jax'\nimport keras\nimport tensorflow as tf\n"
            "ds = tf.data.Dataset.range(8).batch(2)\nmodel = keras.Sequential([keras.layers.Dense(1)])\n"
            "model.compile(loss='mse')\nmodel.fit(x, y, epochs=2)\n"
        ),
    ]
    INVALID = [
        Invalid("import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=2)\n", line=1,
            fixed=(
                'import tensorflow as tf\nimport reprolint.runtime\n\n'
                'reprolint.runtime.install(seed=0)\n\nmodel = tf.keras.Sequential()\n'
                'model.fit(x, y, epochs=2)\n'
            ),
        ),
        Invalid(
            "import os\nos.environ['TF_CUDNN_DETERMINISTIC'] = '1'\nimport tensorflow as tf\n"
            "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(tf.nn.conv2d(x, w, 1, 'SAME'))\n",
            line=1, message="TF_CUDNN_DETERMINISTIC",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            if not program.is_training or not trains_tf_kernels(program) or program.hides_gpu("tf"):
                continue
            # the TensorFlow it runs on: declared, else the TF1 API it calls, else the default
            assumed = program_tf(ctx, program)
            switch = tf_switch(assumed)
            if switch is None:
                # before TF 2.1 there is no op-determinism switch to turn on: what its GPU
                # kernels do is said op by op (RPL204: cuDNN convolutions and pooling
                # without `TF_CUDNN_DETERMINISTIC`, bias_add's gradient)
                continue
            det = tf_determinism(program, assumed.version)
            if det.on:
                continue
            kernel = _nondeterministic_kernel(ctx, program, assumed.version)
            if kernel is None:
                continue  # it trains through kernels that are deterministic without the switch
            gpu = program.first(GpuSelected, "tf")
            where = (gpu[1], gpu[2]) if gpu else program.entry_event
            if where is None or (where[0], where[1].span) in seen:
                continue
            seen.add((where[0], where[1].span))
            notes = []
            if det.cudnn_only:
                notes.append("`TF_CUDNN_DETERMINISTIC` only makes cuDNN convolutions deterministic")
            if assumed.compat_v1 and assumed.major >= 2:
                notes.append(f"it runs TF1 graph code through `tf.compat.v1` ({assumed.compat_v1})")
            note = "".join(f" ({n})" for n in notes)
            yield self.report(
                where[0], where[1].span, tf=assumed.phrase(), advice=switch.advice, note=note,
                cudnn_only=det.cudnn_only, switch=switch.kind, version=assumed.to_data(),
                roles={program.entry: program.role.value}, entry_points=program.entry_points,
                related=kernel,
            )


# Where Keras's models and layers, and TF Estimator's canned models, draw their initial
# weights (rules/rng.toml): a program that builds one trains their kernels (bias
# addition, convolution backprop).
_KERAS_APIS = ("tensorflow.keras.", "keras.", "tensorflow.estimator.")
_CUDNN_BACKPROP = ("cudnn-conv-pool-backprop", "keras-applications-cudnn-conv")
# A class of the program's own built on these is a Keras layer or model.
_KERAS_BASES = (".layers.Layer", ".Model", ".models.Model", ".Sequential")


def _nondeterministic_kernel(ctx: CheckContext, program: Any, version: str) -> Optional[list[Related]]:
    """Where the program trains through a GPU kernel that op determinism makes
    deterministic (a list of at most one place; empty when only a class says so): a
    Keras model it fits or builds (Keras 2's Dense and convolutions add their bias with
    bias_add; convolutions run cuDNN's backprop), a Keras layer or model class its
    modules define, or an op of `rules/tf.toml` (convolution, bias_add, softmax
    cross-entropy, segment sums, gather gradients...). None for a program that trains
    through plain arithmetic (`tf.matmul(x, w) + b`, reductions), whose GPU kernels
    repeat without the switch."""
    for _, path, fit in program.of(KerasFit, default_only=False):
        return [Related(path, fit.span, f"`{fit.text}` trains a Keras model here")]
    inner = getattr(program, "program", None)
    for outcome in (inner.draws if inner is not None else ()):
        draw = outcome.draw
        if draw.kind == "init" and draw.api.startswith(_KERAS_APIS):
            return [Related(outcome.path, draw.span, f"`{draw.text}` builds Keras layers here")]
    for _, path, op in program.of(OpCall, default_only=False):
        if not op.name.startswith(("tensorflow.", "keras.")):
            continue
        entries = [m.entry for m in match_op(op, version, cuda=True, training=True, framework="tf")]
        # cuDNN's convolution and pooling backprop: this rule's evidence, never matched per call
        entries += [e for e in catalog_ops.lookup(op.name, version) if e.id in _CUDNN_BACKPROP]
        if any(e.kind in ("deterministic-with-flag", "raises", "nondeterministic") for e in entries):
            return [Related(path, op.span, f"`{op.text}(...)` runs here, through kernels the switch makes deterministic")]
    for module in program.modules:
        facts = ctx.facts.get(module)
        bases = (b for bs in (facts.classes.values() if facts is not None else ()) for b in bs)
        if any(b.endswith(_KERAS_BASES) and "keras" in b.split(".") for b in bases):
            return []  # its own Keras layers and models (under any name of the API)
    return None


# ----------------------------------------------------------------------------- fix

MissingTfOpDeterminism.fix_planner(plan_determinism)
MissingTfOpDeterminism.fix_prechecker(determinism_available)
