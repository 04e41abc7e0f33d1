"""Go-Stop on screen: labels, prompts, badges, pi counts, event lines and the summary, from real
engine states (``GoStopRound.from_cards``, ``settle`` and seeded random matches)."""

from __future__ import annotations

from bot import presenter
from bot.games import gostop
from bot.games.base import Action
from bot.games.rng import Rng
from bot.presenters.gostop import PRESENTER, gs_card_name, month_name
from rendering import render_hand, render_summary, render_table

NAMES = ["Ann", "Bob", "Cid"]
GAME = "gostop"

# Cards that take no part in the scenarios below fill the stock.
FILLER = ["wisteria_chaff_1", "iris_chaff_1", "peony_chaff_1", "clover_chaff_1",
          "susuki_chaff_1", "chrysanthemum_chaff_1"]


def _round(hands, field, stock, captured=None, **rules):
    return gostop.GoStopRound.from_cards(hands, field, stock, captured=captured,
                                         rules=gostop.Rules(**rules))


def _lines(events, names=NAMES):
    return [presenter.describe_event(GAME, e, names) for e in events]


def _round_over(rnd, events):
    """The match's round_over event for a finished round (as ``Match._finish_round`` builds it)."""
    result = rnd.result()
    return {"type": "round_over", "round": 1, "scores": list(result.points), **result.to_dict()}


def _play_until(pred, players=2, seeds=range(60), **rules):
    """The first (match, events) of seeded random matches where ``pred(match, events)`` holds."""
    for seed in seeds:
        match = gostop.new_match(players, gostop.Rules(**{"rounds": 2, **rules}), seed)
        rng = Rng(seed)
        events = list(match.intro_events)
        while True:
            if pred(match, events):
                return match, events
            if match.is_over:
                break
            legal = match.legal_actions()
            events = match.apply(legal[rng.below(len(legal))])
    raise AssertionError("no seed reached the wanted state")


# -- the table --------------------------------------------------------------------------------
def test_pi_count_counts_double_pi_and_jokers():
    pile = ["lightning", "paulownia_chaff_yellow", "pine_chaff_1", "pine_chaff_2", "plum_chaff_1",
            "plum_chaff_2", "cherry_chaff_1"]
    rnd = _round([["crane"], ["moon"]], ["curtain"], FILLER, captured=[pile, ["joker_3"]], jokers=3)
    view = presenter.table_view(rnd.observation(0), NAMES[:2])
    assert view.players[0].pi_count == 9
    assert view.players[1].pi_count == 3
    assert render_table(view)[:4] == b"\x89PNG"


def test_table_view_never_reads_hidden_information():
    rnd = _round([["crane", "pine_chaff_1"], ["moon", "susuki_chaff_2"]], ["curtain", "pine_chaff_2"],
                 FILLER, captured=[["plum_chaff_1"], []])
    a, b = rnd.observation(0), rnd.observation(1)
    assert a["hand"] != b["hand"]
    assert presenter.table_view(a, NAMES[:2]) == presenter.table_view(b, NAMES[:2])
    # anything private changed: the same picture
    tampered = dict(a, hand=["phoenix"], legal_actions=["go"], korean_month={},
                    reading_options={"pi": {}}, seat=1)
    assert presenter.table_view(tampered, NAMES[:2]) == presenter.table_view(a, NAMES[:2])


def test_korean_month_numbers_on_table_hand_and_summary():
    rnd = _round([["rainman"], ["phoenix"]], ["lightning"], FILLER)
    obs = rnd.observation(0)
    assert presenter.table_view(obs, NAMES[:2]).korean_months
    assert presenter.hand_view(obs).korean_months
    assert month_name(12) == "month 12 (willow)" and month_name(11) == "month 11 (paulownia)"
    d = gostop.settle(gostop.Rules(), 0, [gostop.scoring.to_mask(["crane", "curtain", "moon"]), 0])
    event = {"type": "round_over", "round": 1, "scores": d["points"], "points": d["points"],
             "winner": 0, "reason": "stop", "detail": {"kind": "stop", **d, "carry": {}}}
    assert presenter.summary_view(GAME, event, NAMES[:2]).korean_months


