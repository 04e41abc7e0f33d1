"""Seotda players. Both read only their observation (their own cards, the public bets).

- :class:`GreedyPlayer` (normal): a hand-strength threshold policy. A hand's strength is its
  chance to beat one random hand of the remaining cards (:func:`strength`), raised to the number
  of opponents still in; it raises above one threshold, calls above another and dies below.
- :class:`EquityPlayer` (hard, expert): Monte Carlo equity. It deals the cards it cannot see to
  the opponents still in, many times, each deal weighted by how likely the opponents' bets are
  with those cards (a raise makes a strong hand likelier), and compares the equity with the
  price of a call; it raises for value, and now and then as a bluff.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.seotda import DECK, RAISES, best_two, evaluate, showdown


@lru_cache(maxsize=4)
def _strengths(specials: bool) -> dict[tuple[str, str], float]:
    """Every two-card hand's chance against one random hand of the other 18 cards (a tie or a
    redeal counts half)."""
    hands = {pair: evaluate(pair, specials) for pair in combinations(DECK, 2)}
    out = {}
    for pair, hand in hands.items():
        score = count = 0.0
        for other, theirs in hands.items():
            if set(pair) & set(other):
                continue
            result = showdown({0: hand, 1: theirs})
            score += 0.5 if result.redeal or len(result.winners) > 1 else float(result.winners == (0,))
            count += 1
        out[pair] = out[pair[::-1]] = score / count
    return out


def strength(cards: list[str], specials: bool = True) -> float:
    """The chance of two cards (three: the best two) against one random hand."""
    table = _strengths(specials)
    if len(cards) == 2:
        return table[(cards[0], cards[1])]
    return max(table[pair] for pair in combinations(cards, 2))


def _specials(obs: dict[str, Any]) -> bool:
    return obs.get("special_hands", True)


def _playing(obs: dict[str, Any]) -> list[str]:
    """The cards this seat plays: the two it kept, else its hand."""
    return obs["kept"] or obs["hand"]


def _opponents(obs: dict[str, Any]) -> list[int]:
    return [s for s, live in enumerate(obs["live"]) if live and s != obs["seat"]]


def _pick(legal: list[Action], *kinds: str) -> Action | None:
    by_kind = {a.kind: a for a in legal}
    return next((by_kind[k] for k in kinds if k in by_kind), None)


def _best_keep(obs: dict[str, Any], legal: list[Action]) -> Action:
    table = _strengths(_specials(obs))
    return max(legal, key=lambda a: table[(a.card, a.target)])


class GreedyPlayer:
    """Raise above ``raise_at``, call above ``call_at``, die below (strength vs the table)."""

    name = "greedy"
    raise_at = 0.72
    call_at = 0.45

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if legal[0].kind == "keep":
            return _best_keep(observation, legal)
        e = strength(_playing(observation), _specials(observation)) ** max(1, len(_opponents(observation)))
        if e >= self.raise_at and (a := _pick(legal, "half", "bbing", "ddadang")):
            return a
        if observation["to_call"] == 0:
            return _pick(legal, "check", "die")
        if e >= self.call_at:
            return _pick(legal, "call", "allin", "die")
        return _pick(legal, "die")


class EquityPlayer:
    """Monte Carlo equity over the unseen cards, the opponents' bets read as evidence, and the
    expected chips of each legal bet (a raise also wins when every opponent dies to it)."""

    def __init__(self, samples: int = 200, bluff: float = 0.05, name: str = "hard") -> None:
        self.samples = samples
        self.bluff = bluff
        self.name = name

    @staticmethod
    def _evidence(obs: dict[str, Any], opponents: list[int]) -> dict[int, tuple[int, int, int]]:
        """Per opponent: raises, calls and checks in this deal's betting."""
        seen = {s: [0, 0, 0] for s in opponents}
        for bet in obs["history"]:
            if bet["player"] in seen:
                slot = 0 if bet["action"] in RAISES else 1 if bet["action"] in ("call", "allin") else 2
                if bet["action"] != "die":
                    seen[bet["player"]][slot] += 1
        return {s: tuple(v) for s, v in seen.items()}

    def worlds(self, obs: dict[str, Any], rng: Rng, fold_below: float) -> tuple[float, float, float]:
        """(equity, chance that every opponent dies to a raise, equity when they do not), each
        world weighted by how likely the opponents' bets are with its cards."""
        specials = _specials(obs)
        table = _strengths(specials)
        mine = list(obs["hand"])
        opponents = _opponents(obs)
        evidence = self._evidence(obs, opponents)
        unseen = [c for c in DECK if c not in mine]
        three = obs["cards_per_hand"] == 3
        street_one = three and obs["street"] == 1
        their_count = 3 if three else 2
        field = len(opponents)  # each opponent faces as many hands as this seat does
        total = weight_sum = folds = called_value = called_weight = 0.0
        for _ in range(self.samples):
            rng.shuffle(unseen)
            pos = 0
            cards = list(obs["kept"] or mine)
            if street_one and len(cards) == 2:
                cards.append(unseen[0])
                pos = 1
            hands = {obs["seat"]: best_two(cards, specials) if len(cards) == 3 else evaluate(cards, specials)}
            weight = 1.0
            all_fold = True
            for s in opponents:
                theirs = unseen[pos:pos + their_count]
                pos += their_count
                hand = best_two(theirs, specials) if len(theirs) == 3 else evaluate(theirs, specials)
                hands[s] = hand
                # their chance against the field they face, as they would judge it
                p = (table[best_two(theirs[:2], specials).cards] if street_one else table[hand.cards]) ** field
                raised, called, checked = evidence[s]
                weight *= p ** (3 * raised + called) * (1 - 0.7 * p * p) ** checked
                all_fold = all_fold and p < fold_below
            result = showdown(hands)
            if result.redeal:
                value = 1.0 / len(hands)
            else:
                value = 1.0 / len(result.winners) if obs["seat"] in result.winners else 0.0
            total += weight * value
            weight_sum += weight
            if all_fold:
                folds += weight
            else:
                called_value += weight * value
                called_weight += weight
        if not weight_sum:
            return 0.0, 0.0, 0.0
        return (total / weight_sum, folds / weight_sum,
                called_value / called_weight if called_weight else 0.0)

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if legal[0].kind == "keep":
            return _best_keep(observation, legal)
        obs = observation
        costs = obs["costs"]
        pot = obs["pot"]
        bets = obs["round_bets"]
        me = obs["seat"]
        opponents = _opponents(obs)
        # An opponent is taken to call a half-pot raise with a hand that beats a random one
        # 40% of the time or more: the pot odds of that raise (1 to 3) and a margin.
        equity, fold, called = self.worlds(obs, rng, fold_below=0.4)
        options: dict[str, float] = {}
        if "check" in costs:
            options["check"] = equity * pot
        for kind in ("call", "allin"):
            if kind in costs:
                options[kind] = equity * (pot + costs[kind]) - costs[kind]
        for kind in ("half", "ddadang", "bbing"):
            if kind in costs:
                cost = costs[kind]
                level = bets[me] + cost
                answers = sum(max(0, min(level - bets[s], obs["stacks"][s])) for s in opponents)
                options[kind] = fold * pot + (1 - fold) * (called * (pot + cost + answers) - cost)
        options["die"] = 0.0
        best = max(options, key=lambda k: options[k])
        raises = [k for k in ("half", "ddadang", "bbing") if k in costs]
        if best not in raises and raises and rng.below(1000) < self.bluff * 1000:
            best = raises[0]  # now and then a raise nobody can read
        return next(a for a in legal if a.kind == best)


