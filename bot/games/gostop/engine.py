"""The rules engine of Go-Stop: the names ``bot.games.gostop`` gives (see the package)."""

from .descriptor import DESCRIPTOR
from .game import (
    CHONGTONG,
    CHOOSE_DRAW,
    DECIDE,
    OVER,
    PLAY,
    READING,
    GoStopMatch,
    GoStopRound,
    draw_for_dealer,
    match_from_dict,
    new_match,
    new_round,
)
from .rules import OPTIONS, YAKU_SLUGS, Rules
from .scoring import (
    JOKER_IDS,
    Yaku,
    base_score,
    best_reading,
    go_bonus,
    korean_month,
    pi_value,
    progress,
    score_yaku,
    settle,
    total,
)

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
Round = GoStopRound

__all__ = [
    "GAME", "PLAYERS", "Round", "GoStopRound", "GoStopMatch", "Rules", "OPTIONS", "YAKU_SLUGS",
    "Yaku", "JOKER_IDS", "score_yaku", "settle", "total", "base_score", "best_reading", "go_bonus",
    "korean_month", "pi_value", "progress", "new_match", "new_round", "match_from_dict",
    "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "DECIDE", "CHONGTONG", "READING", "OVER",
]
