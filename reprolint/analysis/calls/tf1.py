"""Calls of the TensorFlow 1 API: which TensorFlow a program is written for.

A program that calls names TensorFlow 2 removed from its top-level namespace
(``tf.Session``, ``tf.placeholder``, ``tf.get_variable``, ``tf.train.AdamOptimizer``,
``tf.contrib.*``, ``tf.app.run``, ``tf.flags.*``, ``tf.layers.*``...) runs only on
TensorFlow 1.x: they exist in TF 2 only under ``tf.compat.v1`` (TF 2.0's migration guide
and its ``tf_upgrade_v2`` renames), and ``tf.contrib`` not at all. The same graph-mode
names under ``tf.compat.v1`` are TF 1 graph code that TF 2 runs (or TF 1.14/1.15, which
have ``tf.compat.v1`` too). Each call is recorded as a :class:`TfApi` event;
:mod:`reprolint.analysis.tf_versions` combines them with the declared TensorFlow.

Only graph-mode and removed namespaces count: ``tf.compat.v1.logging``,
``tf.compat.v1.ConfigProto`` or ``tf.compat.v1.set_random_seed`` are common in TF 2
programs and say nothing about graph code.
"""

from __future__ import annotations

from typing import Any

from reprolint.analysis.calls import CallSite, on_call, on_call_prefix
from reprolint.analysis.usage_events import TfApi

# Graph-mode names (sessions, placeholders, variable scopes, TF1 optimizers, savers):
# top-level in TF 1.x, only under tf.compat.v1 in TF 2.
GRAPH_NAMES = (
    "Session", "InteractiveSession", "placeholder", "placeholder_with_default",
    "get_variable", "variable_scope", "global_variables_initializer",
    "local_variables_initializer", "initialize_all_variables", "trainable_variables",
    "reset_default_graph", "disable_v2_behavior", "disable_eager_execution",
    "train.Saver", "train.MonitoredTrainingSession", "train.get_or_create_global_step",
    "train.GradientDescentOptimizer", "train.AdamOptimizer", "train.MomentumOptimizer",
    "train.RMSPropOptimizer", "train.AdagradOptimizer", "train.AdadeltaOptimizer",
    "train.Optimizer", "summary.FileWriter", "summary.merge_all",
    # queue-runner input pipelines (tf.data replaces them in TF 2)
    "train.string_input_producer", "train.slice_input_producer", "train.input_producer",
    "train.batch", "train.shuffle_batch", "train.batch_join", "train.shuffle_batch_join",
    "train.start_queue_runners", "TFRecordReader", "parse_single_example",
)
# TF 1.x only, not graph-specific: removed from TF 2's top level too.
TF1_ONLY_NAMES = (
    "random_normal", "random_uniform", "truncated_normal", "set_random_seed", "enable_eager_execution",
    # renamed by TF 2.0 (its tf_upgrade_v2 renames), checked gone from TF 2's top level
    # and kept under tf.compat.v1 by tests/libraries/test_tf1_api_real.py
    "log", "to_float", "to_int32", "to_int64", "to_double", "div", "squared_difference", "arg_max",
    "arg_min", "Print", "count_nonzero", "sparse_to_dense", "random_shuffle", "multinomial", "assign",
    "global_variables", "get_collection", "add_to_collection", "ConfigProto", "GPUOptions",
    "truncated_normal_initializer", "nn.dynamic_rnn", "nn.static_rnn", "nn.bidirectional_dynamic_rnn",
    "nn.xw_plus_b", "nn.softmax_cross_entropy_with_logits_v2", "image.resize_images",
    "train.exponential_decay", "train.piecewise_constant",
    "losses.softmax_cross_entropy", "losses.sparse_softmax_cross_entropy",
)
# Namespaces TF 2 removed (``tf.contrib`` entirely; the others live on in tf.compat.v1).
TF1_PREFIXES = ("tensorflow.contrib.", "tensorflow.app.", "tensorflow.flags.", "tensorflow.layers.", "tensorflow.logging.")


@on_call(*(f"tensorflow.{name}" for name in GRAPH_NAMES + TF1_ONLY_NAMES))
def _tf1_name(c: Any, site: CallSite) -> None:
    c._u_emit(TfApi, site.qualname, site.node, tf1=True)


@on_call_prefix(*TF1_PREFIXES)
def _tf1_namespace(c: Any, site: CallSite) -> None:
    c._u_emit(TfApi, site.qualname, site.node, tf1=True)


@on_call(*(f"tensorflow.compat.v1.{name}" for name in GRAPH_NAMES))
def _compat_graph(c: Any, site: CallSite) -> None:
    c._u_emit(TfApi, site.qualname, site.node, tf1=False)


# Multi-backend Keras names its TensorFlow backend offers up to Keras 2.2.5 and 2.3.0
# dropped (keras/backend/tensorflow_backend.py imports them from .common in 2.2.5, not in
# 2.3.1; tf.keras never had them). Keras up to 2.2.5 supports TensorFlow 1 only, 2.3.0
# is the first release for TensorFlow 2.0 (keras-team/keras release notes).
OLD_KERAS_NAMES = ("keras.backend.image_dim_ordering", "keras.backend.set_image_dim_ordering")


@on_call(*OLD_KERAS_NAMES)
def _old_keras_name(c: Any, site: CallSite) -> None:
    c._u_emit(TfApi, site.qualname, site.node, tf1=True, old_keras=True)
