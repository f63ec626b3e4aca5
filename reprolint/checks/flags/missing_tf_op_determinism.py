from __future__ import annotations

from typing import Iterator

from reprolint.analysis.determinism import program_usages, tf_determinism
from reprolint.analysis.tf_versions import program_tf, tf_switch
from reprolint.analysis.usage_events import EnvSet, GpuSelected
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.determinism import determinism_available, plan_determinism
from reprolint.model import Applicability


class MissingTfOpDeterminism(Rule):
    """
    ## What it does
    Reports a TensorFlow program without `tf.config.experimental.enable_op_determinism()`
    (or `TF_DETERMINISTIC_OPS=1` before TF 2.8).

    Training programs only (not tests, demos or evaluation scripts). A TensorFlow
    program is one that imports `tensorflow` or `keras` and trains
    (`model.fit`, `tf.GradientTape`, `apply_gradients`, `minimize`, a TF1 `Session`).
    TensorFlow uses a visible GPU on its own, so the program is taken to run on one
    unless it hides the GPU (`tf.config.set_visible_devices([], "GPU")`,
    `CUDA_VISIBLE_DEVICES=""` or `"-1"`). Accepted: the call, or the environment
    variable `TF_DETERMINISTIC_OPS` set to `1`/`true` in the code (honoured from TF 2.1,
    deprecated from 2.8); `TF_CUDNN_DETERMINISTIC` alone only covers cuDNN and is
    reported with a note. Which flags a TF version honours comes from `rules/tf.toml`
    for the installed TensorFlow (else the newest catalogued). It is reported once per
    program, at the line that selects a GPU (`tf.device("/GPU:0")`,
    `MirroredStrategy()`, `set_memory_growth`) or else the entry point's first
    statement.

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
    entry point (it calls `enable_op_determinism()` when TensorFlow is imported);
    `inline`: `tf.config.experimental.enable_op_determinism()` right after the entry
    point's imports.

    ## References
    - https://www.tensorflow.org/api_docs/python/tf/config/experimental/enable_op_determinism
    - https://github.com/NVIDIA/framework-reproducibility/blob/master/doc/d9m/tensorflow.md
    """

    code = "RPL304"
    message = (
        "this TensorFlow training program never turns on op determinism ({tf}), so its GPU kernels "
        "may differ between runs: {advice}{note}"
    )
    messages = {
        "partial": "this TensorFlow training program's GPU kernels may differ between runs ({tf}): {advice}{note}",
    }
    fix_title = "Call `tf.config.experimental.enable_op_determinism()` at the entry point"
    fix_applicability = Applicability.UNSAFE
    framework = "tensorflow"

    VALID = [
        Valid("import tensorflow as tf\ntf.config.experimental.enable_op_determinism()\nmodel.fit(x, y, epochs=2)\n"),
        Valid("import os\nos.environ['TF_DETERMINISTIC_OPS'] = '1'\nimport tensorflow as tf\nmodel.fit(x, y, epochs=2)\n"),
        Valid("import tensorflow as tf\ntf.config.set_visible_devices([], 'GPU')\nmodel.fit(x, y, epochs=2)\n"),
        Valid("import tensorflow as tf\nprint(tf.constant(1))\n"),  # no training
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
            "with tf.GradientTape() as tape:\n    loss = f(x)\n",
            line=1, message="TF_CUDNN_DETERMINISTIC",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            if not program.is_training or not program.trains_with("tf") or program.hides_gpu("tf"):
                continue
            # the TensorFlow it runs on: declared, else the TF1 API it calls, else the default
            assumed = program_tf(ctx, program)
            version = assumed.version
            det = tf_determinism(program, version)
            switch = tf_switch(assumed)
            if det.on or (det.cudnn_only and switch.kind == "cudnn-env"):
                continue  # on, or the one switch this version has is set
            gpu = program.first(GpuSelected, "tf")
            where = (gpu[1], gpu[2]) if gpu else program.entry_event
            if where is None or (where[0], where[1].span) in seen:
                continue
            seen.add((where[0], where[1].span))
            notes = []
            if det.cudnn_only:
                notes.append("`TF_CUDNN_DETERMINISTIC` only makes cuDNN convolutions deterministic")
            unread = sorted({
                env.name for _, _, env in program.of(EnvSet) if env.name == "TF_DETERMINISTIC_OPS"
            }) if switch.kind in ("cudnn-env", "none") else []
            if unread:
                notes.append(
                    "the `TF_DETERMINISTIC_OPS` it sets is read by stock TensorFlow from 2.1 (and NVIDIA's "
                    "NGC containers), not by this version"
                )
            if assumed.compat_v1 and assumed.major >= 2:
                notes.append(f"it runs TF1 graph code through `tf.compat.v1` ({assumed.compat_v1})")
            note = "".join(f" ({n})" for n in notes)
            yield self.report(
                where[0], where[1].span, variant="partial" if switch.kind in ("cudnn-env", "none") else None,
                tf=assumed.phrase(), advice=switch.advice, note=note, cudnn_only=det.cudnn_only,
                switch=switch.kind, version=assumed.to_data(),
                roles={program.entry: program.role.value}, entry_points=program.entry_points,
            )


# ----------------------------------------------------------------------------- fix

MissingTfOpDeterminism.fix_planner(plan_determinism)
MissingTfOpDeterminism.fix_prechecker(determinism_available)
