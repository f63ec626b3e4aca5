"""``--output-format json``: a list with one object per finding."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from reprolint.model import Diagnostic
    from reprolint.reporters import Report


def render_json(report: "Report", out: TextIO) -> None:
    from reprolint.reporters import dump_json

    dump_json([_item(d) for d in report.diagnostics], out)
    out.write("\n")


def _item(d: "Diagnostic") -> dict[str, Any]:
    """A finding's fields, and ``roles``: what each of its entry points was judged to
    be (training, evaluation, demo...) by the program-level rules that decide by role
    (RPL101, RPL105, RPL301-RPL305); empty for the others. ``assumed``, only where a
    finding rests on something besides the default run: the option that selects CUDA
    (``cuda_option``), the library version a catalog answer took and where from
    (``version``)."""
    item = d.to_dict()
    roles = d.data.get("roles") or {}
    item["roles"] = {e: roles[e] for e in d.entry_points if e in roles}
    assumed = {key: d.data[key] for key in _ASSUMED if d.data.get(key) is not None}
    if assumed:
        item["assumed"] = assumed
    return item


_ASSUMED = ("cuda_option", "version")
