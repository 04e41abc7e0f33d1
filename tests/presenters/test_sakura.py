"""Sakura (Higo-Bana) on screen: teams, side points and yaku, gaji, hiki, dead cards, the round
result and the victory counting, from real engine states (``SakuraRound.from_cards`` and seeded
random matches)."""

from __future__ import annotations

from bot import presenter
from bot.games import sakura
from bot.games.base import Action
from bot.games.rng import Rng
from bot.presenters.sakura import PRESENTER
from rendering import render_summary, render_table

GAME = "sakura"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]


def _round(hands, field, stock, captured=None, dealer=0, **rules):
    return sakura.SakuraRound.from_cards(hands, field, stock, captured=captured, dealer=dealer,
                                         rules=sakura.Rules(**rules))


def _lines(events, names=NAMES):
    return [presenter.describe_event(GAME, e, names) for e in events]


def _round_over(rnd, number=1):
    result = rnd.result()
    return {"type": "round_over", "round": number, "scores": list(result.points), **result.to_dict()}


def test_teams_share_points_and_yaku_and_get_team_numbers():
    captured = [["curtain", "moon"], [], ["sake_cup", "crane"], []]
    rnd = _round([["pine_chaff_1"], ["plum_chaff_1"], ["iris_chaff_1"], ["peony_chaff_1"]],
                 ["maple_chaff_1"], ["clover_chaff_1"], captured=captured, teams="pairs")
    view = presenter.table_view(rnd.observation(0), NAMES[:4])
    assert [p.team for p in view.players] == [1, 2, 1, 2]
    ann, bob, cid, _ = view.players
    assert ann.badges[:2] == ("65 in cards", "Drinking") and cid.badges[:2] == ("65 in cards", "Drinking")
    assert bob.badges[0] == "0 in cards"
    assert view.footer.startswith("Teams: Ann & Cid vs Bob & Dee")
    assert _lines(rnd.start_events, NAMES[:4])[0] == "Ann deals · teams: Ann & Cid vs Bob & Dee"
    fields = dict(presenter.hand_fields(rnd.observation(2)))
    assert fields["Your team"] == "65 in cards; yaku Drinking (50 from every other side)"
    assert render_table(view)[:4] == b"\x89PNG"


def test_single_players_have_no_team_number():
    rnd = _round([["pine_chaff_1"], ["plum_chaff_1"], ["iris_chaff_1"]], ["maple_chaff_1"], [])
    view = presenter.table_view(rnd.observation(0), NAMES[:3])
    assert [p.team for p in view.players] == [None, None, None]
    assert "Teams" not in view.footer


def test_table_view_never_reads_hidden_information():
    rnd = _round([["crane", "pine_chaff_1"], ["moon", "susuki_chaff_2"]],
                 ["curtain", "pine_chaff_2", "lightning"], ["plum_chaff_1", "iris_chaff_1"])
    a, b = rnd.observation(0), rnd.observation(1)
    assert a["hand"] != b["hand"]
    assert presenter.table_view(a, NAMES[:2]) == presenter.table_view(b, NAMES[:2])
    tampered = dict(a, hand=["phoenix"], legal_actions=["hiki:phoenix"], side=1, seat=1)
    assert presenter.table_view(tampered, NAMES[:2]) == presenter.table_view(a, NAMES[:2])


def test_progress_shows_yaku_two_thirds_held_whose_third_card_is_alive():
    rnd = _round([["pine_chaff_1"], ["plum_chaff_1"]], ["maple_chaff_1"], [],
                 captured=[["curtain", "moon", "butterflies", "deer"], ["boar"]])
    # sake cup (for Drinking and Butterflies-Sake-Deer) is out of play here: dead
    assert presenter.table_view(rnd.observation(0), NAMES[:2]).players[0].progress == ()
    rnd = _round([["pine_chaff_1"], ["plum_chaff_1"]], ["maple_chaff_1"], ["sake_cup"],
                 captured=[["curtain", "moon", "butterflies", "deer"], ["boar"]])
    progress = presenter.table_view(rnd.observation(0), NAMES[:2]).players[0].progress
    assert progress == ("Drinking 2/3", "Butterflies-Sake-Deer 2/3")  # boar-geese-deer: boar taken


