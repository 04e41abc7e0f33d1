"""First Bloom on screen: each move's line and highlight, the effects, the piles, the race and the
payout, button labels within Discord's limit, prompts, and a table that never shows a hidden card."""

from __future__ import annotations

from itertools import combinations

from bot import presenter
from bot.cards import DECK, MONTH_MASKS, ids_in, index_of, mask
from bot.games.base import Action
from bot.games.rng import Rng
from bot.games.shedding import Rules, new_match, new_round
from bot.presenters.shedding import PRESENTER
from rendering import render_summary, render_table

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
FIELD = ["crane", "plum_chaff_1", "cuckoo", "bridge"]


def position(hands, field, draw=(), discard=(), current=0, rules=None):
    """A round with exactly these piles (``draw`` and ``discard`` bottom to top)."""
    r = new_round(len(hands), rules or Rules(), seed=1)
    r.hands = [mask(h) for h in hands]
    r.field = mask(field)
    r.draw = [index_of(c) for c in draw]
    r.discard = [index_of(c) for c in discard]
    r.current = current
    return r


def lines(events, n=2) -> list[str]:
    return [line for e in events if (line := presenter.describe_event("shedding", e, NAMES[:n]))]


def table(r, seat=0, n=None):
    return presenter.table_view(r.observation(seat), NAMES[:n or r.num_players])


def label(text: str) -> str:
    return presenter.action_label("shedding", Action.parse(text))


def round_over(r, number=1) -> dict:
    result = r.result()
    return {"type": "round_over", "round": number, "scores": list(result.points), **result.to_dict()}


def test_hand_field_line_label_highlight_and_piles():
    r = position([["pine_chaff_1", "deer", "iris_chaff_1"], ["boar", "swallow"]], FIELD,
                 draw=["maple_chaff_2", "geese"])
    assert label("match:pine_chaff_1>crane") == "Play Pine on Crane and Sun (field)"
    assert lines(r.apply("match:pine_chaff_1>crane")) == ["Ann plays Pine on Crane and Sun (hand-field)"]
    view = table(r, 1)
    assert view.highlight == ("crane", "pine_chaff_1", "geese")
    assert (view.discard_top, view.discard_count, view.stock_count) == ("pine_chaff_1", 2, 1)
    assert view.field == ("plum_chaff_1", "cuckoo", "bridge", "geese")
    assert [p.hand_size for p in view.players] == [2, 2]
    assert view.players[1].is_turn and not view.players[0].is_turn
    assert view.title == "First Bloom · round 1" and view.drawn_card is None


def test_field_hiki_hand_pair_and_hand_hiki():
    r = position([["poetry_ribbon_jan", "pine_chaff_1", "pine_chaff_2", "deer"], ["boar"]], FIELD,
                 draw=["geese"])
    assert label("field_hiki:pine_chaff_2") == "Field hiki: 3 Pine + field, Pine on top"
    text = lines(r.apply("field_hiki:pine_chaff_2"))
    assert text[0] == ("Ann plays a **field hiki**: Pine Poetry Ribbon, Pine, Pine on Crane and Sun, "
                       "Pine on top")
    assert len(text) == 1  # a chaff on top has no effect

    r = position([["plum_chaff_2", "bush_warbler", "deer"], ["boar"]], FIELD, draw=["geese"])
    assert label("pair:bush_warbler>plum_chaff_2") == "Pair: Plum, then Bush Warbler on top"
    assert lines(r.apply("pair:bush_warbler>plum_chaff_2")) == [
        "Ann discards a pair: Plum, then Bush Warbler on top (hand-hand)"]
    assert table(r).highlight == ("plum_chaff_2", "bush_warbler")

    r = position([["deer", "blue_ribbon_oct", "maple_chaff_1", "maple_chaff_2", "crane"], ["boar"]], FIELD)
    assert label("hand_hiki:blue_ribbon_oct") == "Hand hiki: 4 Maple, Maple Blue Ribbon on top"
    text = lines(r.apply("hand_hiki:blue_ribbon_oct"))
    assert text[0] == "Ann plays a **hand hiki**: all four Maple cards, Maple Blue Ribbon on top"
    assert text[1] == "Maple Blue Ribbon on top: Ben loses the turn"
    assert table(r).discard_top == "blue_ribbon_oct"


