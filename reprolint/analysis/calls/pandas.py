"""pandas knowledge the RNG facts need: which receivers of ``.sample(...)`` are DataFrames.

``DataFrame.sample``, ``Series.sample`` and ``GroupBy.sample`` without ``random_state``
draw from NumPy's global RNG (``pandas.core.common.random_state(None)`` returns the
``np.random`` module itself), so ``np.random.seed`` fixes the rows they pick and nothing
else does (measured on the installed pandas by ``tests/libraries``). ``rules/rng.toml``
holds the claim (``[[method_draws]]`` with ``input = "pandas-frame"``); this module only
tells a pandas object from the many other things with a ``sample`` method (a replay
buffer, an action space, a distribution, ``random.sample``): the receiver must visibly be
one, by data flow:

* a call of a pandas function that returns a frame (``pd.read_csv``, ``pd.DataFrame``,
  ``pd.concat``, ``pd.merge``...), or a name last bound to one in this module;
* a column, row selection or method result of such a frame (``df["label"]``,
  ``df[df.x > 0]``, ``df.loc[...]``, ``df.dropna()``, ``df.groupby("y")``);
* a parameter annotated ``pd.DataFrame`` / ``pd.Series``.

A name is forgotten when it is bound to anything else. A ``df`` parameter without an
annotation is not assumed to be a frame (no names are guessed).
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

__all__ = ["frame_sample_draws", "note_assignment", "note_parameters"]

# pandas functions that return a DataFrame or Series (besides every `read_*` reader).
_FRAME_FUNCTIONS = frozenset({
    "DataFrame", "Series", "concat", "merge", "merge_asof", "merge_ordered", "pivot_table",
    "crosstab", "get_dummies", "json_normalize", "melt", "wide_to_long",
})
# Attributes and methods of a frame whose result is not a frame (or has no `sample`).
_NOT_FRAMES = frozenset({
    "values", "to_numpy", "tolist", "to_list", "to_dict", "to_records", "index", "columns",
    "shape", "dtypes", "dtype", "size", "ndim", "empty", "str", "dt", "cat", "array",
    "to_csv", "to_json", "to_pickle", "to_parquet", "sum", "mean", "count", "nunique",
    "item", "iterrows", "itertuples", "items", "keys", "__len__",
})


def _frames(c: Any) -> set[str]:
    frames: set[str] = c.__dict__.setdefault("pandas_frames", set())
    return frames


def is_frame(c: Any, expr: cst.BaseExpression, seen: int = 0) -> bool:
    """Whether ``expr`` is visibly a pandas DataFrame, Series or GroupBy."""
    if seen > 12:
        return False
    if isinstance(expr, cst.Name):
        return expr.value in _frames(c)
    if isinstance(expr, cst.Subscript):  # df["col"], df[mask], df.loc[...]
        return is_frame(c, expr.value, seen + 1)
    if isinstance(expr, cst.Attribute):  # df.loc, df.label (a column), self.df
        if expr.attr.value in _NOT_FRAMES:
            return False
        if isinstance(expr.value, cst.Name) and expr.value.value == "self":
            return f"self.{expr.attr.value}" in _frames(c)
        return is_frame(c, expr.value, seen + 1)
    if isinstance(expr, cst.Call):
        qn = c.qualify(expr.func) or ""
        if qn.startswith("pandas."):
            name = qn.rsplit(".", 1)[1]
            return name in _FRAME_FUNCTIONS or name.startswith("read_")
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value not in _NOT_FRAMES:
            return is_frame(c, expr.func.value, seen + 1)
    return False


def _annotated_frame(c: Any, annotation: Optional[cst.Annotation]) -> bool:
    if annotation is None:
        return False
    qn = c.qualify(annotation.annotation) or ""
    return qn in ("pandas.DataFrame", "pandas.Series", "pandas.core.frame.DataFrame")


def note_parameters(c: Any, params: cst.Parameters) -> None:
    """Parameters annotated as a DataFrame/Series are frames in the function's body."""
    if "pandas" not in c.uses:
        return
    frames = _frames(c)
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        if _annotated_frame(c, param.annotation):
            frames.add(param.name.value)
        else:
            frames.discard(param.name.value)


def note_assignment(c: Any, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
    """Remember names (and ``self.x`` attributes) bound to a frame; forget them when bound
    to anything else."""
    if "pandas" not in c.uses:
        return
    frames = _frames(c)
    frame = is_frame(c, value)
    for target in targets:
        if isinstance(target, cst.Name):
            key = target.value
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
            key = f"self.{target.attr.value}"
        else:
            continue
        if frame:
            frames.add(key)
        else:
            frames.discard(key)


def frame_sample_draws(c: Any, node: cst.Call) -> Optional[str]:
    """``<frame>.sample(...)`` without ``random_state``: NumPy's global RNG (the catalog
    entry's ``unless`` already dropped a given ``random_state``); None for a receiver that
    is not visibly a pandas object."""
    if not isinstance(node.func, cst.Attribute):
        return None
    return "numpy" if is_frame(c, node.func.value) else None
