"""Which recorded op calls the torch op rules report (shared by RPL201 and RPL202)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from reprolint.analysis.condition_facts import NO_GRAD_ARGUMENT, VIA
from reprolint.analysis.determinism import OpMatch, match_op, program_usages, short, torch_version
from reprolint.analysis.program import Program
from reprolint.analysis.usage_events import OpCall, TfSetting
from reprolint.analysis.values import UNKNOWN, OptionRef
from reprolint.catalog.ops import parse_version
from reprolint.checks.base import CheckContext
from reprolint.model import Related, Span

_WithOptions = TypeVar("_WithOptions", OpCall, TfSetting)


@dataclass(frozen=True)
class OpFinding:
    code: str  # RPL201 or RPL202
    path: str
    usage: OpCall
    match: OpMatch
    version: str
    device: str
    entry_points: list[str] = field(default_factory=list)  # the programs that reach the call
    # a program that reaches the call turns deterministic mode on (where an op without a
    # deterministic kernel raises; RPL202 reports an exact one such as histc only there)
    under_flag: bool = False
    # the project calls through which the first program that reaches it gets there
    related: tuple[Related, ...] = ()
    # RPL301's evidence: it runs where autograd records nothing (`torch.no_grad()`,
    # `inference_mode()`: evaluation or generation), so it is named after those that run
    # in the forward or backward pass of training
    no_grad: bool = False
    # it runs only inside `@torch.no_grad()` methods no call runs with grad (a sampler):
    # nothing the training computes goes through it, so it is no evidence of RPL301
    inference_only: bool = False
    # it runs only where a call passes a parameter other than its default (`if lens is
    # not None:` in a function whose callers may pass `lens`): named after those that run
    # with every default
    maybe: bool = False

    @property
    def exact(self) -> str:
        """Why the kernel gives the same result on every run although torch raises under
        deterministic mode ("" when it may not): histc's counts (``exact_result``), a
        1-D reflection padding's two gradient values per element (:func:`two_additions`)."""
        if self.match.entry.exact_result:
            return "it only counts"
        if two_additions(self.match, self.usage):
            return "each input element receives at most two gradient values, whose sum is the same in either order"
        return ""

    def fields(self) -> dict[str, Any]:
        """The message fields shared by RPL201 and RPL202."""
        notes = f" ({', '.join(self.match.notes)})" if self.match.notes else ""
        return {
            "call": call_text(self.usage), "device": self.device, "version": self.version,
            "op": self.match.entry.id, "backward": self.match.entry.backward_only, "notes": notes,
        }


