"""What Seotda shows: the pot, each seat's bet and stack, the betting buttons with their chips,
the showdown naming every hand, and nothing hidden on the public table."""

from __future__ import annotations

from bot import presenter
from bot.games.base import Action
from bot.games.seotda import Rules, SeotdaRound
from rendering.summary import summary_image
from rendering.table import table_image

NAMES = ["Ann", "Bo", "Cy"]


def dealt(hands, rules=None):
    r = SeotdaRound(len(hands), rules or Rules(), 1)
    r.hands = [list(h) for h in hands]
    r.stock = [c for c in r.stock + [c for h in r.hands for c in h] if all(c not in h for h in hands)]
    return r


def test_table_shows_pot_bets_and_stacks_but_no_hidden_card():
    r = dealt([["deer", "blue_ribbon_oct"], ["crane", "bush_warbler"], ["geese", "moon"]])
    events = r.apply("bbing", 0) + r.apply("half", 1)
    view = presenter.table_view(r.observation(2), NAMES)
    assert view.pots == (("Pot", 8),) and view.to_call == 4 and view.title == "Seotda · hand 1"
    assert view.footer == "Ante 1 chip · up to 3 raises a betting round" and view.stage == "Betting"
    seats = [(p.stack, p.bet, p.status, p.is_turn) for p in view.players]
    assert seats == [(98, 1, "Bbing", False), (95, 4, "Half", False), (99, 0, "To act", True)]
    assert "deer" not in str(view) and "crane" not in str(view)
    assert presenter.describe_event("seotda", events[1], NAMES) == "Bo: Half, 4 chips in (pot 8)"
    assert table_image(view).size[0] > 0


def test_buttons_carry_their_chips():
    r = dealt([["deer", "blue_ribbon_oct"], ["crane", "bush_warbler"]])
    r.apply("bbing", 0)
    obs = r.observation(1)
    labels = presenter.hand_view(obs).decision
    assert labels == ("Call (1 chip)", "Half (3 chips)", "Ddadang (2 chips)", "Die")
    assert presenter.action_label("seotda", Action("keep", "crane", "moon")) == "Keep Crane and Sun and Full Moon"
    assert presenter.hand_fields(obs) == [("Your hand", "Ali (1 and 2)")]


def test_showdown_names_every_hand():
    r = dealt([["deer", "blue_ribbon_oct"], ["crane", "bush_warbler"]])
    events = r.apply("check", 0) + r.apply("check", 1)
    shown = next(e for e in events if e["type"] == "showdown")
    assert presenter.describe_event("seotda", shown, NAMES) == \
        "Showdown: Ann: Jang-ttaeng (a pair of 10); Bo: Ali (1 and 2)"
    over = {"type": "round_over", "round": 1, **r.result().to_dict()}
    summary = presenter.summary_view("seotda", over, NAMES)
    assert [(h.player, h.name, h.detail, h.won, h.net, h.winner) for h in summary.hands] == \
        [("Ann", "Jang-ttaeng", "a pair of 10", 2, 1, True), ("Bo", "Ali", "1 and 2", 0, -1, False)]
    assert summary.pots == ("Pot: 2 chips to Ann",)
    assert summary.result_lines[0] == "Hand 1: Ann wins 1 chip"
    assert summary_image(summary).size[0] > 0
    final = presenter.table_view(r.observation(1), NAMES[:2])
    assert final.players[0].shown == ("deer", "blue_ribbon_oct") and final.players[0].hand_name == "Jang-ttaeng"
