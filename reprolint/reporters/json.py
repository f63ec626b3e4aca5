"""``--output-format json``: a list with one object per finding."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from reprolint.reporters import Report


def render_json(report: "Report", out: TextIO) -> None:
    json.dump([d.to_dict() for d in report.diagnostics], out, indent=2, ensure_ascii=False)
    out.write("\n")
