"""Option defaults held in configuration files: YAML or JSON that a program loads from a
path it names, and Hydra's composed configuration.

A program that reads its settings from ``configs/train.yaml`` (``yaml.safe_load(open(
"configs/train.yaml"))``, ``OmegaConf.load(args.config)`` with a literal default,
``@hydra.main(config_path="configs", config_name="train")``) runs with the values the
file holds when the user changes nothing: ``seed: null`` there is ``--seed`` defaulting
to None. The collector records *where* a module loads configuration from
(:func:`load_source`, :func:`hydra_source`); the program model reads the files
(:func:`config_defaults`) and adds their keys to its option defaults, by leaf name, as
an argparse option of that name would be (an option of the program keeps its own
default). Reading a data file is not running the code: nothing is executed.

Hydra's ``defaults`` list is followed one level (``- trainer: default`` loads
``trainer/default.yaml`` of the config folder); overrides from the command line or
``_self_`` ordering are not modelled (the file's own keys win over a group's).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import literal as _literal
from reprolint.analysis.values import UNKNOWN

__all__ = [
    "CONFIG", "CONFIG_LOADERS", "config_defaults", "config_key", "config_node", "config_path", "hydra_source",
    "load_source",
]

# The binding of a call whose first argument is a node of a loaded configuration
# (``instantiate(cfg.model)``): ("config", (keys below the root, ...)).
CONFIG = "?config"

# Calls that parse a configuration file or stream given as their first argument.
CONFIG_LOADERS = frozenset({
    "yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load",
    "json.load", "omegaconf.OmegaConf.load",
})
_SUFFIXES = (".yaml", ".yml", ".json")
_MAX_BYTES = 1_000_000
_MAX_DEPTH = 6  # how far up from the module a relative path is looked for


def config_key(node: cst.BaseExpression) -> Optional[str]:
    """The key a configuration read names: ``cfg["seed"]`` / ``cfg["train"]["seed"]``
    and ``cfg.get("seed")`` -> ``"seed"`` (attribute reads are the caller's)."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        if isinstance(index, cst.Index):
            key = _literal(index.value)
            if isinstance(key, str) and key.isidentifier():
                return key
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get"
            and node.args and node.args[0].keyword is None):
        key = _literal(node.args[0].value)
        if isinstance(key, str) and key.isidentifier():
            return key
    return None


