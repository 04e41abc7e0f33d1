"""Engine-contract properties of Go-Stop for two and three players, over random seeds, random
rule options and random legal play."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards import DECK
from bot.games.base import Action, GameError, GameOver, NotYourTurn
from bot.games.gostop import GoStopRound, Rules, match_from_dict, new_match, new_round
from bot.games.gostop.scoring import JOKER_IDS, ids
from bot.games.rng import Rng

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = st.sampled_from([2, 3])
RULES = st.one_of(
    st.sampled_from([Rules(), Rules.preset("seed")]),
    st.fixed_dictionaries({
        **{name: st.sampled_from(values) for name, values in Rules.CHOICES.items()},
        "bomb_turns": st.integers(0, 3), "nagari_cap": st.integers(0, 2),
        "boar_pot": st.integers(0, 2), "chongtong_points": st.sampled_from([0, 5, 10]),
    }).map(lambda d: Rules(**d)),
)
ALL_IDS = {c.id for c in DECK} | set(JOKER_IDS)


def all_cards(s: GoStopRound) -> tuple[int, int]:
    union, count = s.field, s.field.bit_count()
    for pile in (*s.hands, *s.captured):
        union |= pile
        count += pile.bit_count()
    for c in s.stock:
        union |= 1 << c
    count += len(s.stock)
    if s.pending is not None:
        union |= 1 << s.pending
        count += 1
    return union, count


def observed_ids(obj) -> set[str]:
    """Every card id mentioned anywhere in (part of) an observation."""
    found = set()
    if isinstance(obj, str):
        for part in obj.replace(":", " ").replace(">", " ").split():
            if part in ALL_IDS:
                found.add(part)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= observed_ids(k) | observed_ids(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= observed_ids(v)
    return found


def random_play(s, rng, steps=10_000):
    for _ in range(steps):
        if s.is_over:
            return
        legal = s.legal_actions()
        assert legal, "a player to act must have a move"
        s.apply(legal[rng.below(len(legal))])


@SETTINGS
@given(n=PLAYERS, seed=st.integers(0, 2**32), rules=RULES, play_seed=st.integers(0, 2**16))
def test_cards_conserved_and_observations_hide_what_is_hidden(n, seed, rules, play_seed):
    s = new_round(n, rules, seed=seed)
    rng = Rng(play_seed)
    full = (1 << (48 + rules.jokers)) - 1
    while True:
        union, count = all_cards(s)
        assert union == full and count == 48 + rules.jokers
        for p in range(n):
            visible = s.field | s.hands[p]
            for c in s.captured:
                visible |= c
            obs = s.observation(p)
            for q, shown in enumerate(obs["revealed"]):
                if q != p:  # a shaken triplet is public
                    visible |= sum(1 << i for i in range(48) if DECK[i].id in shown)
            allowed = set(ids(visible))
            if s.pending is not None:
                allowed.add(DECK[s.pending].id)
            outcome = obs.pop("outcome")
            obs.pop("rules")
            assert observed_ids(obs) <= allowed
            if outcome and "revealed" in outcome:  # chongtong is shown on purpose
                assert s.is_over
            json.dumps(obs)
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    res = s.result()
    assert sum(res.points) == 0 and len(res.points) == n
    assert s.legal_actions() == []
    with pytest.raises(GameOver):
        s.apply(Action("stop"))
    if res.winner is None:
        assert res.next_dealer == s.dealer and res.detail["carry"]["nagari"] == s.nagari + 1
    else:
        assert res.next_dealer == res.winner
        assert res.points[res.winner] >= 0 or rules.boar_pot


@SETTINGS
@given(n=PLAYERS, seed=st.integers(0, 2**32), steps=st.integers(0, 40), rules=RULES)
def test_illegal_and_out_of_turn_actions_change_nothing(n, seed, steps, rules):
    s = new_round(n, rules, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    before = json.dumps(s.to_dict(), sort_keys=True)
    bad = [Action("play", "crane", "deer"), Action("go"), Action("choose", "moon"), Action("bomb", "deer"),
           Action("shake", "phoenix"), Action("joker", "joker_1"), Action("sake_pi"), Action("fly"), "draw"]
    for action in bad:
        if s.current_player is not None and Action.parse(str(action)) in s.legal_actions():
            continue
        with pytest.raises(GameError):
            s.apply(action)
        assert json.dumps(s.to_dict(), sort_keys=True) == before
    if s.current_player is not None:
        other = (s.current_player + 1) % n
        with pytest.raises(NotYourTurn):
            s.apply(s.legal_actions()[0], other)
        assert json.dumps(s.to_dict(), sort_keys=True) == before


@SETTINGS
@given(n=PLAYERS, seed=st.integers(0, 2**32), cut=st.integers(0, 60), rules=RULES)
def test_json_round_trip_mid_match_continues_identically(n, seed, cut, rules):
    rules = rules.replace(rounds=2, target_score=0)
    m1 = new_match(n, rules, seed=seed)
    rng = Rng(seed ^ 0xABC)
    for _ in range(cut):
        if m1.is_over:
            break
        legal = m1.legal_actions()
        m1.apply(legal[rng.below(len(legal))])
    m2 = match_from_dict(json.loads(m1.to_json()))
    assert m2.to_json() == m1.to_json()
    r1, r2 = Rng(seed), Rng(seed)
    while not m1.is_over:
        legal = m1.legal_actions()
        assert m2.legal_actions() == legal
        a = legal[r1.below(len(legal))]
        assert legal[r2.below(len(legal))] == a
        assert m1.apply(a) == m2.apply(a)
        assert m1.observation(0) == m2.observation(0)
    assert m2.is_over and m1.scores == m2.scores and sum(m1.scores) == 0


@SETTINGS
@given(n=PLAYERS, seed=st.integers(0, 2**32), rules=RULES)
def test_round_clone_and_determinize_keep_the_public_view(n, seed, rules):
    s = new_round(n, rules, seed=seed)
    random_play(s, Rng(seed), steps=7)
    c = s.clone()
    assert c.to_dict() == s.to_dict()
    d = s.determinize(0, Rng(1))
    assert d.hands[0] == s.hands[0] and d.field == s.field and d.captured == s.captured
    assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in s.hands]
    assert len(d.stock) == len(s.stock)
    random_play(d, Rng(2))
    assert d.is_over and sum(d.result().points) == 0


def test_many_random_rounds_for_both_table_sizes():
    rng = Rng(5)
    outcomes = set()
    for n in (2, 3):
        for k in range(300):
            s = new_round(n, Rules(), seed=k, dealer=k % n)
            random_play(s, rng)
            outcomes.add(s.result().reason)
            assert sum(s.result().points) == 0
    assert {"stop", "nagari"} <= outcomes
