"""Data order across processes: distributed samplers, loaders, seeds taken from the rank."""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import descendants, literal as _literal
from reprolint.analysis.values import UNKNOWN
from reprolint.analysis.usage_events import RankSeed, SamplerBuilt

RANK_WORDS = re.compile(
    r"\b(rank|local_rank|global_rank|get_rank|process_index|local_process_index|RANK|LOCAL_RANK)\b"
)


@on_call(
    "torch.manual_seed", "torch.random.manual_seed", "lightning.seed_everything",
    "lightning.pytorch.seed_everything", "pytorch_lightning.seed_everything",
    "transformers.set_seed", "accelerate.utils.set_seed",
)
def _rank_seed(c: Any, site: CallSite) -> None:
    if site.node.args and RANK_WORDS.search(c.text(site.node.args[0].value)) and not c.u_rank_free(site.node.args[0].value):
        c._u_emit(RankSeed, site.qualname, site.node, params=_rank_params(c, site.node.args[0].value))


def _rank_params(c: Any, seed: cst.BaseExpression) -> tuple[str, ...]:
    """The parameters the rank in ``seed`` is, when it is nothing else: each rank word a
    bare name of a parameter with a literal default that the body does not rebind."""
    scope = c.scope
    words = RANK_WORDS.findall(c.text(seed))
    nodes = list(descendants(seed))
    attrs = {id(n.attr) for n in nodes if type(n) is cst.Attribute}  # type: ignore[attr-defined]
    names = {n.value for n in nodes if type(n) is cst.Name and id(n) not in attrs and RANK_WORDS.fullmatch(n.value)}  # type: ignore[attr-defined]
    if scope.kind != "function" or len(names) != len(set(words)):
        return ()
    if any(scope.params.get(name, UNKNOWN) == UNKNOWN or name in scope.locals for name in names):
        return ()
    return tuple(sorted(names))


@on_call("torch.utils.data.distributed.DistributedSampler", "torch.utils.data.DistributedSampler")
def _sampler(c: Any, site: CallSite) -> None:
    kwargs = site.kwargs
    shuffle = _literal(kwargs["shuffle"]) if "shuffle" in kwargs else True
    seed = kwargs.get("seed")
    ranked = seed is not None and bool(RANK_WORDS.search(c.text(seed)))
    c._u_emit(SamplerBuilt, site.qualname, site.node, shuffle=shuffle, rank_seeded=ranked)


@on_call("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")
def _loader(c: Any, site: CallSite) -> None:
    c._u_loader(site.node, site.qualname, site.kwargs)