def test_badges_for_go_shake_bomb_ppeok_and_score():
    obs = _round([["crane"], ["moon"]], ["curtain"], FILLER).observation(0)
    obs.update(goes=[2, 0], shakes=[1, 0], bombs=[1, 0], ppeoks=[0, 1], bomb_turns=[2, 0],
               scores=[8, 0], revealed=[["plum_chaff_1", "plum_chaff_2", "bush_warbler"], []])
    view = presenter.table_view(obs, NAMES[:2])
    assert view.players[0].badges[:5] == ("Go 2", "Shake x1", "Bomb x1", "2 bomb turns",
                                          "8 pts this round")
    assert view.players[0].shown == ("plum_chaff_1", "plum_chaff_2", "bush_warbler")
    assert view.players[1].shown == ()
    assert render_table(view)[:4] == b"\x89PNG"
    assert view.players[1].badges == ("Ppeok x1",)


def test_title_shows_the_nagari_multiplier_and_footer_the_stacks():
    rnd = gostop.GoStopRound.from_cards([["crane"], ["moon"]], ["pine_chaff_1", "pine_chaff_2",
                                        "poetry_ribbon_jan"], FILLER, carry={"nagari": 1})
    view = presenter.table_view(rnd.observation(0), NAMES[:2])
    assert "x2 after nagari" in view.title
    assert "dealt stack on month 1 (pine)" in view.footer
    assert "Korean months" in view.footer
    deal = rnd.start_events[-1]
    assert "counts **x2**" in presenter.describe_event(GAME, deal, NAMES[:2])


# -- buttons ------------------------------------------------------------------------------------
def test_every_action_kind_has_a_clear_label_and_style():
    cases = {
        "play:crane": ("Crane and Sun", "secondary"),
        "play:pine_chaff_1>pine_chaff_2": ("Pine pi → Pine pi 2", "secondary"),
        "choose:moon>susuki_chaff_1": ("Take Pampas pi 1 with Full Moon", "success"),
        "go": ("Go!", "success"),
        "stop": ("Stop (score now)", "danger"),
        "shake:plum_chaff_1": ("Shake month 2 (plum), play Plum pi", "primary"),
        "shake:lightning>swallow": ("Shake month 12 (willow), play Lightning (double pi) → Swallow",
                                    "primary"),
        "bomb:deer": ("Bomb: all of month 10 (maple)", "primary"),
        "draw": ("Turn a stock card (bomb turn)", "primary"),
        "joker:joker_3": ("Take Joker (3 pi), draw a new card", "primary"),
        "chongtong": ("Chongtong! Reveal and win", "success"),
        "pass": ("Keep playing (no chongtong)", "secondary"),
        "sake_animal": ("Read as an animal", "primary"),
        "sake_pi": ("Read as double pi", "primary"),
    }
    for text, (label, style) in cases.items():
        action = Action.parse(text)
        assert presenter.action_label(GAME, action) == label, text
        assert presenter.action_style(GAME, action) == style, text
        assert len(label) <= 80  # Discord's limit for a button label


def test_go_or_stop_prompt_buttons_and_lines():
    captured = ["crane", "curtain", "moon", "poetry_ribbon_jan", "poetry_ribbon_feb",
                "poetry_ribbon_mar", "blue_ribbon_jun", "blue_ribbon_sep"]
    rnd = _round([["bush_warbler", "cuckoo"], ["deer", "boar"]], ["plum_chaff_1", "geese"],
                 ["cherry_chaff_2", *FILLER], captured=[captured, []])
    events = rnd.apply("play:bush_warbler")
    assert rnd.phase == "decide"
    assert "Ann has **7 points** (Samgwang 3, Hong-dan 3, Tti 1)" in _lines(events)
    obs = rnd.observation(0)
    view = presenter.hand_view(obs)
    assert f"Go or Stop? you have {obs['scores'][0]} points (a go makes Go 1)" in view.title
    buttons = [(presenter.action_label(GAME, a), presenter.action_style(GAME, a))
               for _, a in presenter.hand_actions(obs)]
    assert buttons == [("Go!", "success"), ("Stop (score now)", "danger")]
    fields = dict(presenter.hand_fields(obs))
    assert fields["Your score"].startswith(f"{obs['scores'][0]} points (Go or Stop from 7)")
    go_line = _lines(rnd.apply("go"))[0]
    assert go_line == f"Ann calls **Go 1!** ({obs['scores'][0]} points)"
    assert presenter.table_view(rnd.observation(1), NAMES[:2]).players[0].badges[0] == "Go 1"