def torch_op_findings(ctx: CheckContext) -> list[OpFinding]:
    """One finding per op call site: RPL202 when a matching entry raises under
    deterministic mode, else RPL201 when deterministic mode is off in a program that
    reaches the call (cached on the context)."""
    cached = ctx.memo.get("torch_op_findings")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    version = torch_version(ctx.settings)
    best: dict[tuple[str, object], OpFinding] = {}
    # per program (entry point): the calls whose kernel deterministic mode would replace
    evidence: dict[str, list[OpFinding]] = {}
    programs = list(program_usages(ctx))
    # Modules some program imports are program code: what a program runs there is its
    # own (a plain function no call reaches is not run, issue 25 item 7), and a library
    # module (one no entry point imports) that imports them does not make them library
    # code, whose ops are reported per site.
    in_programs = {path for program in programs if not program.is_library for path in program.modules}
    for program in programs:
        cuda = program.cuda is not None
        deterministic = program.deterministic() is not None
        for position, path, usage in program.of(OpCall, default_only=False):
            if usage.name.startswith(("tensorflow.", "keras.")):
                continue
            if program.is_library and path in in_programs:
                continue
            facts = ctx.facts.get(path)
            if facts is not None and facts.device_only is not None:
                continue  # a module that imports `torch_npu` (...) runs its ops on that device
            if program.usage_steps[position].context.uncalled and not program.is_library:
                continue  # a plain function of an imported module that no call reaches
            if program.unread_layer(path, usage):
                continue  # a layer stored in an attribute nothing reads: it never runs
            if program.skips(position):
                # on a branch the default options do not take (`if args.bilinear:`, a module
                # constant): not what this program runs (another program that takes it
                # decides). A parameter's default decides only where the calls that run
                # the function leave it out (`UNet(bilinear=True)` passes another value).
                continue
            usage = with_option_defaults(program, usage)
            matches = _kernels_that_run(program, position, usage, version, cuda)
            raising = [m for m in matches if m.entry.kind == "raises"]
            flagged = [m for m in matches if m.entry.kind == "deterministic-with-flag"]
            key = (path, usage.span)
            kernels = flagged
            if not cuda and not program.is_library and program.can_use_cuda:
                # CUDA only when the user asks (`--cuda`): RPL301's evidence is what runs then
                kernels = [
                    m for m in _kernels_that_run(program, position, usage, version, cuda=True)
                    if m.entry.kind == "deterministic-with-flag"
                ]
            is_evidence = bool(kernels) and not program.is_library
            if not (is_evidence or raising or (flagged and not deterministic)):
                continue
            chain = chain_related(program, path, usage.span, f"the op `{call_text(usage)}`")
            if is_evidence:
                step = program.usage_steps[position]
                evidence.setdefault(program.entry, []).append(OpFinding(
                    "RPL201", path, usage, kernels[0], short(version), "CUDA", related=chain,
                    no_grad=step.context.no_grad, inference_only=step.context.no_grad_function, maybe=not program.on_default_path(step, params=True, surely=True),
                ))
            if raising:
                match = raising[0]
                code = "RPL202"
            elif flagged and not deterministic:
                match = flagged[0]
                code = "RPL201"
            else:
                continue
            previous = best.get(key)
            if previous is None or (previous.code == "RPL201" and code == "RPL202"):
                found = OpFinding(code, path, usage, match, short(version), _device(match), related=chain)
                if previous is not None:
                    found.entry_points.extend(previous.entry_points)
                best[key] = found
                previous = found
            if deterministic and not previous.under_flag:
                previous = best[key] = replace(previous, under_flag=True)
            if not program.is_library and program.entry not in previous.entry_points:
                previous.entry_points.append(program.entry)
    out = list(best.values())
    ctx.memo["torch_op_findings"] = out
    ctx.memo["torch_op_evidence"] = evidence
    return out


def chain_related(program: Program, path: str, span: Span, what: str) -> tuple[Related, ...]:
    """The project calls (outermost first) through which ``program`` first reaches the
    site at ``span`` of ``path``, as related locations: a reader of the entry point sees
    the call (`augment(images)`) whose body runs the op."""
    return tuple(
        Related(at.path, at.event.span, f"this call of `{at.event.text}` leads to {what} at {path}:{span.start_line}")
        for at in program.call_chain(path, span)
    )


def _device(match: OpMatch) -> str:
    """Where the entry's kernel is nondeterministic, as the message says it."""
    return "CUDA" if match.entry.cuda_only else ("CPU" if match.entry.device == "cpu" else "CPU and CUDA")


def _kernels_that_run(program: Program, position: int, usage: OpCall, version: str, cuda: bool) -> list[OpMatch]:
    """The catalog entries the call matches whose kernel runs with these arguments, in a
    program on CUDA (``cuda``) or not: no backward where no gradient flows, no atomic
    collision on a unique index, no pooling kernel for a global mean, no index backward
    for integer repeats, no CPU path for a parameter that lives on the GPU, no CUDA
    kernel in DataLoader worker processes (a dataset's ``__getitem__`` and the transforms
    it calls work on CPU tensors), on a branch taken only on another device (``if
    device == "mps":``) or for a call given a tensor it moves to the CPU (``.cpu()``)."""
    in_worker = program.usage_steps[position].context.in_worker
    if "shown-only" in usage.facts:
        return []  # its value only reaches a figure: no result depends on the kernel
    return [
        m for m in match_op(usage, version, cuda=cuda, training=program.trains)
        if not (m.entry.cuda_only and (in_worker or "not-cuda-branch" in usage.facts or "cpu-tensor" in usage.facts))
        and not (m.entry.backward_only and no_backward(program, position, usage))
        and not no_collision(m, usage)
        and not global_mean(m, usage)
        and not expanded_repeat(m, usage, version)
        and not (cuda and on_the_accelerator(m, usage))
    ]


