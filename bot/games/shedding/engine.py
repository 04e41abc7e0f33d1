"""The rules engine of First Bloom: the names ``bot.games.shedding`` gives (see the package)."""

from .descriptor import DESCRIPTOR
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

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
Round = SheddingRound

__all__ = [
    "GAME", "NAME", "PLAYERS", "RULES_TEXT", "Round", "SheddingRound", "Rules", "OPTIONS",
    "Yaku", "score_yaku", "hand_value", "settle", "settlement", "effect_of", "new_match",
    "new_round", "match_from_dict", "first_dealer", "hand_size", "BRIGHT_PAYMENT",
    "OTHER_PAYMENT", "PLAY", "STRUGGLING", "RACE", "OVER",
]