def test_shake_and_bomb_controls_lines_and_bomb_turns():
    hands = [["plum_chaff_1", "plum_chaff_2", "bush_warbler", "deer", "maple_chaff_1",
              "maple_chaff_2", "crane"], ["moon", "rainman", "phoenix"]]
    rnd = _round(hands, ["blue_ribbon_oct", "pine_chaff_1"], FILLER,
                 captured=[[], ["cherry_chaff_1", "lightning"]])
    obs = rnd.observation(0)
    kinds = {a.kind for _, a in presenter.hand_actions(obs)}
    assert {"shake", "bomb"} <= kinds
    assert "your turn: play a card, shake or bomb" in presenter.hand_view(obs).title
    events = rnd.apply("bomb:deer")
    lines = [line for line in _lines(events) if line]
    assert lines[0] == ("Ann drops a **bomb** on month 10 (maple): Deer, Maple pi, Maple pi take "
                        "Maple Blue Ribbon")
    assert "Bob gives Ann Cherry pi for a bomb" in lines
    badges = presenter.table_view(rnd.observation(1), NAMES[:2]).players[0].badges
    assert badges[:2] == ("Bomb x1", "2 bomb turns")
    rnd.apply(rnd.legal_actions()[0])  # Bob
    obs = rnd.observation(0)
    assert "draw" in obs["legal_actions"]
    assert "shake or use a bomb turn" in presenter.hand_view(obs).title
    shake = next(a for a in rnd.legal_actions() if a.kind == "shake")
    line = _lines(rnd.apply(shake))[0]
    assert line.startswith("Ann **shakes** month 2 (plum): shows Bush Warbler, Plum pi, Plum pi")
    assert "Shake x1" in presenter.table_view(rnd.observation(1), NAMES[:2]).players[0].badges


def test_ppeok_and_taking_it_back():
    # Ann pairs the pine, the turned pine is the third: ppeok. Bob then plays the fourth.
    rnd = _round([["poetry_ribbon_jan", "moon"], ["crane", "rainman"]], ["pine_chaff_1", "cherry_chaff_1"],
                 ["pine_chaff_2", *FILLER], captured=[["plum_chaff_1"], []])
    lines = _lines(rnd.apply("play:poetry_ribbon_jan"))
    assert ("**Ppeok!** Ann's turned card is the third of month 1 (pine): the three stay on the "
            "field (ppeok 1)") in lines
    assert "Ann's ppeok on month 1 (pine)" in presenter.table_view(rnd.observation(0), NAMES[:2]).footer
    lines = _lines(rnd.apply("play:crane"))
    assert "Bob takes Ann's ppeok of month 1 (pine) back" in lines
    assert "Ann gives Bob Plum pi for taking a ppeok" in lines


def test_jjok_ttadak_sseul_and_a_giver_without_pi():
    rnd = _round([["pine_chaff_1", "moon"], ["rainman", "phoenix"]], ["cherry_chaff_1"],
                 ["pine_chaff_2", *FILLER])
    lines = _lines(rnd.apply("play:pine_chaff_1"))
    assert "**Jjok!** Ann's turned card takes back the card just played on month 1 (pine)" in lines
    assert "Bob has no pi to give Ann for jjok" in lines

    rnd = _round([["crane", "moon"], ["rainman", "phoenix"]], ["pine_chaff_1", "pine_chaff_2", "cherry_chaff_1"],
                 ["poetry_ribbon_jan", *FILLER], captured=[[], ["plum_chaff_1", "lightning"]])
    lines = _lines(rnd.apply("play:crane>pine_chaff_1"))
    assert "**Ttadak!** Ann takes both pairs of month 1 (pine)" in lines
    assert "Bob gives Ann Plum pi for ttadak" in lines

    rnd = _round([["crane", "moon"], ["rainman", "phoenix"]], ["pine_chaff_1", "plum_chaff_1"],
                 ["plum_chaff_2", *FILLER], captured=[[], ["lightning"]])
    lines = _lines(rnd.apply("play:crane"))
    assert "**Sseul!** Ann sweeps the field clean" in lines
    # only a double pi left: it is handed over
    assert "Bob gives Ann Lightning (double pi) for sseul" in lines


