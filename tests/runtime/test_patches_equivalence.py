"""Every deterministic replacement gives what torch's own kernel gives, on CPU.

Hypothesis draws shapes (including empty ones and 0-d tensors), dtypes, ties and NaN.
Integer results must be equal; floating sums may round differently from the CPU
kernel's left-to-right order (the replacement adds in a fixed tree order), so they are
compared with a tolerance, and exactly when the values are small integers. Where torch
raises, the replacement must raise too.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Tuple

import pytest

torch = pytest.importorskip("torch")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from reprolint.runtime import _patch_ops as ops  # noqa: E402

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FLOATS = (torch.float32, torch.float64)
NUMBERS = (torch.float32, torch.float64, torch.int64, torch.int32)


def outcome(fn: Callable[[], Any]) -> Tuple[bool, Any]:
    try:
        return True, fn()
    except (RuntimeError, IndexError, ValueError) as exc:
        return False, exc


def same_outcome(expected: Callable[[], Any], actual: Callable[[], Any]) -> Tuple[Any, Any]:
    """Both succeed (returning both results) or both raise (returning None, None)."""
    ok_e, e = outcome(expected)
    ok_a, a = outcome(actual)
    assert ok_e == ok_a, f"torch: {e!r}\nreplacement: {a!r}"
    return (e, a) if ok_e else (None, None)


@st.composite
def tensors(draw: Any, dtypes: Tuple[Any, ...] = NUMBERS, min_dims: int = 0, max_dims: int = 3,
            max_side: int = 5, nan: bool = True, ties: bool = True) -> Any:
    shape = draw(st.lists(st.integers(0, max_side), min_size=min_dims, max_size=max_dims))
    dtype = draw(st.sampled_from(dtypes))
    n = 1
    for s in shape:
        n *= s
    if dtype.is_floating_point:
        pool = st.sampled_from([-2.0, -0.5, 0.0, 1.0, 3.0]) if ties and draw(st.booleans()) else st.floats(-1e3, 1e3, width=32)
        if nan and draw(st.booleans()):
            pool = st.one_of(pool, st.just(float("nan")))
    else:
        pool = st.integers(-3, 3) if ties and draw(st.booleans()) else st.integers(-1000, 1000)
    values = draw(st.lists(pool, min_size=n, max_size=n))
    return torch.tensor(values, dtype=dtype).reshape(shape)


def close(a: Any, b: Any, exact: bool = False) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape, (a, b)
    if exact or not a.is_floating_point():
        assert torch.equal(a, b) or torch.allclose(a, b, rtol=0, atol=0, equal_nan=True), (a, b)
    else:
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-4, equal_nan=True)


# --------------------------------------------------------------------------- histc


@SETTINGS
@given(
    x=tensors(FLOATS, nan=False),
    bins=st.integers(1, 12),
    bounds=st.one_of(st.just((0.0, 0.0)), st.tuples(st.floats(-50, 50), st.floats(-50, 50))),
)
def test_histc_matches(x: Any, bins: int, bounds: Tuple[float, float]) -> None:
    low, high = bounds
    expected, actual = same_outcome(lambda: torch.histc(x, bins, low, high), lambda: ops.histc(x, bins, low, high))
    if expected is not None:
        close(expected, actual, exact=True)


@SETTINGS
@given(x=tensors(FLOATS, nan=True, min_dims=1), bins=st.integers(1, 8))
def test_histc_ignores_nan_inside_an_explicit_range(x: Any, bins: int) -> None:
    expected, actual = same_outcome(lambda: torch.histc(x, bins, -3, 3), lambda: ops.histc(x, bins, -3, 3))
    if expected is not None:
        close(expected, actual, exact=True)


def test_histc_puts_the_maximum_in_the_last_bin_and_drops_outliers() -> None:
    x = torch.tensor([0.0, 0.5, 1.0, 1.5, -0.1])
    assert ops.histc(x, 2, 0, 1).tolist() == torch.histc(x, 2, 0, 1).tolist() == [1.0, 2.0]


# --------------------------------------------------------------------------- bincount


@st.composite
def bincount_args(draw: Any) -> Any:
    n = draw(st.integers(0, 40))
    values = torch.tensor(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), dtype=draw(st.sampled_from([torch.int64, torch.int32, torch.uint8])))
    kind = draw(st.sampled_from(["none", "float32", "float64", "int64", "integral-float32"]))
    weights = None
    if kind in ("float32", "float64"):
        weights = torch.tensor(draw(st.lists(st.floats(-100, 100, width=32), min_size=n, max_size=n)), dtype=getattr(torch, kind))
    elif kind == "int64":
        weights = torch.tensor(draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n)), dtype=torch.int64)
    elif kind == "integral-float32":
        weights = torch.tensor(draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n)), dtype=torch.float32)
    return values, weights, draw(st.integers(0, 15)), kind


@SETTINGS
@given(args=bincount_args())
def test_bincount_matches(args: Any) -> None:
    values, weights, minlength, kind = args
    expected, actual = same_outcome(
        lambda: torch.bincount(values, weights, minlength), lambda: ops.bincount(values, weights, minlength)
    )
    if expected is not None:
        close(expected, actual, exact=kind in ("none", "int64", "integral-float32"))


def test_bincount_rejects_what_torch_rejects() -> None:
    for bad in (torch.tensor([1, -1]), torch.tensor([[1]]), torch.tensor([1.0])):
        same_outcome(lambda: torch.bincount(bad), lambda: ops.bincount(bad))
        with pytest.raises(RuntimeError):
            ops.bincount(bad)


# --------------------------------------------------------------------------- kthvalue / median


def assert_selection(x: Any, dim: int, keepdim: bool, expected: Any, actual: Any) -> None:
    """Same values; every index points at an element equal to its value."""
    values, indices = actual
    close(expected[0], values, exact=True)
    assert indices.dtype == torch.int64 and indices.shape == expected[1].shape
    source = x if x.dim() else x.reshape(1)
    picked_from = indices if keepdim or x.dim() == 0 else indices.unsqueeze(dim)
    if x.dim() == 0:
        picked_from = indices.reshape(1)
    picked = source.gather(dim if x.dim() else 0, picked_from)
    want = values if keepdim or x.dim() == 0 else values.unsqueeze(dim)
    assert torch.allclose(picked.reshape(want.shape).double(), want.double(), equal_nan=True)


@SETTINGS
@given(x=tensors(NUMBERS), data=st.data())
def test_kthvalue_matches(x: Any, data: Any) -> None:
    rank = max(x.dim(), 1)
    dim = data.draw(st.integers(-rank, rank - 1))
    size = x.shape[dim] if x.dim() else 1
    k = data.draw(st.integers(0, size + 1))
    keepdim = data.draw(st.booleans())
    expected, actual = same_outcome(
        lambda: torch.kthvalue(x, k, dim, keepdim), lambda: ops.kthvalue(x, k, dim, keepdim)
    )
    if expected is not None:
        assert_selection(x, dim % rank, keepdim, expected, actual)


@SETTINGS
@given(x=tensors(NUMBERS), data=st.data())
def test_median_dim_matches(x: Any, data: Any) -> None:
    rank = max(x.dim(), 1)
    dim = data.draw(st.integers(-rank, rank - 1))
    keepdim = data.draw(st.booleans())
    expected, actual = same_outcome(lambda: torch.median(x, dim, keepdim), lambda: ops.median_dim(x, dim, keepdim))
    if expected is not None:
        assert_selection(x, dim % rank, keepdim, expected, actual)


def test_median_of_a_slice_with_nan_is_its_first_nan() -> None:
    x = torch.tensor([[1.0, float("nan"), 3.0, float("nan")], [4.0, 2.0, 3.0, 1.0]])
    values, indices = ops.median_dim(x, 1)
    expected = torch.median(x, 1)
    assert torch.allclose(values, expected.values, equal_nan=True)
    assert indices.tolist() == expected.indices.tolist() == [1, 1]


def test_ties_are_ordered_by_position_in_the_input() -> None:
    # Sorted stably: 1 (index 1), 1 (2), 1 (3), 2 (0), 3 (4).
    x = torch.tensor([2, 1, 1, 1, 3])
    assert ops.kthvalue(x, 2)[1].item() == 2
    assert ops.median_dim(x, 0)[1].item() == 3


# --------------------------------------------------------------------------- scatter_reduce / index_reduce


@st.composite
def scatter_args(draw: Any) -> Any:
    ndim = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim))
    dim = draw(st.integers(-ndim, ndim - 1))
    d = dim % ndim
    index_shape = [draw(st.integers(0, 5)) if i == d else draw(st.integers(0, shape[i])) for i in range(ndim)]
    src_shape = [s + draw(st.integers(0, 1)) for s in index_shape]
    dtype = draw(st.sampled_from(NUMBERS))
    reduce = draw(st.sampled_from(ops.REDUCTIONS))

    def fill(shape_: Any) -> Any:
        n = 1
        for s in shape_:
            n *= s
        if dtype.is_floating_point:
            pool = st.floats(-4, 4, width=32) if draw(st.booleans()) else st.sampled_from([-2.0, -1.0, 0.5, 1.0, 2.0])
        else:
            pool = st.integers(-5, 5)
        return torch.tensor(draw(st.lists(pool, min_size=n, max_size=n)), dtype=dtype).reshape(shape_)
    self = fill(shape)
    src = fill(src_shape)
    n = 1
    for s in index_shape:
        n *= s
    index = torch.tensor(draw(st.lists(st.integers(0, shape[d] - 1), min_size=n, max_size=n)), dtype=torch.int64).reshape(index_shape)
    exact_floats = not dtype.is_floating_point or reduce in ("amax", "amin")
    return self, dim, index, src, reduce, draw(st.booleans()), exact_floats


@SETTINGS
@given(args=scatter_args())
def test_scatter_reduce_matches(args: Any) -> None:
    self, dim, index, src, reduce, include_self, exact = args
    expected, actual = same_outcome(
        lambda: self.scatter_reduce(dim, index, src, reduce, include_self=include_self),
        lambda: ops.scatter_reduce(self, dim, index, src, reduce, include_self=include_self),
    )
    if expected is not None:
        close(expected, actual, exact=exact)


@st.composite
def index_reduce_args(draw: Any) -> Any:
    ndim = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim))
    dim = draw(st.integers(-ndim, ndim - 1))
    d = dim % ndim
    count = draw(st.integers(0, 6))
    source_shape = list(shape)
    source_shape[d] = count
    dtype = draw(st.sampled_from(FLOATS))
    nan = draw(st.booleans())

    def fill(shape_: Any) -> Any:
        n = 1
        for s in shape_:
            n *= s
        pool: Any = st.floats(-4, 4, width=32)
        if nan:
            pool = st.one_of(pool, st.just(float("nan")))
        return torch.tensor(draw(st.lists(pool, min_size=n, max_size=n)), dtype=dtype).reshape(shape_)

    index = torch.tensor(draw(st.lists(st.integers(0, shape[d] - 1), min_size=count, max_size=count)), dtype=torch.int64)
    reduce = draw(st.sampled_from(["prod", "mean", "amax", "amin"]))
    return fill(shape), dim, index, fill(source_shape), reduce, draw(st.booleans())


@SETTINGS
@given(args=index_reduce_args())
def test_index_reduce_matches(args: Any) -> None:
    self, dim, index, source, reduce, include_self = args
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "index_reduce() is in beta"
        expected, actual = same_outcome(
            lambda: self.index_reduce(dim, index, source, reduce, include_self=include_self),
            lambda: ops.index_reduce(self, dim, index, source, reduce, include_self=include_self),
        )
    if expected is not None:
        close(expected, actual, exact=reduce in ("amax", "amin"))


def test_integer_mean_rounds_down_like_torch() -> None:
    self = torch.tensor([-5, 1, 7])
    index = torch.tensor([0, 0, 2])
    src = torch.tensor([2, 2, 4])
    expected = self.scatter_reduce(0, index, src, "mean")
    assert ops.scatter_reduce(self, 0, index, src, "mean").tolist() == expected.tolist()


def test_results_do_not_depend_on_the_input_order_of_equal_keys() -> None:
    # The property that matters on a GPU: the same inputs give the same bits, always.
    g = torch.Generator().manual_seed(0)
    values = torch.randn(5000, generator=g)
    keys = torch.randint(0, 7, (5000,), generator=g)
    first = ops.bincount(keys, values)
    for _ in range(3):
        assert torch.equal(ops.bincount(keys, values), first)
