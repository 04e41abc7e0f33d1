"""The greedy Sakura player: always legal, sensible single choices, and clearly above random."""

from bot.ai import make_player
from bot.ai.base import RandomPlayer
from bot.ai.sakura import GreedyPlayer
from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.sakura import Rules, SakuraRound, new_match


def play_match(n, rules, seed, greedy_seats):
    players = [GreedyPlayer() if s in greedy_seats else RandomPlayer() for s in range(n)]
    m = new_match(n, rules, seed)
    rng = Rng(seed)
    while not m.is_over:
        seat = m.current_player
        legal = m.legal_actions()
        action = players[seat].choose(m.observation(seat), legal, rng)
        assert action in legal
        m.apply(action, seat)
    return m


def test_make_player_finds_the_greedy_player():
    assert isinstance(make_player("greedy", "sakura"), GreedyPlayer)


def test_greedy_takes_the_valuable_card_and_completes_a_yaku():
    s = SakuraRound.from_cards(
        [["pine_chaff_1", "cherry_chaff_1", "maple_chaff_1"], ["iris_chaff_1"]],
        ["crane", "cherry_chaff_2", "deer"], ["wisteria_chaff_1", "wisteria_chaff_2"],
        captured=[["butterflies", "sake_cup"], []])
    choice = GreedyPlayer().choose(s.observation(0), s.legal_actions(), Rng(1))
    assert choice == Action("play", "maple_chaff_1")  # deer completes butterflies-sake-deer


def test_greedy_keeps_the_gaji_for_a_better_target():
    s = SakuraRound.from_cards([["lightning", "pine_chaff_1"], ["iris_chaff_1"]],
                               ["crane", "plum_chaff_1"], ["wisteria_chaff_1", "wisteria_chaff_2"])
    choice = GreedyPlayer().choose(s.observation(0), s.legal_actions(), Rng(1))
    assert choice == Action("play", "pine_chaff_1")  # the chaff already takes the crane


def test_greedy_is_legal_under_every_option():
    variants = [Rules(), Rules.preset("seed"), Rules(teams="pairs"), Rules(teams="triples"),
                Rules(gaji_leftovers="all", gaji_dealt_to_field="discarded", victory="chu_basa"),
                Rules(two_player_dead_stock=True, hiki_guards_gaji=False)]
    for i, rules in enumerate(variants):
        n = 6 if rules.teams == "triples" else 4 if rules.teams == "pairs" else 2 + i % 6
        m = play_match(n, rules.replace(rounds=2), seed=i, greedy_seats=set(range(n)))
        assert m.is_over


def test_greedy_clearly_beats_random():
    rules = Rules(rounds=4)
    greedy = rand = 0
    for seed in range(12):
        m = play_match(2, rules, seed, greedy_seats={seed % 2})
        greedy += m.scores[seed % 2]
        rand += m.scores[1 - seed % 2]
    # measured: about 100 points a round for greedy against 40 for random
    assert greedy - rand > 25 * 4 * 12
    wins = sum(max(range(3), key=lambda s, m=m: m.scores[s]) == 0
               for m in (play_match(3, rules, seed, {0}) for seed in range(12)))
    assert wins >= 8  # of 12 three-player matches, against a chance share of 4
