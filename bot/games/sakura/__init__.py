"""Higo-Bana / Sakura: the Hawaiian fishing game for 2 to 7 players (docs/rules/sakura.md)."""

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

GAME = "sakura"
PLAYERS = (2, 7)
Round = SakuraRound

__all__ = [
    "GAME", "PLAYERS", "Round", "SakuraRound", "Rules", "OPTIONS", "DEAL", "YAKU", "YAKU_SLUGS",
    "YAKU_VALUE", "Yaku", "score_yaku", "card_points", "side_scores", "settle", "new_match",
    "new_round", "match_from_dict", "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "GAJI_AGAIN", "OVER",
]
