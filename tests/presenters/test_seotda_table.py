"""Seotda's public table and showdown: no hidden card ever reaches the table, side pots add up to
what the engine pays, a redeal is shown as one."""

from __future__ import annotations

import pytest

from bot import presenter
from bot.games import seotda
from bot.games.rng import Rng
from bot.games.seotda import OVER, Rules, SeotdaRound
from rendering.table import table_image

DECK = set(seotda.DECK)


def _cards_in(view) -> set[str]:
    """Every card id a table view carries anywhere."""
    found = set()
    for seat in view.players:
        found |= set(seat.shown) | set(seat.captured)
    return found | set(view.field) | set(view.highlight) | ({view.drawn_card} - {None})


@pytest.mark.parametrize("preset, players", [("two_card", 2), ("three_card", 3), ("two_card", 6),
                                             ("three_card", 5)])
def test_the_table_shows_no_card_before_the_showdown_and_never_a_dead_hand(preset, players):
    rng = Rng(players)
    names = [f"P{i}" for i in range(players)]
    for seed in range(4):
        r = SeotdaRound(players, Rules.preset(preset), seed, dealer=seed % players)
        while True:
            for watcher in range(players):  # any seat's observation makes the same public table
                view = presenter.table_view(r.observation(watcher), names)
                shown = _cards_in(view)
                if r.phase != OVER:
                    assert not shown, (r.phase, shown)
                    assert sum(c for _, c in view.pots) == r.pot
                else:
                    assert view.pots == (("Paid out", sum(r.in_pot)),) and view.to_call is None
                    showed = {int(s) for s in r.outcome["hands"]}
                    assert {s for s, p in enumerate(view.players) if p.shown} == showed
                    assert all(r.live[s] for s in showed)  # a hand that died is never shown
                    assert all(view.players[s].shown == tuple(r.hand_of(s).cards) for s in showed)
                for s, seat in enumerate(view.players):
                    assert seat.out == (not r.live[s] and not seat.shown)
                    assert seat.stack == r.stacks[s] and seat.hand_size == len(r.hands[s])
            if r.phase == OVER:
                break
            legal = r.legal_actions()
            r.apply(legal[rng.below(len(legal))], r.current_player)
        assert table_image(view).width == 1000


def test_side_pots_on_the_table_add_up_to_what_the_showdown_pays():
    rules = Rules(special_hands=False)  # no gusa redeal: this deal goes to its showdown
    r = SeotdaRound(3, rules, seed=4, dealer=1, stacks=[3, 100, 100])
    r.apply("bbing", 1)
    r.apply("half", 2)
    r.apply("allin", 0)  # 2 chips left after the ante: short of the 4 to call
    view = presenter.table_view(r.observation(1), ["Ann", "Bo", "Cy"])
    assert view.pots == (("Main pot", 8), ("Side pot 1", 2))  # 3 + 2 + 3 capped at Ann's 3
    assert view.players[0].status == "All in" and view.players[1].status == "To act"
    events = r.apply("call", 1)
    paid = next(e for e in events if e["type"] == "pot")["pots"]
    assert [p["chips"] for p in paid] == [9, 4]  # Ann's 3 from each, and Bo's and Cy's 2 more
    over = {"type": "round_over", "round": 1, **r.result().to_dict()}
    summary = presenter.summary_view("seotda", over, ["Ann", "Bo", "Cy"])
    assert summary.pots[0].startswith("Main pot: 9 chips") and summary.pots[1].startswith("Side pot 1: 4 chips")
    assert sum(h.won for h in summary.hands) == 13


def test_a_gusa_showdown_is_shown_as_a_redeal():
    r = SeotdaRound(2, Rules(), seed=1)
    r.hands = [["plain_ribbon_apr", "blue_ribbon_sep"], ["bridge", "plain_ribbon_jul"]]
    events = r.apply("check", 0) + r.apply("check", 1)
    shown = next(e for e in events if e["type"] == "showdown")
    assert shown["redeal"]["reason"] == "gusa"
    view = presenter.summary_view("seotda", shown, ["Ann", "Bo"])
    assert view.banner == "Ann shows Gusa: the hand is dealt again; the pot stays"
    assert [(h.name, h.note, h.winner) for h in view.hands] == [("Gusa", "calls a redeal", False),
                                                                ("2 kkeut", "", False)]
    table = presenter.table_view(r.observation(0), ["Ann", "Bo"])
    assert table.stage == "Betting · redeal 1" and not _cards_in(table) and table.pots == (("Pot", 2),)


def test_the_channel_gets_a_picture_of_a_redeal_and_of_each_hand_end_only():
    r = SeotdaRound(2, Rules(), seed=1)
    r.hands = [["plain_ribbon_apr", "blue_ribbon_sep"], ["bridge", "plain_ribbon_jul"]]
    events = r.apply("check", 0) + r.apply("check", 1)
    posted = [e["type"] for e in events if presenter.posts_summary("seotda", e)]
    assert posted == ["showdown"]  # the gusa: the hand goes on, its pot stays
    assert presenter.posts_summary("seotda", {"type": "round_over"})
    assert not presenter.posts_summary("seotda", {"type": "showdown", "hands": {}, "winners": [0]})
    assert presenter.posts_summary("koikoi", {"type": "round_over"})
    assert not presenter.posts_summary("koikoi", {"type": "koikoi", "player": 0})



def test_the_pot_line_and_the_hand_line_name_the_same_net_gain():
    """"bob won 4 chips" then "bob wins 3 chips" read as two results: both are the net gain."""
    from bot import presenter

    names = ["alice", "bob"]
    pot = {"type": "pot", "pots": [{"chips": 8, "winners": [1]}], "won": [0, 8], "net": [-4, 4],
           "reason": "showdown", "stacks": [16, 24]}
    assert presenter.describe_event("seotda", pot, names) == "bob won 4 chips"
    hand = presenter.for_game("seotda").round_line({"round": 1, "winner": 1, "points": [-4, 4]}, names)
    assert hand == "Hand 1: bob wins 4 chips"
