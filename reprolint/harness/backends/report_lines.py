"""The lines verify's and variance's reports give to how and where the runs ran."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence

from reprolint.harness.backends.nodeinfo import node_label


def device_text(info: Optional[Mapping[str, Any]]) -> str:
    """`Intel Xeon ...; torch 2.13.0, numpy 2.1.0` or with the GPU, driver, CUDA and cuDNN."""
    if not info:
        return "unknown"
    gpus = info.get("gpus") or []
    if gpus:
        device = ", ".join(f"{g.get('name')} (driver {g.get('driver')})" for g in gpus)
        build = [f"CUDA {info['cuda']}" if info.get("cuda") else "", f"cuDNN {info['cudnn']}" if info.get("cudnn") else ""]
        device += "".join(f", {b}" for b in build if b)
    else:
        device = str(info.get("cpu") or "unknown CPU")
    libraries = ", ".join(f"{k} {v}" for k, v in (info.get("libraries") or {}).items())
    flags = ", ".join(f"{k}={v}" for k, v in (info.get("flags") or {}).items())
    text = f"{device}; Python {info.get('python')}" + (f", {libraries}" if libraries else "")
    return text + (f"; {flags}" if flags else "")


def execution_lines(
    execution: Optional[Mapping[str, Any]],
    runs: Sequence[Any],  # objects with .node and a label
    labels: Sequence[str],
    node_note: Optional[str] = None,
) -> List[str]:
    """How the runs ran (only when they did not run one after another here), the node
    of every run (when more than one machine took part, or on Ray), and the node note."""
    lines: List[str] = []
    if execution:
        where = "on Ray" if execution.get("backend") == "ray" else "here"
        nodes = execution.get("nodes") or []
        extra = []
        if execution.get("backend") == "ray":
            extra.append(f"{len(nodes)} node{'s' if len(nodes) != 1 else ''}")
            if execution.get("working_dir"):
                extra.append(f"working directory {execution['working_dir']}")
            if execution.get("spread"):
                extra.append("spread over the nodes")
        detail = f" ({', '.join(extra)})" if extra else ""
        line = f"ran {where}{detail}, up to {execution.get('jobs')} at a time"
        if execution.get("overlapped"):
            line += (f": up to {execution.get('max_concurrent')} runs overlapped on one machine, "
                     "so their timing figures are perturbed")
        lines.append(line)
        if execution.get("backend") == "ray" or len(nodes) > 1:
            for label, run in zip(labels, runs):
                if getattr(run, "node", None):
                    lines.append(f"{label}: {node_label(run.node)}: {device_text(run.node)}")
    if node_note:
        lines.append(node_note)
    return lines
