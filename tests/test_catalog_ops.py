"""The op catalogs: complete against the installed torch, resolvable, and validated."""

from __future__ import annotations

import importlib
import re
import textwrap
from dataclasses import dataclass

import pytest

from reprolint import _toml
from reprolint.catalog import CatalogError
from reprolint.catalog.ops import (
    UNKNOWN,
    OpEntry,
    entries_for_tf,
    entries_for_torch,
    load_cublas,
    load_tf_flags,
    load_tf_ops,
    load_tf_settings,
    load_torch_ops,
    lookup,
    parse_tf_catalog,
    parse_torch_catalog,
    parse_version,
)

torch = pytest.importorskip("torch")
INSTALLED = torch.__version__

# --------------------------------------------------------------------------- docstring


@dataclass(frozen=True)
class Bullet:
    kind: str  # "deterministic-with-flag" or "raises"
    name: str  # as the docstring spells it, e.g. "torch.Tensor.index_put"
    text: str  # the whole bullet, continuation lines and sub-bullets included


_DET_HEADER = "will act\n    deterministically when ``mode=True``:"
_RAISE_HEADER = "will throw a\n    :class:`RuntimeError` when ``mode=True``:"
_BULLET_RE = re.compile(r"^\s*\* :(?:class|func):`~?([\w.]+)`(.*)$")


def _section(doc: str, header: str) -> list[str]:
    """The lines of the bullet list that follows ``header``, up to the next paragraph."""
    start = doc.index(header) + len(header)
    lines: list[str] = []
    for line in doc[start:].splitlines()[1:]:
        stripped = line.strip()
        # Bullets are indented by 8 (sub-bullets by 10); the next paragraph by 4.
        if stripped and len(line) - len(line.lstrip()) < 8:
            break
        lines.append(line)
    return lines


def _bullets(lines: list[str], kind: str) -> list[Bullet]:
    bullets: list[Bullet] = []
    name: str | None = None
    text: list[str] = []
    for line in lines:
        match = _BULLET_RE.match(line)
        if match:
            if name is not None:
                bullets.append(Bullet(kind, name, " ".join(text)))
            name, text = match.group(1), [match.group(2).strip()]
        elif name is not None and line.strip():
            text.append(line.strip())
    if name is not None:
        bullets.append(Bullet(kind, name, " ".join(text)))
    return bullets


def parse_docstring(doc: str) -> list[Bullet]:
    """Both lists of ``use_deterministic_algorithms``' docstring."""
    return _bullets(_section(doc, _DET_HEADER), "deterministic-with-flag") + _bullets(
        _section(doc, _RAISE_HEADER), "raises"
    )


def _matches(entry: OpEntry, bullet: Bullet) -> bool:
    return (
        entry.source == "docstring"
        and entry.kind == bullet.kind
        and bullet.name in entry.doc_names
        and (entry.doc_match is None or entry.doc_match in bullet.text)
    )


def compare(bullets: list[Bullet], entries: tuple[OpEntry, ...]) -> tuple[list[str], list[str]]:
    """(problems with docstring bullets, catalog entries the docstring does not list)."""
    problems: list[str] = []
    for bullet in bullets:
        found = [e.id for e in entries if _matches(e, bullet)]
        if len(found) != 1:
            problems.append(f"{bullet.kind} {bullet.name} ({bullet.text!r}) -> {found}")
    extra: list[str] = []
    for entry in entries:
        if entry.source != "docstring":
            continue
        for doc_name in entry.doc_names:
            if not any(_matches(entry, b) for b in bullets if b.name == doc_name):
                extra.append(f"{entry.id} ({doc_name})")
    return problems, extra


DOC = torch.use_deterministic_algorithms.__doc__ or ""


def test_docstring_parser_finds_both_lists() -> None:
    bullets = parse_docstring(DOC)
    kinds = {b.kind for b in bullets}
    assert kinds == {"deterministic-with-flag", "raises"}
    # A parser that silently stops early would make the coverage test vacuous.
    assert len(bullets) >= 40, [b.name for b in bullets]
    interpolate = [b for b in bullets if b.name == "torch.nn.functional.interpolate"]
    assert interpolate and "bilinear" in interpolate[0].text


def test_catalog_covers_installed_docstring() -> None:
    problems, extra = compare(parse_docstring(DOC), entries_for_torch(INSTALLED))
    assert not problems, "docstring ops without exactly one catalog entry:\n" + "\n".join(problems)
    assert not extra, "catalog entries claimed for this torch but not in its docstring:\n" + "\n".join(
        extra
    )


