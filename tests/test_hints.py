"""Which tables offer the Hint button (casual games only, where the server allows it) and what a
hint says at a call: every choice's chance to win the round."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discord_ui.controls import hint_buttons
from bot.discord_ui.hints import offers_hint_button
from bot.store.settings import GuildSettings
from bot.tables import HOME_ACTIVITY, HOME_CHANNEL, HOME_PRIVATE
from bot.tables.hints import hint_lines, offers_hints


def table(**changes):
    values = {"game_id": 3, "guild_id": 10, "game": "koikoi", "players": [5, "ai:hard"], "stake": 0,
              "finished": False, "home": HOME_CHANNEL}
    return SimpleNamespace(**(values | changes))


def client(hints: bool | None = True):
    return SimpleNamespace(store=SimpleNamespace(settings_now=lambda guild_id: settings(hints)))


def settings(hints: bool | None = True):
    return None if hints is None else GuildSettings(guild_id=10, hints=hints)


def test_only_unstaked_unrated_games_with_a_search_ai_offer_hints():
    assert offers_hints(table(), settings())
    assert offers_hints(table(), settings(None))  # settings not read yet: the default, on
    assert not offers_hints(table(), settings(False))  # the server turned them off
    assert not offers_hints(table(stake=50), settings())
    assert not offers_hints(table(players=[5, 6]), settings())  # two humans: a rated game
    assert not offers_hints(table(game="nosuchgame"), settings())
    assert not offers_hints(table(finished=True), settings())
    assert offers_hints(table(home=HOME_ACTIVITY), settings())
    # a game of the day's deal (a private table): its board ranks members who play unaided
    assert not offers_hints(table(home=HOME_PRIVATE), settings())
    assert offers_hint_button(client(), table()) and not offers_hint_button(client(False), table())
    assert hint_buttons(client(), table(), 5) == []  # no row left under 25 moves
    [button] = hint_buttons(client(), table(), 2)
    assert button.item.custom_id == "hf:hint:3" and button.item.row == 2


def test_a_call_lists_every_choice_with_its_chance_to_win_the_round():
    lines = hint_lines("koikoi", [{"action": "stop", "points": 3.0, "win": 1.0},
                                  {"action": "koikoi", "points": -1.25, "win": 0.4}])
    assert "**Stop (score now)**" in lines[0] and "+3.0" in lines[0] and "100%" in lines[0]
    assert lines[1] == "Your chance to win the round with each choice:"
    assert lines[2:] == ["• Stop (score now): 100%", "• Koi-Koi!: 40%"]
    plays = hint_lines("koikoi", [{"action": f"play:{c}", "points": p, "win": 0.5}
                                  for c, p in (("crane", 2.0), ("pine_chaff_1", 1.0),
                                               ("curtain", 0.5), ("moon", 0.0), ("boar", -1.0))])
    assert len(plays) == 5  # the preferred move, a heading and the next three


def test_a_seotda_bet_is_priced_by_its_equity_and_worded_in_chips_and_hands():
    from bot.ai.coach import price
    from bot.games import game_module

    module = game_module("seotda")
    match = module.new_match(2, module.Rules(), 4)
    seat = match.current_player
    legal = [str(a) for a in match.legal_actions()]
    priced = price("seotda", match.observation(seat), legal, 9, 50)
    assert sorted(p["action"] for p in priced) == sorted(legal)
    assert priced == price("seotda", match.observation(seat), legal, 9, 50)
    die = next((p for p in priced if p["action"] == "die"), None)
    assert die is None or (die["win"], die["points"]) == (0.0, 0.0)
    lines = hint_lines("seotda", priced)
    assert "chips expected" in lines[0] and "to win the hand" in lines[0]
    assert lines[1] == "Your chance to win the hand with each choice:" and len(lines) == 2 + len(legal)
    assert offers_hints(table(game="seotda"), settings())
