import logging
from typing import Optional

import pytorch_lightning as pl

log = logging.getLogger(__name__)


def seed_all(seed: Optional[int] = None, workers: bool = True) -> Optional[int]:
    """Seed python, numpy and torch through Lightning when a seed is configured."""
    if seed is not None:
        pl.seed_everything(seed, workers=workers)  # expect: RPL104
    else:
        log.warning("no seed configured; this run will not be reproducible")
    return seed
