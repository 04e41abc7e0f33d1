"""Mushi on screen: the wild lightning in all its cases, the handover, badges, prompts, summary."""

from __future__ import annotations

from bot import presenter
from bot.games.base import Action
from bot.games.mushi import MushiRound, Rules, new_match, new_round
from bot.games.rng import Rng
from rendering import render_summary, render_table

NAMES = ["Aki", "Ben"]


def lines(events) -> list[str]:
    return [line for e in events if (line := presenter.describe_event("mushi", e, NAMES))]


def round_over(state: MushiRound, number: int = 1) -> dict:
    """The ``round_over`` event a Match makes of a finished round."""
    result = state.result()
    return {"type": "round_over", "round": number, "scores": list(result.points), **result.to_dict()}


def test_lightning_from_the_hand_is_announced_as_a_wild_card():
    s = MushiRound.from_cards([["lightning", "iris_chaff_1"], ["cherry_chaff_1"]],
                              ["moon", "swallow", "plum_chaff_1"], ["maple_chaff_1", "maple_chaff_2"])
    obs = s.observation(0)
    labels = {str(a): presenter.action_label("mushi", a) for _, a in presenter.hand_actions(obs)}
    assert labels["play:lightning>moon"] == "Lightning (wild) → Full Moon"
    assert presenter.action_style("mushi", Action.parse("play:lightning>moon")) == "primary"
    assert "lightning is wild" in presenter.hand_view(obs).title
    assert "lightning" in presenter.hand_view(obs).playable
    text = lines(s.apply("play:lightning>moon"))
    assert text[0] == "Aki plays the **lightning** as a wild card and takes Full Moon"
    view = presenter.table_view(s.observation(1), NAMES)
    assert "Lightning took Full Moon" in view.players[0].badges
    assert {"lightning", "moon"} <= set(view.highlight)


def test_lightning_laid_on_the_field_and_taken_by_the_next_stock_card():
    s = MushiRound.from_cards([["lightning"], ["cherry_chaff_1"]], ["swallow"],
                              ["maple_chaff_1", "iris_chaff_1"])
    text = lines(s.apply("play:lightning"))
    assert "no card it may take, so it stays on the field" in text[0]
    assert text[1] == "Aki turned Maple: it must take the **wild lightning** lying on the field"


def test_lightning_turned_from_the_stock_with_a_choice():
    s = MushiRound.from_cards([["iris_chaff_1", "pine_chaff_1"], ["cherry_chaff_1"]],
                              ["moon", "deer", "swallow"], ["lightning", "maple_chaff_1"])
    text = lines(s.apply("play:iris_chaff_1"))
    assert text[-1] == "Aki turned the **wild lightning**: choosing which card it takes…"
    obs = s.observation(0)
    assert presenter.hand_view(obs).title.endswith("you turned the wild lightning: choose the card it takes")
    labels = sorted(presenter.action_label("mushi", a) for _, a in presenter.hand_actions(obs))
    assert labels == ["Lightning takes Deer", "Lightning takes Full Moon", "Lightning takes Iris"]
    assert presenter.table_view(obs, NAMES).drawn_card == "lightning"
    assert lines(s.apply("choose:lightning>deer")) == ["Aki turned the **wild lightning**: it takes Deer"]


def test_last_lightning_sweeps_the_field():
    s = MushiRound.from_cards([["iris_chaff_1"], ["cherry_chaff_1"]],
                              ["moon", "deer", "swallow"], ["lightning"])
    text = lines(s.apply("play:iris_chaff_1"))
    assert text[-1].startswith("Aki turned the **wild lightning** as the last stock card: it sweeps")
    assert "Full Moon" in text[-1] and "Swallow" in text[-1]


def test_handover_of_the_willow_and_the_victims_mate_and_the_summary():
    found = set()
    for seed in range(60):
        match = new_match(seed=seed, rules=Rules(rounds=1))
        rng = Rng(seed)
        while not match.is_over:
            legal = match.legal_actions()
            events = match.apply(legal[rng.below(len(legal))])
            for e in events:
                if e["type"] == "handover":
                    found.add(e["reason"])
                    line = presenter.describe_event("mushi", e, NAMES)
                    assert line.startswith("End of round: ")
                    if e["reason"] == "lightning_mate":
                        assert "the mate of the lightning's victim" in line and "who used the lightning" in line
                    else:
                        assert "leftover willow" in line
                if e["type"] == "round_over":
                    summary = presenter.summary_view("mushi", e, NAMES)
                    cards = e["detail"]["card_points"]
                    assert summary.result_lines[0].startswith(f"Aki: ({cards[0]} card points − 115) + ")
                    assert summary.result_lines[0].endswith(
                        {True: f"+{e['points'][0]}", False: f"{e['points'][0]}"}[e["points"][0] > 0]
                        .replace("-", "−"))
        if found == {"willow", "lightning_mate"}:
            break
    assert found == {"willow", "lightning_mate"}


