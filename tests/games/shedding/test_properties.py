"""The engine contract for 2 to 5 players, over random seeds and random legal play."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import ALL_MASK, DECK, ids_in, indices_in
from bot.games.base import Action, GameError, GameOver, NotYourTurn
from bot.games.rng import Rng
from bot.games.shedding import Rules, SheddingRound, match_from_dict, new_match, new_round

RULES = st.builds(
    Rules,
    purple_ribbon=st.sampled_from(["blue", "non_poetry", "none"]),
    struggle=st.sampled_from(["any_time", "only_if_stuck"]),
    struggle_keep_match=st.booleans(),
    race_exempt_first=st.booleans(),
    batsu=st.booleans(),
)
CARD_IDS = {c.id for c in DECK}


def piles(r: SheddingRound) -> list[int]:
    out = [*r.hands, r.field, *(1 << c for c in r.draw), *(1 << c for c in r.discard)]
    if r.drawn is not None:
        out.append(1 << r.drawn)
    return out


def assert_cards_accounted(r: SheddingRound) -> None:
    seen = 0
    for p in piles(r):
        assert not seen & p, "a card is in two places"
        seen |= p
    assert seen == ALL_MASK


def card_ids_in(value) -> set[str]:
    """Every card id mentioned in a JSON-like value, including inside action strings."""
    if isinstance(value, dict):
        return set().union(*(card_ids_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_ids_in(v) for v in value)) if value else set()
    if isinstance(value, str):
        parts = value.replace(":", " ").replace(">", " ").replace("+", " ").split()
        return {p for p in parts if p in CARD_IDS}
    return set()


def assert_no_hidden_card(r: SheddingRound, seat: int, rng: Rng) -> None:
    obs = r.observation(seat)
    visible = r.hands[seat] | r.field | sum(1 << c for c in r.discard)
    if r.drawn is not None and seat == r.current:
        visible |= 1 << r.drawn
    rest = {k: v for k, v in obs.items() if k not in ("last_move", "outcome")}
    assert card_ids_in(rest) <= set(ids_in(visible))
    # the observation must not change when the cards the seat cannot see are dealt anew
    other = r.clone()
    hidden = [c for s, h in enumerate(r.hands) if s != seat for c in indices_in(h)] + r.draw
    if r.drawn is not None and seat != r.current:
        hidden.append(r.drawn)
    rng.shuffle(hidden)
    pos = 0
    for s, h in enumerate(r.hands):
        if s != seat:
            other.hands[s] = sum(1 << c for c in hidden[pos:pos + h.bit_count()])
            pos += h.bit_count()
    if r.drawn is not None and seat != r.current:
        other.drawn = hidden[pos]
        pos += 1
    other.draw = hidden[pos:]
    if r.outcome is None:
        assert other.observation(seat) == obs


def assert_rejects_without_change(r: SheddingRound, rng: Rng) -> None:
    before = r.to_dict()
    legal = set(r.legal_actions())
    bogus = [Action("match", DECK[rng.below(48)].id, DECK[rng.below(48)].id),
             Action("pair", DECK[rng.below(48)].id, DECK[rng.below(48)].id),
             Action("keep", DECK[rng.below(48)].id), Action("struggle"), Action("race_end"),
             Action("slap", str(r.current)), Action("hand_hiki", DECK[rng.below(48)].id)]
    for action in bogus:
        if action not in legal:
            with pytest.raises(GameError):
                r.apply(action)
            assert r.to_dict() == before
    wrong = (r.current + 1) % r.num_players
    with pytest.raises(NotYourTurn):
        r.apply(r.legal_actions()[0] if r.phase != "race" else Action("race_end"), wrong)
    assert r.to_dict() == before


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**40), rules=RULES)
def test_random_play_keeps_the_contract(players, seed, rules):
    rng = Rng(seed)
    r = new_round(players, rules, seed=seed, dealer=seed % players)
    assert r.current == r.dealer
    steps = 0
    while not r.is_over:
        assert_cards_accounted(r)
        if r.phase == "play" and (r.draw or r.discard):
            assert r.field.bit_count() == 4
        if steps % 5 == 0:
            assert_no_hidden_card(r, rng.below(players), rng)
            assert_rejects_without_change(r, rng)
        legal = r.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        assert all(Action.parse(str(a)) == a and len(str(a)) <= 100 for a in legal)  # custom ids
        r.apply(legal[rng.below(len(legal))])
        steps += 1
    assert_cards_accounted(r)
    result = r.result()
    assert sum(result.points) == 0
    if result.winner is not None:
        assert r.hands[result.winner] == 0
        assert result.points[result.winner] >= 0
    with pytest.raises(GameOver):
        r.apply(Action("pass"))
    for seat in range(players):
        assert r.observation(seat)["outcome"] == r.outcome


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**40), cut=st.integers(0, 60))
def test_a_json_round_trip_mid_match_continues_identically(players, seed, cut):
    rng = Rng(seed)
    match = new_match(players, Rules(rounds=2), seed=seed)
    for _ in range(cut):
        if match.is_over:
            return
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))])
    copy = match_from_dict(json.loads(json.dumps(match.to_dict())))
    assert copy.to_dict() == match.to_dict()
    twin = Rng.from_state(rng.getstate())
    while not match.is_over:
        legal = match.legal_actions()
        assert copy.legal_actions() == legal
        a, b = legal[rng.below(len(legal))], legal[twin.below(len(legal))]
        assert match.apply(a) == copy.apply(b)
        assert match.observation(0) == copy.observation(0)
    assert copy.scores == match.scores and sum(match.scores) == 0


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**40))
def test_the_same_seed_and_actions_give_the_same_events(players, seed):
    def run():
        rng = Rng(seed)
        match = new_match(players, Rules(rounds=1), seed=seed)
        events = list(match.intro_events)
        while not match.is_over:
            legal = match.legal_actions()
            events.extend(match.apply(legal[rng.below(len(legal))]))
        return events, match.scores
    assert run() == run()
