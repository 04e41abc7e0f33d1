"""Seotda (섯다): the Korean betting game of two (or three) cards from a 20-card deck, for 2 to 6
players (docs/rules/seotda.md). Not a fishing game: it implements the
:class:`~bot.games.base.RoundState` contract with chips instead of yaku; a match's scores are the
chips each seat has won or lost.
"""

from ..descriptor import lazy_engine
from .descriptor import DESCRIPTOR

# The engine's names (``Rules``, ``new_match``...) load from .engine when first read, so the
# descriptor costs no engine import.
__getattr__ = lazy_engine(__name__, f"{__name__}.engine")

__all__ = ["DESCRIPTOR"]