def test_chongtong_prompt_buttons_and_line():
    four = ["plum_chaff_1", "plum_chaff_2", "bush_warbler", "poetry_ribbon_feb"]
    rnd = _round([[*four, "crane"], ["moon", "rainman"]], ["pine_chaff_1"], FILLER)
    obs = rnd.observation(0)
    assert obs["phase"] == "chongtong"
    assert "call chongtong (win 7 from each)" in presenter.hand_view(obs).title
    labels = [presenter.action_label(GAME, a) for _, a in presenter.hand_actions(obs)]
    assert labels == ["Chongtong! Reveal and win", "Keep playing (no chongtong)"]
    events = rnd.apply("chongtong")
    lines = _lines(events)
    assert lines[0] == "Ann reveals **chongtong** (president): all four of month 2 (plum)!"
    over = _round_over(rnd, events)
    assert presenter.describe_event(GAME, over, NAMES[:2]) == (
        "Round 1: Ann wins by **chongtong**: Bob pays 7")
    summary = presenter.summary_view(GAME, over, NAMES[:2])
    assert summary.rows[0].name == "Chongtong (president)" and set(summary.rows[0].cards) == set(four)


def test_sake_cup_reading_prompt_fields_and_lines():
    match, events = _play_until(lambda m, ev: not m.is_over and m.round.phase == "reading")
    line = next(presenter.describe_event(GAME, e, NAMES[:2]) for e in events
                if e["type"] == "reading_choice")
    assert "holds the Sake Cup: read it as an animal or as double pi?" in line
    seat = match.current_player
    obs = match.observation(seat)
    assert "read the Sake Cup as an animal or as double pi" in presenter.hand_view(obs).title
    assert [presenter.action_label(GAME, a) for _, a in presenter.hand_actions(obs)] == [
        "Read as an animal", "Read as double pi"]
    fields = dict(presenter.hand_fields(obs))
    assert "as an animal:" in fields["Your points by reading"]
    assert "as double pi:" in fields["Your points by reading"]
    lines = _lines(match.apply("sake_pi"), NAMES[:2])
    assert f"{NAMES[seat]} reads the dual card as double pi" in lines


def test_round_result_lines_with_every_bak_and_go_bak_liability():
    rules = gostop.Rules()
    mask = gostop.scoring.to_mask
    winner = mask(["crane", "curtain", "moon", "phoenix", "pine_chaff_1", "pine_chaff_2",
                   "plum_chaff_1", "plum_chaff_2", "cherry_chaff_1", "cherry_chaff_2",
                   "lightning", "paulownia_chaff_yellow"])
    piles = [winner, mask(["iris_chaff_1"]), mask(["rainman", "maple_chaff_1", "maple_chaff_2"])]
    d = gostop.settle(rules, 0, piles, goes=[1, 1, 0], go_order=[1], shakes=[1, 0, 0], nagari=1)
    event = {"type": "round_over", "round": 4, "scores": d["points"], "points": d["points"],
             "winner": 0, "reason": "stop", "detail": {"kind": "stop", **d, "carry": {}}}
    line = presenter.describe_event(GAME, event, NAMES)
    assert line.startswith(f"Round 4: Ann stops with {d['score']} points: Bob pays ")
    assert "x2 gwang-bak" in line and "x2 pi-bak" in line and "go-bak: pays for Cid" in line
    assert "Cid pays 0 (" in line and "Bob pays for them)" in line
    view = presenter.summary_view(GAME, event, NAMES)
    assert view.title == "Round 4 · Ann stops"
    assert {r.name for r in view.rows} >= {"Sagwang (4 brights)", "Pi (junk)", "Go bonus"}
    assert view.multipliers == ("+1 go", "x2 shake", "x2 nagari")
    assert view.result_lines[0] == f"Ann stops: {d['base']} base + 1 go x2 shake x2 nagari = {d['score']} points"
    assert any(r.startswith("Bob pays") and "gwang-bak" in r for r in view.result_lines)
    assert view.result_lines[-1].startswith("Match: Ann ")
    assert render_summary(view)[:4] == b"\x89PNG"


