"""Pairings and standings of Swiss, single-elimination and round-robin tournaments.

Pure: no Discord, no I/O. Entrants are their seed numbers (1 is the top seed: the order of
sign-up), games are :class:`Game` values; every function computes from the games played so far,
so a tournament's state is its list of games and nothing else needs to survive a restart.

Scores: a win is 1 point, a draw 1/2, a loss 0; a bye counts as a win. Swiss and round-robin
standings break ties by, in order:

1. **Buchholz**: the sum of the opponents' scores (a bye adds nothing). In a complete round robin
   it is equal among players on equal scores, so there the next one decides;
2. **Sonneborn-Berger**: the scores of the opponents beaten, plus half the scores of those drawn;
3. **seed**: the earlier sign-up.

A dropped player keeps their games but ranks below every player still in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FORMATS = ("swiss", "single_elimination", "round_robin")
ROUND_ROBIN_MAX = 8


@dataclass(frozen=True)
class Game:
    """One pairing's result: ``b`` None is a bye for ``a``; ``winner`` None is a draw."""

    round: int
    a: int
    b: int | None
    winner: int | None

    def players(self) -> tuple[int, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def points_of(self, player: int) -> float:
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0

    def opponent_of(self, player: int) -> int | None:
        return self.b if player == self.a else self.a


@dataclass(frozen=True)
class Pairing:
    """A round's tables (pairs of entrants) and its byes: at most one in Swiss and round robin
    (more only when dropped players leave their opponents free), the empty slots in a bracket."""

    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    entrant: int
    rank: int
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int
    dropped: bool
    eliminated_in: int | None = None  # single elimination: the round lost (None: still in or won)


# -- scores -----------------------------------------------------------------------------------

def scores(games: Iterable[Game]) -> dict[int, float]:
    out: dict[int, float] = {}
    for game in games:
        for player in game.players():
            out[player] = out.get(player, 0.0) + game.points_of(player)
    return out


def played_pairs(games: Iterable[Game]) -> set[frozenset[int]]:
    return {frozenset((g.a, g.b)) for g in games if g.b is not None}


# -- Swiss ------------------------------------------------------------------------------------

def swiss_rounds(entrants: int) -> int:
    """Rounds a Swiss tournament of ``entrants`` plays: enough for one unbeaten winner
    (ceil(log2 n)), at least 1, and never more than there are opponents."""
    if entrants < 2:
        return 0
    return max(1, min(entrants - 1, math.ceil(math.log2(entrants))))


def _ranked(players: Sequence[int], games: Sequence[Game]) -> list[int]:
    points = scores(games)
    return sorted(players, key=lambda p: (-points.get(p, 0.0), p))


def _match(rest: tuple[int, ...], played: set[frozenset[int]], failed: set[tuple[int, ...]]
           ) -> list[tuple[int, int]] | None:
    """Pair ``rest`` (in rank order) top down, each with the nearest-ranked opponent it has not
    met; a complete search (remembering the groups that cannot be paired), so it fails only when
    no pairing without a repeat exists."""
    if not rest:
        return []
    if rest in failed:
        return None
    first = rest[0]
    for i in range(1, len(rest)):
        other = rest[i]
        if frozenset((first, other)) in played:
            continue
        tail = _match(rest[1:i] + rest[i + 1:], played, failed)
        if tail is not None:
            return [(first, other), *tail]
    failed.add(rest)
    return None


def pair_swiss(players: Sequence[int], games: Sequence[Game]) -> Pairing:
    """The next Swiss round of the ``players`` still in: by score (then seed), no two who have
    met while any pairing without a repeat exists, and with an odd count a bye for the
    lowest-ranked player who has not had one (a bye scores as a win)."""
    ranked = _ranked(players, games)
    if len(ranked) < 2:
        return Pairing((), tuple(ranked))
    played = played_pairs(games)
    had_bye = {g.a for g in games if g.b is None}
    if len(ranked) % 2:
        fair = [p for p in reversed(ranked) if p not in had_bye]
        unfair = [p for p in reversed(ranked) if p in had_bye]
        attempts = [(fair, played), (unfair, played), (fair or unfair, set())]
    else:
        attempts = [([None], played), ([None], set())]
    for byes, avoid in attempts:
        for bye in byes:
            rest = tuple(p for p in ranked if p != bye)
            pairs = _match(rest, avoid, set())
            if pairs is not None:
                return Pairing(tuple(pairs), () if bye is None else (bye,))
    raise AssertionError("an even group can always be paired when repeats are allowed")


def standings(entrants: Sequence[int], games: Sequence[Game], dropped: Iterable[int] = ()
              ) -> list[Standing]:
    """Swiss and round-robin standings: points, then Buchholz, Sonneborn-Berger and seed (the
    module's docstring); dropped players after those still in."""
    out = set(dropped)
    points = scores(games)
    rows = []
    for player in entrants:
        mine = [g for g in games if player in g.players()]
        opponents = [g.opponent_of(player) for g in mine if g.b is not None]
        buchholz = sum(points.get(o, 0.0) for o in opponents)
        sb = 0.0
        wins = draws = losses = byes = 0
        for g in mine:
            if g.b is None:
                byes += 1
                continue
            opp = g.opponent_of(player)
            if g.winner is None:
                draws += 1
                sb += points.get(opp, 0.0) / 2
            elif g.winner == player:
                wins += 1
                sb += points.get(opp, 0.0)
            else:
                losses += 1
        rows.append((player in out, -points.get(player, 0.0), -buchholz, -sb, player,
                     Standing(player, 0, points.get(player, 0.0), buchholz, sb, wins, draws,
                              losses, byes, player in out)))
    rows.sort(key=lambda r: r[:5])
    return [_with_rank(r[-1], i + 1) for i, r in enumerate(rows)]


def _with_rank(s: Standing, rank: int) -> Standing:
    return Standing(s.entrant, rank, s.points, s.buchholz, s.sonneborn_berger, s.wins, s.draws,
                    s.losses, s.byes, s.dropped, s.eliminated_in)


# -- round robin ------------------------------------------------------------------------------

def round_robin_schedule(entrants: Sequence[int]) -> list[Pairing]:
    """Every round of a round robin by the circle method: the first entrant stays, the others
    turn one place each round; with an odd count an empty seat gives each player one bye."""
    seats: list[int | None] = list(entrants)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    rounds = []
    for _ in range(n - 1):
        pairs, bye = [], None
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((min(a, b), max(a, b)))
        rounds.append(Pairing(tuple(sorted(pairs)), () if bye is None else (bye,)))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def pair_round_robin(entrants: Sequence[int], active: Iterable[int], round_no: int) -> Pairing:
    """Round ``round_no`` (from 1) of the schedule, without the pairs of dropped players (their
    opponents have a free round, scored as a bye)."""
    live = set(active)
    scheduled = round_robin_schedule(entrants)[round_no - 1]
    pairs, byes = [], []
    for a, b in scheduled.pairs:
        if a in live and b in live:
            pairs.append((a, b))
        elif a in live or b in live:
            byes.append(a if a in live else b)
    byes.extend(b for b in scheduled.byes if b in live)
    return Pairing(tuple(pairs), tuple(byes))


def round_robin_rounds(entrants: int) -> int:
    return entrants - 1 if entrants % 2 == 0 else entrants


# -- single elimination -----------------------------------------------------------------------

def bracket(entrants: int) -> list[int | None]:
    """First-round slots for ``entrants`` seeds in a bracket of the next power of two: the usual
    seeding (1 meets the lowest seed, 1 and 2 can meet only in the final), empty slots (byes)
    against the top seeds."""
    size = 1
    while size < entrants:
        size *= 2
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return [s if s <= entrants else None for s in order]


def elimination_rounds(entrants: int) -> int:
    return max(1, math.ceil(math.log2(entrants))) if entrants >= 2 else 0


def advancer(game: Game) -> int:
    """Who goes through: the winner; after a draw, the better seed."""
    if game.b is None:
        return game.a
    return game.winner if game.winner is not None else min(game.a, game.b)


def elimination_field(entrants: int, games: Sequence[Game], active: Iterable[int],
                      round_no: int) -> list[int | None] | None:
    """The slots of round ``round_no`` (from 1) from the results before it, in bracket order;
    None if an earlier round is not complete. A dropped player leaves an empty slot."""
    live = set(active)
    slots: list[int | None] = bracket(entrants)
    by_round: dict[int, list[Game]] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    for r in range(1, round_no):
        nxt: list[int | None] = []
        played = by_round.get(r, [])
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            if a is None or b is None:
                nxt.append(a if b is None else b)
                continue
            game = next((g for g in played if {g.a, g.b} == {a, b}), None)
            if game is None:
                return None
            nxt.append(advancer(game))
        slots = nxt
    return [s if s is None or s in live else None for s in slots]


def pair_elimination(entrants: int, games: Sequence[Game], active: Iterable[int],
                     round_no: int) -> Pairing:
    """Round ``round_no``'s matches; a player whose slot faces an empty one goes through with a
    bye."""
    slots = elimination_field(entrants, games, active, round_no)
    if slots is None:
        raise ValueError(f"round {round_no - 1} is not complete")
    pairs, byes = [], []
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        if a is not None and b is not None:
            pairs.append((min(a, b), max(a, b)))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)
    return Pairing(tuple(pairs), tuple(byes))


