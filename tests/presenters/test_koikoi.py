"""Koi-Koi on screen: the KoiKoi-Japan points per call beside the multipliers, in every language."""

from __future__ import annotations

from bot import presenter
from bot.games.base import Action
from bot.games.koikoi import KoiKoiRound, Rules
from bot.i18n import speaking

NAMES = ["Ann", "Bob"]


def _won_after_one_call() -> dict:
    s = KoiKoiRound.from_cards(
        hands=[["poetry_ribbon_mar", "plain_ribbon_may", "iris_chaff_1"],
               ["sake_cup", "peony_chaff_1", "peony_chaff_2"]],
        field=["cherry_chaff_1", "chrysanthemum_chaff_1", "iris_chaff_2", "clover_chaff_1"],
        stock=["wisteria_chaff_1", "geese", "swallow", "paulownia_chaff_1"],
        captured=[["poetry_ribbon_jan", "poetry_ribbon_feb", "plain_ribbon_apr"], ["curtain"]],
        rules=Rules.preset("koikoi_japan"))
    for text, seat in (("play:poetry_ribbon_mar", 0), ("koikoi", 0), ("play:peony_chaff_1", 1),
                       ("play:plain_ribbon_may", 0), ("stop", 0)):
        s.apply(Action.parse(text), seat)
    result = s.result()
    return {"type": "round_over", "round": 1, "scores": result.points, "points": result.points,
            "winner": 0, "reason": "stop", "detail": result.detail}


def test_the_points_per_call_are_shown_before_the_multipliers():
    event = _won_after_one_call()
    view = presenter.summary_view("koikoi", event, NAMES)
    assert view.multipliers == ("+1 for own koi-koi calls",)
    assert view.result_lines[0] == "Ann scores 7"
    with speaking("ja"):
        assert presenter.summary_view("koikoi", event, NAMES).multipliers == ("+1 自分のこいこいの分",)
    with speaking("ko"):
        assert presenter.summary_view("koikoi", event, NAMES).multipliers == ("+1 자기 고이고이 몫",)


def test_a_kkj_match_shows_the_points_left_of_the_bankroll():
    from bot.games.koikoi import new_match
    from bot.games.rng import Rng

    match = new_match(rules=Rules.preset("koikoi_japan"), seed=4)
    rng = Rng(4)
    events = list(match.intro_events)
    while not any(e["type"] == "round_over" for e in events):
        legal = match.legal_actions()
        events = match.apply(legal[rng.below(len(legal))])
    over = next(e for e in events if e["type"] == "round_over")
    left = [30 + s for s in over["scores"]]
    lines = presenter.summary_view("koikoi", over, NAMES).result_lines
    assert lines[-1] == (f"Match: Ann {left[0]}, Bob {left[1]} "
                         "(points left of the 30 each began with)")
    assert sum(left) == 60
