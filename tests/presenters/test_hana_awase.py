"""Hana-Awase on screen: teyaku shown and announced, card points and yaku badges, both presets'
summaries (additive, and zero-sum against the par), the wild lightning option."""

from __future__ import annotations

from bot import presenter
from bot.games.hana_awase import HanaAwaseRound, Rules, new_match
from bot.games.rng import Rng
from rendering import render_summary, render_table

NAMES = ["Aki", "Ben", "Chie"]
CHAFF = ["pine_chaff_1", "plum_chaff_1", "cherry_chaff_1", "iris_chaff_1", "susuki_chaff_1", "maple_chaff_1"]


def lines(events, names=NAMES) -> list[str]:
    return [line for e in events if (line := presenter.describe_event("hana_awase", e, names))]


def round_over(state: HanaAwaseRound, number: int = 1) -> dict:
    """The ``round_over`` event a Match makes of a finished round."""
    result = state.result()
    return {"type": "round_over", "round": number, "scores": list(result.points), **result.to_dict()}


def teyaku_round() -> HanaAwaseRound:
    return HanaAwaseRound.from_cards(
        [["plum_chaff_2", "crane"], [*CHAFF, "deer"]], ["moon"], ["geese", "boar", "curtain", "phoenix"],
        rules=Rules(teyaku=True))


def test_teyaku_is_announced_shown_on_the_table_and_taken_from_the_hand():
    s = teyaku_round()
    names = NAMES[:2]
    (announce,) = lines(s.start_events, names)
    assert announce.startswith("**Ben shows a teyaku**: 6 chaff dealt (Pine, Plum, Cherry")
    assert announce.endswith("each other player pays 20")
    view = presenter.table_view(s.observation(0), names)
    assert view.players[1].shown == tuple(CHAFF)
    assert "Teyaku +20" in view.players[1].badges
    assert view.players[0].shown == ()
    obs = s.observation(0)
    assert "plum_chaff_2" in presenter.hand_view(obs).playable
    assert "you may take the chaff shown in another hand" in presenter.hand_view(obs).title
    assert ("Shown to all (teyaku)", "Pine, Plum, Cherry, Iris, Pampas, Maple") in \
        presenter.hand_fields(s.observation(1))
    text = lines(s.apply("play:plum_chaff_2"), names)
    assert "Aki takes Plum from Ben's shown hand" in text
    assert "plum_chaff_1" not in presenter.table_view(s.observation(0), names).players[1].shown
    assert render_table(presenter.table_view(s.observation(0), names))[:4] == b"\x89PNG"


def test_teyaku_in_the_summary_and_the_arithmetic_lines():
    s = HanaAwaseRound.from_cards(
        [["pine_chaff_1", "plum_chaff_1", "cherry_chaff_1", "iris_chaff_1", "susuki_chaff_1",
          "maple_chaff_1", "lightning"], ["crane"]], [], [], rules=Rules(teyaku=True))
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    event = round_over(s)
    summary = presenter.summary_view("hana_awase", event, NAMES[:2])
    assert ("Aki", "Teyaku (7+ chaff dealt)", 30) in [(r.player, r.name, r.points) for r in summary.rows]
    points = event["points"]
    assert summary.result_lines[0] == f"Aki: {event['detail']['card_points'][0]} card points + 0 yaku + 30 teyaku = {points[0]}"
    assert summary.result_lines[1].endswith(f"− 30 teyaku = {points[1]}")


def test_badges_card_points_yaku_and_progress():
    s = HanaAwaseRound.from_cards(
        [["iris_chaff_1"], ["cherry_chaff_1"], ["maple_chaff_1"]], ["pine_chaff_1"], [],
        captured=[["sake_cup", "curtain", "poetry_ribbon_jan", "poetry_ribbon_feb"],
                  ["crane", "phoenix"], ["boar", "deer", "pine_chaff_2"]],
        rules=Rules.preset("fudawiki"))
    view = presenter.table_view(s.observation(0), NAMES)
    assert view.players[0].badges == ("40 card pts", "Hanami")
    assert view.players[0].progress == ("Akatan 2/3", "Nomi 2/3")
    assert view.players[1].badges == ("40 card pts",)
    assert view.players[2].badges == ("21 card pts",)
    assert view.players[2].progress == ("Inoshikacho 2/3",)
    assert view.footer.startswith("Cards 20/10/5/1 · zero-sum: (card points − par 88)")
    fields = dict(presenter.hand_fields(s.observation(0)))
    assert fields["Your pile"] == "40 card points (−48 against the par of 88)"
    assert fields["Your yaku"] == "Hanami (cherry viewing) 20"