def nondeterministic_kernels(ctx: CheckContext, entry: str) -> list[OpFinding]:
    """The op calls of program ``entry`` (in execution order) that run a kernel which is
    nondeterministic unless deterministic mode is on: the evidence RPL301 reports and
    the sites whose RPL201 it replaces."""
    torch_op_findings(ctx)
    return ctx.memo["torch_op_evidence"].get(entry, [])  # type: ignore[no-any-return]


def without_deterministic_mode(ctx: CheckContext) -> list[Program]:
    """The torch training programs on CUDA that run such a kernel and whose default run
    leaves deterministic mode off: RPL301's programs (one finding each, its kernels as
    evidence), whose kernels RPL201 then leaves to it (cached on the context)."""
    cached = ctx.memo.get("without_deterministic_mode")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    found = [
        program for program in program_usages(ctx)
        if program.is_training and program.trains_with("torch") and not program.framework_trainer
        and program.can_use_cuda and program.deterministic() is None
        and nondeterministic_kernels(ctx, program.entry)
    ]
    ctx.memo["without_deterministic_mode"] = found
    return found


def no_backward(program: Program, position: int, usage: OpCall) -> bool:
    """No gradient flows through this call, so a backward-only kernel never runs: it
    runs under ``torch.no_grad()``/``inference_mode()`` (its own block or a caller's),
    in a DataLoader worker (a sample leaves the worker without its autograd graph), on a
    registered buffer (its own, or one every call of the function passes for the
    parameter it runs on), or the collector saw that its backward has nothing to
    accumulate (``usage.facts``: a gather with an index of width 1 along ``dim``, or
    one whose lines are parts of permutations along it: "index-distinct"), or that its
    value reaches only detached values ("no-grad-output", analysis/detached.py)."""
    step = program.usage_steps[position]
    if step.context.no_grad or step.context.in_worker:
        return True
    for fact in usage.facts:
        if fact.startswith("param-input:"):
            # on a parameter of its function, which every call of it the program makes
            # binds to a buffer, a fresh or a detached tensor, or a batch a loader
            # yields (passed on through the callers' parameters)
            function, _, param = fact.partition(":")[2].rpartition(".")
            if _bound_without_grad(program, step.path, function, param):
                return True
    return bool({"no-grad-input", "no-grad-output", "index-width-1", "index-distinct"} & set(usage.facts))


def _bound_without_grad(program: Program, path: str, function: str, param: str, depth: int = 0) -> bool:
    """Whether every call of ``function`` (of ``path``) the program makes passes a tensor
    that requires no grad for ``param``: NO_GRAD_ARGUMENT, or a parameter of the caller
    passed on (VIA) for which the same holds (``model(x, spk)`` in the training loop, then
    ``self.encoder(x, spk)`` in ``forward``)."""
    calls = program.call_bindings.get((path, function))
    if not calls or depth > 6:
        return False
    for bindings in calls:
        tree = dict(bindings).get(param)
        if tree == NO_GRAD_ARGUMENT:
            continue
        if tree is None or tree[0] != VIA or not _bound_without_grad(program, tree[1], tree[2], tree[3], depth + 1):
            return False
    return True


# Index accumulations (forward, or the backward of an index lookup) whose atomic adds
# collide only when the index repeats a value, and index writes whose surviving value is
# undefined only then.
_INDEX_ACCUMULATIONS = frozenset({"index-add-cuda", "index-select-backward-cuda", "index-copy"})