def test_yaku_badges_progress_and_the_scoring_summary():
    s = MushiRound.from_cards(
        [["iris_chaff_1"], ["cherry_chaff_1"]], ["pine_chaff_1", "maple_chaff_1"], [],
        captured=[["crane", "bush_warbler", "curtain", "cuckoo", "plain_ribbon_apr"],
                  ["phoenix", "paulownia_chaff_1", "paulownia_chaff_2", "paulownia_chaff_yellow"]])
    view = presenter.table_view(s.observation(0), NAMES)
    assert view.players[0].badges == ("65 card pts", "Three brights")
    assert view.players[0].progress == ("Fujishima 2/4",)
    assert view.players[1].badges == ("23 card pts", "Kirishima")
    assert "card points − 115 + own yaku − opponent's yaku" in view.footer
    assert presenter.hand_fields(s.observation(0)) == [
        ("Your pile", "65 card points (−50 against the par of 115) · "
                      "Three brights (crane, warbler, curtain) 25")]
    s.apply("play:iris_chaff_1")
    s.apply("play:cherry_chaff_1")
    event = round_over(s)
    summary = presenter.summary_view("mushi", event, NAMES)
    assert [(r.player, r.name, r.points) for r in summary.rows] == [
        ("Aki", "Three brights (crane, warbler, curtain)", 25), ("Ben", "Kirishima (four paulownia)", 10)]
    assert summary.result_lines[0] == "Aki: (65 card points − 115) + 25 own yaku − 10 opponent's yaku = −35"
    assert summary.result_lines[1] == "Ben: (23 card points − 115) + 10 own yaku − 25 opponent's yaku = −107"
    assert render_summary(summary)[:4] == b"\x89PNG"
    assert presenter.describe_event("mushi", event, NAMES) == "Round 1: Aki wins (Aki −35, Ben −107)"


def test_misdeal_deal_and_dealer_draw_lines():
    match = new_match(seed=1)
    text = lines(match.intro_events)
    assert text[0].startswith("Drawing for the deal: Aki ") and text[0].endswith("deals first")
    assert "deals: 8 cards each and 8 on the field" in text[-1]
    for seed in range(500):
        misdeals = [e for e in new_round(seed=seed).start_events if e["type"] == "misdeal"]
        if misdeals:
            line = presenter.describe_event("mushi", misdeals[0], NAMES)
            assert line.startswith("Misdeal (") and line.endswith("the cards are dealt again")
            break
    else:
        raise AssertionError("no misdeal in 500 deals")


def test_prompts_per_phase():
    s = MushiRound.from_cards([["iris_chaff_1"], ["cherry_chaff_1"]],
                              ["moon", "pine_chaff_1", "pine_chaff_2"], ["crane"])
    assert presenter.hand_view(s.observation(0)).title == "Your hand · your turn: play a card"
    assert presenter.hand_view(s.observation(1)).title == "Your hand"
    s.apply("play:iris_chaff_1")
    obs = s.observation(0)
    assert presenter.hand_view(obs).title.endswith("you turned Crane and Sun: choose a card to take")


def test_table_view_shows_no_hidden_card():
    def table(hand_b, stock):
        s = MushiRound.from_cards([["iris_chaff_1", "moon"], hand_b], ["pine_chaff_1", "deer"], stock,
                                  captured=[["crane"], []])
        return s, presenter.table_view(s.observation(0), NAMES)

    s1, one = table(["cherry_chaff_1", "bridge"], ["maple_chaff_1", "geese"])
    s2, two = table(["boar", "swallow"], ["geese", "butterflies"])
    assert one == two
    assert presenter.table_view(s1.observation(1), NAMES) == one
    assert one.players[0].hand_size == 2 and one.stock_count == 2
    assert render_table(one)[:4] == b"\x89PNG"
