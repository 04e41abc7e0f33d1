"""The rules engine of Hana-Awase: the names ``bot.games.hana_awase`` gives (see the package)."""

from ..capture import CHOOSE_DRAW, OVER, PLAY
from .descriptor import DESCRIPTOR
from .game import HANDS, HanaAwaseRound, match_from_dict, new_match, new_round
from .rules import OPTIONS, POINT_TABLES, YAKU_SLUGS, Rules
from .scoring import Yaku, card_points, score_yaku, settle, table_yaku, total

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
Round = HanaAwaseRound

__all__ = [
    "GAME", "PLAYERS", "Round", "HanaAwaseRound", "HANDS", "Rules", "OPTIONS", "POINT_TABLES",
    "YAKU_SLUGS", "Yaku", "score_yaku", "card_points", "settle", "table_yaku", "total",
    "new_match", "new_round", "match_from_dict", "PLAY", "CHOOSE_DRAW", "OVER",
]
