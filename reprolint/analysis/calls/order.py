"""Data order across processes: distributed samplers, loaders, seeds taken from the rank."""

from __future__ import annotations

import re
from typing import Any

from reprolint.analysis.calls import CallSite, on_call
from reprolint.analysis.cst_helpers import literal as _literal
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
        c._u_emit(RankSeed, site.qualname, site.node)


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

