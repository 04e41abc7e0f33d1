"""The rules engine of Mushi: the names ``bot.games.mushi`` gives (see the package)."""

from ..capture import CHOOSE_DRAW, OVER, PLAY
from .descriptor import DESCRIPTOR
from .game import MushiRound, match_from_dict, new_match, new_round
from .lightning import WildLightning
from .playout import PlayOutRound, draw_for_dealer
from .rules import OPTIONS, YAKU_SLUGS, Rules
from .scoring import MUSHI_DECK, Yaku, card_points, score_yaku, settle, total

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
Round = MushiRound

__all__ = [
    "GAME", "PLAYERS", "Round", "MushiRound", "PlayOutRound", "WildLightning", "Rules", "OPTIONS",
    "YAKU_SLUGS", "Yaku", "MUSHI_DECK", "score_yaku", "card_points", "settle", "total",
    "new_match", "new_round", "match_from_dict", "draw_for_dealer", "PLAY", "CHOOSE_DRAW", "OVER",
]
