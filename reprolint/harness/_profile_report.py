"""`reprolint profile` output: text (rich console) and JSON."""

from __future__ import annotations

import json
from typing import List

from rich.console import Console
from rich.markup import escape

from reprolint.harness.profile import Divergence, ProfileResult, ProfileRun


def _where(d: Divergence) -> str:
    return f"op {d.index + 1}, step {d.step}, {d.phase}"


def headline(result: ProfileResult) -> str:
    d = result.divergence
    if result.verdict == "identical":
        steps = min((r.steps for r in result.runs), default=0)
        return (
            f"IDENTICAL: both runs dispatched the same {result.ops_compared} ops with bit-identical "
            f"inputs and outputs over {steps} optimizer step{'s' if steps != 1 else ''}"
        )
    if result.verdict == "failed":
        failed = next((r for r in result.runs if not r.ok), None)
        return f"FAILED: {failed.label} {failed.failure()}" if failed else "FAILED"
    if result.verdict == "interrupted":
        return "INTERRUPTED: profile was stopped"
    assert d is not None
    if d.verdict == "op":
        return f"NONDETERMINISTIC OP: `{d.op}` gives different outputs for identical inputs ({_where(d)})"
    if d.verdict == "random":
        return (
            f"UNSEEDED RANDOMNESS: `{d.op}` draws different values from identical inputs ({_where(d)}): "
            "its generator's state differs between the runs"
        )
    if d.verdict == "inputs":
        return (
            f"DIVERGENCE NOT CAUSED BY AN OP: `{d.op}` is the first op to see different inputs "
            f"({_where(d)}); they were made outside torch's ops"
        )
    return f"DIFFERENT OPS: run 1 ran `{d.op}` where run 2 ran `{d.other_op}` ({_where(d)})"


def _run_line(run: ProfileRun) -> str:
    text = f"{run.label} {run.seconds:.1f} s"
    if run.recorded:
        text += f" ({run.ops} ops, {run.steps} step{'s' if run.steps != 1 else ''})"
    return text


def text_lines(result: ProfileResult) -> List[str]:
    lines = [headline(result)]
    d = result.divergence
    if result.verdict == "failed":
        failed = next((r for r in result.runs if not r.ok), None)
        if failed is not None and failed.stderr_tail:
            lines.append("  stderr (last lines):")
            lines += ["    " + line for line in failed.stderr_tail.splitlines()]
    if d is not None:
        loc = d.location
        if loc.source:
            code = f": `{loc.code}`" if loc.code else ""
            lines.append(f"  called at {loc.source} in {loc.function}{code}")
        elif result.runs and result.runs[-1].label == "locate":
            lines.append("  source line: not found (the locating run did not reach the op the same way)")
        if loc.backward_of:
            lines.append(f"  backward of: {loc.backward_of}")
        if loc.forward_source:
            code = f": `{loc.forward_code}`" if loc.forward_code else ""
            lines.append(f"  created in the forward pass at {loc.forward_source} in {loc.forward_function}{code}")
        if loc.module:
            cls = f" ({loc.module_class})" if loc.module_class else ""
            lines.append(f"  module: {loc.module}{cls}")
        lines.append(f"  before it: {d.index} op{'s' if d.index != 1 else ''} ran identically in both runs")
        if d.differing:
            lines.append("  differs: " + ", ".join(d.differing))
        if d.advice is not None:
            for i, line in enumerate(d.advice.lines):
                lines.append(("  advice: " if i == 0 else "          ") + line)
        if result.static_hints:
            lines.append("  likely causes from a static check: " + ", ".join(result.static_hints))
    if result.runs:
        lines.append("  runs: " + ", ".join(_run_line(r) for r in result.runs))
    lines.append(f"  records: {result.run_root}")
    return lines


def render_text(result: ProfileResult, console: Console) -> None:
    style = {"identical": "bold green", "diverged": "bold red"}.get(result.verdict, "bold yellow")
    lines = text_lines(result)
    head, _, rest = lines[0].partition(":")
    console.print(f"[{style}]{escape(head)}[/]:{escape(rest)}")
    for line in lines[1:]:
        console.print(escape(line))


def render_json(result: ProfileResult) -> str:
    data = result.to_dict()
    data["headline"] = headline(result)
    return json.dumps(data, indent=2, default=str)