def test_zero_sum_summary_against_the_par():
    s = HanaAwaseRound.from_cards(
        [["iris_chaff_1"], ["cherry_chaff_1"], ["maple_chaff_1"]], ["pine_chaff_1"], [],
        captured=[["sake_cup", "curtain", "moon", "poetry_ribbon_jan"], ["crane", "phoenix"],
                  ["boar", "deer", "butterflies"]],
        rules=Rules.preset("fudawiki"))
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    event = round_over(s)
    summary = presenter.summary_view("hana_awase", event, NAMES)
    assert [(r.player, r.name, r.points) for r in summary.rows] == [
        ("Aki", "Nomi (sake cup, curtain, moon)", 40), ("Chie", "Inoshikacho (boar, deer, butterflies)", 20)]
    cards = event["detail"]["card_points"]
    p = event["points"]
    assert summary.result_lines[0] == (f"Aki: ({cards[0]} card points − par 88) + 40 yaku × 2 − 20 the "
                                       f"others' yaku = {'+' if p[0] > 0 else '−'}{abs(p[0])}")
    assert summary.result_lines[3].endswith("wins the round and deals next")
    line = presenter.describe_event("hana_awase", event, NAMES)
    assert line.startswith("Round 1: ") and "Aki " in line
    assert render_summary(summary)[:4] == b"\x89PNG"


def test_leaflet_default_is_additive_and_fuke_voids():
    s = HanaAwaseRound.from_cards([["crane"], ["pine_chaff_1"]], [], [], rules=Rules(fuke=True), dealer=1)
    assert presenter.table_view(s.observation(0), NAMES[:2]).footer == \
        "Cards 20/10/5/1 · card points + yaku, the highest total wins"
    s.current = 1
    s.apply("play:pine_chaff_1")
    s.apply("play:crane")
    event = round_over(s)
    assert presenter.describe_event("hana_awase", event, NAMES[:2]) == \
        "Round 1 is void (a player has 20 card points or fewer): nobody scores"
    assert presenter.summary_view("hana_awase", event, NAMES[:2]).result_lines[0].startswith("Fuke:")


def test_wild_lightning_option_is_announced_plain_lightning_is_not():
    wild = HanaAwaseRound.from_cards([["lightning"], ["iris_chaff_1"]], ["moon", "swallow"],
                                     ["maple_chaff_1", "iris_chaff_2"], rules=Rules(wild_lightning=True))
    assert [presenter.action_label("hana_awase", a) for _, a in presenter.hand_actions(wild.observation(0))] \
        == ["Lightning (wild) → Full Moon"]
    assert lines(wild.apply("play:lightning>moon"))[0] == \
        "Aki plays the **lightning** as a wild card and takes Full Moon"
    assert "the lightning is wild" in presenter.table_view(wild.observation(0), NAMES[:2]).footer
    plain = HanaAwaseRound.from_cards([["lightning"], ["iris_chaff_1"]], ["moon", "swallow"],
                                      ["maple_chaff_1", "iris_chaff_2"])
    assert lines(plain.apply("play:lightning"))[0] == "Aki played Lightning and took Swallow"


def test_deal_lines_by_player_count():
    for n, expected in ((2, "8 cards on the field and a hand each"), (3, "7 cards each and 6 on the field"),
                        (4, "5 cards each and 8 on the field")):
        match = new_match(n, seed=3)
        text = lines(match.intro_events, ["A", "B", "C", "D"][:n])
        assert text[0].startswith("Drawing for the deal: ")
        assert text[-1].endswith(expected)


def test_table_view_shows_no_hidden_card():
    def table(hand_c, stock):
        s = HanaAwaseRound.from_cards([["iris_chaff_1", "moon"], ["boar", "crane"], hand_c],
                                      ["pine_chaff_1", "deer"], stock, captured=[["curtain"], [], []])
        return s, presenter.table_view(s.observation(0), NAMES)

    s1, one = table(["cherry_chaff_1", "bridge"], ["maple_chaff_1", "geese"])
    _, two = table(["swallow", "butterflies"], ["geese", "maple_chaff_2"])
    assert one == two
    assert presenter.table_view(s1.observation(2), NAMES) == one


def test_every_line_of_random_matches_with_every_option():
    rules = Rules.preset("fudawiki", rounds=2, teyaku=True, wild_lightning=True, compensation=True)
    seen = set()
    for seed in range(6):
        match = new_match(3, rules, seed)
        rng = Rng(seed)
        events = list(match.intro_events)
        while True:
            for e in events:
                seen.add(e["type"])
                line = presenter.describe_event("hana_awase", e, NAMES)
                assert line is None or "None" not in line
            if match.is_over:
                break
            legal = match.legal_actions()
            events = match.apply(legal[rng.below(len(legal))])
    assert {"play", "draw", "round_over", "deal", "dealer_draw"} <= seen
