"""Sakura rounds: the deal table, gaji, hiki, the seed's stacked pair, round end, teams, matches."""

import pytest

from bot.cards import DECK, MONTH_MASKS, card, ids_in, mask
from bot.games.base import Action, GameOver, IllegalAction, InvalidRules, NotYourTurn
from bot.games.sakura import (
    DEAL,
    GAJI_AGAIN,
    Rules,
    SakuraRound,
    draw_for_dealer,
    new_match,
    new_round,
)

PINE = ids_in(MONTH_MASKS[1])


def play(state, text, player=None):
    return state.apply(Action.parse(text), player)


def legal(state):
    return [str(a) for a in state.legal_actions()]


def types(events):
    return [e["type"] for e in events]


# -- the deal ----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", sorted(DEAL))
def test_deal_table_by_player_count(n):
    hand, field = DEAL[n]
    for seed in range(5):
        s = new_round(n, seed=seed, dealer=n - 1)
        assert [h.bit_count() for h in s.hands] == [hand] * n
        assert s.field.bit_count() + s.captured[n - 1].bit_count() == field
        assert len(s.stock) == 48 - n * hand - field
        assert s.current_player == n - 1  # the dealer opens


def test_deal_reproduces_bit_for_bit_from_the_seed():
    assert new_round(5, seed=99).to_dict() == new_round(5, seed=99).to_dict()
    assert new_round(5, seed=99).to_dict() != new_round(5, seed=100).to_dict()


def test_four_of_a_month_dealt_to_the_field_go_to_the_dealer():
    s = SakuraRound.from_cards([["iris_chaff_1"], ["maple_chaff_1"]], PINE + ["deer"], ["geese"],
                               dealer=1)
    assert s.captured[1] == MONTH_MASKS[1] and ids_in(s.field) == ["deer"]
    assert {"type": "field_four", "player": 1, "cards": PINE} in s.start_events
    seeds = [seed for seed in range(400) if "field_four" in types(new_round(6, seed=seed).start_events)]
    assert seeds, "a real deal with four of a month on the field"
    s = new_round(6, seed=seeds[0], dealer=0)
    taken = s.captured[0]
    assert any(taken & MONTH_MASKS[m] == MONTH_MASKS[m] for m in range(1, 13))


# -- gaji ----------------------------------------------------------------------------------------
def gaji_round(rules=None, field=("crane", "swallow", "pine_chaff_1")):
    return SakuraRound.from_cards(
        [["lightning", "iris_chaff_1"], ["maple_chaff_1", "maple_chaff_2"]], list(field),
        ["wisteria_chaff_1", "wisteria_chaff_2", "peony_chaff_1", "peony_chaff_2"], rules=rules)


def test_gaji_from_hand_captures_any_single_field_card_even_a_willow():
    s = gaji_round()
    gaji_plays = [a for a in legal(s) if a.startswith("play:lightning")]
    assert gaji_plays == ["play:lightning>crane", "play:lightning>pine_chaff_1",
                          "play:lightning>swallow"]
    play(s, "play:lightning>swallow")
    assert ids_in(s.captured[0]) == ["swallow", "lightning"]
    assert s.gaji_user == 0 and s.gaji_victim == card("swallow").index


def test_gaji_takes_one_card_of_a_stacked_triplet():
    s = gaji_round(field=PINE[:3])
    play(s, "play:lightning>crane")
    assert ids_in(s.captured[0]) == ["crane", "lightning"]
    assert ids_in(s.field) == ["poetry_ribbon_jan", "pine_chaff_1", "wisteria_chaff_1"]


def test_gaji_on_an_empty_field_is_laid_down():
    s = gaji_round(field=())
    assert "play:lightning" in legal(s)
    play(s, "play:lightning")
    assert s.field >> card("lightning").index & 1


def test_gaji_on_the_field_is_taken_only_by_a_willow():
    s = SakuraRound.from_cards([["crane", "swallow"], ["pine_chaff_1", "iris_chaff_1"]],
                               ["lightning", "maple_chaff_1"], ["peony_chaff_1", "peony_chaff_2",
                                                                "clover_chaff_1", "clover_chaff_2"])
    assert "play:crane" in legal(s) and not any(">lightning" in a for a in legal(s))
    play(s, "play:crane")
    assert "lightning" in ids_in(s.field)
    play(s, "play:iris_chaff_1")
    play(s, "play:swallow")
    assert {"swallow", "lightning"} <= set(ids_in(s.captured[0]))