def test_two_player_go_bak_and_meong_tta():
    rules = gostop.Rules()
    mask = gostop.scoring.to_mask
    animals = mask(["bush_warbler", "cuckoo", "geese", "bridge", "butterflies", "boar", "deer"])
    d = gostop.settle(rules, 0, [animals, mask(["swallow", "pine_chaff_1"])], goes=[0, 2])
    event = {"type": "round_over", "round": 1, "scores": d["points"], "points": d["points"],
             "winner": 0, "reason": "stop", "detail": {"kind": "stop", **d, "carry": {}}}
    line = presenter.describe_event(GAME, event, NAMES[:2])
    assert "Bob pays" in line and "x2 go-bak" in line
    assert "x2 meong-tta (7+ animals)" in presenter.summary_view(GAME, event, NAMES[:2]).multipliers


def test_nagari_round_and_the_doubled_next_round():
    rnd = _round([["crane"], ["moon"]], ["rainman"], ["phoenix", "swallow"])
    events = rnd.apply("play:crane") + rnd.apply("play:moon")
    assert rnd.outcome["kind"] == "nagari"
    over = _round_over(rnd, events)
    line = presenter.describe_event(GAME, over, NAMES[:2])
    assert line == ("Round 1: **nagari** (the hands ran out with no stop), nobody scores; "
                    "the next round is doubled")
    summary = presenter.summary_view(GAME, over, NAMES[:2])
    assert summary.title == "Round 1 · nagari" and summary.rows == ()
    assert render_summary(summary)[:4] == b"\x89PNG"


def test_steal_line_names_giver_receiver_and_cards():
    event = {"type": "steal", "player": 0, "from": 2, "owed": 2, "cards": ["lightning"],
             "reasons": ["sseul", "jjok"]}
    assert presenter.describe_event(GAME, event, NAMES) == (
        "Cid gives Ann Lightning (double pi) (all they had) for sseul and jjok")


def test_every_engine_event_type_gets_a_line():
    wanted = {"dealer_draw", "deal", "joker_to_dealer", "shake", "play", "bomb", "bomb_turn",
              "joker", "draw", "capture", "ppeok", "ppeok_taken", "jjok", "sseul", "steal", "score",
              "go", "stop", "reading_choice", "reading", "round_over", "match_over", "final_turn"}
    seen: set[str] = set()

    def collect(match, events):
        for e in events:
            if e["type"] == "capture" and e.get("event") in ("joker", "bomb"):
                continue  # told by the joker's or the bomb's own line
            if e["type"] in wanted and e["type"] not in seen:
                assert presenter.describe_event(GAME, e, NAMES), e
                seen.add(e["type"])
        return seen >= wanted

    _play_until(collect, players=3, seeds=range(200), jokers=3, rounds=3)
    assert presenter.describe_event(GAME, {"type": "round_end", "kind": "nagari"}, NAMES) is None


def test_jokers_in_hand_and_pile_render_and_are_playable():
    def joker_in_hand(match, events):
        return not match.is_over and any(a.kind == "joker" for a in match.legal_actions())

    match, _ = _play_until(joker_in_hand, players=2, jokers=3)
    obs = match.observation(match.current_player)
    jokers = [c for c in obs["hand"] if c.startswith("joker_")]
    assert set(jokers) <= set(presenter.hand_view(obs).playable)
    labels = [presenter.action_label(GAME, a) for _, a in presenter.hand_actions(obs) if a.kind == "joker"]
    assert labels and all(label.startswith("Take Joker (") for label in labels)
    assert render_hand(presenter.hand_view(obs))[:4] == b"\x89PNG"
    action = next(a for a in match.legal_actions() if a.kind == "joker")
    line = _lines(match.apply(action), NAMES[:2])[0]
    assert line.startswith(f"{NAMES[obs['seat']]} takes Joker (")
    table = presenter.table_view(match.observation(0), NAMES[:2])
    assert any(c.startswith("joker_") for p in table.players for c in p.captured)
    assert render_table(table)[:4] == b"\x89PNG"
    assert gs_card_name("joker_3") == "Joker (3 pi)"


def test_the_presenter_is_the_gostop_one():
    assert presenter.for_game(GAME) is PRESENTER