def test_compare_detects_drift_both_ways() -> None:
    entries = entries_for_torch(INSTALLED)
    bullets = parse_docstring(DOC)
    new_op = Bullet("raises", "torch.nn.NewPool9d", "when attempting to differentiate")
    problems, _ = compare([*bullets, new_op], entries)
    assert any("NewPool9d" in p for p in problems)
    without_histc = [b for b in bullets if b.name != "torch.histc"]
    _, extra = compare(without_histc, entries)
    assert extra == ["histc-cuda (torch.histc)"]
    # An op that changed list (raise -> deterministic) is reported too.
    moved = [
        Bullet("deterministic-with-flag", b.name, b.text) if b.name == "torch.histc" else b
        for b in bullets
    ]
    problems, _ = compare(moved, entries)
    assert any("torch.histc" in p for p in problems)


# --------------------------------------------------------------------------- names


def _resolve_torch(name: str) -> object:
    if name.startswith("Tensor."):
        return getattr(torch.Tensor, name.split(".", 1)[1])
    parts = name.split(".")
    obj: object = importlib.import_module(parts[0])
    for index, part in enumerate(parts[1:], start=1):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(".".join(parts[: index + 1]))
    return obj


CURRENT_NAMES = sorted(
    {name for entry in entries_for_torch(INSTALLED) for name in entry.names}
    | set(load_cublas().ops)
    | set(load_cublas().also_affects)
)


@pytest.mark.parametrize("name", CURRENT_NAMES)
def test_catalog_name_resolves_in_installed_torch(name: str) -> None:
    assert callable(_resolve_torch(name)), name


def test_conditions_name_real_parameters() -> None:
    """Keyword names and positions in `when` agree with the installed signatures."""
    import inspect

    checked = 0
    for entry in entries_for_torch(INSTALLED):
        for cond in entry.when:
            for name, position in cond.positions:
                obj = _resolve_torch(name)
                try:
                    params = list(inspect.signature(obj).parameters)
                except (TypeError, ValueError):
                    continue  # C builtins without a Python signature
                if params and params[0] == "self":
                    params = params[1:]
                assert cond.arg in params, (entry.id, name, params)
                assert params.index(cond.arg) == position, (entry.id, name, params)
                checked += 1
    assert checked >= 5


# --------------------------------------------------------------------------- behaviour


def test_versions_parse_and_compare() -> None:
    assert parse_version("2.13.0+cpu") == (2, 13, 0)
    assert parse_version("2.1.0a0+git49444c3") == (2, 1, 0)
    assert parse_version("1.9") < parse_version("1.10")
    with pytest.raises(ValueError):
        parse_version("latest")


def test_entries_follow_versions() -> None:
    def ids(version: str) -> set[str]:
        return {e.id for e in entries_for_torch(version)}

    assert "kthvalue-cuda" in ids("2.9") and "kthvalue-cuda" not in ids("2.10")
    assert "index-add-cuda-raises" in ids("1.8") and "index-add-cuda" not in ids("1.8")
    assert "index-add-cuda" in ids("1.9")
    assert "bincount-cuda" in ids("2.0") and "bincount-weights-cuda" in ids("2.1")
    assert "cumsum-cuda-raises" in ids("2.13") and "cumsum-cuda" in ids("2.14")
    cublas = load_cublas()
    assert cublas.required_for("1.8") and cublas.required_for("2.9.1")
    assert not cublas.required_for("2.10")


def test_lookup_and_argument_conditions() -> None:
    entries = {e.id: e for e in lookup("torch.nn.functional.interpolate", "2.13")}
    assert set(entries) == {"interpolate-linear-backward-cuda", "interpolate-bilinear-backward-cuda"}
    call = "torch.nn.functional.interpolate"
    interp = entries["interpolate-linear-backward-cuda"]
    assert interp.kind == "raises" and interp.rule == "RPL202" and interp.backward_only
    assert interp.match_call(call, [UNKNOWN], {"mode": "bicubic"}) is True
    assert interp.match_call(call, [UNKNOWN, None, 2.0, "linear"]) is True
    assert interp.match_call(call, [UNKNOWN], {"mode": "bilinear"}) is False  # 2.13: deterministic under the flag
    assert interp.match_call(call, [UNKNOWN], {"scale_factor": 2}) is False  # default nearest
    assert interp.match_call(call, [UNKNOWN], {"mode": UNKNOWN}) is None
    assert interp.match_call("torch.nn.UpsamplingBilinear2d", [], {}) is False
    bilinear = entries["interpolate-bilinear-backward-cuda"]
    assert bilinear.kind == "deterministic-with-flag" and bilinear.rule == "RPL201"
    assert bilinear.match_call(call, [UNKNOWN, None, 2.0, "trilinear"]) is True
    assert bilinear.match_call("torch.nn.UpsamplingBilinear2d", [], {}) is True
    (old,) = [e for e in lookup(call, "2.12") if e.id.startswith("interpolate-bilinear")]
    assert old.kind == "raises" and old.match_call(call, [UNKNOWN], {"mode": "bilinear"}) is True

    put_entries = {e.id: e for e in lookup("torch.Tensor.put_", "2.13")}
    assert set(put_entries) == {"put-accumulate-false", "put-accumulate-true-cpu", "put-accumulate-true-cuda"}
    assert put_entries["put-accumulate-false"].match_call("Tensor.put_", [UNKNOWN, UNKNOWN]) is True
    assert put_entries["put-accumulate-true-cuda"].match_call("Tensor.put_", [1, 2, True]) is True
    assert put_entries["put-accumulate-true-cuda"].match_call("Tensor.put_", [1, 2]) is False
    # accumulate=1 is not the literal True the catalog asks for.
    assert put_entries["put-accumulate-true-cuda"].match_call("Tensor.put_", [1, 2, 1]) is False

    (bincount,) = lookup("torch.bincount", "2.13")
    assert bincount.match_call("torch.bincount", [UNKNOWN]) is False
    assert bincount.match_call("torch.bincount", [UNKNOWN, UNKNOWN]) is None
    assert bincount.match_call("torch.bincount", [UNKNOWN], {"weights": None}) is False
    (bincount_old,) = lookup("torch.bincount", "2.0")
    assert bincount_old.match_call("torch.bincount", [UNKNOWN]) is True

    (index_add,) = lookup("torch.Tensor.index_add_", "2.13")
    assert index_add.rule == "RPL201" and index_add.cuda_only