def test_gaji_turned_from_the_stock_matches_like_a_willow():
    s = SakuraRound.from_cards([["crane"], ["pine_chaff_1"]], ["swallow", "maple_chaff_1"],
                               ["lightning", "deer"])
    events = play(s, "play:crane")
    assert events[1] == {"type": "draw", "player": 0, "card": "lightning",
                         "captured": ["swallow", "lightning"]}
    assert s.gaji_user is None  # not used as a wild card
    s = SakuraRound.from_cards([["crane"], ["pine_chaff_1"]], ["maple_chaff_1"], ["lightning", "deer"])
    play(s, "play:crane")
    assert "lightning" in ids_in(s.field)


def finish_gaji_round(rules):
    """Seat 0 takes the crane with the gaji; the pine chaff and a willow ribbon are left over."""
    s = SakuraRound.from_cards([["lightning"], ["maple_chaff_1"]],
                               ["crane", "pine_chaff_1", "plain_ribbon_willow"],
                               ["iris_chaff_1", "iris_chaff_2"], rules=rules)
    play(s, "play:lightning>crane")
    return s, play(s, "play:maple_chaff_1")


def test_gaji_leftovers_of_the_victims_month_go_to_its_user_the_rest_is_dead():
    s, events = finish_gaji_round(Rules())
    assert s.is_over
    assert {"type": "gaji_leftovers", "player": 0, "cards": ["pine_chaff_1"]} in events
    assert {"type": "dead", "cards": ["maple_chaff_1", "plain_ribbon_willow"]} in events
    assert ids_in(s.captured[0]) == ["crane", "pine_chaff_1", "lightning"]
    assert s.field == 0 and s.dead & card("plain_ribbon_willow").bit


def test_gaji_leftovers_all_option_gives_every_leftover_to_the_user():
    s, _ = finish_gaji_round(Rules(gaji_leftovers="all"))
    assert set(ids_in(s.captured[0])) == {"crane", "pine_chaff_1", "lightning", "maple_chaff_1",
                                          "plain_ribbon_willow"}
    assert s.result().detail["scores"] == [20 + 10, 0]


def test_gaji_dealt_to_the_field_stays_or_is_discarded():
    def deal(rules):
        return SakuraRound.from_cards([["crane"], ["deer"]], ["lightning", "moon"], ["geese"],
                                      rules=rules)
    assert "lightning" in ids_in(deal(Rules()).field)
    s = deal(Rules(gaji_dealt_to_field="discarded"))
    assert "lightning" not in ids_in(s.field) and s.dead & card("lightning").bit
    assert {"type": "gaji_discarded", "card": "lightning"} in s.start_events


def test_gaji_off_makes_the_lightning_an_ordinary_willow():
    s = gaji_round(Rules(gaji="off"))
    assert [a for a in legal(s) if "lightning" in a] == ["play:lightning"]
    play(s, "play:lightning")
    assert ids_in(s.captured[0]) == ["swallow", "lightning"] and s.gaji_user is None


# -- hiki ----------------------------------------------------------------------------------------
def hiki_round(rules=None, hand=("pine_chaff_1", "pine_chaff_2", "iris_chaff_1"),
               field=("crane", "poetry_ribbon_jan", "clover_chaff_1")):
    return SakuraRound.from_cards([list(hand), ["maple_chaff_1", "deer"]], list(field),
                                  ["peony_chaff_1", "peony_chaff_2", "boar", "geese"], rules=rules)


def test_hiki_takes_the_whole_month_from_hand_and_field_then_turns_the_stock():
    s = hiki_round()
    assert "hiki:pine_chaff_1" in legal(s)
    events = play(s, "hiki:pine_chaff_1")
    assert events[0] == {"type": "hiki", "player": 0, "month": 1, "cards": PINE,
                         "from_hand": ["pine_chaff_1", "pine_chaff_2"]}
    assert events[1]["type"] == "draw" and events[1]["card"] == "peony_chaff_1"
    assert s.captured[0] == MONTH_MASKS[1] and ids_in(s.hands[0]) == ["iris_chaff_1"]
    assert s.current_player == 1


