"""Where a run ran: the node, its device and its libraries (`--spread` reports these).

Gathered in the process that starts the command (reprolint itself, or the Ray task on
the worker), without importing torch: a run's device is read from the system, its
library versions from the installed packages' metadata.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
import platform
import re
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

LIBRARIES = ("torch", "numpy", "tensorflow", "jax", "jaxlib")
# The environment variables that decide determinism: they go into the report as set.
FLAG_VARIABLES = (
    "REPROLINT_DETERMINISTIC", "CUBLAS_WORKSPACE_CONFIG", "PYTHONHASHSEED",
    "TF_DETERMINISTIC_OPS", "TF_CUDNN_DETERMINISTIC", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
    "CUDA_VISIBLE_DEVICES",
)


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def gpus() -> List[Dict[str, str]]:
    """Every GPU nvidia-smi sees: name and driver version (none without nvidia-smi)."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return []
    try:
        out = subprocess.run(
            [exe, "--query-gpu=name,driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for line in out.splitlines():
        if "," in line:
            name, driver = (part.strip() for part in line.split(",", 1))
            found.append({"name": name, "driver": driver})
    return found


def _version(name: str) -> Optional[str]:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def torch_build() -> Dict[str, str]:
    """The CUDA torch was built for (from torch/version.py, not importing torch) and the
    cuDNN wheel installed beside it."""
    found: Dict[str, str] = {}
    spec = importlib.util.find_spec("torch") if _version("torch") else None
    if spec is not None and spec.submodule_search_locations:
        version_py = Path(list(spec.submodule_search_locations)[0]) / "version.py"
        with contextlib.suppress(OSError):
            match = re.search(r"^cuda\s*(?::\s*\S+)?\s*=\s*['\"]([^'\"]+)", version_py.read_text(), re.M)
            if match:
                found["cuda"] = match.group(1)
    for dist in ("nvidia-cudnn-cu12", "nvidia-cudnn-cu11", "nvidia-cudnn-cu13"):
        version = _version(dist)
        if version:
            found["cudnn"] = version
            break
    return found


def describe(env: Mapping[str, str], node_id: Optional[str] = None) -> Dict[str, object]:
    """This machine, as one run sees it. `node_id`: the Ray node, when under Ray."""
    info: Dict[str, object] = {
        "host": socket.gethostname(),
        "node_id": node_id,
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "gpus": gpus(),
        "python": platform.python_version(),
        "libraries": {name: v for name in LIBRARIES if (v := _version(name))},
        "flags": {name: env[name] for name in FLAG_VARIABLES if name in env},
    }
    info.update(torch_build())
    return info




def node_label(info: Optional[Mapping[str, object]]) -> str:
    """`host` or `host (node 3f2a1b)` when a Ray node id is known."""
    if not info:
        return "unknown node"
    node = info.get("node_id")
    host = str(info.get("host") or "?")
    return f"{host} (node {str(node)[:6]})" if node else host


def _differs_in(a: Mapping[str, object], b: Mapping[str, object]) -> str:
    """What differs between two nodes' devices, in words."""
    if [g.get("name") for g in a.get("gpus") or []] != [g.get("name") for g in b.get("gpus") or []]:  # type: ignore[union-attr]
        return "different GPU model"
    if a.get("gpus") and [g.get("driver") for g in a["gpus"]] != [g.get("driver") for g in b.get("gpus") or []]:  # type: ignore[union-attr,index]
        return "different GPU driver"
    if (a.get("cuda"), a.get("cudnn")) != (b.get("cuda"), b.get("cudnn")):
        return "different CUDA/cuDNN"
    if a.get("cpu") != b.get("cpu"):
        return "different CPU model"
    if a.get("libraries") != b.get("libraries") or a.get("python") != b.get("python"):
        return "different library versions"
    if a.get("flags") != b.get("flags"):
        return "different determinism flags"
    return "same device, libraries and flags"


def follows_node(runs: Sequence[Tuple[str, Optional[Mapping[str, object]], object]]) -> Optional[str]:
    """Whether the runs' differences follow the node they ran on.

    `runs`: (run label, node info, fingerprint), where runs with equal fingerprints are
    bit-identical. None when all agree or nothing is known about the nodes.
    """
    if len({repr(fp) for _, _, fp in runs}) < 2 or any(info is None for _, info, _ in runs):
        return None
    by_node: Dict[str, List[Tuple[str, object]]] = {}
    infos: Dict[str, Mapping[str, object]] = {}
    for label, info, fp in runs:
        node = node_label(info)
        by_node.setdefault(node, []).append((label, repr(fp)))
        infos.setdefault(node, info)  # type: ignore[arg-type]
    if len(by_node) < 2:  # one machine: nothing to say about machines
        return None
    mixed = [node for node, items in by_node.items() if len({fp for _, fp in items}) > 1]
    if mixed:
        return (f"runs on the same node differ ({_join(mixed)}): the difference does not "
                "follow the node or the device")
    nodes = list(by_node)
    first = nodes[0]
    parts = [f"runs on {first} agree bit for bit" if len(by_node[first]) > 1 else f"the run on {first}"]
    for node in nodes[1:]:
        same = by_node[node][0][1] == by_node[first][0][1]
        how = "agree with them" if same else f"differ from them: {_differs_in(infos[first], infos[node])}"
        parts.append(f"runs on {node} {how}")
    return "; ".join(parts) + " (the difference follows the node)"


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
