"""The rules engine of Koi-Koi: the names ``bot.games.koikoi`` gives (see the package)."""

from .descriptor import DESCRIPTOR
from .game import (
    CHOOSE_DRAW,
    DECIDE,
    OVER,
    PLAY,
    SWAP,
    KoiKoiRound,
    draw_for_dealer,
    match_from_dict,
    new_match,
    new_round,
)
from .rules import OPTIONS, YAKU_SLUGS, Rules
from .scoring import Yaku, multipliers, progress, score_yaku, total

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
Round = KoiKoiRound

__all__ = [
    "GAME", "PLAYERS", "Round", "KoiKoiRound", "Rules", "OPTIONS", "YAKU_SLUGS", "Yaku",
    "score_yaku", "total", "multipliers", "progress", "new_match", "new_round",
    "match_from_dict", "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "DECIDE", "SWAP", "OVER",
]
