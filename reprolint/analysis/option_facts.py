"""Facts of command-line options: what ``argparse``'s ``add_argument(...)`` and
``click.option(...)`` declare (the option's name, the flag a user passes, its default as
the program sees it, an entropy-valued default) and the device options that put a
program on CUDA (``--device cuda`` by default, ``device_map="auto"``).

:class:`OptionFacts` is mixed into the fact collector of :mod:`reprolint.analysis.facts`;
it uses the collector's ``uses`` and its helpers ``text``, ``span``, ``emit``,
``entropy_of``, ``current_conds`` and ``_u_emit``.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import find_argument as call_argument, literal as _literal
from reprolint.analysis.module_facts import Cond
from reprolint.analysis.usage_events import CudaWork
from reprolint.analysis.values import UNKNOWN

__all__ = ["OptionFacts"]


_TRUE_WORDS = frozenset({"true", "yes", "y", "t", "1", "on"})
_FALSE_WORDS = frozenset({"false", "no", "n", "f", "0", "off"})


# The modules whose `DEFINE_*` functions define command-line flags read as `FLAGS.<name>`.
ABSL_FLAG_MODULES = frozenset({
    "absl.flags", "tensorflow.app.flags", "tensorflow.flags", "tensorflow.compat.v1.flags",
    "tensorflow.compat.v1.app.flags", "gflags",
})


def _parsed_default(default: Any, type_arg: Optional[cst.Arg]) -> Any:
    """An option's default as the program sees it: argparse passes a string default
    through ``type=`` (``type=bool`` makes any non-empty string true; a ``str2bool``-style
    converter reads ``"False"`` as false, as the words it accepts say)."""
    if not isinstance(default, str) or type_arg is None:
        return default
    converter = type_arg.value
    name = converter.value if isinstance(converter, cst.Name) else None
    if name == "bool":
        return bool(default)
    if name in ("str", "int", "float"):
        return default
    word = default.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return default


# the libraries of those objects: a module that imports none of them makes none
CONFIG_LIBRARIES = frozenset({"yacs", "fvcore", "detectron2", "ml_collections", "easydict"})
# Configuration objects whose attributes a program sets as its defaults (`_C.SEED = -1`).
_CONFIG_OBJECTS = frozenset({
    "yacs.config.CfgNode", "fvcore.common.config.CfgNode", "detectron2.config.CfgNode",
    "ml_collections.ConfigDict", "ml_collections.config_dict.ConfigDict", "easydict.EasyDict",
})


class OptionFacts:
    """The option handling of the fact collector: declared options and device options."""

    uses: set[str]
    config_objects: set[str]  # names bound to a configuration object (note_config_default)

    def note_config_default(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        """A configuration object and the defaults set on it, as a yacs or ml_collections
        config file writes them: ``_C = CN()``, ``_C.MODEL = CN()``, ``_C.SEED = -1``,
        ``config.seed = None`` make ``SEED`` and ``seed`` option defaults (an option of that
        name keeps its own); a file merged in at run time is not read."""
        if type(value) is cst.Call and (self.qualify(value.func) or "") in _CONFIG_OBJECTS:  # type: ignore[attr-defined]
            self.config_objects.update(t.value for t in targets if type(t) is cst.Name)
            return
        default = _literal(value)
        if default is not None and not isinstance(default, (bool, int, float, str)):
            return
        for target in targets:
            root = target
            while type(root) is cst.Attribute:
                root = root.value  # type: ignore[attr-defined]
            if type(target) is cst.Attribute and type(root) is cst.Name and root.value in self.config_objects \
                    and default != UNKNOWN:
                if target.attr.value not in self.facts.arg_defaults:  # type: ignore[attr-defined]
                    self.facts.arg_defaults[target.attr.value] = default  # type: ignore[attr-defined]
                    self.facts.config_attrs.add(target.attr.value)  # type: ignore[attr-defined]

    def note_add_argument(self, call: cst.Call) -> None:
        """``parser.add_argument(...)``: the option's default, the flag a user types, a
        default drawn from entropy, where it is defined, and a device it selects."""
        dest, default, entropy = self.option_default(call)
        if dest is None:
            return
        facts = self.facts  # type: ignore[attr-defined]
        facts.arg_defaults.setdefault(dest, default)
        facts.option_spans.setdefault(dest, self.span(call))  # type: ignore[attr-defined]
        flag = self.option_flag(call)
        if flag is not None:
            facts.option_flags.setdefault(dest, flag)
        if entropy:
            facts.arg_entropy[dest] = entropy
        self.device_option(call, dest, default)

    def note_absl_flag(self, call: cst.Call) -> None:
        """``flags.DEFINE_bool("use_tpu", True, "...")`` (absl, ``tf.app.flags``,
        ``tf.flags``): an option ``--use_tpu`` read as ``FLAGS.use_tpu``, with its default
        (the second argument, or ``default=``)."""
        name_arg = call_argument(call, "name", 0)
        default_arg = call_argument(call, "default", 1)
        dest = _literal(name_arg.value) if name_arg is not None else None
        if not isinstance(dest, str) or default_arg is None:
            return
        default = _literal(default_arg.value)
        facts = self.facts  # type: ignore[attr-defined]
        facts.arg_defaults.setdefault(dest, default)
        facts.option_spans.setdefault(dest, self.span(call))  # type: ignore[attr-defined]
        facts.option_flags.setdefault(dest, f"--{dest}")
        entropy = self.entropy_of(default_arg.value)  # type: ignore[attr-defined]
        if entropy:
            facts.arg_entropy[dest] = entropy

    def option_flag(self, call: cst.Call) -> Optional[str]:
        """The long flag of ``add_argument('-c', '--cuda', ...)`` as written (``--cuda``),
        followed by `` ...`` when it takes a value (no ``store_true``-like action)."""
        names = [_literal(a.value) for a in call.args if a.keyword is None]
        flags = [n for n in names if isinstance(n, str) and n.startswith("-")]
        longs = [n for n in flags if n.startswith("--")]
        flag = (longs or flags or [None])[0]
        if flag is None:
            return None
        action = call_argument(call, "action", None)
        bare = action is not None and (
            _literal(action.value) in ("store_true", "store_false", "store_const", "count")
            or self.text(action.value).endswith("BooleanOptionalAction")  # type: ignore[attr-defined]
        )
        return flag if bare else f"{flag} ..."

    def option_default(self, call: cst.Call) -> tuple[Optional[str], Any, Optional[str]]:
        """(dest, default, entropy) of `add_argument(...)` / `click.option(...)`."""
        flags = [a for a in call.args if a.keyword is None and isinstance(a.value, cst.SimpleString)]
        dest: Optional[str] = None
        for arg in flags:
            value = _literal(arg.value)
            if isinstance(value, str):
                if value.startswith("--"):
                    dest = value[2:].replace("-", "_")
                    break
                if dest is None and not value.startswith("-"):
                    dest = value.replace("-", "_")
                elif dest is None:
                    dest = value.lstrip("-").replace("-", "_")
        dest_arg = call_argument(call, "dest", None)
        if dest_arg is not None and isinstance(_literal(dest_arg.value), str):
            dest = _literal(dest_arg.value)
        default_arg = call_argument(call, "default", None)
        action = call_argument(call, "action", None)
        action_value = _literal(action.value) if action is not None else None
        if default_arg is not None:
            default = _parsed_default(_literal(default_arg.value), call_argument(call, "type", None))
        elif action_value == "store_true" or call_argument(call, "is_flag", None) is not None:
            default = False
        elif action_value == "store_false":
            default = True
        else:
            default = None
        entropy = self.entropy_of(default_arg.value) if default_arg is not None else None  # type: ignore[attr-defined]
        return dest, default, entropy

    def device_option(self, node: cst.Call, dest: str, default: Any) -> None:
        """``add_argument('--device', default='cuda')``: the program runs on CUDA by default
        (what ``torch.device(args.device)`` then selects). Recorded at the option, which runs
        wherever the parser is built."""
        if "torch" not in self.uses or not isinstance(default, str):
            return
        if not ("device" in dest or "gpu" in dest or "cuda" in dest):
            return
        if default == "cuda" or default.startswith("cuda:"):
            self._u_emit(CudaWork, f"`--{dest.replace('_', '-')}` default {default!r}", node)  # type: ignore[attr-defined]
            return
        choices = call_argument(node, "choices", None)
        listed = _literal(choices.value) if choices is not None else None
        if default == "cpu" and (
            choices is None
            or isinstance(listed, (list, tuple)) and any(isinstance(c, str) and c.startswith("cuda") for c in listed)
        ):
            # `--device cpu` by default: CUDA when the user passes `--device cuda`
            asked = Cond(("cmp", ("attr", dest), "==", "cuda"), True, f"args.{dest} == 'cuda'")
            self.emit(CudaWork(  # type: ignore[attr-defined]
                "the device option", self.span(node), self.text(node.func),  # type: ignore[attr-defined]
                self.current_conds() + (asked,),  # type: ignore[attr-defined]
            ))

    def device_map(self, node: cst.Call) -> None:
        """``from_pretrained(..., device_map="auto")``: accelerate places the weights on the
        GPUs it finds (any map but ``"cpu"``)."""
        if "torch" not in self.uses and "transformers" not in self.uses:
            return
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "device_map":
                value = _literal(arg.value)
                if value is None or value == "cpu" or (isinstance(arg.value, cst.Dict) and all(
                    isinstance(e, cst.DictElement) and _literal(e.value) == "cpu" for e in arg.value.elements
                )):
                    return
                self._u_emit(CudaWork, f"`device_map={self.text(arg.value)[:40]}`", node)  # type: ignore[attr-defined]
                return
