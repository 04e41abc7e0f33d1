"""The greedy First Bloom player, and the human-like slap delay of AI seats in the race.

The player reads only its observation (its hand, the field, hand sizes, the rules) and the legal
actions. It scores each move one step ahead: cards shed (the whole hand wins at once), payout
risk removed (brights cost 5), the effect its top card has on the next player (worth more when
that player is close to going out), and how many of the cards it keeps can still be shed next
turn. It draws only when nothing sheds, and discards a drawn card that matches (6A).
"""

from __future__ import annotations

from typing import Any

from bot.cards import BRIGHTS, DECK, MONTH_MASKS, mask
from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.shedding import Rules, effect_of
from bot.games.shedding import moves as mv

CARD = 10.0  # one card shed
RISK = 1.5  # per payout point removed from the hand (bright 5, other 1)
FUTURE = 2.5  # per kept card that can still be shed next turn
EFFECT = {mv.BRIGHT: 22.0, mv.POETRY: 9.0, mv.SKIP: 14.0}
WIN = 1000.0


def slap_delay(rng: Rng, fastest: float = 0.6, slowest: float = 2.0) -> float:
    """Seconds an AI seat waits before slapping the winner's hand, like a person would.

    The mean of three uniform draws gives a bell-shaped reaction time between ``fastest`` and
    ``slowest`` (1.3 s on average with the defaults), so AI seats neither always win nor always
    lose the race against people.
    """
    if not 0 <= fastest <= slowest:
        raise ValueError("need 0 <= fastest <= slowest")
    spread = sum(rng.next64() / 2**64 for _ in range(3)) / 3
    return fastest + (slowest - fastest) * spread


def _payout(cards: int) -> int:
    return 5 * (cards & BRIGHTS).bit_count() + (cards & ~BRIGHTS).bit_count()


def _sheddable(hand: int, field: int) -> int:
    """How many cards of ``hand`` could leave it next turn: pairs in hand or a field match."""
    count = 0
    for m in range(1, 13):
        mine = hand & MONTH_MASKS[m]
        if mine.bit_count() >= 2 or (mine and field & MONTH_MASKS[m]):
            count += mine.bit_count()
    return count


def _cards_of(action: Action, hand: int) -> tuple[int, int]:
    """(hand cards the move sheds, field cards it removes)."""
    top = mv.index(action.card)
    month = MONTH_MASKS[DECK[top].month]
    if action.kind == mv.MATCH:
        return 1 << top, 1 << mv.index(action.target)
    if action.kind == mv.PAIR:
        return (1 << top) | (1 << mv.index(action.target)), 0
    if action.kind == mv.FIELD_PAIR:
        a, b = mv.parse_field_pair(action.target)
        return 1 << top, (1 << a) | (1 << b)
    if action.kind == mv.FIELD_HIKI:
        return hand & month, month & ~hand
    return hand & month, 0  # HAND_HIKI


class GreedyPlayer:
    """One-move lookahead on cards shed, payout risk, effects and what stays sheddable."""

    name = "greedy"

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        quick = self.quick(observation["phase"], legal, rng)
        if quick is not None:
            return quick
        return self.decide(Rules.from_dict(observation["rules"]), mask(observation["hand"]),
                           mask(observation["field"]), observation["seat"],
                           observation["hand_sizes"], legal, rng)

    @staticmethod
    def quick(phase: str, legal: list[Action], rng: Rng) -> Action | None:
        """The race and the struggle need no weighing (None in the other phases)."""
        if phase == "race":  # a fair race among AI seats: a random seat slaps first
            slaps = [a for a in legal if a.kind == mv.SLAP] or legal
            return slaps[rng.below(len(slaps))]
        if phase == "struggle":
            return next((a for a in legal if a.kind == mv.STRUGGLE_MATCH), legal[0])
        return None

    def decide(self, rules: Rules, hand: int, field: int, seat: int, sizes: list[int],
               legal: list[Action], rng: Rng) -> Action:
        """The best move for ``hand`` on ``field`` (ties drawn at random); ``sizes`` are the
        seats' hand sizes: the next seat's tells how urgent an effect on it is."""
        nxt = sizes[(seat + 1) % len(sizes)]
        scored = [(self._score(a, hand, field, nxt, len(sizes), rules), i)
                  for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        ties = [i for s, i in scored if s == best]
        return legal[ties[rng.below(len(ties))]]

    def _score(self, action: Action, hand: int, field: int, next_size: int, players: int,
               rules: Rules) -> float:
        if action.kind == mv.PASS:
            return 0.0
        if action.kind == mv.STRUGGLE:
            return -CARD
        shed, taken = _cards_of(action, hand)
        kept = hand & ~shed
        if not kept:
            return WIN
        after = field & ~taken
        if action.kind == mv.FIELD_PAIR:
            after |= shed
        score = CARD * shed.bit_count() + RISK * _payout(shed) + FUTURE * _sheddable(kept, after)
        if action.kind != mv.FIELD_PAIR:
            effect = effect_of(mv.index(action.card), rules)
            if effect is not None:
                urgency = 2.0 if next_size <= 2 else 1.0
                if effect == mv.SKIP and players == 2:
                    urgency *= 1.5  # skipping the only opponent is a second move for me
                score += EFFECT[effect] * urgency
        return score


def build_world(obs: dict[str, Any]) -> tuple | None:
    """The search's world for this observation (``bot.ai.search.worlds``); ``None``: not rebuilt."""
    from bot.ai.search import worlds as w
    from bot.games.shedding import Rules, SheddingRound

    n = obs["num_players"]
    r = SheddingRound(n, Rules.from_dict(obs["rules"]), 0, obs["dealer"], obs["round_number"],
                      _restore=True)
    discard = [w.INDEX[c] for c in obs["discard"]]
    seen = w.mask_of(obs["hand"]) | w.mask_of(obs["field"]) | w.bits_of(discard)
    if obs["drawn"]:
        seen |= 1 << w.INDEX[obs["drawn"]]
    hidden = w.Hidden(obs, (1 << 48) - 1, seen, stock_key="draw_count", stock_attr="draw")
    r.field = w.mask_of(obs["field"])
    r.discard = discard
    r.current = obs["current_player"]
    r.phase = obs["phase"]
    r.drawn = w.index_of(obs["drawn"])
    r.turn = obs["turn"]
    r.winner = obs["winner"]
    r.slaps = list(obs["slaps"])
    return r, hidden


def greedy_reader(player, state, legal: list[Action], rng: Rng) -> Action:
    """The greedy shedding move from the round's own bit sets (no observation)."""
    quick = player.quick(state.phase, legal, rng)
    if quick is not None:
        return quick
    seat = state.current
    return player.decide(state.rules, state.hands[seat], state.field, seat,
                         [h.bit_count() for h in state.hands], legal, rng)


__all__ = ["build_world", "greedy_reader", "GreedyPlayer", "slap_delay"]
