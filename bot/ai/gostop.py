"""The greedy Go-Stop player: one-move lookahead on card worth, yaku chasing and denial.

It reads only its observation (its hand, the field, every capture pile, the revealed triplets,
the stacks, the scores and go calls) and the legal actions. Plays are scored by what they capture
now (the hand card only: the stock card is unknown), with the worth of a card raised when it
brings a yaku of its own closer or takes the last card an opponent needs, and a lone card thrown
to the field costed by the chance that an opponent takes it. Bombs, jokers and chongtong are
always taken, a triplet is shaken when one of its cards is played, and the draw-only turns of a
bomb are spent when no play captures. Go or stop weighs the cards it has left against the
opponents' threat (their score and near yaku), and it reads the sake cup the way that pays best.

``python -m bot.ai.gostop --rounds 2000`` measures it against the random player (2 and 3 seats).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from bot.cards import (
    ANIMALS,
    BIRDS,
    BLUE_RIBBONS,
    BRIGHTS,
    CHAFF,
    DECK,
    GRASS_RIBBONS,
    MONTH_MASKS,
    POETRY_RIBBONS,
    RIBBONS,
    Kind,
)
from bot.games.base import Action
from bot.games.gostop.scoring import (
    DOUBLE_PI,
    JOKER_BASE,
    JOKER_IDS,
    RAIN,
    SAKE,
    card_id,
    card_index,
)
from bot.games.rng import Rng

_BASE = {Kind.BRIGHT: 4.0, Kind.ANIMAL: 1.6, Kind.RIBBON: 1.4, Kind.CHAFF: 1.0}
# (cards, points of the yaku they make when all three are held)
SETS: tuple[tuple[int, float], ...] = (
    (BIRDS, 5.0),
    (POETRY_RIBBONS, 3.0),
    (BLUE_RIBBONS, 3.0),
    (GRASS_RIBBONS, 3.0),
)


def _mask(ids) -> int:
    m = 0
    for cid in ids:
        m |= 1 << card_index(cid)
    return m


def _pi(m: int) -> int:
    return (m & CHAFF).bit_count() + (m & DOUBLE_PI).bit_count() + 2 * ((m >> JOKER_BASE) & 0b11).bit_count() \
        + 3 * ((m >> (JOKER_BASE + 2)) & 1)


# Card ids of legal actions are valid: read them with one lookup, not card_index's checks.
_INDEX = {card_id(i): i for i in range(JOKER_BASE + len(JOKER_IDS))}

# What go or stop weighs, per seat: (cards left in hand, bomb turns left, go calls, scores).
Standing = tuple[list[int], list[int], list[int], list[int]]


class Table:
    """What a seat sees, as bit sets: from its observation, or read straight from the round
    (the search's rollouts, which then build no observation). ``standing`` gives what go or
    stop weighs, read only when it is asked for."""

    def __init__(self, seat: int, hand: int, field: int, piles: list[int], revealed: int,
                 stop_minimum: int, standing: Callable[[], Standing] | None = None) -> None:
        self.standing = standing
        self.seat = seat
        self.n = len(piles)
        self.hand = hand
        self.field = field
        self.piles = piles
        self.mine = piles[seat]
        self.others = [p for s, p in enumerate(piles) if s != seat]
        theirs = 0
        for p in self.others:
            theirs |= p
        self.theirs = theirs
        self.seen = hand | field | self.mine | theirs
        self.revealed = revealed  # other seats' cards shown by a shake
        self.stop_minimum = stop_minimum

    @classmethod
    def of_observation(cls, obs: dict[str, Any]) -> Table:
        seat = obs["seat"]
        revealed = 0
        for s, cards in enumerate(obs.get("revealed", [])):
            if s != seat:
                revealed |= _mask(cards)
        return cls(seat, _mask(obs["hand"]), _mask(obs["field"]),
                   [_mask(p) for p in obs["captured"]], revealed, obs["stop_minimum"],
                   lambda: (obs["hand_sizes"], obs["bomb_turns"], obs["goes"], obs["scores"]))

    @classmethod
    def of_round(cls, state: Any) -> Table:
        """The table of the seat to act in a Go-Stop round: what its observation would say."""
        seat = state.current
        revealed = 0
        for s, months in enumerate(state.shaken):
            if s != seat:
                for m in months:
                    revealed |= state.hands[s] & MONTH_MASKS[m]
        return cls(seat, state.hands[seat], state.field, list(state.captured), revealed,
                   state.rules.stop_minimum(state.num_players),
                   lambda: ([h.bit_count() for h in state.hands], state.bomb_turns, state.goes,
                            [state.score(s) for s in range(state.num_players)]))

    def unseen_in_month(self, m: int) -> int:
        return 4 - (self.seen & MONTH_MASKS[m]).bit_count()

    def worth(self, idx: int, mine: int | None = None) -> float:
        """How much taking card ``idx`` is worth to me."""
        mine = self.mine if mine is None else mine
        if idx >= JOKER_BASE:
            return 3.0
        c = DECK[idx]
        bit = 1 << idx
        w = _BASE[c.kind]
        if bit & DOUBLE_PI:
            w = 2.2
        if bit == SAKE:
            w = 2.4
        theirs = self.theirs
        if bit & BRIGHTS:
            have = (mine & BRIGHTS).bit_count()
            w += (3.0 if have == 2 else 1.0 * have) - (1.5 if bit == RAIN else 0.0)
            for p in self.others:
                if (p & BRIGHTS).bit_count() >= 2:
                    w += 2.5  # deny a third bright
            if not any(p & BRIGHTS for p in self.others):
                w += 0.5  # keeps gwang-bak threats alive
        else:
            for group, pts in SETS:
                if not bit & group:
                    continue
                have = (mine & group).bit_count()
                if not theirs & group:
                    w += pts * (0.9 if have == 2 else 0.25 * (have + 1))
                for p in self.others:
                    if (p & group).bit_count() == 2 and not mine & group:
                        w += pts * 0.7  # deny
        if bit & ANIMALS:
            na = (mine & ANIMALS).bit_count()
            if na >= 3:
                w += 0.6 + (1.5 if na == 6 else 0.0)
        if bit & RIBBONS and (mine & RIBBONS).bit_count() >= 3:
            w += 0.6
        if bit & (CHAFF | SAKE):
            pv = _pi(mine)
            if pv >= 7:
                w += 0.5
            if pv <= 6:
                w += 0.4  # away from pi-bak
        return w

    def near_threat(self, pile: int) -> float:
        """Rough points an opponent pile is close to adding."""
        t = 0.0
        for group, pts in SETS:
            have = (pile & group).bit_count()
            if have == 2 and not (self.mine & group):
                t += pts * 0.6
        if (pile & BRIGHTS).bit_count() == 2:
            t += 2.0
        if 8 <= _pi(pile) < 10:
            t += 1.0
        return t


class GreedyPlayer:
    """Captures by value, chases near yaku, denies, weighs go against the opponents' threat."""

    name = "greedy"

    def choose(self, observation: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        kinds = {a.kind for a in legal}
        if "chongtong" in kinds:
            return Action("chongtong")
        if kinds <= {"sake_animal", "sake_pi"}:
            return self._reading(observation, legal)
        return self.decide(Table.of_observation(observation), legal)

    @staticmethod
    def decides(legal: list[Action]) -> bool:
        """Whether ``legal`` is a choice :meth:`decide` makes (a card to play, take or turn, go
        or stop), not a chongtong or sake-cup reading, which read the observation."""
        kinds = {a.kind for a in legal}
        return not ("chongtong" in kinds or kinds <= {"sake_animal", "sake_pi"})

    def decide(self, t: Table, legal: list[Action]) -> Action:
        """The best card play (or choice, draw, joker), or go or stop, for the table ``t``."""
        if legal[0].kind in ("go", "stop"):  # a go is always offered with its stop
            return self._go_or_stop(t, legal)
        joker = next((a for a in legal if a.kind == "joker"), None)
        if joker is not None:
            return joker
        best, best_score = legal[0], float("-inf")
        for a in legal:
            s = self._score(a, t)
            if s > best_score:
                best, best_score = a, s
        return best

    # -- plays ------------------------------------------------------------------------------
    def _score(self, a: Action, t: Table) -> float:
        if a.kind == "choose":
            return t.worth(_INDEX[a.target])
        if a.kind == "draw":
            return 0.8  # a free turn up: better than throwing away a card
        if a.kind == "bomb":
            m = DECK[_INDEX[a.card]].month
            cards = (t.hand | t.field) & MONTH_MASKS[m]
            return sum(t.worth(i) for i in _bits(cards)) + 2.0 * (t.n - 1) + 4.0
        c = _INDEX[a.card]
        m = DECK[c].month
        fm = t.field & MONTH_MASKS[m]
        nf = fm.bit_count()
        s = 0.0
        if nf == 0:
            # a lone card: an opponent may take it, unless the rest of its month is out of play
            unseen = t.unseen_in_month(m)
            mine_left = ((t.hand & MONTH_MASKS[m]) & ~(1 << c)).bit_count()
            risk = 0.0 if unseen == 0 else min(1.0, unseen / 2.0) * (0.5 if mine_left else 1.0)
            s -= 0.7 * risk * t.worth(c, mine=t.theirs) + 0.3
            s -= 0.2 * _BASE[DECK[c].kind]
        elif nf == 1:
            s += t.worth(c) + sum(t.worth(i) for i in _bits(fm))
            if t.unseen_in_month(m) >= 1:
                s -= 0.15 * (s)  # ppeok chance
        elif nf == 2:
            target = _INDEX[a.target]
            s += t.worth(c) + t.worth(target)
        else:
            s += t.worth(c) + sum(t.worth(i) for i in _bits(fm)) + 1.5 * (t.n - 1)
        if a.kind == "shake":
            s += 1.0
        return s

    # -- decisions ----------------------------------------------------------------------------
    def _go_or_stop(self, t: Table, legal: list[Action]) -> Action:
        if Action("go") not in legal:
            return Action("stop")
        me = t.seat
        hand_sizes, bomb_turns, goes, scores = t.standing()
        cards_left = hand_sizes[me] + bomb_turns[me]
        danger = 0.25 * goes[me]
        for s, pile in enumerate(t.piles):
            if s == me:
                continue
            # how far this opponent is from the stop minimum, counting the yaku it nearly has
            gap = t.stop_minimum - scores[s] - t.near_threat(pile)
            if t.n == 2:
                danger += 1.0 if gap <= 1 else 0.5 if gap <= 3 else 0.15 if gap <= 5 else 0.0
            else:  # a stop minimum of 3: every gap is small, and go-bak pays for both losers
                danger += 1.0 if gap <= 0 else 0.6 if gap <= 1 else 0.3 if gap <= 2 else 0.1
        if t.n == 3:
            return Action("go") if cards_left >= 3 and danger < 0.7 else Action("stop")
        if cards_left >= 4 and danger < 0.5:
            return Action("go")
        if cards_left >= 2 and danger < 0.2:
            return Action("go")
        return Action("stop")

    def _reading(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        options = obs.get("reading_options") or {}
        me = obs["seat"]
        if options:
            best = max(options, key=lambda k: options[k]["points"][me])
            return Action(f"sake_{best}")
        return legal[0]


def _bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def build_world(obs: dict[str, Any]) -> tuple | None:
    """The search's world for this observation (``bot.ai.search.worlds``); ``None``: not rebuilt."""
    from bot.ai.search import worlds as w
    from bot.cards import indices_in
    from bot.games.gostop import game as gs

    if obs["phase"] not in (gs.PLAY, gs.DECIDE):
        return None  # mid-turn: the turn's bookkeeping is not in the observation
    rules = gs.Rules.from_dict(obs["rules"])
    n = obs["num_players"]
    r = gs.GoStopRound(rules, 0, n, obs["dealer"], obs["round_number"],
                       {"nagari": obs["nagari"]}, _restore=True)
    shown = [w.mask_of(c) for c in obs["revealed"]]
    r.shaken = [sorted({DECK[i].month for i in indices_in(s) if i < 48}) for s in shown]
    forbid = [sum(MONTH_MASKS[m] for m in months) for months in r.shaken]
    deck = (1 << (48 + rules.jokers)) - 1
    hidden = w.Hidden(obs, deck, w.public(obs), shown, forbid=forbid)
    w.set_piles(r, obs)
    for name in ("goes", "go_order", "claimed", "shakes", "bombs", "bomb_turns", "ppeoks"):
        setattr(r, name, list(obs[name]))
    km_to_month = {DECK[4 * (m - 1)].korean_month: m for m in range(1, 13)}
    dealer, turn = obs["dealer"], obs["turn"]
    r.turns_taken = [sum(1 for t in range(turn) if (dealer + t) % n == s) for s in range(n)]
    for st in obs["stacks"]:
        r.stacks[km_to_month[st["korean_month"]]] = gs.DEALT_STACK if st["maker"] is None else st["maker"]
    if obs["mission_month"]:
        r.mission_month = km_to_month[obs["mission_month"]]
    r._new_turn_record()
    return r, hidden


def greedy_reader(player, state, legal: list[Action], rng: Rng) -> Action | None:
    """The greedy Go-Stop card choice from the round's own bit sets (go/stop and the other
    decisions read the observation)."""
    if not player.decides(legal):
        return None
    return player.decide(Table.of_round(state), legal)


def main(argv: list[str] | None = None) -> None:
    """Greedy against random, round by round: win rates and points per round."""
    from bot.ai.base import RandomPlayer
    from bot.games.gostop import Rules, new_round

    parser = argparse.ArgumentParser(prog="python -m bot.ai.gostop")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="korean")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    for n in (2, 3):
        wins = [0] * n
        points = [0] * n
        drawn = 0
        rng = Rng(args.seed)
        start = time.perf_counter()
        for k in range(args.rounds):
            greedy_seat = k % n
            players = [GreedyPlayer() if s == greedy_seat else RandomPlayer() for s in range(n)]
            rnd = new_round(n, rules, seed=args.seed * 1_000_003 + k, dealer=(k // n) % n)
            while not rnd.is_over:
                seat = rnd.current_player
                rnd.apply(players[seat].choose(rnd.observation(seat), rnd.legal_actions(), rng))
            res = rnd.result()
            # seat 0 of the tallies is the greedy player, the rest random
            rel = [(s - greedy_seat) % n for s in range(n)]
            for s in range(n):
                points[rel[s]] += res.points[s]
            if res.winner is None:
                drawn += 1
            else:
                wins[rel[res.winner]] += 1
        secs = time.perf_counter() - start
        share = wins[0] / args.rounds
        print(f"{n} players, {args.rounds} rounds ({secs:.1f} s): greedy wins {share:.1%} of rounds "
              f"(a random seat {sum(wins[1:]) / (n - 1) / args.rounds:.1%}), nagari {drawn / args.rounds:.1%}; "
              f"points per round greedy {points[0] / args.rounds:+.2f}, "
              f"random {sum(points[1:]) / (n - 1) / args.rounds:+.2f}")


if __name__ == "__main__":
    main()
