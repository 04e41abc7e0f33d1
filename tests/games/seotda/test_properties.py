"""The engine contract for 2 to 6 players over random seeds, rules and legal play: chips are
conserved in every hand, no card is dealt twice, a restored state continues identically."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import GameError
from bot.games.rng import Rng
from bot.games.seotda import DECK, Rules, SeotdaRound, match_from_dict, new_match

RULES = st.builds(
    Rules,
    cards=st.sampled_from([2, 3]),
    ante=st.integers(1, 5),
    buy_in=st.integers(10, 60),
    max_raises=st.integers(1, 4),
    short_stack=st.sampled_from(["all_in", "die"]),
    tie=st.sampled_from(["split", "replay"]),
    special_hands=st.booleans(),
    max_redeals=st.integers(0, 3),
    rounds=st.integers(1, 6),
)


def check_hand(match) -> None:
    r = match.round
    assert min(r.stacks) >= 0
    dealt = [c for h in r.hands for c in h] + r.stock
    assert len(dealt) == len(set(dealt)) and set(dealt) <= set(DECK)
    if r.phase != "over":
        assert len(dealt) == 20
    for seat in range(match.num_players):
        obs = r.observation(seat)  # the match's part holds only finished hands
        hidden = {c for s, h in enumerate(r.hands) if s != seat for c in h} - set(obs["hand"])
        if not obs["shown"]:
            assert not hidden & set(json.dumps(obs).replace('"', " ").replace(",", " ").split())


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 6), rules=RULES, seed=st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(players, rules, seed):
    match = new_match(players, rules, seed)
    rng = Rng(seed)
    total = players * rules.buy_in
    steps = 0
    while not match.is_over:
        r = match.round
        assert sum(r.stacks) + r.pot == total
        check_hand(match)
        seat = match.current_player
        legal = match.legal_actions()
        if steps % 5 == 0:  # a restored match continues identically
            twin = match_from_dict(json.loads(match.to_json()))
            assert twin.to_json() == match.to_json()
            action = legal[rng.below(len(legal))]
            assert twin.apply(action, seat) == match.apply(action, seat)
            assert twin.to_json() == match.to_json()
        else:
            before = match.to_json()
            try:
                match.apply("ddadang", (seat + 1) % players)
            except GameError:
                assert match.to_json() == before
            else:  # pragma: no cover - an out-of-turn move must never pass
                raise AssertionError("an out-of-turn move was accepted")
            match.apply(legal[rng.below(len(legal))], seat)
        steps += 1
    assert sum(match.scores) == 0
    final = match.history[-1]["detail"]["stacks"]
    assert sum(final) == total and [s - rules.buy_in for s in final] == match.scores


@settings(max_examples=80, deadline=None)
@given(data=st.data(), players=st.integers(2, 6))
def test_side_pots_pay_nobody_more_than_they_matched(data, players):
    """At a showdown with any contributions, the pots pay out exactly what was put in, and no
    seat wins more from another than it put in itself."""
    r = SeotdaRound(players, Rules(special_hands=data.draw(st.booleans())), data.draw(st.integers(0, 99)))
    r.in_pot = data.draw(st.lists(st.integers(1, 50), min_size=players, max_size=players))
    live = data.draw(st.lists(st.booleans(), min_size=players, max_size=players).filter(lambda v: sum(v) >= 2))
    r.live = live
    r.stacks = [0] * players
    r.rules = r.rules.replace(max_redeals=0)
    r._showdown([s for s in range(players) if live[s]])
    won = r.outcome["won"]
    assert sum(won) == sum(r.in_pot)
    matched = max(c for c, alive in zip(r.in_pot, live, strict=True) if alive)
    for p in range(players):
        if live[p]:
            assert won[p] <= sum(min(c, r.in_pot[p]) for c in r.in_pot)
        else:  # only an unmatched bet comes back
            assert won[p] == max(0, r.in_pot[p] - matched)
