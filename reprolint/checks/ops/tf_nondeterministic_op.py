from __future__ import annotations

from typing import Any, Iterator, Optional

from reprolint.analysis.determinism import match_op, program_usages, tf_determinism, tf_settings_by_name
from reprolint.analysis.tf_versions import TfAssumed, keras_backend, program_tf
from reprolint.analysis.usage_events import EnvSet, OpCall, TfSetting, TrainStep
from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.catalog import ops as catalog_ops
from reprolint.catalog.ops import parse_version
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.ops._ops import chain_related, with_option_defaults
from reprolint.model import Related

_ENABLE = "`tf.config.experimental.enable_op_determinism()`"


# The switch TF 1.14-2.0 has for cuDNN convolution and pooling algorithms.
_CUDNN_SWITCH = "env:TF_CUDNN_DETERMINISTIC=1"

# Entries whose cause is one for the whole program (the switch TF 1.14-2.0 has for cuDNN;
# for bias_add, the TensorFlow release itself): the first call is reported, the others
# are its related locations, with what they share.
_ONE_PER_PROGRAM = {
    "cudnn-conv-pool-backprop-before-2-1": "also runs cuDNN",
    "cudnn-conv-pool-backprop-before-1-14": "also runs cuDNN",
    "bias-add-backprop-before-2-1": "also adds a bias with `bias_add`",
}


# Settings that are no source of nondeterminism by themselves, only a hole in the
# guarantee of `enable_op_determinism()`: reported where the program turns it on.
_UNSUPPORTED_BY_OP_DETERMINISM = frozenset({"tf1-session"})