def test_field_field_puts_a_hand_card_on_the_field():
    r = position([["deer", "iris_chaff_1"], ["boar"]], ["crane", "pine_chaff_1", "cuckoo", "bridge"],
                 draw=["geese", "maple_chaff_1"])
    assert label("field_pair:deer>crane+pine_chaff_1") == "Field pair Crane and Sun + Pine, Deer to the field"
    text = lines(r.apply("field_pair:deer>crane+pine_chaff_1"))
    assert text == ["Ann discards Crane and Sun + Pine from the field (field-field)", "Ann puts Deer on the field"]
    assert set(table(r).highlight) == {"crane", "pine_chaff_1", "deer", "maple_chaff_1"}
    assert "deer" in table(r).field


def test_struggle_6a_6b_and_the_drawn_card_stays_private():
    r = position([["deer", "iris_chaff_1"], ["boar", "swallow"]], FIELD, draw=["geese", "pine_chaff_1"])
    assert label("struggle") == "Struggle: draw"
    assert lines(r.apply("struggle")) == ["Ann struggles: draws a card"]
    mine, theirs = r.observation(0), r.observation(1)
    assert mine["drawn"] == "pine_chaff_1"
    assert presenter.table_view(mine, NAMES[:2]) == presenter.table_view(theirs, NAMES[:2])
    assert presenter.table_view(mine, NAMES[:2]).drawn_card is None
    assert "Struggling" in presenter.table_view(mine, NAMES[:2]).players[0].badges
    assert presenter.hand_view(mine).title == ("Your hand · you drew Pine: discard it with a field card of "
                                               "its month or keep it")
    assert ("You drew", "Pine") in presenter.hand_fields(mine)
    assert sorted(presenter.action_label("shedding", a) for _, a in presenter.hand_actions(mine)) == [
        "Discard Pine with Crane and Sun", "Keep Pine"]
    assert lines(r.apply("struggle_match:pine_chaff_1>crane")) == [
        "Ann discards the drawn Pine with Crane and Sun"]

    r = position([["deer", "iris_chaff_1"], ["boar"]], FIELD, draw=["geese", "pine_chaff_1"])
    r.apply("struggle")
    assert lines(r.apply("keep:pine_chaff_1")) == ["Ann keeps the drawn card"]
    r = position([["deer", "iris_chaff_1"], ["boar"]], FIELD, draw=["geese", "maple_chaff_1"])
    assert lines(r.apply("struggle")) == [
        "Ann struggles: draws a card", "Ann keeps the drawn card: it matches nothing on the field"]
    assert table(r, 1).highlight == ()  # the kept card is hidden


def test_pass_when_nothing_moves_and_nothing_can_be_drawn():
    r = position([["deer"], ["boar"]], FIELD)
    obs = r.observation(0)
    assert presenter.hand_view(obs).title == "Your hand · no move is possible and nothing to draw: pass"
    assert label("pass") == "Pass (no move possible)"
    assert lines(r.apply("pass")) == ["Ann cannot move and passes"]


def test_effects_of_the_top_discard():
    r = position([["rainman", "swallow", "deer"], ["boar"]], FIELD, draw=["geese", "maple_chaff_1"])
    assert lines(r.apply("pair:rainman>swallow"))[-1] == "Rain Man on top: Ben draws a card and loses the turn"
    r = position([["poetry_ribbon_jan", "pine_chaff_1", "deer"], ["boar"]], ["plum_chaff_1", "cuckoo"],
                 draw=["geese", "maple_chaff_1"])
    assert lines(r.apply("pair:poetry_ribbon_jan>pine_chaff_1"))[-1] == \
        "Pine Poetry Ribbon on top: Ben draws a card, then plays"
    r = position([["blue_ribbon_sep", "sake_cup", "deer"], ["boar"]], FIELD)
    assert lines(r.apply("pair:blue_ribbon_sep>sake_cup"))[-1] == \
        "Chrysanthemum Blue Ribbon on top: Ben loses the turn"
    assert "blue ribbon: loses the turn" in table(r).footer


def test_reshuffle_and_redeal():
    r = position([["pine_chaff_1", "deer"], ["boar"]], FIELD, discard=["geese", "maple_chaff_1", "iris_chaff_2"])
    text = lines(r.apply("match:pine_chaff_1>crane"))
    assert "The draw pile is empty: the discard pile (5 cards) is shuffled into a new draw pile" in text
    assert table(r).discard_count == 0 and table(r).stock_count == 4
    for seed in range(300):
        redeals = [e for e in new_round(3, seed=seed).start_events if e["type"] == "redeal"]
        if redeals:
            line = presenter.describe_event("shedding", redeals[0], NAMES[:3])
            assert line.startswith("Three cards of a month on the field (") and line.endswith("dealt again")
            break
    else:
        raise AssertionError("no redeal in 300 deals")