def elimination_champion(entrants: int, games: Sequence[Game], active: Iterable[int]) -> int | None:
    final = elimination_field(entrants, games, active, elimination_rounds(entrants) + 1)
    if final is None or len(final) != 1:
        return None
    return final[0]


def elimination_standings(entrants: Sequence[int], games: Sequence[Game],
                          dropped: Iterable[int] = ()) -> list[Standing]:
    """Ranked by the round each player went out in (the champion first, then the finalist...),
    then by seed."""
    out = set(dropped)
    lost_in: dict[int, int] = {}
    for g in games:
        if g.b is None:
            continue
        through = advancer(g)
        loser = g.b if through == g.a else g.a
        lost_in[loser] = g.round
    points = scores(games)
    rows = []
    last = max((g.round for g in games), default=0) + 1
    for p in entrants:
        mine = [g for g in games if p in g.players() and g.b is not None]
        wins = sum(1 for g in mine if advancer(g) == p)
        draws = sum(1 for g in mine if g.winner is None)
        row = Standing(p, 0, points.get(p, 0.0), 0.0, 0.0, wins, draws, len(mine) - wins,
                       sum(1 for g in games if g.a == p and g.b is None), p in out, lost_in.get(p))
        reached = lost_in.get(p, last + (0 if p in out else 1))
        rows.append(((p in out and p not in lost_in), -reached, p, row))
    rows.sort(key=lambda r: r[:3])
    return [_with_rank(r[-1], i + 1) for i, r in enumerate(rows)]
