"""Greedy Mushi player, and the one-ply evaluation it shares with Hana-Awase.

For each legal action it estimates what the action captures from the observation alone (the
played or turned card and the field cards it takes), values that by card points plus the yaku it
completes, and subtracts what a card laid on the field offers the next player. Ties go to the
first action, so the choice depends only on the observation.

The evaluation reads a :class:`Position`, the few public facts it needs. The player builds it
from the observation; the search's rollouts build the same position straight from a round state
(:meth:`Position.of_round`), which is several times cheaper than an observation and gives exactly
the same choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.cards import DECK, MONTH_OF, VALUE_OF, card, indices_in, mask
from bot.games.base import Action
from bot.games.mushi import Rules
from bot.games.mushi.scoring import YAKU_CARDS, yaku_points
from bot.games.rng import Rng

LIGHTNING = card("lightning").index
_INDEX = {c.id: c.index for c in DECK}


@dataclass(slots=True)
class Position:
    """What the fishing greedy reads: the seat's captures, the field and the rules in force."""

    pile: int
    field: int
    rules: Any
    num_players: int
    lightning_wild: bool

    @classmethod
    def of_observation(cls, obs: dict[str, Any], rules_type: Any) -> Position:
        return cls(mask(obs["captured"][obs["seat"]]), mask(obs["field"]),
                   rules_type.from_dict(obs["rules"]), obs.get("num_players", 2),
                   bool(obs.get("lightning_wild")))

    @classmethod
    def of_round(cls, state: Any) -> Position:
        """The position of the seat to act in a Mushi or Hana-Awase round."""
        return cls(state.captured[state.current], state.field, state.rules, state.num_players,
                   state._lightning_wild())


class FishingGreedy:
    """One-ply greedy over capture value; subclasses give the rules type and the card and yaku
    values."""

    name = "greedy"
    rules_type: Any = Rules
    yaku_cards: int = YAKU_CARDS  # the cards yaku_value reads
    _rules_seen: Any = None
    _memo_rules: tuple[Any, int] = (None, 0)
    _memo: dict[int, float] = {}  # replaced, never filled, at the first decision
    _values: tuple[float, ...] = ()

    def card_value(self, index: int, pos: Position) -> float:
        """Card ``index``'s worth under ``pos.rules`` (read once per rules, into a table)."""
        return VALUE_OF[index]

    def yaku_value(self, pile: int, pos: Position) -> float:
        raise NotImplementedError

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        return self.decide(Position.of_observation(observation, self.rules_type), legal)

    def _tables(self, pos: Position) -> tuple[dict[int, float], tuple[float, ...]]:
        """Yaku values by pile (its yaku cards), and card values by index, under ``pos``'s rules
        and seats: a pile's value never changes, and the search's rollouts meet the same piles
        over and over."""
        if pos.rules is not self._rules_seen or pos.num_players != self._memo_rules[1] \
                or len(self._memo) > 100_000:
            rules = (pos.rules, pos.num_players)
            if self._memo_rules != rules or len(self._memo) > 100_000:  # equal rules: kept
                self._memo_rules = rules
                self._memo = {}
                self._values = tuple(self.card_value(i, pos) for i in range(48))
            self._rules_seen = pos.rules  # the same object again is known equal at once
        return self._memo, self._values

    def _yaku(self, pile: int, pos: Position, memo: dict[int, float]) -> float:
        pile &= self.yaku_cards  # the rest of a pile changes no yaku: far fewer piles to score
        value = memo.get(pile)
        if value is None:
            value = memo[pile] = self.yaku_value(pile, pos)
        return value

    def decide(self, pos: Position, legal: list[Action]) -> Action:
        """The best action in ``pos`` (the first of equals)."""
        memo, values = self._tables(pos)
        base = self._yaku(pos.pile, pos, memo)
        best, best_score = legal[0], float("-inf")
        score_of = self._score
        for action in legal:
            score = score_of(action, pos, base, memo, values)
            if score > best_score:
                best, best_score = action, score
        return best

    def ranked(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> list[Action]:
        """``legal`` from the best to the worst by this evaluation (the search's candidates)."""
        pos = Position.of_observation(observation, self.rules_type)
        memo, values = self._tables(pos)
        base = self._yaku(pos.pile, pos, memo)
        order = sorted(range(len(legal)),
                       key=lambda i: (-self._score(legal[i], pos, base, memo, values), i))
        return [legal[i] for i in order]

    def _score(self, action: Action, pos: Position, base: float, memo: dict[int, float],
               values: tuple[float, ...]) -> float:
        if action.card is None:
            return 0.0  # a forced draw or a single decision
        played = _INDEX[action.card]
        # What it takes: the chosen card, else its month's single or three field cards.
        if action.target is not None:
            taken = 1 << _INDEX[action.target]
        elif played == LIGHTNING and pos.lightning_wild:
            taken = 0
        else:
            taken = pos.field & MONTH_OF[played]
            if pos.lightning_wild:
                taken &= ~(1 << LIGHTNING)  # a wild lightning on the field is no month mate
            if taken.bit_count() not in (1, 3):
                taken = 0
        if not taken:
            # Laid on the field: the opponents may take it, and it helps them to its month.
            return -0.5 * values[played] - (0.3 if played == LIGHTNING else 0.0)
        gained = taken | (1 << played)
        value = 0.0
        for index in indices_in(gained):
            value += values[index]
        yaku = memo.get((pos.pile | gained) & self.yaku_cards)  # as _yaku, without its call
        if yaku is None:
            yaku = self._yaku(pos.pile | gained, pos, memo)
        return value + (yaku - base)


class GreedyPlayer(FishingGreedy):
    """Greedy Mushi: card points plus yaku, which count double in a zero-sum settlement."""

    def yaku_value(self, pile: int, pos: Position) -> float:
        return 2 * yaku_points(pile, pos.rules)


def build_world(obs: dict[str, Any]) -> tuple | None:
    """The search's world for this observation (``bot.ai.search.worlds``)."""
    from bot.ai.search.worlds import playout
    from bot.games.mushi import MushiRound

    return playout(MushiRound, obs)


def greedy_reader(player, state, legal: list[Action], rng: Rng) -> Action:
    """The greedy Mushi / Hana-Awase choice from the round's own bit sets (no observation)."""
    return player.decide(Position.of_round(state), legal)


__all__ = ["build_world", "greedy_reader", "FishingGreedy", "GreedyPlayer", "Position"]
