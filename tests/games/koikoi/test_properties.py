"""Engine-contract properties of Koi-Koi over random seeds and random legal play."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards import ALL_MASK, card
from bot.games.base import Action, GameError
from bot.games.koikoi import KoiKoiRound, Rules, match_from_dict, new_match, new_round
from bot.games.rng import Rng

PRESETS = st.sampled_from(sorted(Rules.PRESETS))
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WILD = Rules(lightning_wild="on", koikoi_limit="once", sake_cup_as_chaff="either")


def all_cards(s: KoiKoiRound) -> int:
    total = s.field
    seen = s.field.bit_count() + len(s.stock) + (1 if s.pending is not None else 0)
    for h in s.hands:
        total |= h
        seen += h.bit_count()
    for c in s.captured:
        total |= c
        seen += c.bit_count()
    for c in s.stock:
        total |= 1 << c
    if s.pending is not None:
        total |= 1 << s.pending
    return total, seen


def observed_ids(obj) -> set[str]:
    """Every card id mentioned anywhere in an observation."""
    from bot.cards import DECK
    ids = {c.id for c in DECK}
    found = set()
    if isinstance(obj, str):
        for part in obj.replace(":", " ").replace(">", " ").split():
            if part in ids:
                found.add(part)
    elif isinstance(obj, dict):
        for v in obj.values():
            found |= observed_ids(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= observed_ids(v)
    return found


@SETTINGS
@given(seed=st.integers(0, 2**32), preset=PRESETS, play_seed=st.integers(0, 2**16))
def test_cards_conserved_and_observations_hide_what_is_hidden(seed, preset, play_seed):
    s = new_round(rules=Rules.preset(preset), seed=seed)
    rng = Rng(play_seed)
    while True:
        union, count = all_cards(s)
        assert union == ALL_MASK and count == 48
        for p in (0, 1):
            visible = s.captured[0] | s.captured[1] | s.field | s.hands[p]
            allowed = {card(i).id for i in range(48) if visible >> i & 1}
            if s.pending is not None:
                allowed.add(card(s.pending).id)
            obs = s.observation(p)
            outcome = obs.pop("outcome")
            assert observed_ids(obs) <= allowed
            if outcome and "revealed" in outcome:  # a winning dealt hand is shown on purpose
                assert s.is_over
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), wild=st.booleans())
def test_illegal_and_out_of_turn_actions_change_nothing(seed, steps, wild):
    s = new_round(rules=WILD if wild else Rules(), seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    before = json.dumps(s.to_dict(), sort_keys=True)
    bad = [Action("play", "crane", "deer"), Action("koikoi"), Action("choose", "moon"), Action("swap"),
           Action("fly")]
    if s.current_player is not None:
        bad.append(s.legal_actions()[0])  # legal, but sent by the wrong seat
    for i, action in enumerate(bad):
        player = None if i < len(bad) - 1 or s.current_player is None else 1 - s.current_player
        if player is None and action in s.legal_actions():
            continue
        try:
            s.apply(action, player)
        except GameError:
            pass
        else:
            raise AssertionError(f"{action} accepted")
        assert json.dumps(s.to_dict(), sort_keys=True) == before


@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 40), preset=PRESETS)
def test_json_round_trip_mid_match_continues_identically(seed, cut, preset):
    m1 = new_match(rules=Rules.preset(preset, rounds=2, target_score=0), seed=seed)
    rng = Rng(seed ^ 0xABC)
    choices = []
    for _ in range(cut):
        if m1.is_over:
            break
        legal = m1.legal_actions()
        a = legal[rng.below(len(legal))]
        choices.append(a)
        m1.apply(a)
    m2 = match_from_dict(json.loads(m1.to_json()))
    assert m2.to_json() == m1.to_json()
    while not m1.is_over:
        legal = m1.legal_actions()
        assert m2.legal_actions() == legal
        a = legal[rng.below(len(legal))]
        assert m1.apply(a) == m2.apply(a)
        assert m2.observation(0) == m1.observation(0)
    assert m2.is_over and m1.scores == m2.scores


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_events(seed):
    def run():
        m = new_match(rules=Rules(rounds=1), seed=seed)
        rng = Rng(7)
        log = [m.intro_events]
        while not m.is_over:
            legal = m.legal_actions()
            log.append(m.apply(legal[rng.below(len(legal))]))
        return log
    assert run() == run()


@SETTINGS
@given(seed=st.integers(0, 2**32), player=st.sampled_from([0, 1]))
def test_determinize_keeps_what_the_player_sees(seed, player):
    s = new_round(seed=seed)
    rng = Rng(seed)
    for _ in range(rng.below(10)):
        if s.is_over:
            return
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    d = s.determinize(player, Rng(1))
    assert d.observation(player) == s.observation(player)
    assert all_cards(d) == all_cards(s)
