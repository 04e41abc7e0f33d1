"""The search AI: sampled worlds match the observation, it plays legally, never reads hidden
cards, keeps to its budget, and make_player offers it as 'hard' and 'expert'."""

from __future__ import annotations

import inspect

import pytest

from bot.ai import make_player
from bot.ai.base import RandomPlayer
from bot.ai.search import LEVELS, Sampler, SearchPlayer, fast_clone, sample
from bot.cards import DECK
from bot.games import GAMES, game_module
from bot.games.rng import Rng

SEATS = {"koikoi": (2,), "mushi": (2,), "gostop": (2, 3), "sakura": (2, 3), "hana_awase": (2, 3),
         "shedding": (2, 3)}
SEARCHED = [game for game in GAMES if game in SEATS]
"""The games whose hard and expert players are this search (Seotda's weigh sampled equity:
tests/games/seotda/test_ai.py)."""


def _states(game: str, n: int, seeds: range, every: int = 1):
    """(match, seat to act) along random 1-round matches: a spread of real positions."""
    module = game_module(game)
    rules = module.Rules().replace(rounds=1)
    walker = RandomPlayer()
    for seed in seeds:
        rng = Rng(seed)
        match = module.new_match(n, rules, seed)
        step = 0
        while not match.is_over:
            seat = match.current_player
            if step % every == 0:
                yield match, seat
            step += 1
            match.apply(walker.choose(match.observation(seat), match.legal_actions(), rng), seat)


@pytest.mark.parametrize("game", SEARCHED)
def test_sampled_worlds_show_the_seat_what_it_saw(game):
    rng = Rng(11)
    checked = 0
    for n in SEATS[game]:
        for match, seat in _states(game, n, range(4)):
            obs = match.round.observation(seat)
            world = sample(obs, rng)
            if world is None:  # a mid-turn phase the search leaves to the greedy player
                continue
            seen = world.observation(seat)
            assert {k: v for k, v in seen.items() if k != "last_move"} == \
                {k: v for k, v in obs.items() if k != "last_move"}
            assert set(world.legal_actions()) == set(match.legal_actions())
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game", SEARCHED)
def test_search_always_returns_a_legal_action(game):
    player = SearchPlayer(game, iterations=6)
    rng = Rng(5)
    for n in SEATS[game]:
        for match, seat in _states(game, n, range(2), every=3):
            legal = match.legal_actions()
            assert player.choose(match.observation(seat), legal, rng) in legal


def _twin(game: str, seed: int):
    """A position and a copy that differs only in cards the seat to act cannot see: one card
    of another seat's hand swapped with a card of the stock (draw pile)."""
    module = game_module(game)
    rng = Rng(seed)
    walker = module.new_match(2, module.Rules().replace(rounds=1), seed)
    greedy = make_player("greedy", game)
    for _ in range(4 + seed % 5):
        if walker.is_over or walker.round.phase not in ("play",):
            break
        seat = walker.current_player
        walker.apply(greedy.choose(walker.observation(seat), walker.legal_actions(), rng), seat)
    rnd = walker.round
    if rnd.is_over or rnd.phase != "play":
        return None
    seat = rnd.current_player
    other = 1 - seat
    data = rnd.to_dict()
    stock_key = "draw" if game == "shedding" else "stock"
    if not data["hands"][other] or not data[stock_key]:
        return None
    twin = rnd.to_dict()
    a, b = twin["hands"][other][0], twin[stock_key][0]
    twin["hands"][other] = sorted([b, *twin["hands"][other][1:]])
    twin[stock_key] = [a, *twin[stock_key][1:]]
    twin_round = type(rnd).from_dict(twin)
    assert twin_round.to_dict()["hands"] != data["hands"]
    return seat, rnd, twin_round


@pytest.mark.parametrize("game", SEARCHED)
def test_no_hidden_card_changes_the_decision(game):
    player = SearchPlayer(game, iterations=12)
    compared = 0
    for seed in range(8):
        found = _twin(game, seed)
        if found is None:
            continue
        seat, one, two = found
        obs = one.observation(seat)
        assert two.observation(seat) == obs  # the seat cannot tell the two apart
        legal = one.legal_actions()
        assert two.legal_actions() == legal
        first = player.choose(obs, legal, Rng(seed))
        assert player.choose(two.observation(seat), two.legal_actions(), Rng(seed)) == first
        compared += 1
    assert compared >= 3


def test_choose_sees_only_the_observation_and_legal_actions():
    params = list(inspect.signature(SearchPlayer.choose).parameters)
    assert params == ["self", "observation", "legal", "rng"]


def test_same_observation_and_seed_give_the_same_action():
    module = game_module("koikoi")
    match = module.new_match(2, None, 3)
    seat = match.current_player
    obs, legal = match.observation(seat), match.legal_actions()
    player = SearchPlayer("koikoi", iterations=40)
    picks = {player.choose(obs, legal, Rng(9)) for _ in range(3)}
    assert len(picks) == 1