def _path_of(node: cst.BaseExpression, opened: dict[str, cst.BaseExpression]) -> Optional[str]:
    """``"configs/x.yaml"`` -> that path; ``args.config`` -> ``"option:config"`` (its
    default decides, per program); ``open(p)`` and a name bound by ``with open(p) as f``
    -> what ``p`` is."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "open" and node.args:
        return _path_of(node.args[0].value, opened)
    if isinstance(node, cst.Name) and node.value in opened:
        return _path_of(opened[node.value], {})
    value = _literal(node)
    if isinstance(value, str) and value.endswith(_SUFFIXES):
        return value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value not in ("self", "cls"):
        return f"option:{node.attr.value}"
    return None


def load_source(call: cst.Call, qn: Optional[str], opened: dict[str, cst.BaseExpression]) -> Optional[str]:
    """Where a configuration loader call reads from (see :func:`_path_of`), or None."""
    if qn not in CONFIG_LOADERS or not call.args or call.args[0].keyword is not None:
        return None
    return _path_of(call.args[0].value, opened)


def hydra_source(decorator: cst.Decorator, qualify: Callable[[cst.BaseExpression], Optional[str]]) -> Optional[str]:
    """``@hydra.main(config_path="configs", config_name="train")`` -> ``"hydra:configs/train"``."""
    call = decorator.decorator
    if not isinstance(call, cst.Call) or qualify(call.func) != "hydra.main":
        return None
    values = {a.keyword.value: _literal(a.value) for a in call.args if a.keyword is not None}
    folder, name = values.get("config_path"), values.get("config_name")
    if not isinstance(name, str) or (folder is not None and not isinstance(folder, str)):
        return None
    return f"hydra:{folder or '.'}/{name}"


def _find(module_path: str, relative: str) -> Optional[Path]:
    """The file ``relative`` names, looked for beside the module and in the folders above
    it (a script in ``src/`` run from the project root reads ``configs/...`` there)."""
    if not relative or Path(relative).is_absolute():
        return None
    folder = Path(module_path).resolve().parent
    for _ in range(_MAX_DEPTH):
        candidate = folder / relative
        if _small_file(candidate):
            return candidate
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _small_file(path: Path) -> bool:
    """A regular file under the size limit (one that cannot be looked at is not)."""
    try:
        return path.is_file() and path.stat().st_size <= _MAX_BYTES
    except OSError:
        return False


def _read(path: Path) -> Any:
    """The parsed file, or None. Every program that loads it asks: the parse is kept
    per path, size and modification time (an edited file is read again)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return _parse(str(path), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _parse(path: str, size: int, mtime_ns: int) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
        if path.endswith(".json"):
            return json.loads(text)
        import yaml  # a dependency of libcst

        return yaml.safe_load(text)
    except Exception:  # a file we cannot read is a file we know nothing about
        return None


def _flatten(data: Any, out: dict[str, Any], origin: str) -> None:
    """Leaf keys -> (scalar value, ``origin``), breadth first (a top-level ``seed`` wins
    over a nested one)."""
    queue = [data]
    while queue:
        node = queue.pop(0)
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            if not isinstance(key, str) or key.startswith("_"):
                continue  # `_target_`, `_self_`: Hydra's own
            if isinstance(value, dict):
                queue.append(value)
            elif isinstance(value, (str, int, float, bool)) or value is None:
                out.setdefault(key, (value, origin))


def _hydra_files(module_path: str, spec: str) -> Optional[tuple[Path, dict[str, Any], list[tuple[str, str, Any]]]]:
    """Hydra's main file (its path and data) and, one level down, the file each entry of
    its ``defaults`` list names: (group, option, parsed file or None when there is none)."""
    folder, _, name = spec.removeprefix("hydra:").rpartition("/")
    if not name.endswith(_SUFFIXES):
        name += ".yaml"
    main = _find(module_path, f"{folder}/{name}")
    data = _read(main) if main is not None else None
    if main is None or not isinstance(data, dict):
        return None
    groups = []
    for item in data.get("defaults") or ():
        if isinstance(item, dict) and len(item) == 1:
            group, option = next(iter(item.items()))
            if isinstance(group, str) and isinstance(option, str):
                sub = main.parent / group / f"{option}.yaml"
                groups.append((group, option, _read(sub) if _small_file(sub) else None))
    return main, data, groups


def _hydra(module_path: str, spec: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    found = _hydra_files(module_path, spec)
    if found is None:
        return out
    main, data, groups = found
    _flatten(data, out, main.name)
    for group, option, loaded in groups:
        if not group.startswith("override"):
            _flatten(loaded, out, f"{group}/{option}.yaml")
    return out


def _source_file(module_path: str, source: str, options: dict[str, Any]) -> Optional[tuple[str, Path]]:
    """The file a literal-path or ``option:`` source names (as written, and where it is
    found), or None."""
    if source.startswith("option:"):
        value = options.get(source.removeprefix("option:"), UNKNOWN)
        if not isinstance(value, str) or not value.endswith(_SUFFIXES):
            return None
        source = value
    found = _find(module_path, source)
    return (source, found) if found is not None else None


def config_defaults(module_path: str, sources: tuple[str, ...], options: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    """The configuration keys the module's loads give on a default run, with the file
    each comes from (``options``: the program's option defaults, for a path held in an
    option)."""
    out: dict[str, tuple[Any, str]] = {}
    for source in sources:
        if source.startswith("hydra:"):
            for key, value in _hydra(module_path, source).items():
                out.setdefault(key, value)
            continue
        found = _source_file(module_path, source, options)
        if found is not None:
            _flatten(_read(found[1]), out, found[0])
    return out


def config_path(node: cst.BaseExpression) -> tuple[str, ...]:
    """The keys below the root of ``cfg.model.net`` / ``config["model"]`` (a chain of
    attributes and literal subscripts down to a name), or () for anything else."""
    keys: list[str] = []
    while True:
        if type(node) is cst.Attribute:
            keys.append(node.attr.value)  # type: ignore[attr-defined]
            node = node.value  # type: ignore[attr-defined]
        elif type(node) is cst.Subscript and len(node.slice) == 1:  # type: ignore[attr-defined]
            key = config_key(node)
            if key is None:
                return ()
            keys.append(key)
            node = node.value  # type: ignore[attr-defined]
        else:
            return tuple(reversed(keys)) if type(node) is cst.Name and keys else ()


def config_node(module_path: str, sources: tuple[str, ...], options: dict[str, Any], keys: tuple[str, ...]) -> Any:
    """The node ``keys`` names in the configuration the module loads on a default run
    (its sources composed as :func:`config_defaults` reads them, keeping the nesting; a
    Hydra ``defaults`` group becomes the key of its name), or None."""
    node: Any = None
    for source in sources:
        if source.startswith("hydra:"):
            node = _hydra_tree(module_path, source)
        else:
            found = _source_file(module_path, source, options)
            node = _read(found[1]) if found is not None else None
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            return node
    return None


def _hydra_tree(module_path: str, spec: str) -> Any:
    """Hydra's composed configuration, one level of its ``defaults`` list: each group's
    file under the group's key, with the main file's own keys for it on top."""
    found = _hydra_files(module_path, spec)
    if found is None:
        return None
    _, data, groups = found
    out = dict(data)  # the parse is shared: never changed in place
    for group, _, loaded in groups:
        if group.isidentifier() and isinstance(loaded, dict):
            own = out.get(group)
            out[group] = {**loaded, **own} if isinstance(own, dict) else loaded
    return out
