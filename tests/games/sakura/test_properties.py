"""Engine-contract properties of Sakura over 2-7 players, teams, every option, random play."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards import ALL_MASK, DECK
from bot.games.base import Action, GameError
from bot.games.rng import Rng
from bot.games.sakura import OPTIONS, Rules, SakuraRound, match_from_dict, new_match, new_round

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEAMS_FOR = {2: ["off"], 3: ["off"], 4: ["off", "pairs"], 5: ["off"], 6: ["off", "pairs", "triples"],
             7: ["off"]}
IDS = {c.id for c in DECK}


@st.composite
def tables(draw):
    """A player count and rules with every option drawn at random (teams fitting the count)."""
    n = draw(st.integers(2, 7))
    options = {name: draw(st.sampled_from(spec[0])) for name, spec in OPTIONS.items() if name != "teams"}
    options["teams"] = draw(st.sampled_from(TEAMS_FOR[n]))
    preset = draw(st.sampled_from(sorted(Rules.PRESETS)))
    use_preset = draw(st.booleans())
    rules = Rules.preset(preset, teams=options["teams"]) if use_preset else Rules(**options)
    return n, rules.replace(rounds=2)


def accounted(s: SakuraRound) -> tuple[int, int]:
    """The union and the total count of the cards in every pile (48 and 48 when sound)."""
    piles = [s.field, s.dead, *s.hands, *s.captured] + [1 << c for c in s.stock]
    if s.pending is not None:
        piles.append(1 << s.pending)
    union = 0
    for p in piles:
        union |= p
    return union, sum(p.bit_count() for p in piles)


def card_ids(obj) -> set[str]:
    """Every card id mentioned anywhere in a JSON-like value (action texts included)."""
    if isinstance(obj, str):
        return {part for part in obj.replace(":", " ").replace(">", " ").split() if part in IDS}
    if isinstance(obj, dict):
        return set().union(*(card_ids(v) for v in obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*(card_ids(v) for v in obj)) if obj else set()
    return set()


def hidden_from(s: SakuraRound, player: int) -> set[str]:
    hidden = 0
    for seat, hand in enumerate(s.hands):
        if seat != player:  # a partner's hand too
            hidden |= hand
    for c in s.stock:
        hidden |= 1 << c
    return {DECK[i].id for i in range(48) if hidden >> i & 1}


def round_after(table, seed, steps):
    """A round of ``table`` dealt from ``seed`` after ``steps`` random legal actions."""
    n, rules = table
    s = new_round(n, rules, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


@SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**16))
def test_cards_conserved_and_observations_hide_what_is_hidden(table, seed, play_seed):
    n, rules = table
    s = new_round(n, rules, seed=seed, dealer=seed % n)
    rng = Rng(play_seed)
    while True:
        assert accounted(s) == (ALL_MASK, 48)
        for p in range(n):
            assert not card_ids(s.observation(p)) & hidden_from(s, p)
        if s.is_over:
            break
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        assert all(len(str(a)) <= 100 for a in legal)  # fits a Discord custom id
        s.apply(legal[rng.below(len(legal))])
    result = s.result()
    assert len(result.points) == n and result.next_dealer == result.winner
    assert set(result.detail["yaku_by_seat"]) == {str(p) for p in range(n)}
    assert s.field == 0 and not any(s.hands)


@SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_illegal_and_out_of_turn_actions_change_nothing(table, seed, steps):
    n = table[0]
    s = round_after(table, seed, steps)
    before = json.dumps(s.to_dict(), sort_keys=True)
    bad = [Action("play", "crane", "deer"), Action("hiki", "moon"), Action("choose", "moon"),
           Action("draw"), Action("koikoi"), Action("play", "lightning", "lightning")]
    for action in bad:
        if action in s.legal_actions():
            continue
        try:
            s.apply(action)
        except GameError:
            pass
        else:
            raise AssertionError(f"{action} accepted")
        assert json.dumps(s.to_dict(), sort_keys=True) == before
    if s.current_player is not None:
        other = (s.current_player + 1) % n
        try:
            s.apply(s.legal_actions()[0], other)
        except GameError:
            pass
        else:
            raise AssertionError("an out-of-turn action was accepted")
        assert json.dumps(s.to_dict(), sort_keys=True) == before


@SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32), cut=st.integers(0, 60))
def test_json_round_trip_mid_match_continues_identically(table, seed, cut):
    n, rules = table
    m1 = new_match(n, rules, seed=seed)
    rng = Rng(seed ^ 0xABC)
    for _ in range(cut):
        if m1.is_over:
            break
        legal = m1.legal_actions()
        m1.apply(legal[rng.below(len(legal))])
    m2 = match_from_dict(json.loads(m1.to_json()))
    assert m2.to_json() == m1.to_json()
    while not m1.is_over:
        legal = m1.legal_actions()
        assert m2.legal_actions() == legal
        a = legal[rng.below(len(legal))]
        seat = m1.current_player
        assert m1.apply(a) == m2.apply(a)
        assert m2.observation(seat) == m1.observation(seat)
    assert m2.is_over and m1.scores == m2.scores


@SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_events(table, seed):
    n, rules = table

    def run():
        m = new_match(n, rules.replace(rounds=1), seed=seed)
        rng = Rng(7)
        log = [m.intro_events]
        while not m.is_over:
            legal = m.legal_actions()
            log.append(m.apply(legal[rng.below(len(legal))]))
        return json.dumps(log, sort_keys=True)
    assert run() == run()


@SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32), steps=st.integers(0, 20))
def test_determinize_keeps_what_the_player_sees(table, seed, steps):
    s = round_after(table, seed, steps)
    player = seed % table[0]
    d = s.determinize(player, Rng(1))
    assert d.observation(player) == s.observation(player)
    assert accounted(d) == accounted(s)
