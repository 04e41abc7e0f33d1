"""Build rounds in a chosen position, and play them, for the First Bloom tests."""

from __future__ import annotations

from bot.cards import DECK, index_of, mask
from bot.games.rng import Rng
from bot.games.shedding import Rules, SheddingRound, new_round


def position(hands: list[list[str]], field: list[str], draw: list[str] = (),
             discard: list[str] = (), current: int = 0, rules: Rules | None = None,
             seed: int = 1) -> SheddingRound:
    """A round with exactly these piles (``draw`` and ``discard`` listed bottom to top).

    Cards not listed anywhere are simply out of play; the tests that count cards use dealt rounds.
    """
    r = new_round(len(hands), rules or Rules(), seed=seed)
    r.hands = [mask(h) for h in hands]
    r.field = mask(field)
    r.draw = [index_of(c) for c in draw]
    r.discard = [index_of(c) for c in discard]
    r.current = current
    return r


def ids(cards: list[int]) -> list[str]:
    return [DECK[c].id for c in cards]


def play_random(r, rng: Rng, limit: int = 10_000) -> list:
    """Random legal moves until the round ends; returns the actions taken."""
    taken = []
    while not r.is_over and len(taken) < limit:
        legal = r.legal_actions()
        action = legal[rng.below(len(legal))]
        r.apply(action)
        taken.append(action)
    return taken