class TfNondeterministicOp(Rule):
    """
    ## What it does
    Reports TensorFlow/Keras ops or settings known to be nondeterministic (`tf.data`
    with `deterministic=False`, TF1 `Session`, segment reductions on GPU, ...).

    From the catalog `rules/tf.toml`, for the TensorFlow the program runs on, named in
    the message with where it came from (JSON `assumed.version`): the project's
    declaration, else TF 1.x when the program calls the TF1 API TF 2 removed, else the
    installed TensorFlow, else the newest catalogued (as RPL304 decides it). The switch
    named is the one that version has: `enable_op_determinism()` from 2.8,
    `TF_DETERMINISTIC_OPS=1` in 2.1-2.7, none for these ops before 2.1:

    - settings: `Dataset.map/interleave/batch(..., deterministic=False)` and
      `options.deterministic = False` (overridden by op determinism from TF 2.8, so not
      reported then), `ParameterServerStrategy`, and a TF1 `Session`/`InteractiveSession`
      only in a program that turns op determinism on and may use the GPU (a Session is
      no source of nondeterminism by itself: the ops it runs are, and they are reported
      on their own; but op determinism is not guaranteed through the TF1 API);
    - TF1 queue pipelines whose batches are filled by several enqueue threads at once:
      `tf.train.batch`/`shuffle_batch` with `num_threads` above 1 (a literal, a function
      default or an option's default; absent means 1), `batch_join`/`shuffle_batch_join`
      given more than one tensor tuple (one thread each: a list literal, or a
      comprehension over `range(n)`), `tf.estimator.inputs.numpy_input_fn`/
      `pandas_input_fn` with `num_threads` above 1 (before TF 2.16, which removed them);
      and `tf.data.experimental.parallel_interleave(...,
      sloppy=True)` (also as `tf.compat.v1.data.experimental` and `tf.contrib.data`;
      measured: a slow input's elements are overtaken, as with `interleave(...,
      deterministic=False)`). Op determinism does not change them. `tf.data`'s
      `map(num_parallel_calls=...)` keeps its order by default and is not reported;
    - ops that raise under op determinism or stay nondeterministic (e.g.
      `tf.image.adjust_contrast`, `crop_and_resize` backprop, `tf.math.bincount`,
      `sparse_dense_matmul`, nearest-neighbour resize / `UpSampling2D` backprop):
      always (a scatter by coordinates is not, where its indices are `tf.where(mask)`'s,
      each once: no two updates meet);
    - ops that op determinism makes deterministic (segment reductions, softmax
      cross-entropy, `scatter_nd`, depthwise conv backprop, bilinear resize backprop,
      the `BiasAdd` backprop of `tf.nn.bias_add` and of `tf.compat.v1.layers.dense`
      with its default `use_bias=True`, and `tf.gather`/`tf.nn.embedding_lookup` into a
      variable made in the same scope, `tf.Variable`/`tf.get_variable`, whose gradient
      is an `IndexedSlices` summed by `UnsortedSegmentSum`): when the program never turns
      op determinism on. (The ops are checked in the graph on a CPU; that their GPU
      backward is nondeterministic is the cited NVIDIA and TensorFlow documentation's
      claim, which a CPU cannot show.) `tf1 = tf.compat.v1` at module level names the
      module, like the import alias.

    Before TF 2.1, which has no op-determinism switch (RPL304 does not report such a
    program), its GPU kernels are reported here, each kind once per program at its first
    call with the other calls as related locations: the `BiasAdd` backprop
    (`tf.nn.bias_add`, `tf.layers.dense`), which has no deterministic kernel in stock
    TensorFlow before 2.1; and cuDNN convolutions and max-pooling trained without
    `TF_CUDNN_DETERMINISTIC=1` (the switch of TF 1.14-2.0; none before 1.14: `tf.nn.conv2d`,
    `tf.layers.conv2d`, `tf.contrib.slim.conv2d`, Keras `Conv2D`, `max_pool`...).

    A program that selects another Keras backend (`KERAS_BACKEND="jax"`/`"torch"`, or
    Theano where it builds with Theano's ops and imports no TensorFlow) runs its `keras.*`
    layers and losses with that framework's kernels: they are not reported (its `tf.*`
    calls still are).

    An op is reported where the program runs it: not on a branch its default options
    skip (`if FLAGS.crf: ... else: softmax_layer(...)` with `--crf` on by default,
    `elif self.alg_type in ['gcn']:` with another default), as for RPL201/RPL202.

    TensorFlow places ops on a visible GPU without being asked, so every TF program is
    taken to run on a GPU unless it hides it (`tf.config.set_visible_devices([],
    "GPU")`, `CUDA_VISIBLE_DEVICES=""`/`"-1"`). An op created under `with
    tf.device("/cpu:0"):` (any literal naming a CPU; in the block or in a function or
    constructor it calls, not inside a `tf.device("/gpu:...")` block within it) runs its
    kernel on the CPU: not reported, nor the gradient of a lookup into a variable there
    (`tf.nn.embedding_lookup(table, ids)` pinned with its table reaches it as
    IndexedSlices, applied on the variable's device); other gradients are placed where
    the gradient is computed: not reported where every gradient step of the program
    (`minimize`, `apply_gradients`, a `GradientTape`, `fit`) runs in such a block too,
    reported otherwise. From TF 2.1 plain convolutions and
    pooling (cuDNN) are covered once per program by RPL304. Entries that depend on run-time facts
    (Keras `BatchNormalization` fine-tuned in inference mode, `IndexedSlices`
    gradients other than a lookup into a visible variable) are not reported.

    The project calls through which a program first reaches the op or setting (`y = blur(x)` in
    the entry point for an op in `aug.py`) are its related locations, outermost first.

    ## Why is this bad?
    These kernels use atomic accumulation or thread-order-dependent reductions on the
    GPU (or, for `tf.data` and TF1 queues fed by several threads, hand elements over in
    completion order: measured with TF 2.21, `tf.train.batch` with 8 threads gave 4
    different orders in 6 runs, with 1 thread one), so two runs of the
    same program produce different numbers; a program that relies on op determinism
    through a TF1 `Session` does not get its guarantee.

    Mitigation: call `tf.config.experimental.enable_op_determinism()` (TF >= 2.8, or
    `TF_DETERMINISTIC_OPS=1` from 2.1) and replace the ops that still raise under it
    with the alternatives named in the message; keep `tf.data` deterministic.

    ## Example
    ```python
    import tensorflow as tf
    ds = ds.map(parse, num_parallel_calls=tf.data.AUTOTUNE, deterministic=False)
    ```

    Use instead:
    ```python
    import tensorflow as tf
    tf.config.experimental.enable_op_determinism()
    ds = ds.map(parse, num_parallel_calls=tf.data.AUTOTUNE)
    ```

    ## Fix safety
    No automatic fix; removing `deterministic=False` is safe for the results but can
    slow the input pipeline.

    ## References
    - https://www.tensorflow.org/api_docs/python/tf/config/experimental/enable_op_determinism
    - https://github.com/NVIDIA/framework-reproducibility/blob/master/doc/d9m/tensorflow.md
    """

    code = "RPL204"
    message = "`{call}(...)`{gradient} is nondeterministic on GPU in {tf}: {why}{instead}"
    messages = {"setting": "`{call}` is nondeterministic in {tf}: {why}"}
    framework = "tensorflow"

    VALID = [
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(4).map(f, deterministic=True)\n"),
        Valid(
            "import tensorflow as tf\ntf.config.experimental.enable_op_determinism()\n"
            "s = tf.math.unsorted_segment_sum(x, ids, 3)\nds = tf.data.Dataset.range(4).map(f, deterministic=False)\n"
        ),
        Valid("import tensorflow as tf\ntf.config.set_visible_devices([], 'GPU')\nb = tf.math.bincount(x)\n"),
        Valid("import tensorflow as tf\nsess = tf.compat.v1.Session()\n"),  # no op determinism relied on
        Valid("import tensorflow as tf\nb = tf.compat.v1.train.batch([x], 32, num_threads=1)\nc = tf.train.batch([x], 32)\n"),
        Valid(  # Keras 3 on JAX: the upsampling backward is JAX's, not TensorFlow's
            "import os\nos.environ['KERAS_BACKEND'] = 'jax'\nimport keras\n"
            "model = keras.Sequential([keras.layers.Dense(4), keras.layers.UpSampling2D(2)])\n"
            "model.compile(loss='mse')\nmodel.fit(x, y)\n"
        ),
    ]
    INVALID = [
        Invalid("import tensorflow as tf\nds = tf.data.Dataset.range(4).map(f, deterministic=False)\n", line=2),
        Invalid(  # the same model on Keras's TensorFlow backend
            "import keras\nmodel = keras.Sequential([keras.layers.Dense(4), keras.layers.UpSampling2D(2)])\n"
            "model.compile(loss='mse')\nmodel.fit(x, y)\n", line=2, message="raises",
        ),
        Invalid(
            "import tensorflow as tf\ntf.config.experimental.enable_op_determinism()\nsess = tf.compat.v1.Session()\n",
            line=3, message="Session",
        ),
        Invalid("import tensorflow as tf\ns = tf.math.unsorted_segment_sum(x, ids, 3)\n", line=2),
        Invalid(
            "import tensorflow as tf\ntf.config.experimental.enable_op_determinism()\nb = tf.math.bincount(x)\n",
            line=3, message="raises",
        ),
        Invalid("import tensorflow as tf\nopts = tf.data.Options()\nopts.deterministic = False\n", line=3),
        Invalid("import tensorflow as tf\nb = tf.train.shuffle_batch([x], 32, 100, 10, num_threads=4, seed=1)\n",
                line=2, message="enqueue threads"),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        settings = tf_settings_by_name()
        # (path, span) -> the finding's fields, from the first program that reports the
        # site; a later program that runs it adds its entry points
        reports: dict[tuple[str, object], dict[str, Any]] = {}
        seen = reports.keys()
        for program in program_usages(ctx):
            if not (program.uses("tensorflow", ctx.facts) or program.uses("keras", ctx.facts)):
                continue
            # the TensorFlow it runs on: declared, else the TF1 API it calls, else the default
            assumed = program_tf(ctx, program)
            version, phrase = assumed.version, assumed.phrase()
            # Keras 3 on another backend (`KERAS_BACKEND="jax"`) runs `keras.*` layers
            # with that framework's kernels: TensorFlow's catalog says nothing of them
            other_backend = keras_backend(program) not in (None, "tensorflow")
            gpu = not program.hides_gpu("tf")
            det = tf_determinism(program, version)
            seeded = program.program.seeded_libraries if program.program is not None else set()
            trains = program.has(TrainStep, "tf")
            # every gradient the program computes is computed under `tf.device("/cpu:0")`
            # (TF places a gradient where it is computed, in the block the optimizer's
            # `minimize`/`apply_gradients` or the tape runs in): backward kernels run there too
            grads_on_cpu = trains and all(
                program.usage_steps[position].context.tf_cpu for position, _, _ in program.of(TrainStep, "tf")
            )
            # the entries of _ONE_PER_PROGRAM: one finding (at the first call) that lists the others
            per_program: dict[str, list[Any]] = {}
            unread_ops_env = parse_version(version) < (2, 1, 0) and any(
                env.name == "TF_DETERMINISTIC_OPS" for _, _, env in program.of(EnvSet)
            )
            for _, path, usage in program.of(TfSetting, default_only=False):
                setting = settings.get(usage.name)
                if setting is None or not setting.holds_for(version):
                    continue
                if (path, usage.span) in seen:
                    _add_entries(reports[(path, usage.span)], program.entry_points)
                    continue
                if setting.id in _UNSUPPORTED_BY_OP_DETERMINISM and not (det.on and gpu):
                    # a TF1 Session is not nondeterministic in itself: its ops are (reported
                    # on their own); it matters where the program relies on op determinism,
                    # which it does not guarantee through the TF1 API
                    continue
                why = self._setting(with_option_defaults(program, usage), setting, det.on, version)
                if why is None:
                    continue
                reports[(path, usage.span)] = dict(
                    variant="setting", call=usage.text, tf=phrase, why=why,
                    setting=usage.name, entry_points=list(program.entry_points), version=assumed.to_data(),
                    related=chain_related(program, path, usage.span, f"`{usage.text}`"),
                )
            for position, path, op_call in program.of(OpCall, default_only=False):
                if not op_call.name.startswith(("tensorflow.", "keras.")):
                    continue
                if (path, op_call.span) in seen:
                    _add_entries(reports[(path, op_call.span)], program.entry_points)
                    continue
                context = program.usage_steps[position].context
                if program.skips(position):
                    # on a branch the default options do not take (`if FLAGS.crf:` ... `else:`,
                    # `if self.alg_type in ['gcn']:`): not what this program runs
                    continue
                if context.pipeline:
                    continue  # a tf.data function: on the CPU, no gradient through it
                if "shown-only" in op_call.facts:
                    continue  # its value only reaches a figure (an illustration of an augmentation)
                pinned = "cpu-device" in op_call.facts or context.tf_cpu
                if other_backend and op_call.name.startswith("keras."):
                    continue
                matches = [
                    m for m in match_op(op_call, version, cuda=gpu, training=trains, framework="tf",
                                        tf_unseeded_det=det.on and "tensorflow" not in seeded)
                    if not (m.entry.backward_only and "no-grad-input" in op_call.facts)
                    and not _on_the_cpu(m.entry, op_call.facts, pinned, grads_on_cpu)
                    # a scatter by coordinates no two of which are the same (`tf.where(mask)`)
                    and not (m.entry.id.startswith("scatter-nd") and "index-unique" in op_call.facts)
                ]
                strict = [m for m in matches if m.entry.kind in ("raises", "nondeterministic")]
                flagged = [
                    m for m in matches if m.entry.kind == "deterministic-with-flag"
                    # `TF_CUDNN_DETERMINISTIC=1`: the one switch of TF 1.14-2.0, for cuDNN
                    and not (det.cudnn_only and _CUDNN_SWITCH in m.entry.fixed_by)
                ]
                if strict:
                    entry = strict[0].entry
                    why = _strict_why(entry.kind, assumed)
                elif flagged and not det.on:
                    entry = flagged[0].entry
                    why = f"it is deterministic only with {_switch(assumed, entry.since)}, which this program never turns on"
                    if _CUDNN_SWITCH in entry.fixed_by and unread_ops_env:
                        why += (
                            " (the `TF_DETERMINISTIC_OPS` it sets is read by stock TensorFlow from 2.1, "
                            "and NVIDIA's NGC containers, not by this version)"
                        )
                else:
                    continue
                fields = dict(
                    call=op_call.text, tf=phrase, why=why, version=assumed.to_data(),
                    gradient=" (its gradient)" if entry.backward_only else "",
                    instead=f"; instead: {entry.alternative}" if entry.alternative and entry.kind != "deterministic-with-flag" else "",
                    op=entry.id, entry_points=list(program.entry_points),
                )
                if entry.id in _ONE_PER_PROGRAM:
                    first = per_program.get(entry.id)
                    if first is None:
                        per_program[entry.id] = [path, op_call.span, fields, []]
                        reports[(path, op_call.span)] = fields
                    else:
                        first[3].append(Related(path, op_call.span, f"`{op_call.text}(...)` {_ONE_PER_PROGRAM[entry.id]}"))
                        reports[(path, op_call.span)] = {"entry_points": []}  # listed, not reported
                    continue
                reports[(path, op_call.span)] = dict(
                    fields, related=chain_related(program, path, op_call.span, f"the op `{op_call.text}`"),
                )
            for path, span, fields, related in per_program.values():
                fields["related"] = related
        for (path, span), fields in reports.items():
            if "related" not in fields:
                continue  # a site a program's one finding of its op lists among its others
            yield self.report(path, span, **fields)  # type: ignore[arg-type]

    @staticmethod
    def _setting(usage: TfSetting, setting, det_on: bool, version: str) -> Optional[str]:  # type: ignore[no-untyped-def]
        overridden = (
            det_on and setting.overridden_since is not None
            and parse_version(version) >= setting.overridden_since
        )
        if setting.form == "call":
            kwargs = {key: _known(value) for key, value in usage.kwargs}
            if overridden or not all(c.evaluate(usage.name, (), kwargs) is True for c in setting.when):
                return None
            threads = kwargs.get("num_threads")
            if threads is not None:
                return (f"its {threads} enqueue threads race, so batches come out in the order the threads "
                        f"finish; instead: {setting.alternative}")
            if "sloppy" in kwargs:
                return f"`sloppy=True` hands elements over as they are ready; instead: {setting.alternative}"
            if setting.overridden_since is not None and parse_version(version) >= setting.overridden_since:
                return "`deterministic=False` hands elements over in completion order; drop it or enable op determinism"
            return "`deterministic=False` hands elements over in completion order; drop it"
        if setting.form == "assign":
            if usage.value != setting.value or overridden:
                return None
            return "`tf.data` returns elements in completion order; leave `deterministic` at True"
        alternative = f"; instead: {setting.alternative}" if setting.alternative else ""
        return f"it has no op-determinism support{alternative}"


def _add_entries(fields: dict[str, Any], entries: tuple[str, ...]) -> None:
    """A later program runs a reported site too: its entry points join the finding's."""
    held = fields["entry_points"]
    held.extend(e for e in entries if e not in held)


def _switch(assumed: TfAssumed, since: tuple[int, int, int]) -> str:
    """The switch that makes a flagged op deterministic in this TensorFlow. Of a
    TensorFlow known only by its major version (``TensorFlow 1.x``) the message claims
    no more than the releases that have the switch, and the release from which it covers
    this op (``since``)."""
    version = parse_version(assumed.version)
    known = assumed.release_known
    if version >= (2, 8, 0):
        if known:
            return _ENABLE
        later = f"; for this op from TF {since[0]}.{since[1]}" if since > (2, 1, 0) else ""
        return f"{_ENABLE} (TF 2.8 on; `TF_DETERMINISTIC_OPS=1` on 2.1-2.7{later})"
    if version >= (2, 1, 0):
        return "`TF_DETERMINISTIC_OPS=1` (`enable_op_determinism()` arrives in 2.8)"
    if known:
        return "`TF_CUDNN_DETERMINISTIC=1` (cuDNN convolutions and pooling only)"
    return "`TF_CUDNN_DETERMINISTIC=1` (cuDNN convolutions and pooling only; TF 1.14 on, no switch before)"


def _strict_why(kind: str, assumed: TfAssumed) -> str:
    """Why an op with no deterministic kernel in this TensorFlow is reported."""
    version = parse_version(assumed.version)
    if kind == "raises":
        where = "op determinism" if version >= (2, 8, 0) else "`TF_DETERMINISTIC_OPS=1`"
        return f"it has no deterministic GPU kernel and raises under {where}"
    # Not "stays nondeterministic": whether a release raises for it under the switch
    # or leaves it as it is was not established for every op of this kind (stock TF's
    # `sparse_dense_matmul` is read both ways); that no deterministic kernel runs is.
    if version >= (2, 8, 0):
        return "op determinism gives it no deterministic GPU kernel"
    if version >= (2, 1, 0):
        return "`TF_DETERMINISTIC_OPS=1` gives it no deterministic GPU kernel"
    return "no switch of this version makes it deterministic"


def _known(value: object) -> object:
    """An argument as the catalog's conditions read it (an option left unresolved is unknown)."""
    return catalog_ops.UNKNOWN if value == UNKNOWN or isinstance(value, OptionRef) else value


def _on_the_cpu(entry: Any, facts: tuple[str, ...], pinned: bool, grads_on_cpu: bool) -> bool:
    """An op created under ``with tf.device("/cpu:0"):`` (``pinned``: its own block or
    one around a call that builds it) runs its forward kernel on the CPU. Its gradient is
    placed where the gradient is computed (often the GPU), so it runs on the CPU where
    every gradient of the program is computed in such a block (``grads_on_cpu``: an A3C
    that builds its nets and their optimizers on the CPU), or for a lookup into a
    variable (``tf.nn.embedding_lookup(table, ids)`` pinned with its table, the idiom for
    a large embedding): that gradient reaches the variable as IndexedSlices, added by
    the sparse update on the variable's device."""
    if not pinned:
        return False
    return not entry.backward_only or grads_on_cpu or "indexed-slices-input" in facts