def test_hiki_button_prompt_and_line():
    rnd = _round([["poetry_ribbon_mar", "cherry_chaff_1", "crane"], ["moon", "rainman"]],
                 ["curtain", "cherry_chaff_2", "pine_chaff_1"], ["plum_chaff_1", "iris_chaff_1"])
    obs = rnd.observation(0)
    hiki = [a for _, a in presenter.hand_actions(obs) if a.kind == "hiki"]
    assert [presenter.action_label(GAME, a) for a in hiki] == ["Hiki: take all of March (cherry)"]
    assert presenter.action_style(GAME, hiki[0]) == "success"
    assert "play a card or declare hiki" in presenter.hand_view(obs).title
    lines = _lines(rnd.apply(hiki[0]), NAMES[:2])
    assert lines[0] == ("Ann declares **hiki**: takes all four of March (cherry) (from the hand: "
                        "Cherry Poetry Ribbon, Cherry)")


def test_gaji_labels_playable_line_and_badge():
    rnd = _round([["lightning", "pine_chaff_1"], ["moon", "rainman"]], ["crane", "curtain"],
                 ["iris_chaff_1", "peony_chaff_1"])
    obs = rnd.observation(0)
    labels = {presenter.action_label(GAME, a): presenter.action_style(GAME, a)
              for _, a in presenter.hand_actions(obs)}
    assert labels["Gaji (Lightning) → Crane and Sun"] == "primary"
    assert "lightning" in presenter.hand_view(obs).playable
    assert dict(presenter.hand_fields(obs))["Gaji"] == "your Lightning takes any one field card"
    lines = _lines(rnd.apply("play:lightning>crane"), NAMES[:2])
    assert lines[0] == "Ann plays the **gaji** and takes Crane and Sun"
    view = presenter.table_view(rnd.observation(1), NAMES[:2])
    assert "Gaji took Crane and Sun" in view.players[0].badges


def test_gaji_aimed_at_a_hiki_asks_again():
    rnd = _round([["lightning", "pine_chaff_1"], ["poetry_ribbon_mar", "cherry_chaff_1", "moon"]],
                 ["curtain", "cherry_chaff_2", "crane"], ["iris_chaff_1", "peony_chaff_1"])
    events = rnd.apply("play:lightning>curtain")
    lines = _lines(events, NAMES[:2])
    assert lines[0] == "Ann aims the gaji at Cherry Curtain, but Bob holds a hiki there"
    assert lines[1].startswith("Bob declares **hiki**: takes all four of March (cherry)")
    obs = rnd.observation(0)
    assert obs["phase"] == "gaji_again"
    assert "your gaji hit a hiki" in presenter.hand_view(obs).title
    labels = [presenter.action_label(GAME, a) for _, a in presenter.hand_actions(obs)]
    assert labels[0] == "Gaji (Lightning) to the field"


def test_four_of_a_month_on_the_field_goes_to_the_dealer():
    rnd = _round([["pine_chaff_1"], ["moon"]],
                 ["curtain", "poetry_ribbon_mar", "cherry_chaff_1", "cherry_chaff_2"], [], dealer=1)
    lines = [line for line in _lines(rnd.start_events, NAMES[:2]) if line]
    assert "Four of March (cherry) dealt to the field: Bob, the dealer, takes them" in lines


