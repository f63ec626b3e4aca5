"""Environment variables set by the program, and re-executing itself (PYTHONHASHSEED)."""

from __future__ import annotations

from typing import Any

import libcst as cst

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.usage_events import HashSeedEnforced

_EXEC = (
    "os.execv", "os.execve", "os.execl", "os.execle", "os.execlp", "os.execvp", "os.execvpe",
    "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.Popen",
)


@on_call("os.environ.setdefault", "os.putenv")
def _set(c: Any, site: CallSite) -> None:
    if len(site.node.args) >= 2:
        c._u_env(site.node, site.node.args[0].value, site.node.args[1].value)


@on_call("os.environ.update")
def _update(c: Any, site: CallSite) -> None:
    for arg in site.node.args:
        if arg.keyword is not None:
            c._u_env(site.node, None, arg.value, arg.keyword.value)
        elif isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement):
                    c._u_env(site.node, element.key, element.value)


@on_call(*_EXEC)
def _exec(c: Any, site: CallSite) -> None:
    if "sys.executable" in c.text(site.node) or site.qualname.startswith("os.exec"):
        c._u_emit(HashSeedEnforced, "exec", site.node)


@on_call("sys.flags.hash_randomization")
def _hash_check(c: Any, site: CallSite) -> None:
    c._u_emit(HashSeedEnforced, "check", site.node)
