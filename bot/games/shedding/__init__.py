"""First Bloom: the flower shedding game of seed 002 ("Untitled"), for 2 to 5 players
(docs/rules/first-bloom.md).

Not a fishing game, so it does not use ``FishingRound``; it implements the same
:class:`~bot.games.base.RoundState` contract and reuses the deal helper and :class:`Rng`.
"""

from ..descriptor import lazy_engine
from .descriptor import DESCRIPTOR

# The engine's names (``Rules``, ``new_match``...) load from .engine when first read, so the
# descriptor costs no engine import.
__getattr__ = lazy_engine(__name__, f"{__name__}.engine")

__all__ = ["DESCRIPTOR"]
