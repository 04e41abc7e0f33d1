"""Koi-Koi: the two-player Japanese fishing game (docs/rules/koikoi.md)."""

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

GAME = "koikoi"
PLAYERS = (2, 2)
Round = KoiKoiRound

__all__ = [
    "GAME", "PLAYERS", "Round", "KoiKoiRound", "Rules", "OPTIONS", "YAKU_SLUGS", "Yaku",
    "score_yaku", "total", "multipliers", "progress", "new_match", "new_round",
    "match_from_dict", "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "DECIDE", "SWAP", "OVER",
]