def race_round(rules=None):
    r = position([["pine_chaff_1"], ["crane", "deer", "boar"], ["moon", "maple_chaff_1"]],
                 ["poetry_ribbon_jan", "plum_chaff_1", "cuckoo", "bridge"], draw=["geese", "iris_chaff_1"],
                 rules=rules)
    return r, lines(r.apply("match:pine_chaff_1>poetry_ribbon_jan"), 3)


def test_the_race_lines_badges_prompts_and_payout():
    r, text = race_round()
    assert text[-2:] == ["**Ann plays their last card: First!**",
                         "**Ann is out!** Slap their hand: press **Slap!**"]
    obs = r.observation(1)
    assert PRESENTER.race_prompt(obs, NAMES[:3]) == \
        "**Ann is out!** Still to slap: Ben and Cat (the first to slap pays nothing)."
    view = presenter.table_view(obs, NAMES[:3])
    assert view.players[0].badges == ("Out!",) and view.players[0].hand_size == 0
    assert view.players[1].badges == ("To slap!",)
    assert not any(p.is_turn for p in view.players)
    assert presenter.hand_view(obs).title == "Your hand · someone is out: press Slap! now"
    assert presenter.hand_view(r.observation(0)).title == "Your hand · you are out! The others race to slap"
    assert lines(r.apply("slap:2", 2), 3) == ["Cat slaps 1st!"]
    obs = r.observation(1)
    assert presenter.table_view(obs, NAMES[:3]).players[2].badges == ("Slapped 1st",)
    assert PRESENTER.race_prompt(obs, NAMES[:3]) == "**Ann is out!** Slapped: Cat 1st. Still to slap: Ben."
    assert presenter.hand_view(r.observation(2)).title == "Your hand · you slapped; waiting for the others"
    text = lines(r.apply("race_end"), 3)
    assert text[0] == "The race is over: Ben never slapped"
    assert PRESENTER.race_prompt(r.observation(1), NAMES[:3]) == \
        "**Ann is out!** Slapped: Cat 1st. The race is over."
    event = round_over(r)
    assert presenter.describe_event("shedding", event, NAMES[:3]) == \
        "Round 1: Ann went out first and collects 7 (Ben 7)"
    summary = presenter.summary_view("shedding", event, NAMES[:3])
    assert [(row.player, row.name, row.points) for row in summary.rows] == [
        ("Ben", "3 cards left", 7), ("Cat", "Exempt: slapped 1st", 0)]
    assert summary.result_lines == (
        "Ann went out first and collects 7",
        "Ben pays 7: 3 cards left (1 bright × 5 + 2 × 1 = 7)",
        "Cat slapped 1st and pays nothing: 2 cards left (1 bright × 5 + 1 × 1 = 6)",
        "Match: Ann 7, Ben -7, Cat 0")
    assert summary.title == "First Bloom · round 1"
    assert render_summary(summary)[:4] == b"\x89PNG"
    view = table(r, 0)
    assert view.players[2].badges == ("Slapped 1st", "Exempt")


def test_batsu_for_the_seat_that_never_slapped():
    r, _ = race_round(Rules.preset("seed002_batsu"))
    r.apply("slap:2", 2)
    r.apply("race_end")
    summary = presenter.summary_view("shedding", round_over(r), NAMES[:3])
    assert summary.result_lines[1] == "Ben pays 12: 3 cards left (1 bright × 5 + 2 × 1 = 7) + 5 batsu (never slapped)"
    assert summary.rows[0].name == "3 cards left + batsu"
    assert table(r, 0).players[1].badges == ("Batsu",)


def test_two_players_pay_without_a_race():
    r = position([["pine_chaff_1"], ["crane", "deer"]], ["poetry_ribbon_jan", "plum_chaff_1"],
                 draw=["geese"])
    assert presenter.hand_view(r.observation(0)).title == \
        "Your hand · your turn: shed your last card to win or struggle (draw)"
    text = lines(r.apply("match:pine_chaff_1>poetry_ribbon_jan"))
    assert text[-1] == "**Ann plays their last card: First!**"
    summary = presenter.summary_view("shedding", round_over(r), NAMES[:2])
    assert summary.result_lines == ("Ann went out first and collects 6",
                                    "Ben pays 6: 2 cards left (1 bright × 5 + 1 × 1 = 6)",
                                    "Match: Ann 6, Ben -6")
    assert summary.rows[0].cards == ("crane", "deer")