def test_hiki_with_all_four_in_hand_and_not_with_a_single_card():
    s = hiki_round(hand=PINE, field=["clover_chaff_1"])
    assert "hiki:crane" in legal(s)
    s = SakuraRound.from_cards([["pine_chaff_2"], ["deer"]], PINE[:3], ["geese", "boar"])
    assert legal(s) == ["play:pine_chaff_2"]  # the play itself takes all four


def test_hiki_option_off():
    assert not [a for a in legal(hiki_round(Rules(hiki=False))) if a.startswith("hiki")]


def test_an_empty_hand_only_turns_stock_cards():
    s = hiki_round(hand=("pine_chaff_1", "pine_chaff_2"))
    play(s, "hiki:pine_chaff_1")
    play(s, "play:maple_chaff_1")
    assert s.current_player == 0 and legal(s) == ["draw"]
    events = play(s, "draw")
    assert types(events) == ["draw"] and events[0]["card"] == "boar"
    play(s, "play:deer")
    assert s.is_over  # hands and stock exhausted


def test_hiki_guards_its_cards_against_the_gaji():
    s = SakuraRound.from_cards(
        [["lightning", "iris_chaff_1"], ["pine_chaff_1", "pine_chaff_2", "maple_chaff_1"]],
        ["crane", "poetry_ribbon_jan", "deer"], ["peony_chaff_1", "peony_chaff_2", "boar"])
    events = play(s, "play:lightning>crane")
    assert events[0] == {"type": "gaji_blocked", "player": 0, "target": "crane", "by": 1}
    assert events[1]["type"] == "hiki" and events[1]["player"] == 1
    assert s.captured[1] == MONTH_MASKS[1] and ids_in(s.hands[1]) == ["maple_chaff_1"]
    assert s.phase == GAJI_AGAIN and s.current_player == 0
    assert legal(s) == ["play:lightning", "play:lightning>deer"]
    with pytest.raises(IllegalAction):
        play(s, "play:iris_chaff_1")
    play(s, "play:lightning")  # leave it on the field
    assert "lightning" in ids_in(s.field) and s.current_player == 1 and s.gaji_user is None


def test_hiki_guard_then_gaji_takes_another_card():
    s = SakuraRound.from_cards([["lightning"], ["pine_chaff_1", "pine_chaff_2"]],
                               ["crane", "poetry_ribbon_jan", "deer"], ["peony_chaff_1"])
    play(s, "play:lightning>poetry_ribbon_jan")
    play(s, "play:lightning>deer")
    assert ids_in(s.captured[0]) == ["deer", "lightning"] and s.gaji_victim == card("deer").index


def test_hiki_guard_option_off_lets_the_gaji_take_it():
    rules = Rules(hiki_guards_gaji=False)
    s = SakuraRound.from_cards([["lightning"], ["pine_chaff_1", "pine_chaff_2"]],
                               ["crane", "poetry_ribbon_jan"], ["peony_chaff_1"], rules=rules)
    play(s, "play:lightning>crane")
    assert ids_in(s.captured[0]) == ["crane", "lightning"]


# -- the seed's stacked pair ------------------------------------------------------------------------
def stacked_round(rules):
    return SakuraRound.from_cards([["pine_chaff_1", "iris_chaff_1"], ["crane", "maple_chaff_1"]],
                                  ["poetry_ribbon_jan", "deer"],
                                  ["pine_chaff_2", "peony_chaff_1", "peony_chaff_2", "geese"],
                                  rules=rules)


def test_seed_stacked_pair_leaves_three_on_the_field_for_the_fourth():
    s = stacked_round(Rules.preset("seed"))
    events = play(s, "play:pine_chaff_1")
    assert events[-1] == {"type": "stacked", "player": 0,
                          "cards": ["poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2"]}
    assert s.captured[0] == 0 and (s.field & MONTH_MASKS[1]).bit_count() == 3
    play(s, "play:crane")
    assert s.captured[1] & MONTH_MASKS[1] == MONTH_MASKS[1]


def test_without_stacked_pair_the_pair_is_kept():
    s = stacked_round(Rules())
    play(s, "play:pine_chaff_1")
    assert ids_in(s.captured[0]) == ["poetry_ribbon_jan", "pine_chaff_1"]
    assert "pine_chaff_2" in ids_in(s.field)


