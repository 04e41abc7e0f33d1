"""The greedy Koi-Koi player: one-move lookahead on card worth, yaku chasing and denial.

It reads only its observation: its hand, the field, both capture piles (public), the drawn card,
the koi-koi calls and the yaku progress. The koi-koi decision weighs the points in hand against
the opponent's threat and the cards left, instead of a fixed threshold.
"""

from __future__ import annotations

from typing import Any

from bot.cards import (
    BLUE_RIBBONS,
    BRIGHTS,
    MONTH_MASKS,
    POETRY_RIBBONS,
    Kind,
    card,
    mask,
)
from bot.games.base import Action
from bot.games.rng import Rng

RAIN = card("rainman").bit
SAKE = card("sake_cup").bit
VIEW = mask(["curtain", "moon"])
GROUPS: tuple[tuple[int, int], ...] = (
    (BRIGHTS & ~RAIN, 3),
    (POETRY_RIBBONS, 3),
    (BLUE_RIBBONS, 3),
    (mask(["boar", "deer", "butterflies"]), 3),
    (VIEW | SAKE, 2),
)
_BASE = {Kind.BRIGHT: 6.0, Kind.ANIMAL: 2.5, Kind.RIBBON: 2.5, Kind.CHAFF: 1.0}


def _m(ids) -> int:
    return mask(ids)


def card_worth(idx: int, mine: int, theirs: int) -> float:
    """How much taking card ``idx`` is worth to me, given both capture piles."""
    c = card(idx)
    worth = _BASE[c.kind]
    if c.bit == SAKE:
        worth += 5.0
    if c.bit == RAIN:
        worth -= 3.0
    for group, need in GROUPS:
        if not c.bit & group:
            continue
        have = (mine & group).bit_count()
        blocked = (theirs & group).bit_count()
        if (group & ~theirs).bit_count() >= need:  # still possible for me
            worth += 2.0 * have + (6.0 if have == need - 1 else 0.0)
        if blocked and (group & ~mine).bit_count() >= need:  # the opponent chases it
            worth += 1.5 * blocked + (5.0 if blocked == need - 1 else 0.0)
    return worth


class GreedyPlayer:
    name = "greedy"

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        kinds = {a.kind for a in legal}
        if "koikoi" in kinds or kinds == {"stop"}:
            return self._decide(observation, legal)
        if "swap" in kinds:
            return Action("keep")
        seat = observation["seat"]
        mine = _m(observation["captured"][seat])
        theirs = _m(observation["captured"][1 - seat])
        field = _m(observation["field"])
        hand = _m(observation["hand"])
        seen = mine | theirs | field | hand
        best, best_score = legal[0], float("-inf")
        for a in legal:
            score = self._score(a, field, hand, mine, theirs, seen)
            score += rng.below(1000) * 1e-6  # break ties without a fixed bias
            if score > best_score:
                best, best_score = a, score
        return best

    def _score(self, a: Action, field: int, hand: int, mine: int, theirs: int, seen: int) -> float:
        c = card(a.card)
        if a.kind == "choose":
            return card_worth(card(a.target).index, mine, theirs)
        matches = field & MONTH_MASKS[c.month]
        if a.target is not None:
            taken = card(a.target).bit
        elif matches:
            taken = matches
        else:
            taken = 0
        if taken:
            return card_worth(c.index, mine, theirs) + sum(
                card_worth(i, mine, theirs) for i in range(48) if taken >> i & 1)
        # A discard gives the card away if its month-mates are still out there.
        unseen_mates = (MONTH_MASKS[c.month] & ~seen).bit_count()
        mates_in_hand = (hand & MONTH_MASKS[c.month] & ~c.bit).bit_count()
        risk = card_worth(c.index, theirs, mine) * (0.4 + 0.2 * unseen_mates)
        return -risk + (1.5 if mates_in_hand else 0.0)

    def _decide(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        if Action("koikoi") not in legal:
            return Action("stop")
        seat = obs["seat"]
        opp = 1 - seat
        my_points = sum(p for _, p in obs["yaku"][seat])
        cards_left = len(obs["hand"])
        threat = 0.0
        for _slug, have, need in obs["progress"][opp]:
            threat += 1.0 if need - have <= 1 else 0.4
        if obs["koikoi_calls"][opp]:
            threat += 1.5  # any yaku they improve now ends the round doubled
        if obs["yaku"][opp]:
            threat += 1.0
        # Koi-koi when the round is young, my points small and the opponent far from scoring.
        if my_points >= 7 or cards_left <= 2 or threat >= 1.5:
            return Action("stop")
        if my_points <= 3 and cards_left >= 4 and threat < 1.0:
            return Action("koikoi")
        return Action("stop")


def build_world(obs: dict[str, Any]) -> tuple | None:
    """The search's world for this observation (``bot.ai.search.worlds``); ``None``: not rebuilt."""
    from bot.ai.search import worlds as w
    from bot.games.koikoi import KoiKoiRound, Rules
    from bot.games.koikoi.scoring import total, yaku_of

    rules = Rules.from_dict(obs["rules"])
    r = KoiKoiRound(rules, 0, obs["dealer"], obs["round_number"], _restore=True)
    hidden = w.Hidden(obs, (1 << 48) - 1, w.public(obs))
    w.set_piles(r, obs)
    r.calls = list(obs["koikoi_calls"])
    r.field_brights = obs["field_brights"]
    r.wild = obs["lightning_wild"]
    month = (r.round_number - 1) % 12 + 1
    # After a koi-koi call any improvement asks again, so the score at the last call is the
    # score now (the seat deciding now is the exception, and its call resets it anyway).
    for p in (0, 1):
        if r.calls[p]:
            yaku = yaku_of(r.captured[p], rules, month, r.field, True)
            r.claimed[p] = total(yaku)
            r.claimed_slugs[p] = [y.slug for y in yaku]
            r.last_improver = p
    return r, hidden
