"""The greedy Sakura player: one-move lookahead on card value, yaku chasing and yaku denial.

It reads only its observation: its own hand, the field, every capture pile (public), the dead
cards and the drawn card. A yaku is worth 50 against every other side, so a card that completes
or blocks one weighs far more than its face value; the gaji is kept for a valuable target.
"""

from __future__ import annotations

from typing import Any

from bot.cards import DECK, MONTH_OF, card, indices_in, mask
from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.sakura.scoring import VALUES, YAKU

LIGHTNING = card("lightning").index
GAJI_RESERVE = 14.0  # what keeping the wild card for a better target is worth
# Bonus for a yaku card by how many of the other two cards are already held: 0, 1, 2.
CHASE = (4.0, 15.0, 50.0)
DENY = (1.0, 10.0, 45.0)
# The other cards of each yaku a card is part of, in YAKU's order.
_YAKU_REST = tuple(tuple(need & ~(1 << i) for need in YAKU.values() if need >> i & 1)
                   for i in range(48))
_INDEX = {c.id: c.index for c in DECK}


class Table:
    """The public position from one side's point of view, as bit sets.

    Built from an observation (:meth:`of_observation`) or, in the search's rollouts, straight
    from a round state (:meth:`of_round`): the same facts, several times cheaper.
    """

    __slots__ = ("mine", "others", "dead", "field", "hand", "values", "gaji_wild", "seen",
                 "piles", "blocked", "_worth")

    def __init__(self, side_piles: list[int], side: int, dead: int, field: int, hand: int,
                 card_values: str, gaji: str) -> None:
        self.mine = mine = side_piles[side]
        self.others = others = side_piles[:side] + side_piles[side + 1:]
        self.dead = dead
        self.field = field
        self.hand = hand
        self.values = VALUES[card_values]
        self.gaji_wild = gaji == "wild"
        self.piles = piles = [mine, *others]
        taken = 0
        for pile in piles:
            taken |= pile
        self.seen = taken | dead | field | hand
        # The cards side k can no longer take: the dead ones and every other side's pile (the
        # piles hold different cards, so that is every pile's card but k's own).
        self.blocked = blocked = []
        for pile in piles:  # a loop: a comprehension is a call of its own, once a decision
            blocked.append(dead | (taken & ~pile))
        self._worth: dict[int, float] = {}  # by card + 64 x side; a table serves one decision

    @classmethod
    def of_observation(cls, obs: dict[str, Any]) -> Table:
        piles = []
        for seats in obs["sides"]:
            pile = 0
            for seat in seats:
                pile |= mask(obs["captured"][seat])
            piles.append(pile)
        rules = obs["rules"]
        return cls(piles, obs["side"], mask(obs["dead"]), mask(obs["field"]), mask(obs["hand"]),
                   rules["card_values"], rules["gaji"])

    @classmethod
    def of_round(cls, state: Any) -> Table:
        """The position of the seat to act in a Sakura round."""
        seat = state.current
        rules = state.rules
        return cls(state.side_piles(), state.side_of[seat], state.dead, state.field,
                   state.hands[seat], rules.card_values, rules.gaji)

    def worth(self, idx: int, side: int = 0) -> float:
        """What taking card ``idx`` is worth to a side (0: mine, k: the k-th other side)."""
        rests = _YAKU_REST[idx]
        if not rests:
            return float(self.values[idx])  # in no yaku: its face value
        known = self._worth.get(idx | side << 6)
        if known is not None:
            return known
        total = float(self.values[idx])
        for rest in rests:
            for k, blocked in enumerate(self.blocked):
                if rest & blocked:
                    continue  # nobody but side k can still form it, and k cannot
                held = (self.piles[k] & rest).bit_count()
                if k == side:
                    total += CHASE[held]
                elif held:
                    total += DENY[held]  # taking the card stops side k's yaku
        self._worth[idx | side << 6] = total
        return total

    def risk(self, idx: int) -> float:
        """What laying card ``idx`` on the field may give away."""
        unseen_mates = (MONTH_OF[idx] & ~self.seen).bit_count()
        sides = len(self.others)
        best = self.worth(idx, 1) if sides else 0.0  # the most any other side gains
        for k in range(2, sides + 1):
            value = self.worth(idx, k)
            if value > best:
                best = value
        return best * (0.3 + 0.2 * unseen_mates)


class GreedyPlayer:
    name = "greedy"

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.decide(Table.of_observation(observation), legal, rng)

    def decide(self, table: Table, legal: list[Action], rng: Rng) -> Action:
        """The best action at ``table``; ``rng`` breaks near ties."""
        best, best_score = legal[0], float("-inf")
        score_of, below = self._score, rng.below
        for a in legal:
            score = score_of(a, table) + below(1000) * 1e-6
            if score > best_score:
                best, best_score = a, score
        return best

    def ranked(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> list[Action]:
        """``legal`` from the best to the worst by this evaluation (the search's candidates)."""
        table = Table.of_observation(observation)
        scores = {a: self._score(a, table) for a in legal}
        return sorted(legal, key=lambda a: -scores[a])

    def _score(self, a: Action, t: Table) -> float:
        kind = a.kind
        if kind != "play":
            if kind == "choose":
                return t.worth(_INDEX[a.target])
            if kind == "hiki":
                total = 0.0
                for i in indices_in(MONTH_OF[_INDEX[a.card]]):
                    total += t.worth(i)
                return total + 5.0
            return 0.0
        c = _INDEX[a.card]
        if c == LIGHTNING and t.gaji_wild:
            reserve = GAJI_RESERVE if t.hand.bit_count() > 1 else 0.0
            if a.target is None:
                return -reserve * 0.5 if t.field else -t.risk(c)
            return t.worth(_INDEX[a.target]) + t.worth(c) - reserve
        if a.target is not None:
            return t.worth(c) + t.worth(_INDEX[a.target])
        matches = t.field & MONTH_OF[c]
        if matches.bit_count() in (1, 3):
            gained = 0.0
            for i in indices_in(matches):
                gained += t.worth(i)
            return t.worth(c) + gained
        mates_in_hand = (t.hand & MONTH_OF[c] & ~(1 << c)).bit_count()
        return -t.risk(c) + (2.0 if mates_in_hand else 0.0)


def build_world(obs: dict[str, Any]) -> tuple | None:
    """The search's world for this observation (``bot.ai.search.worlds``); ``None``: not rebuilt."""
    from bot.ai.search import worlds as w
    from bot.games.sakura import Rules, SakuraRound

    r = SakuraRound(Rules.from_dict(obs["rules"]), 0, obs["num_players"], obs["dealer"],
                    obs["round_number"], _restore=True)
    dead = w.mask_of(obs["dead"])
    hidden = w.Hidden(obs, (1 << 48) - 1, w.public(obs) | dead)
    w.set_piles(r, obs)
    r.dead = dead
    r.gaji_user = obs["gaji_user"]
    r.gaji_victim = w.index_of(obs["gaji_victim"])
    return r, hidden


def greedy_reader(player, state, legal: list[Action], rng: Rng) -> Action:
    """The greedy Sakura choice from the round's own bit sets (no observation)."""
    return player.decide(Table.of_round(state), legal, rng)
