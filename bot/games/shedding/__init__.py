"""First Bloom: the flower shedding game of seed 002 ("Untitled"), for 2 to 5 players
(docs/rules/first-bloom.md).

Not a fishing game, so it does not use ``FishingRound``; it implements the same
:class:`~bot.games.base.RoundState` contract and reuses the deal helper and :class:`Rng`.
"""

from .game import (
    OVER,
    PLAY,
    RACE,
    STRUGGLING,
    SheddingRound,
    first_dealer,
    hand_size,
    match_from_dict,
    new_match,
    new_round,
)
from .moves import effect_of
from .payout import BRIGHT_PAYMENT, OTHER_PAYMENT, Yaku, hand_value, score_yaku, settle, settlement
from .rules import OPTIONS, Rules
from .text import NAME, RULES_TEXT

GAME = "shedding"
PLAYERS = (2, 5)
Round = SheddingRound

__all__ = [
    "GAME", "NAME", "PLAYERS", "RULES_TEXT", "Round", "SheddingRound", "Rules", "OPTIONS",
    "Yaku", "score_yaku", "hand_value", "settle", "settlement", "effect_of", "new_match",
    "new_round", "match_from_dict", "first_dealer", "hand_size", "BRIGHT_PAYMENT",
    "OTHER_PAYMENT", "PLAY", "STRUGGLING", "RACE", "OVER",
]
