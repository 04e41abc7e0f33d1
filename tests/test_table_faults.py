"""A table under database trouble: a move that is not stored leaves no trace, and no scheduled
step (an AI move, a timeout, a settlement) is ever dropped.

The store is a real SQLite store behind a wrapper that refuses chosen writes the way the store
does when its database is away (:class:`StoreUnavailable`); the publisher is a quiet stand-in
that records what it was asked to show.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest

from bot.checkup import _replay
from bot.games import GAMES, game_module
from bot.games.rng import Rng
from bot.store import EVERY_SERVER, Store, StoreUnavailable
from bot.tables import StoreTrouble, TableError, TableManager

GUILD, CHANNEL = 700, 701
HUMANS = [11, 12, 13, 14, 15, 16, 17]


class Quiet:
    """What a table manager asks of its publisher, recorded instead of shown."""

    def __init__(self) -> None:
        self.moves = 0
        self.moved = asyncio.Event()
        self.ended = asyncio.Event()
        self.owed: dict[int, list[int]] = {}
        self.let_go_of: list[int] = []

    def describe(self, table, events):
        return [str(e.get("type")) for e in events[:2]]

    async def post_table(self, table, via=None):
        pass

    def deliver_hands(self, table):
        pass

    def show_last_move(self, table, events):
        pass

    def show_move(self, table, events):
        self.moves += 1
        self.moved.set()

    def show_end(self, table, events=()):
        self.ended.set()

    def refresh(self, table):
        pass

    def post_owed(self, table, moves):
        self.owed[table.game_id] = [move.seq for move in moves]

    def warn(self, table, seat, seconds):
        pass

    def let_go(self, table):
        self.let_go_of.append(table.game_id)


class Flaky:
    """The store, but chosen writes fail as they do while the database is away: ``fail(name, n)``
    refuses the next ``n`` calls of that method; ``rate`` refuses that share of every
    ``record_action`` and ``finish_game`` at random."""

    def __init__(self, store: Store, rate: float = 0.0, seed: int = 0) -> None:
        self._store = store
        self._rng = Rng(seed)
        self.rate = rate
        self.pending: dict[str, int] = {}
        self.refused = 0

    def fail(self, name: str, times: int) -> None:
        self.pending[name] = times

    def __getattr__(self, name):
        method = getattr(self._store, name)
        if name not in ("record_action", "finish_game", "cancel_game"):
            return method

        async def guarded(*args, **kwargs):
            left = self.pending.get(name, 0)
            if left or (self.rate and name != "cancel_game"
                        and self._rng.below(1_000_000) < self.rate * 1_000_000):
                self.pending[name] = max(0, left - 1)
                self.refused += 1
                raise StoreUnavailable("unreachable", "refused by the test")
            return await method(*args, **kwargs)

        return guarded


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "faults.sqlite3")
    yield s
    await s.close()


def short_rules(game: str):
    module = game_module(game)
    fields = {f.name for f in dataclasses.fields(module.Rules)}
    return module.Rules(**({"rounds": 2} if "rounds" in fields else {}))


def manager(store, publisher) -> TableManager:
    tables = TableManager(store, publisher)
    tables.timeout_override = 10_000.0  # no turn runs out unless a test says so
    tables.ai_delay = 0.0
    tables.retry_delays = (0.0,)
    return tables


async def start(tables: TableManager, game: str, players: list, seed: int = 3):
    module = game_module(game)
    seats = max(len(players), min(module.PLAYERS))
    players = (players + [h for h in HUMANS if h not in players])[:seats]
    return await tables.start(guild_id=GUILD, channel_id=CHANNEL, game=game, players=players,
                              names=[f"P{i}" for i in range(seats)], host_id=HUMANS[0],
                              rules=short_rules(game), stake=0, seed=seed)


@pytest.mark.parametrize("game", GAMES)
async def test_a_move_the_store_refuses_leaves_the_table_as_it_was_and_every_game_replays(store, game):
    flaky = Flaky(store, rate=0.3, seed=len(game))
    publisher = Quiet()
    tables = manager(flaky, publisher)
    table = await start(tables, game, [HUMANS[0], HUMANS[1]])
    rng = Rng(9)
    refused = 0
    for _ in range(300):
        if table.finished or table.match.is_over:
            break
        seat = table.match.current_player
        legal = table.match.legal_actions()
        action = legal[rng.below(len(legal))]
        before, seq = table.state_json(), table.seq
        try:
            await tables.act(table, seat, action, table.players[seat])
        except StoreTrouble:
            refused += 1
            assert table.state_json() == before and table.seq == seq
    if table.match.is_over and not table.finished:  # its settlement was refused: it is retried
        await table.settling
    assert refused > 0 and table.finished
    record = await store.load_game(table.game_id, scope=EVERY_SERVER)
    assert record.status == "finished" and record.last_seq == table.seq
    assert _replay(record) is None
    stored = json.loads(record.state_json)["match"]
    assert stored == table.match.to_dict()
    tables.close()


async def test_the_ais_move_is_tried_again_until_the_database_takes_it(store):
    flaky = Flaky(store)
    publisher = Quiet()
    tables = manager(flaky, publisher)
    flaky.fail("record_action", 4)
    table = await start(tables, "koikoi", ["ai:easy", "ai:normal"])
    await publisher.ended.wait()
    assert flaky.refused == 4 and table.finished and table.closing.get("winners") is not None
    record = await store.load_game(table.game_id, scope=EVERY_SERVER)
    assert record.status == "finished" and _replay(record) is None
    tables.close()


async def test_a_settlement_the_database_refuses_is_tried_again(store):
    flaky = Flaky(store)
    publisher = Quiet()
    tables = manager(flaky, publisher)
    flaky.fail("finish_game", 3)
    table = await start(tables, "koikoi", ["ai:easy", "ai:easy"])
    await publisher.ended.wait()
    assert flaky.refused == 3 and table.finished
    assert (await store.load_game(table.game_id, scope=EVERY_SERVER)).status == "finished"
    tables.close()


async def test_a_timed_out_move_is_tried_again_until_it_is_stored(store):
    flaky = Flaky(store)
    publisher = Quiet()
    tables = manager(flaky, publisher)
    tables.warning_fraction = 0.5
    table = await start(tables, "koikoi", [HUMANS[0], HUMANS[1]])
    flaky.fail("record_action", 3)
    tables.timeout_override = 0.0  # the next turn runs out at once
    tables._schedule(table)
    while table.seq == 0:
        publisher.moved.clear()
        await publisher.moved.wait()
    assert flaky.refused == 3
    assert (await store.load_game(table.game_id, scope=EVERY_SERVER)).last_seq >= 1
    tables.close()


async def test_a_game_another_process_took_up_is_let_go_here_not_cancelled(store):
    """Once another process of a sharded bot drives a game (its shard key moved there), the
    store refuses this one's writes to it: the table stops here without a trace, never retried
    into a cancellation, and nothing of it is shown or settled."""
    publisher = Quiet()
    tables = manager(store, publisher)
    tables.ai_delay = 1_000.0  # the AI moves when the test says
    human = await start(tables, "koikoi", [HUMANS[0], HUMANS[1]])
    ai = await start(tables, "koikoi", ["ai:easy", "ai:normal"], seed=4)
    quitting = await start(tables, "koikoi", [HUMANS[2], HUMANS[3]], seed=5)
    store.drives = lambda shard_key: False  # the games are another process's now
    seat = human.match.current_player
    with pytest.raises(TableError, match="another of the bot's processes"):
        await tables.act(human, seat, human.match.legal_actions()[0], human.players[seat])
    await tables._ai_turn(ai, ai.match.current_player, ai.seq)
    with pytest.raises(TableError, match="another of the bot's processes"):
        await tables.forfeit(quitting, 0, "forfeited")
    for table in (human, ai, quitting):
        assert table.finished and table.game_id not in tables.tables
        assert (table.timer, table.ai_task, table.settling) == (None, None, None)
        record = await store.load_game(table.game_id, scope=EVERY_SERVER)
        assert (record.status, record.last_seq) == ("running", 0)
    assert publisher.moves == 0 and not publisher.ended.is_set()
    assert publisher.let_go_of == [human.game_id, ai.game_id, quitting.game_id]
    tables.close()


async def test_a_move_that_keeps_being_refused_cancels_the_game_and_says_why(store):
    publisher = Quiet()
    tables = manager(store, publisher)
    table = await start(tables, "koikoi", ["ai:easy", "ai:easy"])

    async def nonsense(table, seat, level):
        from bot.games.base import Action
        return Action.parse("nonsense")

    tables.choose_for = nonsense
    tables._schedule(table)
    await publisher.ended.wait()
    assert table.closing.get("cancelled") and table.closing["reason"] == "stuck"
    assert (await store.load_game(table.game_id, scope=EVERY_SERVER)).status == "cancelled"
    tables.close()


class Remembers(Quiet):
    """Keeps the tables whose end it was asked to show, as the publisher does until shown."""

    def __init__(self) -> None:
        super().__init__()
        self.ends: list = []

    def show_end(self, table, events=()):
        self.ends.append(table)
        super().show_end(table, events)


async def test_a_restart_shows_the_end_of_a_game_that_ended_before_its_end_was_shown(store):
    publisher = Remembers()
    tables = manager(store, publisher)
    table = await start(tables, "koikoi", ["ai:easy", "ai:easy"])
    await publisher.ended.wait()
    forfeited = await start(tables, "gostop", [HUMANS[0], HUMANS[1]], seed=8)
    await tables.forfeit(forfeited, 1, "forfeited")
    tables.close()  # the process stops before either end was drawn
    assert {r.game_id for r in await store.unshown_ended_games()} == {table.game_id, forfeited.game_id}

    again = Remembers()
    restarted = manager(store, again)
    assert await restarted.resume_all() == 0  # nothing runs ...
    shown = {t.game_id: t for t in again.ends}  # ... but both ends are shown again
    assert set(shown) == {table.game_id, forfeited.game_id}
    first = shown[table.game_id]
    assert first.finished and first.closing["winners"] == table.closing["winners"]
    assert first.closing["outcome"].results == table.closing["outcome"].results
    assert shown[forfeited.game_id].closing["forfeit"] == 1
    for game_id in shown:
        await store.mark_final_shown(game_id)
    assert await store.unshown_ended_games() == []
    restarted.close()


class Held:
    """The store, but each ``record_action`` waits until the test lets it through."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.storing = asyncio.Event()
        self.go = asyncio.Event()
        self.refuse = False

    def __getattr__(self, name):
        method = getattr(self._store, name)
        if name != "record_action":
            return method

        async def held(*args, **kwargs):
            self.storing.set()
            await self.go.wait()
            if self.refuse:
                raise StoreUnavailable("unreachable", "refused by the test")
            return await method(*args, **kwargs)

        return held


async def test_a_table_is_unsettled_only_while_its_move_is_being_stored(store):
    held = Held(store)
    tables = manager(held, Quiet())
    table = await start(tables, "koikoi", [HUMANS[0], HUMANS[1]])
    assert table.settled.is_set()
    seat, seq = table.match.current_player, table.seq
    moving = asyncio.ensure_future(tables.act(table, seat, table.match.legal_actions()[0], HUMANS[seat]))
    await held.storing.wait()
    # The match already shows the next turn, the move number does not: nothing may draw now.
    assert not table.settled.is_set() and table.seq == seq
    drawn = asyncio.ensure_future(table.settled.wait())
    await asyncio.sleep(0)
    assert not drawn.done()
    held.go.set()
    await moving
    assert table.settled.is_set() and table.seq == seq + 1 and drawn.done()
    held.storing.clear()
    held.go.clear()
    held.refuse = True
    refused = asyncio.ensure_future(tables.act(table, table.match.current_player,
                                               table.match.legal_actions()[0], "x"))
    await held.storing.wait()
    assert not table.settled.is_set()
    held.go.set()
    with pytest.raises(StoreTrouble):
        await refused
    assert table.settled.is_set() and table.seq == seq + 1  # undone, and settled again
