"""The rules engine of Sakura (Higo-Bana): the names ``bot.games.sakura`` gives (see the package)."""

from .descriptor import DESCRIPTOR
from .game import (
    CHOOSE_DRAW,
    GAJI_AGAIN,
    OVER,
    PLAY,
    SakuraRound,
    draw_for_dealer,
    match_from_dict,
    new_match,
    new_round,
)
from .rules import DEAL, OPTIONS, YAKU_VALUE, Rules
from .scoring import YAKU, YAKU_SLUGS, Yaku, card_points, score_yaku, settle, side_scores

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
Round = SakuraRound

__all__ = [
    "GAME", "PLAYERS", "Round", "SakuraRound", "Rules", "OPTIONS", "DEAL", "YAKU", "YAKU_SLUGS",
    "YAKU_VALUE", "Yaku", "score_yaku", "card_points", "side_scores", "settle", "new_match",
    "new_round", "match_from_dict", "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "GAJI_AGAIN", "OVER",
]
