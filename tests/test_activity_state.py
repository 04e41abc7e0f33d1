"""What a page of the Activity is sent, for every game: a whole random match of each, seen by its
players and a spectator in every language. Nobody's state holds another seat's hidden hand, and
every move a state offers is one the table service plays for its key."""

from __future__ import annotations

import json

import pytest

from bot import presenter
from bot.activity.state import idle_state, table_state, welcome
from bot.games import GAMES, game_module
from bot.games.rng import Rng
from bot.i18n import LANGUAGES
from bot.tables import Table, TableManager

NOW = 1_800_000_000.0


def _table(game: str, players: int, seed: int) -> Table:
    module = game_module(game)
    rules = module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=1)
    match = module.new_match(players, rules, seed)
    names = [f"P{i}" for i in range(players)]
    table = Table(game_id=7, guild_id=1, channel_id=2, game=game, players=list(range(100, 100 + players)),
                  names=names, host_id=100, stake=0, match=match, timeouts=[0] * players)
    table.recent.extend(presenter.narrated(game, match.intro_events, names))
    return table


def _hidden(table: Table, viewer: int | None) -> set[str]:
    """The cards in other seats' hands that nobody else may see (those laid face up aside)."""
    public = {c for p in presenter.table_view(table.match.observation(0), table.names).players for c in p.shown}
    return {card for seat in range(len(table.players)) if seat != viewer
            for card in table.match.observation(seat).get("hand", ()) if card not in public}


@pytest.mark.parametrize("game", GAMES)
def test_every_state_of_a_match_shows_only_what_its_reader_may_see(game):
    module = game_module(game)
    players = module.PLAYERS[0]
    table = _table(game, players, seed=11)
    rng = Rng(11)
    steps = 0
    while not table.match.is_over:
        language = LANGUAGES[steps % len(LANGUAGES)]
        mover = table.match.current_player
        for viewer in {None, mover, (steps % players)}:
            state = table_state(table, viewer, language, NOW)
            text = json.dumps(state, ensure_ascii=False)
            leaked = [card for card in _hidden(table, viewer) if f'"{card}"' in text]
            assert not leaked, (game, viewer, leaked)
            if viewer is None or viewer != mover:
                assert state["moves"] == []
        if mover is not None and not table.in_race:
            state = table_state(table, mover, language, NOW)
            legal = {str(a) for a in table.match.legal_actions()}
            assert state["moves"], (game, steps)
            for move in state["moves"]:  # each key is a move the service plays as offered
                assert TableManager._offered(table, mover, move["key"]) in legal
                assert move["label"]
            key = state["moves"][rng.below(len(state["moves"]))]["key"]
            action = TableManager._offered(table, mover, key)
        else:
            legal = table.match.legal_actions()
            action, mover = legal[rng.below(len(legal))], table.match.current_player
        events = table.match.apply(action, mover) if mover is not None else table.match.apply(action)
        table.seq += 1
        table.recent.extend(presenter.narrated(game, events, table.names))
        steps += 1
        assert steps < 5000
    table.closing, table.finished = {"winners": table.match.winners(), "team": None}, True
    final = table_state(table, 0, "ja", NOW)
    assert final["game"]["over"] and final["result"]["text"] and final["moves"] == []


def test_a_state_names_its_cards_and_words_in_the_readers_language():
    table = _table("koikoi", 2, seed=3)
    english = table_state(table, 0, "en", NOW)
    japanese = table_state(table, 0, "ja", NOW)
    korean = table_state(table, 0, "ko", NOW)
    card = english["hand"]["cards"][0]
    assert len({english["cards"][card], japanese["cards"][card], korean["cards"][card]}) == 3
    assert welcome(1, "P0", "ja")["words"]["field"] == "場札"
    assert welcome(1, "P0", "ko")["words"]["field"] == "바닥패"
    assert idle_state("ko") == {"type": "idle", "language": "ko", "lobby": None}
    # a deadline is sent as it is, with the server's clock, for the page to count down
    table.turn_seat, table.deadline = table.match.current_player, NOW + 30
    assert table_state(table, 0, "en", NOW)["turn"]["deadline"] == NOW + 30


@pytest.mark.parametrize("game", GAMES)
def test_the_last_move_shows_before_its_result_without_a_turn_or_a_move(game):
    """Between the move that ended the match and its stored result, a page shows the board as
    the move left it: nobody's turn, nothing to press, no deadline, not yet over."""
    module = game_module(game)
    table = _table(game, module.PLAYERS[0], seed=5)
    rng = Rng(5)
    while not table.match.is_over:
        legal, mover = table.match.legal_actions(), table.match.current_player
        action = legal[rng.below(len(legal))]
        table.match.apply(action, mover) if mover is not None else table.match.apply(action)
        table.seq += 1
    table.deadline = NOW + 30
    for viewer in (None, *range(len(table.players))):
        state = table_state(table, viewer, "en", NOW)
        assert state["game"]["seq"] == table.seq and not state["game"]["over"]
        assert state["moves"] == [] and state["turn"]["seat"] is None and not state["turn"]["text"]
        assert state["turn"]["deadline"] is None and state["result"] is None
        if viewer is not None:
            assert state["hand"]["playable"] == []
    table.closing = {"winners": table.match.winners(), "team": None}
    assert table_state(table, 0, "en", NOW)["game"]["over"]
