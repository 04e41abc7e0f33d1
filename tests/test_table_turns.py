"""Whose turn began when, the move's deadline, and who loses a forfeit (team games included)."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from bot.games import game_module
from bot.tables import EarlierTurn, Later, Table, TableError, TableManager


def table_of(game: str, players: list, rules=None) -> Table:
    module = game_module(game)
    match = module.new_match(len(players), rules or module.Rules(), seed=11)
    return Table(game_id=1, guild_id=5, channel_id=6, game=game, players=players,
                 names=[f"P{i}" for i in range(len(players))], host_id=1, stake=0, match=match)


def manager() -> TableManager:
    tables = TableManager(store=None, publisher=None)
    tables.timeout_override = 90.0
    return tables


def test_forfeit_in_a_team_game_loses_for_the_whole_team():
    sakura = game_module("sakura")
    table = table_of("sakura", [1, 2, 3, 4], sakura.Rules(teams="pairs"))
    losers, team = TableManager._forfeiting_side(table, 1)
    assert losers == {1, 3} and team == [0, 2]


def test_forfeit_alone_loses_alone():
    table = table_of("koikoi", [1, 2])
    assert TableManager._forfeiting_side(table, 0) == ({0}, None)
    three = table_of("hana_awase", [1, 2, 3])
    assert TableManager._forfeiting_side(three, 2) == ({2}, None)


def test_a_turn_begins_when_it_passes_to_another_seat_and_has_a_deadline():
    tables = manager()
    table = table_of("koikoi", [1, 2])
    seat = table.match.current_player
    before = time.time()
    tables._begin_move(table, acted=None)
    assert table.turn_since == 0 and before + 90 <= table.deadline <= time.time() + 90
    assert table.turn_seat == seat
    table.seq = 4
    tables._begin_move(table, acted=seat)  # the same seat acts again: its turn goes on
    assert table.turn_since == 0
    tables._begin_move(table, acted=1 - seat)  # it came from the other seat: a new turn
    assert table.turn_since == 4


def test_no_deadline_for_an_ai_seat():
    tables = manager()
    table = table_of("koikoi", ["ai:normal", "ai:easy"])
    tables._begin_move(table, acted=None)
    assert table.deadline is None and table.turn_seat is None


async def test_a_timed_out_seotda_player_dies_and_other_games_get_the_normal_ais_move():
    tables = manager()
    seotda = table_of("seotda", [1, 2, 3])
    assert str(await tables.timeout_move(seotda, seotda.match.current_player)) == "die"
    koikoi = table_of("koikoi", [1, 2])
    seat = koikoi.match.current_player
    asked = []
    choose = tables.choose_for

    async def choose_for(table, seat, level):
        asked.append(level)
        return await choose(table, seat, level)

    tables.choose_for = choose_for
    chosen = await tables.timeout_move(koikoi, seat)
    assert asked == ["normal"] and chosen in koikoi.match.legal_actions()


def test_seotda_refuses_another_seats_press_and_a_stale_control():
    table = table_of("seotda", [1, 2, 3])
    seat = table.match.current_player
    with pytest.raises(TableError, match="not your turn"):
        manager().check_click(table, table.players[(seat + 1) % 3], 0)
    table.seq = 2
    with pytest.raises(EarlierTurn, match="earlier turn") as behind:
        manager().check_click(table, table.players[(seat + 1) % 3], 1)
    assert behind.value.seat == (seat + 1) % 3  # whose copy fell behind, whoever's turn it is
    with pytest.raises(TableError, match="earlier turn") as ahead:
        manager().check_click(table, table.players[seat], 3)  # no copy offers a move to come
    assert not isinstance(ahead.value, EarlierTurn)
    assert manager().check_click(table, table.players[seat], 2) == seat


async def test_a_press_of_an_earlier_turn_hands_its_copy_to_the_surface_and_plays_nothing():
    class Surface:
        def __init__(self) -> None:
            self.calls: list[tuple] = []

        def pressed_earlier(self, table, seat, via):
            self.calls.append(("pressed_earlier", table.game_id, seat, via))

    surface = Surface()
    tables = TableManager(store=None, publisher=surface)
    table = table_of("koikoi", [1, 2])
    tables.tables[table.game_id] = table
    table.seq = 4
    state = table.match.to_dict()
    with pytest.raises(EarlierTurn):
        await tables.press(table.game_id, 2, 3, "#0", via="the press")
    assert surface.calls == [("pressed_earlier", 1, 1, "the press")]
    assert table.seq == 4 and table.match.to_dict() == state


async def test_an_ai_seat_waits_out_its_pause_with_no_task_and_then_moves():
    tables = manager()
    table = table_of("koikoi", ["ai:normal", "ai:easy"])
    tables.ai_delay = 3600.0
    before = asyncio.all_tasks()
    tables._schedule(table)
    assert isinstance(table.ai_task, Later) and table.ai_task.task is None
    assert asyncio.all_tasks() == before  # the pause is a timer handle, not a sleeping task
    waiting = table.ai_task
    tables._schedule(table)  # the move changed meanwhile: the pause starts again
    assert waiting.done() and table.ai_task is not waiting

    moved = asyncio.Event()

    async def turn(table_, seat, seq):
        assert (table_, seat, seq) == (table, table.match.current_player, table.seq)
        moved.set()

    tables._ai_turn = turn
    tables.ai_delay = 0.0
    tables._schedule(table)
    await moved.wait()
    await table.ai_task.task
    assert table.ai_task.done()


async def test_a_replaced_turn_timer_is_let_go_of():
    tables = manager()
    table = table_of("koikoi", [1, 2])
    tables.tables[table.game_id] = table
    tables._begin_move(table, acted=None)
    tables._schedule(table)
    timer = table.timer
    assert timer is not None and not timer.done()
    table.players[table.match.current_player] = "ai:easy"  # now an AI's move
    tables.ai_delay = 3600.0
    tables._schedule(table)
    with contextlib.suppress(asyncio.CancelledError):
        await timer
    # a cancelled task keeps its traceback and the frames it ran in: the table keeps none
    assert timer.cancelled() and table.timer is None
    tables.close()
    assert table.ai_task is None and table.timer is None
