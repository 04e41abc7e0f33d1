"""Seotda (섯다): the Korean betting game of two (or three) cards from a 20-card deck, for 2 to 6
players (docs/rules/seotda.md). Not a fishing game: it implements the
:class:`~bot.games.base.RoundState` contract with chips instead of yaku; a match's scores are the
chips each seat has won or lost.
"""

from .game import (
    ALLIN,
    BBING,
    BET,
    BET_KINDS,
    CALL,
    CHECK,
    DDADANG,
    DIE,
    HALF,
    KEEP,
    OVER,
    RAISES,
    SeotdaRound,
    ShortStack,
    first_dealer,
    match_from_dict,
    new_match,
    new_round,
)
from .hands import (
    DECK,
    GWANG,
    HAND_SLUGS,
    SPECIAL,
    YEOLKKEUT,
    Hand,
    Showdown,
    best_two,
    evaluate,
    showdown,
)
from .rules import OPTIONS, Rules

GAME = "seotda"
PLAYERS = (2, 6)
Round = SeotdaRound


def score_yaku(cards, rules: Rules | None = None) -> list[tuple[str, int]]:
    """The contract's scoring function: the hand two cards make, as ``[(slug, strength)]``
    (three cards: the best two)."""
    ids = [str(c) for c in cards]
    specials = (rules or Rules()).special_hands
    hand = evaluate(ids, specials) if len(ids) == 2 else best_two(ids, specials)
    return [(hand.slug, hand.strength)]


__all__ = [
    "GAME", "PLAYERS", "Round", "SeotdaRound", "ShortStack", "Rules", "OPTIONS", "DECK", "GWANG",
    "YEOLKKEUT", "SPECIAL", "HAND_SLUGS", "Hand", "Showdown", "evaluate", "best_two", "showdown",
    "score_yaku", "new_match", "new_round", "match_from_dict", "first_dealer", "BET", "KEEP", "OVER",
    "BET_KINDS", "RAISES", "CHECK", "BBING", "CALL", "HALF", "DDADANG", "DIE", "ALLIN",
]
