"""What a program's options select on the GPU, and the determinism switches it sets:
the questions of :class:`~reprolint.analysis.program.Program` that the RPL2xx and RPL3xx
rules ask (does it run torch on CUDA by default, or when the user asks; does it hide the
GPU; what turns deterministic mode on, and under which conditions a switch is set).

:class:`CudaSelection` is a part of ``Program``: its methods read the program's usage
events (``of``), its option lookup and its steps, which ``Program`` holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional

from reprolint.analysis.calls.devices import gpu_platform
from reprolint.analysis.conditions import evaluate
from reprolint.analysis.execution import At, Step
from reprolint.analysis.options import asked_by_options
from reprolint.analysis.usage_events import (
    CudaWork, EnvSet, FlagSet, GpuHidden, HfTrainingArgs, LightningTrainer, Usage,
)
from reprolint.analysis.values import UNKNOWN

if TYPE_CHECKING:
    from reprolint.analysis.program import UsageAt

__all__ = ["CudaSelection", "Switch"]


class Switch(NamedTuple):
    """What turns deterministic mode on."""

    path: str
    usage: Usage
    warn_only: bool


class CudaSelection:
    """The CUDA-selection and determinism-switch questions of a program (a part of
    :class:`~reprolint.analysis.program.Program`)."""

    # what Program provides
    of: Any
    lookup: Any
    usage_steps: Any
    option_flags: Any
    value: Any
    kw_value: Any
    _sure: Any

    def cuda_usage(self) -> Optional[UsageAt[CudaWork]]:
        """(position, path, event) of the first line that puts torch work on CUDA with
        the default options; None when the program runs torch on the CPU by default.
        The one notion of "uses CUDA by default" for every rule (RPL2xx and RPL3xx)."""
        if self.hides_gpu("torch"):
            return None
        # the first one every default run reaches (not one behind a test of a value the
        # analysis does not know, `if hparams.distributed_run:`), else the first
        first = None
        for at in self.of(CudaWork):
            if self._on_cuda_already(self.usage_steps[at.position]):
                continue
            if self._surely_reached(self.usage_steps[at.position]):
                return at
            first = first or at
        return first

    def _on_cuda_already(self, step: Step) -> bool:
        """CUDA work behind ``if x.is_cuda:`` (a tensor's or a module's attribute, not an
        option of that name) runs only where other code put the work on CUDA: it selects
        nothing (``if Z.is_cuda: torch.cuda.synchronize()``)."""
        return any(
            g.cond.polarity and g.cond.tree == ("truthy", ("attr", "is_cuda")) for g in step.conds
        ) and self.lookup("is_cuda") == UNKNOWN

    def _surely_reached(self, step: Step) -> bool:
        """Whether every condition on the way to ``step`` holds with the default options."""
        return all(
            evaluate(g.cond.tree, self.lookup, True, self._sure(g.bindings)) == g.cond.polarity for g in step.conds
        )

    @property
    def cuda(self) -> Optional[At]:
        """Where :meth:`cuda_usage` is."""
        found = self.cuda_usage()
        return At(found.path, found.usage) if found else None

    @property
    def uses_cuda(self) -> bool:
        return self.cuda is not None

    def cuda_when_asked(self) -> Optional[tuple[UsageAt[CudaWork], Optional[str]]]:
        """For the determinism-flag rules (RPL203, RPL301-RPL303): the first line that puts
        torch work on CUDA with the default options (and None), else the first one that
        options the user can pass select (``if args.cuda: model.cuda()`` with
        ``store_true``), with how to ask for it (``--cuda``). Seeding and op rules keep
        the default-run notion (:meth:`cuda_usage`)."""
        found = self.cuda_usage()
        if found is not None:
            return found, None
        if self.hides_gpu("torch"):
            return None
        for at in self.of(CudaWork, default_only=False):
            if self._on_cuda_already(self.usage_steps[at.position]):
                continue
            asked = asked_by_options(self.usage_steps[at.position], self.lookup, self.option_flags)
            if asked is not None:
                return at, asked
        return None

    @property
    def can_use_cuda(self) -> bool:
        """Runs torch on CUDA by default or when the user asks (:meth:`cuda_when_asked`)."""
        return self.cuda_when_asked() is not None

    def hides_gpu(self, framework: str) -> bool:
        for _, _, hidden in self.of(GpuHidden):
            if hidden.name in (framework, "any"):
                return True
        for _, _, env in self.of(EnvSet):
            if env.name == "CUDA_VISIBLE_DEVICES" and env.value in ("", "-1"):
                return True
            if framework == "jax" and env.name in ("JAX_PLATFORMS", "JAX_PLATFORM_NAME") and env.value and not gpu_platform(env.value):
                return True
        return False

    def deterministic(self) -> Optional[Switch]:
        """What turns torch's deterministic mode on, if anything."""
        for _, path, flag in self.of(FlagSet, "torch.deterministic"):
            value = self.value(flag)
            if value is None or value:
                return Switch(path, flag, flag.warn_only)
        for _, path, flag in self.of(FlagSet, "hf.full-determinism"):
            return Switch(path, flag, False)
        for _, path, trainer in self.of(LightningTrainer):
            value = self.kw_value(trainer, "deterministic")
            if value is True or value == "warn" or value == UNKNOWN:
                return Switch(path, trainer, value == "warn")
        for _, path, arguments in self.of(HfTrainingArgs):
            value = self.kw_value(arguments, "full_determinism")
            if value is True or value == UNKNOWN:
                return Switch(path, arguments, False)
        return None

    def set_only_when(self, kind: type[Usage], name: str) -> Optional[tuple[str, Usage, str]]:
        """(path, usage, condition) of the first usage of ``name`` that runs only under a
        condition the default options make false (``if args.deterministic:`` with a
        ``store_true`` option): the program can turn the switch on, but a default run does
        not. ``condition`` is the source text of what must hold."""
        for position, path, usage in self.of(kind, name, default_only=False):
            for cond in _blocking(self.usage_steps[position], self.lookup):
                return path, usage, cond.text if cond.polarity else f"not ({cond.text})"
        return None

    def set_whenever_cuda_is_asked(self, kind: type[Usage], name: str) -> bool:
        """Whether a program that runs torch on CUDA only when the user asks
        (:meth:`cuda_when_asked`) sets ``name`` (not to False) under conditions that asking
        for CUDA makes true: every condition that the defaults make false on the way to
        the setting is one on the way to the CUDA line (``if use_gpu:
        torch.backends.cudnn.deterministic = True; device = torch.device("cuda")``), a
        test of options only (a parameter's test may mean another thing in each
        function)."""
        found = self.cuda_when_asked()
        if found is None or found[1] is None:
            return False
        asked = [(c.tree, c.polarity) for c in _blocking(self.usage_steps[found[0].position], self.lookup)]
        for position, _, usage in self.of(kind, name, default_only=False):
            if self.value(usage) is False:  # type: ignore[arg-type]
                continue
            needs = _blocking(self.usage_steps[position], self.lookup)
            if needs and all(_options_only(c.tree) and (c.tree, c.polarity) in asked for c in needs):
                return True
        return False

    def cudnn_deterministic(self) -> bool:
        for _, _, usage in self.of(FlagSet, "cudnn.deterministic"):
            value = self.value(usage)
            if value is None or value:
                return True
        return self.deterministic() is not None


def _blocking(step: Step, lookup: Callable[[str], Any]) -> list[Any]:
    """The conditions on the way to ``step`` that the default options make false, in
    order (each a ``Cond``: its tree, polarity and source text)."""
    out = []
    for guarded in step.conds:
        cond = guarded.cond
        value = evaluate(cond.tree, lookup)
        if value is not None and value != cond.polarity:
            out.append(cond)
    return out


def _options_only(tree: Any) -> bool:
    """A condition tree that reads no function parameter (``("const", default, "param",
    name)``)."""
    if not isinstance(tree, tuple):
        return True
    if len(tree) == 4 and tree[0] == "const" and tree[2] == "param":
        return False
    return all(_options_only(part) for part in tree)
