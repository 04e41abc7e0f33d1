"""The greedy player: legal, sensible choices from the observation only; the slap delay."""

from __future__ import annotations

import json

import pytest

from bot.ai import make_player
from bot.ai.base import RandomPlayer
from bot.ai.shedding import GreedyPlayer, slap_delay
from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.shedding import new_round

from .helpers import position

FIELD = ["crane", "plum_chaff_1", "cuckoo", "bridge"]


def choose(r, seed: int = 0) -> str:
    obs = json.loads(json.dumps(r.observation(r.current)))  # only what the seat sees
    legal = [Action.parse(a) for a in obs["legal_actions"]]
    return str(GreedyPlayer().choose(obs, legal, Rng(seed)))


def test_make_player_finds_the_greedy_player():
    assert isinstance(make_player("greedy", "shedding"), GreedyPlayer)


def test_it_takes_a_winning_move():
    r = position([["deer", "maple_chaff_1"], ["boar"]], FIELD, draw=["geese"])
    assert choose(r) in ("pair:deer>maple_chaff_1", "pair:maple_chaff_1>deer")


def test_it_sheds_more_cards_first():
    month = ["moon", "geese", "susuki_chaff_1", "susuki_chaff_2"]
    r = position([[*month, "pine_chaff_1", "deer"], ["boar", "swallow"]], FIELD, draw=["lightning"])
    assert choose(r).startswith("hand_hiki:")


def test_it_puts_the_bright_on_top_against_the_next_player():
    r = position([["curtain", "cherry_chaff_1", "deer", "boar"], ["swallow", "geese"]],
                 FIELD, draw=["lightning"])
    assert choose(r) == "pair:curtain>cherry_chaff_1"


def test_it_sheds_a_bright_before_a_chaff_of_the_same_move():
    r = position([["moon", "deer", "pine_chaff_1", "iris_chaff_1"], ["swallow", "geese"]],
                 ["susuki_chaff_1", "maple_chaff_2", "cuckoo", "bridge"], draw=["lightning"])
    assert choose(r) == "match:moon>susuki_chaff_1"


def test_it_draws_only_when_nothing_sheds_and_discards_a_matching_draw():
    r = position([["deer", "pine_chaff_1"], ["swallow"]], FIELD, draw=["geese"])
    assert choose(r) != "struggle"
    r = position([["deer", "boar"], ["swallow"]], FIELD, draw=["geese", "pine_chaff_2"])
    assert choose(r) == "struggle"
    r.apply("struggle")
    assert choose(r) == "struggle_match:pine_chaff_2>crane"


def test_in_the_race_it_slaps_for_a_random_seat():
    r = position([["pine_chaff_1"], ["boar"], ["swallow"]], FIELD, draw=["geese"])
    r.apply("match:pine_chaff_1>crane")
    picks = {choose(r, seed) for seed in range(30)}
    assert picks == {"slap:1", "slap:2"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_it_always_chooses_a_legal_action(players):
    rng = Rng(players)
    for seed in range(15):
        r = new_round(players, seed=seed, dealer=seed % players)
        while not r.is_over:
            legal = r.legal_actions()
            action = GreedyPlayer().choose(r.observation(r.current), legal, rng)
            assert action in legal
            r.apply(action)


def _round_wins(players: int, rounds: int) -> int:
    """Rounds won by one greedy seat (rotating) against random players."""
    rng, wins = Rng(11), 0
    for g in range(rounds):
        greedy_seat = g % players
        r = new_round(players, seed=1000 + g, dealer=(g // players) % players)
        while not r.is_over:
            p = r.current
            bot = GreedyPlayer() if p == greedy_seat else RandomPlayer()
            r.apply(bot.choose(r.observation(p), r.legal_actions(), rng))
        wins += r.winner == greedy_seat
    return wins


def test_greedy_clearly_beats_random_heads_up():
    assert _round_wins(2, 300) >= 0.7 * 300  # measured 87%


def test_greedy_clearly_beats_three_random_players():
    assert _round_wins(4, 200) >= 0.45 * 200  # a fair share is 25%; measured about 64%


def test_slap_delay_is_human_like_and_reproducible():
    rng = Rng(1)
    delays = [slap_delay(rng) for _ in range(2000)]
    assert all(0.6 <= d <= 2.0 for d in delays)
    assert 1.2 < sum(delays) / len(delays) < 1.4
    assert max(delays) - min(delays) > 1.0
    assert slap_delay(Rng(7)) == slap_delay(Rng(7))
    assert 0.2 <= slap_delay(Rng(7), 0.2, 0.5) <= 0.5
    with pytest.raises(ValueError):
        slap_delay(Rng(7), 2.0, 1.0)
