"""The greedy Go-Stop player: legal moves only, sensible choices, and clearly better than random."""

from bot.ai import make_player
from bot.ai.base import RandomPlayer
from bot.ai.gostop import GreedyPlayer
from bot.games.base import Action
from bot.games.gostop import Rules, new_round
from bot.games.rng import Rng
from bot.games.simulate import simulate, wilson
from tests.games.gostop.helpers import rnd


def play_rounds(n, rounds, rules=None, seed=0):
    """Greedy in each seat in turn against random players: its share of the won rounds."""
    rng = Rng(seed)
    wins = points = 0
    for k in range(rounds):
        me = k % n
        players = [GreedyPlayer() if s == me else RandomPlayer() for s in range(n)]
        s = new_round(n, rules or Rules(), seed=seed * 7919 + k, dealer=(k // n) % n)
        while not s.is_over:
            seat = s.current_player
            action = players[seat].choose(s.observation(seat), s.legal_actions(), rng)
            assert action in s.legal_actions()
            s.apply(action, seat)
        res = s.result()
        wins += res.winner == me
        points += res.points[me]
    return wins, points


def test_greedy_beats_random_in_two_players():
    wins, points = play_rounds(2, 200)
    lo, _ = wilson(wins, 200)
    assert lo > 0.6 and points > 0


def test_greedy_beats_random_in_three_players():
    wins, points = play_rounds(3, 240, seed=1)
    lo, _ = wilson(wins, 240)
    assert lo > 0.4 and points > 0  # a random seat would win about a third


def test_greedy_with_the_seed_preset_and_jokers():
    wins, _ = play_rounds(2, 100, Rules.preset("seed", jokers=3, small_bomb="bomb"), seed=2)
    assert wins > 55


def test_match_simulation_through_the_registry():
    assert make_player("greedy", "gostop").name == "greedy"
    report = simulate("gostop", ["greedy", "random"], games=12, seed=3, rules=Rules(rounds=3))
    greedy, rand = report.tallies
    assert greedy.points > rand.points and report.rounds >= 36


def test_greedy_bombs_and_takes_chongtong_and_jokers():
    g, rng = GreedyPlayer(), Rng(0)
    s = rnd(hands=[["crane", "pine_chaff_1", "pine_chaff_2", "plum_chaff_1"], ["cherry_chaff_1"]],
            field=["poetry_ribbon_jan", "plum_chaff_2"], stock=["..."])
    assert g.choose(s.observation(0), s.legal_actions(), rng) == Action("bomb", "crane")
    s = rnd(hands=[["crane", "poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"], ["cherry_chaff_1"]],
            field=["iris_chaff_1"], stock=["..."])
    assert g.choose(s.observation(0), s.legal_actions(), rng) == Action("chongtong")
    s = rnd(hands=[["joker_1", "plum_chaff_1"], ["cherry_chaff_1"]], field=["iris_chaff_1"],
            stock=["..."], jokers=1)
    assert g.choose(s.observation(0), s.legal_actions(), rng) == Action("joker", "joker_1")


def test_greedy_takes_the_bright_and_shakes_when_playing_a_triplet():
    g, rng = GreedyPlayer(), Rng(0)
    s = rnd(hands=[["curtain", "plum_chaff_1", "iris_chaff_1"], ["cherry_chaff_1"]],
            field=["crane", "plum_chaff_2", "cherry_chaff_2"], stock=["..."])
    # curtain takes cherry_chaff_2; plum takes plum; the crane stays: prefer the pair with value
    choice = g.choose(s.observation(0), s.legal_actions(), rng)
    assert choice.kind == "play" and choice.card in ("curtain", "plum_chaff_1")
    s = rnd(hands=[["crane", "poetry_ribbon_jan", "pine_chaff_1", "plum_chaff_1"], ["cherry_chaff_1"]],
            field=["iris_chaff_1"], stock=["..."])
    choice = g.choose(s.observation(0), s.legal_actions(), rng)
    assert choice.kind in ("shake", "play")
    if choice.card in ("crane", "poetry_ribbon_jan", "pine_chaff_1"):
        assert choice.kind == "shake"


def test_greedy_stops_when_an_opponent_is_close():
    g, rng = GreedyPlayer(), Rng(0)
    # seat 1 already has 6 of the 7 points: stop
    s = rnd(hands=[["maple_chaff_1", "cherry_chaff_1", "plum_chaff_1", "iris_chaff_1"], ["crane", "moon"]],
            field=["blue_ribbon_oct"], stock=["..."],
            captured=[["poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar", "blue_ribbon_jun",
                       "blue_ribbon_sep"],
                      ["curtain", "phoenix", "rainman", "bush_warbler", "cuckoo"]])
    s.apply("play:maple_chaff_1")
    assert s.phase == "decide"
    assert g.choose(s.observation(0), s.legal_actions(), rng) == Action("stop")


def test_go_or_stop_read_from_the_round_is_the_observations():
    """The search's rollouts weigh go or stop from the round itself (no observation): the same
    call as from the observation, at every go-or-stop decision of seeded random play."""
    from bot.ai.gostop import Table

    g = GreedyPlayer()
    decided = set()
    for n, rules in ((2, Rules()), (3, Rules()), (2, Rules.preset("seed"))):
        for seed in range(40):
            s, rng = new_round(n, rules, seed=seed), Rng(seed)
            while not s.is_over:
                legal = s.legal_actions()
                if s.phase == "decide" and len(legal) == 2:
                    mine = g.decide(Table.of_round(s), legal)
                    assert mine == g.choose(s.observation(s.current_player), legal, rng)
                    decided.add(mine.kind)
                s.apply(legal[rng.below(len(legal))])
    assert decided == {"go", "stop"}