# -- round end ------------------------------------------------------------------------------------
def test_two_player_round_plays_the_stock_out_or_leaves_it_dead():
    def run(rules):
        s = SakuraRound.from_cards([["crane"], ["deer"]], ["moon"], ["geese", "boar", "sake_cup"],
                                   rules=rules)
        play(s, "play:crane")
        play(s, "play:deer")
        return s
    s = run(Rules())
    assert not s.is_over and legal(s) == ["draw"]
    play(s, "draw")
    assert s.is_over and s.stock == []
    dead = run(Rules(two_player_dead_stock=True))
    assert dead.is_over and len(dead.stock) == 1
    assert "sake_cup" not in str(dead.observation(0))  # the dead stock stays hidden


def test_round_result_and_errors_after_the_end():
    s, _ = finish_gaji_round(Rules())
    r = s.result()
    assert r.points == [20 + 0, 0] and r.winner == 0 and r.next_dealer == 0
    assert r.detail["yaku_by_seat"] == {"0": [], "1": []}
    with pytest.raises(GameOver):
        play(s, "draw")
    assert s.observation(1)["outcome"]["winner"] == 0


def test_not_your_turn_changes_nothing():
    s = gaji_round()
    before = s.to_dict()
    with pytest.raises(NotYourTurn):
        play(s, "play:maple_chaff_1", player=1)
    assert s.to_dict() == before


def test_team_partners_share_their_pile_and_score():
    rules = Rules(teams="pairs")
    s = SakuraRound.from_cards(
        [["iris_chaff_1"], ["iris_chaff_2"], ["maple_chaff_1"], ["maple_chaff_2"]],
        [], [], captured=[["curtain", "moon"], ["crane"], ["sake_cup"], ["deer"]], rules=rules)
    obs = s.observation(0)
    assert obs["sides"] == [[0, 2], [1, 3]] and obs["side"] == 0
    assert obs["side_yaku"] == [["drinking"], []]
    assert obs["hand"] == ["iris_chaff_1"] and "maple_chaff_1" not in str(obs)  # partner hidden
    for text in ("play:iris_chaff_1", "play:iris_chaff_2", "play:maple_chaff_1", "play:maple_chaff_2"):
        play(s, text)
    r = s.result()
    assert r.points == [45, 25 - 50, 45, 25 - 50] and r.winner == 0


def test_bad_player_counts_and_teams_are_rejected():
    with pytest.raises(InvalidRules):
        new_match(8)
    with pytest.raises(InvalidRules):
        new_match(5, Rules(teams="pairs"))
    with pytest.raises(InvalidRules):
        new_round(4, Rules(teams="triples"))


# -- matches ---------------------------------------------------------------------------------------
def test_draw_for_dealer_earliest_month_and_redraw_on_ties():
    for seed in range(30):
        dealer, draws = draw_for_dealer(seed, 7)
        months = [card(c).month for c in draws[0]]
        assert months[dealer] == min(months) if len(draws) == 1 else months.count(min(months)) > 1
        assert draw_for_dealer(seed, 7) == (dealer, draws)


def test_match_winner_deals_next_and_scores_accumulate():
    m = new_match(3, Rules(rounds=2), seed=5)
    assert m.intro_events[0]["type"] == "dealer_draw"
    first_round = None
    while not m.is_over:
        for e in m.apply(m.legal_actions()[0]):
            if e["type"] == "round_over" and first_round is None:
                first_round = e
                assert m.dealer == e["next_dealer"] == e["winner"]
    assert m.scores == [sum(h["points"][s] for h in m.history) for s in range(3)]
    assert all(0 <= int(seat) < 3 for seat in first_round["detail"]["yaku_by_seat"])


def test_every_card_id_in_the_observation_is_a_known_card():
    s = new_round(4, seed=3)
    known = {c.id for c in DECK}
    assert set(s.observation(0)["hand"]) <= known and mask(s.observation(0)["field"]) == s.field


def test_docstring_example_runs():
    import doctest

    from bot.games.sakura import game
    result = doctest.testmod(game)
    assert result.attempted >= 3 and result.failed == 0