def test_turn_limit_ends_the_round_without_payment():
    r = position([["deer", "iris_chaff_1"], ["boar"]], FIELD, draw=["geese", "pine_chaff_1"],
                 rules=Rules(turn_limit=1))
    assert lines(r.apply("struggle")) == ["Ann struggles: draws a card"]
    text = lines(r.apply("keep:pine_chaff_1"))
    assert text == ["Ann keeps the drawn card",
                    "The turn limit is reached (1 turn): no winner, nobody pays"]
    event = round_over(r)
    assert presenter.describe_event("shedding", event, NAMES[:2]) == "Round 1: no winner, nobody pays"
    assert presenter.summary_view("shedding", event, NAMES[:2]).result_lines[0].startswith("No winner")


def test_every_label_fits_a_discord_button():
    cards = [c.id for c in DECK]
    actions = ["struggle", "pass", "race_end", "slap:0", "slap:4"]
    for m in range(1, 13):
        month = ids_in(MONTH_MASKS[m])
        for h in month:
            actions += [f"field_hiki:{h}", f"hand_hiki:{h}", f"keep:{h}"]
            actions += [f"pair:{h}>{u}" for u in month if u != h]
            actions += [f"match:{h}>{f}" for f in month if f != h]
            actions += [f"struggle_match:{h}>{f}" for f in month if f != h]
        for a, b in combinations(month, 2):
            actions += [f"field_pair:{h}>{a}+{b}" for h in cards]
    labels = [label(a) for a in actions]
    assert max(map(len, labels)) <= 80 and all(labels)
    longest = label("field_pair:blue_ribbon_sep>chrysanthemum_chaff_1+chrysanthemum_chaff_2")
    assert len(longest) <= 80 and not longest.endswith("…")


def test_prompts_when_only_drawing_is_possible():
    r = position([["deer", "susuki_chaff_1"], ["boar"]], FIELD, draw=["geese"],
                 rules=Rules(struggle="only_if_stuck"))
    assert presenter.hand_view(r.observation(0)).title == \
        "Your hand · no card can be shed: struggle (draw a card)"
    r = position([["plum_chaff_2", "deer"], ["boar"]], FIELD, draw=["geese"], rules=Rules(struggle="only_if_stuck"))
    obs = r.observation(0)
    assert presenter.hand_view(obs).title == "Your hand · your turn: shed cards (the last one you place is on top)"
    assert presenter.hand_view(obs).playable == ("plum_chaff_2",)
    assert presenter.hand_view(r.observation(1)).title == "Your hand"


def test_table_never_shows_another_seats_hand():
    one = position([["deer", "iris_chaff_1"], ["boar", "swallow", "geese"], ["moon"]], FIELD,
                   draw=["maple_chaff_1", "pine_chaff_1"], discard=["sake_cup"])
    two = position([["deer", "iris_chaff_1"], ["curtain", "phoenix", "rainman"], ["butterflies"]], FIELD,
                   draw=["maple_chaff_1", "pine_chaff_1"], discard=["sake_cup"])
    assert table(one, 0) == table(two, 0) == table(one, 2)
    one.apply("struggle")
    two.apply("struggle")
    assert table(one, 0) == table(two, 0) == table(one, 1)
    assert table(one, 0).discard_top == "sake_cup" and table(one, 0).stock_count == 1
    assert render_table(table(one, 0))[:4] == b"\x89PNG"


def test_whole_matches_with_every_player_count():
    seen = set()
    for n in range(2, 6):
        match = new_match(n, Rules.preset("seed002_batsu", rounds=2), seed=n)
        rng = Rng(n)
        events = list(match.intro_events)
        while True:
            for e in events:
                seen.add(e["type"])
                line = presenter.describe_event("shedding", e, NAMES[:n])
                assert line is None or ("None" not in line and line)
            if match.is_over:
                break
            obs = match.observation(0)
            view = presenter.table_view(obs, NAMES[:n])
            assert view.stock_count == obs["draw_count"] and view.discard_count == len(obs["discard"])
            assert all(p.captured == () for p in view.players)
            legal = match.legal_actions()
            events = match.apply(legal[rng.below(len(legal))])
    assert {"match", "pair", "struggle", "keep", "effect", "first", "race", "round_over"} <= seen