def test_round_result_line_and_summary_with_yaku_and_card_points():
    rnd = _round([["pine_chaff_1"], ["plum_chaff_1"]], [], [],
                 captured=[["curtain", "moon", "sake_cup"], ["crane", "phoenix", "rainman"]])
    rnd.apply("play:pine_chaff_1")
    events = rnd.apply("play:plum_chaff_1")
    lines = [line for line in _lines(events, NAMES[:2]) if line]
    assert lines[-1] == "Dead cards, nobody scores them: Pine, Plum"
    over = _round_over(rnd)
    line = presenter.describe_event(GAME, over, NAMES[:2])
    assert line == ("Round 1: **Ann** wins by 50: Ann 45 (45 in cards, yaku Drinking); "
                    "Bob -5 (45 in cards, -50 for the others' yaku)")
    view = presenter.summary_view(GAME, over, NAMES[:2])
    assert view.title == "Round 1 · Ann wins"
    assert [(r.player, r.name, set(r.cards), r.points) for r in view.rows] == [
        ("Ann", "Drinking (curtain-moon-sake)", {"curtain", "moon", "sake_cup"}, 50)]
    assert view.result_lines[:3] == ("Ann: 45 in cards = 45",
                                     "Bob: 45 in cards - 50 for the others' yaku = -5",
                                     "Ann wins by 50")
    assert "each yaku: -50 to every other side" in view.multipliers
    assert render_summary(view)[:4] == b"\x89PNG"


def test_victory_counting_and_team_summary():
    captured = [["crane", "curtain", "moon", "phoenix"], [], ["poetry_ribbon_jan"], []]
    rnd = _round([["pine_chaff_1"], ["plum_chaff_1"], ["iris_chaff_1"], ["peony_chaff_1"]], [], [],
                 captured=captured, teams="pairs", victory="chu_basa")
    for _ in range(4):
        rnd.apply(rnd.legal_actions()[0])
    over = _round_over(rnd)
    line = presenter.describe_event(GAME, over, NAMES[:4])
    assert line.startswith("Round 1: **Ann & Cid** win by 90 (chu, 50+ ahead: 2 victories): ")
    view = presenter.summary_view(GAME, over, NAMES[:4])
    assert view.title == "Round 1 · Ann & Cid win"
    assert "Ann & Cid win by 90: chu, 50+ ahead: 2 victories" in view.result_lines
    assert view.multipliers == ("chu, 50+ ahead: 2 victories",)


def test_empty_hand_draws_only():
    rnd = _round([[], ["moon", "rainman"]], ["crane"], ["iris_chaff_1", "peony_chaff_1", "plum_chaff_1"])
    obs = rnd.observation(0)
    assert obs["legal_actions"] == ["draw"]
    assert presenter.hand_view(obs).title == "Your hand · your hand is empty: turn a stock card"
    assert presenter.action_label(GAME, Action("draw")) == "Turn a stock card (hand empty)"
    assert "Hand empty: turns only" in presenter.table_view(obs, NAMES[:2]).players[0].badges


def test_every_event_type_of_random_matches_gets_a_line():
    wanted = {"dealer_draw", "deal", "play", "draw", "drew", "dead", "gaji_leftovers",
              "round_over", "match_over"}
    seen: set[str] = set()
    for seed in range(6):
        for players, rules in ((3, sakura.Rules(rounds=1)), (6, sakura.Rules(rounds=1, teams="triples")),
                               (2, sakura.Rules.preset("seed", rounds=1))):
            match = sakura.new_match(players, rules, seed)
            rng = Rng(seed)
            events = list(match.intro_events)
            while True:
                for e in events:
                    line = presenter.describe_event(GAME, e, NAMES[:players])
                    if e["type"] == "round_end":
                        assert line is None
                    elif e["type"] != "round_start":
                        assert line, e
                    seen.add(e["type"])
                if match.is_over:
                    break
                legal = match.legal_actions()
                events = match.apply(legal[rng.below(len(legal))])
    assert seen >= wanted


def test_the_presenter_is_the_sakura_one():
    assert presenter.for_game(GAME) is PRESENTER