def test_the_time_cap_is_kept(monkeypatch):
    """The search stops at its time cap, read on a clock that moves 10 ms each time the search
    looks at it (no wall clock: the test cannot flake on a busy machine)."""
    import types

    import bot.ai.search.player as search_player

    ticks = iter(range(10**9))
    monkeypatch.setattr(search_player, "time",
                        types.SimpleNamespace(perf_counter=lambda: next(ticks) * 0.01))
    player = SearchPlayer("koikoi", iterations=10**6, seconds=0.05)
    searched = player.play_out
    played = 0

    def counted(*args):
        nonlocal played
        played += 1
        return searched(*args)

    player.play_out = counted
    for match, seat in _states("koikoi", 2, range(2), every=4):
        legal = match.legal_actions()
        played = 0
        player.choose(match.observation(seat), legal, Rng(1))
        # The clock is read once per sampled world (one rollout per candidate): past 0.05 s on
        # its sixth reading at the latest, instead of a million rollouts.
        assert played <= 6 * len(legal)


def test_the_koikoi_decision_is_searched():
    """A sure 5 points now against nothing left to win: the search stops (koi-koi is legal)."""
    from bot.games.koikoi import KoiKoiRound

    hands = [["sake_cup", "pine_chaff_1"], ["wisteria_chaff_1", "paulownia_chaff_1"]]
    field = ["chrysanthemum_chaff_1", "cherry_chaff_1"]
    used = {*hands[0], *hands[1], *field, "curtain", "iris_chaff_1"}
    rest = ["iris_chaff_1"] + [c.id for c in DECK if c.id not in used]
    rnd = KoiKoiRound.from_cards(hands=hands, field=field, stock=rest, captured=[["curtain"], []])
    rnd.apply("play:sake_cup")
    assert rnd.phase == "decide" and {str(a) for a in rnd.legal_actions()} == {"koikoi", "stop"}
    action = SearchPlayer("koikoi", iterations=40).choose(rnd.observation(0), rnd.legal_actions(),
                                                          Rng(2))
    assert str(action) == "stop"


def test_levels():
    assert set(LEVELS) == {"hard", "expert"}
    assert LEVELS["hard"]["seconds"] < 1 and LEVELS["expert"]["seconds"] <= 3
    hard = make_player("hard", "mushi")
    assert isinstance(hard, SearchPlayer) and hard.name == "hard"
    assert make_player("expert", "koikoi").iterations > hard.iterations
    assert make_player("random", "koikoi").name == "random"
    with pytest.raises(KeyError):
        make_player("godlike", "koikoi")


def test_a_prior_keeps_the_greedy_move_unless_the_search_is_sure():
    module = game_module("gostop")
    match = module.new_match(2, None, 4)
    seat = match.current_player
    obs, legal = match.observation(seat), match.legal_actions()
    greedy = make_player("greedy", "gostop").choose(obs, legal, Rng(1))
    stubborn = SearchPlayer("gostop", iterations=20, prior=1e9)
    assert stubborn.choose(obs, legal, Rng(1)) in (greedy, *stubborn.evaluate(obs, legal, Rng(1)))
    assert stubborn.prior == 1e9 and make_player("hard", "gostop").prior > 0


@pytest.mark.parametrize("game", ["mushi", "hana_awase", "sakura", "gostop", "shedding"])
def test_rollout_policy_from_the_state_chooses_as_the_greedy_player(game):  # Koi-Koi: test_koikoi_rollout
    """Rollouts read the greedy player's position straight from the round state (no
    observation); the choice must be the one the greedy player makes from the observation."""
    from bot.ai.search.player import _FAST

    greedy = make_player("greedy", game)
    fast = _FAST[game]
    checked = 0
    for n in SEATS[game]:
        for match, seat in _states(game, n, range(6)):
            legal = match.legal_actions()
            if len(legal) < 2:
                continue
            state = match.round
            chosen = fast(greedy, state, legal, Rng(3))
            if chosen is None:  # a phase the fast path leaves to the observation
                continue
            assert chosen == greedy.choose(state.observation(seat), legal, Rng(3))
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("game", ["mushi", "hana_awase", "sakura"])
def test_a_width_searches_only_the_greedy_players_best_moves(game):
    greedy = make_player("greedy", game)
    narrow = SearchPlayer(game, iterations=12, width=2)
    checked = 0
    for match, seat in _states(game, 2, range(3), every=3):
        obs, legal = match.observation(seat), match.legal_actions()
        if len(legal) < 3:
            continue
        ranked = greedy.ranked(obs, legal, Rng(1))
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        if game != "sakura":  # Sakura's greedy breaks near ties at random
            assert ranked[0] == greedy.choose(obs, legal, Rng(1))
        assert set(narrow.evaluate(obs, legal, Rng(2))) <= set(ranked[:2])
        checked += 1
    assert checked > 3


@pytest.mark.parametrize("game", SEARCHED)
def test_a_rollouts_copy_of_a_world_is_whole_and_its_own(game):
    """The search plays out a copy of each world (``fast_clone``): the copy holds every attribute
    of the round, those Go-Stop's round keeps in slots too, and playing it to the end leaves the
    world and the next world from the same sampler as they were."""
    rng = Rng(3)
    checked = 0
    for n in SEATS[game]:
        for match, seat in _states(game, n, range(4), every=3):
            sampler = Sampler(match.round.observation(seat))
            if not sampler.ok:
                continue
            world = sampler.world(rng)
            template = sampler.template.to_dict()
            before = world.to_dict()
            copy = fast_clone(world)
            assert copy.to_dict() == before
            walker = Rng(checked)
            while not copy.is_over:
                legal = copy.legal_actions()
                copy.apply(legal[walker.below(len(legal))])
            assert world.to_dict() == before
            assert sampler.template.to_dict() == template
            checked += 1
    assert checked >= 20