def price_calls(obs: dict[str, Any], legal: list[str], seed: int, samples: int
                ) -> list[dict[str, Any]]:
    """What a hint says of a betting decision: each legal bet with its expected chips (as the
    equity player weighs them, the bet itself taken out) and its chance to win the hand (dying
    wins nothing; a raise also wins when every opponent dies to it), best first. Choosing the
    two cards to keep is not priced (empty)."""
    actions = [Action.parse(a) for a in legal]
    if not actions or actions[0].kind == "keep":
        return []
    equity, fold, called = EquityPlayer(samples=samples).worlds(obs, Rng(seed), fold_below=0.4)
    costs, pot, bets, me = obs["costs"], obs["pot"], obs["round_bets"], obs["seat"]
    priced = []
    for action in actions:
        kind = action.kind
        cost = costs.get(kind, 0)
        if kind == "die":
            chips, win = 0.0, 0.0
        elif kind in ("half", "ddadang", "bbing"):
            level = bets[me] + cost
            answers = sum(max(0, min(level - bets[s], obs["stacks"][s])) for s in _opponents(obs))
            chips = fold * pot + (1 - fold) * (called * (pot + cost + answers) - cost)
            win = fold + (1 - fold) * called
        else:  # check, call, all in: to the showdown at this price
            chips = equity * (pot + cost) - cost
            win = equity
        priced.append({"action": str(action), "points": chips, "win": win})
    priced.sort(key=lambda p: (-p["points"], -p["win"]))
    return priced


def search_player(level: str) -> EquityPlayer:
    """The ``hard`` and ``expert`` levels: equity over 200 and 800 sampled deals."""
    return EquityPlayer(samples=200 if level == "hard" else 800, name=level)


__all__ = ["GreedyPlayer", "EquityPlayer", "strength", "search_player", "price_calls"]
