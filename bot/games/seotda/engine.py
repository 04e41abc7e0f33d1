"""The rules engine of Seotda: the names ``bot.games.seotda`` gives (see the package)."""

from .descriptor import DESCRIPTOR
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

GAME = DESCRIPTOR.slug
PLAYERS = DESCRIPTOR.seats
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