def no_collision(match: OpMatch, usage: OpCall) -> bool:
    """The op accumulates with atomic adds (or writes with undefined order), but the
    collector saw that its index holds no value twice (``usage.facts``: "index-unique",
    e.g. ``mask.nonzero().squeeze(-1)``; for a scatter, "index-width-1": an index of
    width 1 along ``dim`` such as ``labels.unsqueeze(1)``, one write per row): each
    element receives one write or add, so the result is the same on every run; so does
    each input element of a 3-D max pooling whose windows do not overlap ("windows-disjoint":
    stride at least the kernel). An op that raises under deterministic mode still raises
    (not filtered here)."""
    if match.entry.kind != "deterministic-with-flag":
        return False
    if match.entry.id in _INDEX_ACCUMULATIONS:
        return "index-unique" in usage.facts
    if match.entry.id == "maxpool3d-backward-cuda":
        return "windows-disjoint" in usage.facts  # one window per input element: one add
    return match.entry.id.startswith("scatter") and bool({"index-width-1", "index-distinct"} & set(usage.facts))


def two_additions(match: OpMatch, usage: OpCall) -> bool:
    """A reflection padding of the last axis only (``nn.ReflectionPad1d(p)``,
    ``F.pad(x, (p, p), mode="reflect")``): its CUDA backward adds to each input element its
    own gradient and at most one mirrored one (for an input longer than ``2 * p + 1``), and
    two additions onto zero give the same sum in either order. torch still raises under
    deterministic mode (tests/libraries count the values each element receives)."""
    return match.entry.id == "reflection-pad-backward-cuda" and "pad-one-axis" in usage.facts


_ADAPTIVE_AVERAGE_POOLING = frozenset({"adaptive-avgpool2d-backward-cuda", "adaptive-avgpool3d-backward-cuda"})


def global_mean(match: OpMatch, usage: OpCall) -> bool:
    """An adaptive average pooling to output size 1 (``nn.AdaptiveAvgPool2d(1)``,
    ``F.adaptive_avg_pool2d(x, (1, 1))``): torch computes it as ``mean`` over the
    pooled axes, whose backward is deterministic, so the pooling kernel that raises under
    deterministic mode never runs (tests/libraries check the autograd node)."""
    return match.entry.id in _ADAPTIVE_AVERAGE_POOLING and "output-size-one" in usage.facts


def expanded_repeat(match: OpMatch, usage: OpCall, version: str) -> bool:
    """``repeat_interleave`` with a Python int for ``repeats`` (a literal, ``len(...)``,
    ``self.num_heads // self.num_kv_heads``) on torch >= 2.1:
    computed as an expand and a copy (pytorch PR 102570), whose backward sums the
    repeated slices with a plain reduction, not the ``index_select`` backward's atomic
    adds (tests/libraries check the autograd node). Tensor repeats still index."""
    return (
        match.entry.id == "repeat-interleave-backward-cuda" and "scalar-repeats" in usage.facts
        and parse_version(version) >= (2, 1, 0)
    )


def with_option_defaults(program: Program, usage: _WithOptions) -> _WithOptions:
    """The op call (or TF setting) with its option arguments (``mode=args.upsample``)
    replaced by the options' defaults in this program (unknown when the program has no
    such option)."""
    args = usage.args if isinstance(usage, OpCall) else ()
    if not any(isinstance(v, OptionRef) for v in (*args, *(v for _, v in usage.kwargs))):
        return usage

    def value(v: Any) -> Any:
        if isinstance(v, OptionRef) and isinstance(v.name, tuple):
            return program.stored_attr(v.name)  # `self.mode`: what the constructor calls pass
        return program.lookup(v.name) if isinstance(v, OptionRef) and not v.negated else (
            UNKNOWN if isinstance(v, OptionRef) else v
        )

    kwargs = tuple((k, value(v)) for k, v in usage.kwargs)
    if isinstance(usage, OpCall):
        return replace(usage, args=tuple(value(v) for v in usage.args), kwargs=kwargs)
    return replace(usage, kwargs=kwargs)


def on_the_accelerator(match: OpMatch, usage: OpCall) -> bool:
    """A CPU-only entry on a parameter (``table[idx]`` of an ``nn.Parameter``: the
    collector's "parameter-input") in a program that uses CUDA: the model, and its
    parameters, live on the GPU, where the op takes another, deterministic path."""
    return match.entry.device == "cpu" and "parameter-input" in usage.facts


def call_text(usage: OpCall) -> str:
    if usage.name == "Tensor.__getitem__":
        return usage.text  # a subscript, not a call
    return f"{usage.text}(...)"