def test_tf_catalog_answers() -> None:
    flags = {f.id: f for f in load_tf_flags()}
    assert flags["enable-op-determinism"].honoured_by("2.8")
    assert not flags["enable-op-determinism"].honoured_by("2.7")
    assert flags["tf-deterministic-ops"].honoured_by("2.5")
    assert flags["tf-deterministic-ops"].deprecated_in("2.12")
    settings = {s.id: s for s in load_tf_settings()}
    data = settings["tf-data-deterministic-false"]
    assert data.when[0].evaluate("tensorflow.data.Dataset.map", [UNKNOWN], {"deterministic": False})
    assert "tensorflow.compat.v1.Session" in settings["tf1-session"].names
    upsampling = {e.id: e for e in lookup("keras.layers.UpSampling2D", "2.12")}
    assert upsampling["resize-nearest-backprop"].match_call("keras.layers.UpSampling2D") is True
    assert upsampling["resize-bilinear-backprop"].match_call("keras.layers.UpSampling2D") is False
    segment = {e.kind for e in lookup("tensorflow.math.unsorted_segment_sum", "2.6")}
    assert segment == {"raises"}
    assert all(e.rule == "RPL204" for e in load_tf_ops())
    assert {e.id for e in entries_for_tf("2.7")} >= {"bincount", "adjust-contrast", "segment-reductions"}


def test_every_entry_has_a_reference_and_valid_range() -> None:
    for entry in (*load_torch_ops(), *load_tf_ops()):
        assert entry.reference.startswith("https://"), entry.id
        assert entry.until is None or entry.since < entry.until, entry.id
        if entry.evidence == "inferred":
            assert entry.notes, entry.id


# --------------------------------------------------------------------------- validation

_GOOD_OP = """
[[op]]
id = "histc-cuda"
kind = "raises"
names = ["torch.histc"]
device = "cuda"
since = "1.8"
reference = "https://example.org/doc"
"""

_CUBLAS = """
[cublas]
env = "CUBLAS_WORKSPACE_CONFIG"
accepted = [":4096:8"]
min_cuda = "10.2"
ops = ["torch.mm"]
required_since = "1.8"
set_before = "cuda-init"
reference = "https://example.org/cublas"
"""


def _torch_toml(ops: str) -> dict[str, object]:
    return _toml.loads('schema = 1\nframework = "torch"\n' + _CUBLAS + textwrap.dedent(ops))


