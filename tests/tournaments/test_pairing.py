"""Pairing and standings of the three formats: property tests over random results and drops,
and hand-checked tie-breaks and brackets."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.pairing import (
    Game,
    advancer,
    bracket,
    elimination_champion,
    elimination_rounds,
    elimination_standings,
    pair_elimination,
    pair_round_robin,
    pair_swiss,
    played_pairs,
    round_robin_rounds,
    round_robin_schedule,
    standings,
    swiss_rounds,
)
from bot.tournaments.prizes import prize_shares

outcome = st.sampled_from(("a", "b", "draw"))


def result(round_no: int, a: int, b: int, how: str) -> Game:
    return Game(round_no, a, b, {"a": a, "b": b, "draw": None}[how])


def repeat_free_exists(players: list[int], played: set[frozenset[int]]) -> bool:
    """Brute force: some pairing of ``players`` (one sitting out if odd) repeats no pair."""
    if len(players) % 2:
        return any(repeat_free_exists([p for p in players if p != out], played) for out in players)
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(frozenset((first, o)) not in played
               and repeat_free_exists([p for p in rest if p != o], played) for o in rest)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 16), st.data())
def test_swiss_everyone_plays_once_no_repeats_fair_byes(n, data):
    entrants = list(range(1, n + 1))
    games: list[Game] = []
    for round_no in range(1, swiss_rounds(n) + 1):
        pairing = pair_swiss(entrants, games)
        seated = [p for pair in pairing.pairs for p in pair] + list(pairing.byes)
        assert sorted(seated) == entrants  # everyone once
        assert len(pairing.byes) == n % 2
        assert not {frozenset(p) for p in pairing.pairs} & played_pairs(games)
        had = [g.a for g in games if g.b is None]
        for bye in pairing.byes:  # the bye goes to the lowest-ranked player without one
            assert bye not in had
            table = standings(entrants, games)
            lower = [s.entrant for s in table if s.points < dict((r.entrant, r.points) for r in table)[bye]]
            assert all(p in had for p in lower)
        games += [Game(round_no, b, None, b) for b in pairing.byes]
        games += [result(round_no, a, b, data.draw(outcome)) for a, b in pairing.pairs]


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 7), st.data())
def test_swiss_repeats_only_when_nothing_else_is_possible(n, data):
    """Beyond the usual number of rounds the pairing runs out of new opponents: a repeat comes
    only when no pairing without one exists."""
    entrants = list(range(1, n + 1))
    games: list[Game] = []
    for round_no in range(1, n + 2):
        played = played_pairs(games)
        pairing = pair_swiss(entrants, games)
        repeats = {frozenset(p) for p in pairing.pairs} & played
        if repeats:
            assert not repeat_free_exists(entrants, played)
        games += [Game(round_no, b, None, b) for b in pairing.byes]
        games += [result(round_no, a, b, data.draw(outcome)) for a, b in pairing.pairs]


def test_swiss_pairs_by_score_and_ranks_by_named_tie_breaks():
    entrants = [1, 2, 3, 4]
    r1 = [Game(1, 1, 2, 1), Game(1, 3, 4, 3)]
    assert pair_swiss(entrants, r1).pairs == ((1, 3), (2, 4))  # winners meet, losers meet
    games = r1 + [Game(2, 1, 3, 3), Game(2, 2, 4, 2)]
    table = standings(entrants, games)
    # 3 and 1 tie? No: 3 has 2 points, 1 and 2 have 1, 4 has 0. 1's opponents (2, 3) scored
    # 1 + 2 = 3, 2's (1, 4) 1 + 0 = 1: Buchholz puts 1 ahead of 2.
    assert [s.entrant for s in table] == [3, 1, 2, 4]
    assert (table[1].buchholz, table[2].buchholz) == (3.0, 1.0)
    # equal points and Buchholz: Sonneborn-Berger decides, then the seed (4 is ahead of 1 here)
    six = [Game(1, 2, 5, 5), Game(1, 1, 6, 6), Game(1, 4, 3, None), Game(2, 4, 2, 2),
           Game(2, 1, 5, None), Game(2, 6, 3, 6), Game(3, 6, 4, 4), Game(3, 3, 5, 3),
           Game(3, 1, 2, 1)]
    sb = {s.entrant: s for s in standings(list(range(1, 7)), six)}
    assert sb[1].points == sb[4].points == 1.5 and sb[1].buchholz == sb[4].buchholz == 4.5
    assert (sb[4].sonneborn_berger, sb[1].sonneborn_berger) == (2.75, 1.75)
    assert sb[4].rank == sb[1].rank - 1
    # a dropped player ranks below everyone still in
    assert standings(entrants, games, dropped=[3])[-1].entrant == 3


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8))
def test_round_robin_everyone_meets_everyone_once(n):
    entrants = list(range(1, n + 1))
    schedule = round_robin_schedule(entrants)
    assert len(schedule) == round_robin_rounds(n)
    met = [frozenset(p) for r in schedule for p in r.pairs]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    for r in schedule:
        seated = [p for pair in r.pairs for p in pair] + list(r.byes)
        assert sorted(seated) == entrants
    byes = [b for r in schedule for b in r.byes]
    assert sorted(byes) == (entrants if n % 2 else [])  # each player sits out once when odd


def test_round_robin_without_a_dropped_player():
    pairing = pair_round_robin([1, 2, 3, 4], [1, 2, 4], 1)
    assert 3 not in [p for pair in pairing.pairs for p in pair]
    assert len(pairing.byes) == 1 and 3 not in pairing.byes


def test_bracket_seeds_the_top_apart_and_byes_go_to_the_top():
    assert bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket(5) == [1, None, 4, 5, 2, None, 3, None]
    assert pair_elimination(5, [], [1, 2, 3, 4, 5], 1).byes == (1, 2, 3)


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 20), st.data())
def test_elimination_advances_winners_only(n, data):
    entrants = list(range(1, n + 1))
    active = set(entrants)
    games: list[Game] = []
    alive = set(entrants)
    for round_no in range(1, elimination_rounds(n) + 1):
        pairing = pair_elimination(n, games, active, round_no)
        seated = {p for pair in pairing.pairs for p in pair} | set(pairing.byes)
        assert seated == alive  # exactly the players not yet knocked out
        games += [Game(round_no, b, None, b) for b in pairing.byes]
        for a, b in pairing.pairs:
            game = result(round_no, a, b, data.draw(outcome))
            games.append(game)
            alive.discard(b if advancer(game) == a else a)  # a draw: the better seed goes on
    assert len(alive) == 1
    [champion] = alive
    assert elimination_champion(n, games, active) == champion
    table = elimination_standings(entrants, games)
    assert table[0].entrant == champion and [s.rank for s in table] == list(range(1, n + 1))


def test_elimination_drop_gives_the_opponent_a_bye():
    games = [Game(1, 1, 4, 1), Game(1, 2, 3, 2)]
    final = pair_elimination(4, games, [1, 3, 4], 2)  # 2 was dropped after winning
    assert final.pairs == () and final.byes == (1,)


@given(st.integers(0, 10**9), st.sampled_from(("swiss", "round_robin", "single_elimination")),
       st.integers(2, 40))
def test_prize_shares_add_up_to_the_pot(pot, fmt, n):
    shares = prize_shares(pot, fmt, n)
    assert sum(shares) == pot and all(s >= 0 for s in shares)
    assert shares == sorted(shares, reverse=True)


def test_prize_split_named():
    assert prize_shares(101, "swiss", 8) == [61, 30, 10]
    assert prize_shares(100, "single_elimination", 8) == [100]
    assert prize_shares(10, "round_robin", 2) == [7, 3]
    assert list(itertools.accumulate(prize_shares(7, "swiss", 5)))[-1] == 7