def test_minimal_torch_catalog_parses() -> None:
    catalog = parse_torch_catalog(_torch_toml(_GOOD_OP))
    assert [op.id for op in catalog.ops] == ["histc-cuda"]
    assert catalog.cublas.required_until is None


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (_GOOD_OP.replace('"raises"', '"flaky"'), "'kind' must be one of"),
        (_GOOD_OP.replace('reference = "https://example.org/doc"\n', ""), "missing required key 'reference'"),
        (_GOOD_OP.replace('reference = "https://', 'reference = "ftp://'), "https:// URL"),
        (_GOOD_OP + 'until = "1.8"\n', "'until' must be later than 'since'"),
        (_GOOD_OP.replace('"1.8"', '"one.eight"'), "'since' must look like"),
        (_GOOD_OP + "colour = 'red'\n", "unknown key(s) colour"),
        (_GOOD_OP.replace('"torch.histc"', '"histc"'), "not a qualified torch name"),
        (_GOOD_OP.replace('device = "cuda"', 'device = "tpu"'), "'device' must be one of"),
        (_GOOD_OP + 'runtime = ["full-moon"]\n', "unknown runtime tag"),
        (_GOOD_OP + 'source = "docstring"\n', "needs 'doc_names'"),
        (_GOOD_OP + 'fixed_by = ["torch.use_deterministic_algorithms"]\n', "only applies to kind"),
        (_GOOD_OP + _GOOD_OP, "duplicate id"),
        (_GOOD_OP + 'when = [{ arg = "weights", present = true, equals = 1 }]\n', "exactly one of"),
        (_GOOD_OP + 'when = [{ arg = "weights" }]\n', "exactly one of"),
        (_GOOD_OP + 'when = [{ arg = "mode", in = [] }]\n', "non-empty list"),
        (
            _GOOD_OP + 'when = [{ arg = "w", present = true, positions = { "torch.bincount" = 1 } }]\n',
            "not in 'names'",
        ),
        (_GOOD_OP + 'when = [{ arg = "w", present = true, positions = { "torch.histc" = -1 } }]\n', "int >= 0"),
        (_GOOD_OP + 'when = [{ arg = "w", present = true, default = 1 }]\n', "'default' makes no sense"),
        (_GOOD_OP + 'when = [{ arg = "not an ident", equals = 1 }]\n', "not an identifier"),
        (_GOOD_OP + 'evidence = "inferred"\n', "needs 'notes'"),
        (_GOOD_OP + 'evidence = "guessed"\n', "'evidence' must be one of"),
    ],
)
def test_malformed_torch_entry_is_rejected_with_its_id(bad: str, message: str) -> None:
    with pytest.raises(CatalogError) as excinfo:
        parse_torch_catalog(_torch_toml(bad))
    text = str(excinfo.value)
    assert message in text
    if "duplicate" not in message:
        assert "op 'histc-cuda'" in text  # the error names the entry


def test_malformed_headers_are_rejected() -> None:
    with pytest.raises(CatalogError, match="schema = 1"):
        parse_torch_catalog({"framework": "torch"})
    with pytest.raises(CatalogError, match=r"missing \[cublas\]"):
        parse_torch_catalog({"schema": 1, "framework": "torch"})
    with pytest.raises(CatalogError, match="framework"):
        parse_tf_catalog({"schema": 1, "framework": "torch"})


def test_malformed_tf_entries_are_rejected() -> None:
    head = 'schema = 1\nframework = "tf"\n'
    setting = """
[[setting]]
id = "tf-data"
form = "call"
names = ["tensorflow.data.Dataset.map"]
since = "2.2"
reference = "https://example.org"
"""
    with pytest.raises(CatalogError, match="setting 'tf-data': form 'call' needs a 'when'"):
        parse_tf_catalog(_toml.loads(head + setting))
    flag = """
[[flag]]
id = "det-ops"
form = "env"
name = "tf_deterministic_ops"
values = ["1"]
honoured_since = "2.1"
reference = "https://example.org"
"""
    with pytest.raises(CatalogError, match="flag 'det-ops': env name"):
        parse_tf_catalog(_toml.loads(head + flag))
    op = """
[[op]]
id = "tf-op"
kind = "nondeterministic"
names = ["tf.math.bincount"]
since = "2.7"
reference = "https://example.org"
"""
    with pytest.raises(CatalogError, match="op 'tf-op': name 'tf.math.bincount'"):
        parse_tf_catalog(_toml.loads(head + op))
    # "nondeterministic" is a TF-only kind: torch entries either flip or raise.
    torch_op = _GOOD_OP.replace('"raises"', '"nondeterministic"')
    with pytest.raises(CatalogError, match="'kind' must be one of"):
        parse_torch_catalog(_torch_toml(torch_op))


def test_spatial_nll_loss_raises_only_for_reducing_reductions() -> None:
    # nll_loss2d_forward_out_cuda_template alerts for 'mean'/'sum' (atomicAdd into a total)
    (nll,) = lookup("torch.nn.functional.cross_entropy", "2.13")
    assert nll.id == "nll-loss-cuda" and nll.kind == "raises" and "spatial-input" in nll.runtime
    call = "torch.nn.functional.cross_entropy"
    assert nll.match_call(call, [UNKNOWN, UNKNOWN]) is True  # default 'mean'
    assert nll.match_call(call, [UNKNOWN, UNKNOWN], {"reduction": "sum"}) is True
    assert nll.match_call(call, [UNKNOWN, UNKNOWN], {"reduction": "none"}) is False
    assert nll.match_call(call, [UNKNOWN, UNKNOWN, None, None, -100, None, "none"]) is False
    assert nll.match_call("torch.nn.NLLLoss", [None, None, -100, None, "none"]) is False
    assert nll.match_call("torch.nn.CrossEntropyLoss", [], {"label_smoothing": 0.1}) is True
