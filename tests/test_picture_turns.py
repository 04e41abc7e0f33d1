"""Table pictures take turns; a table's request to Discord does not hold the turn."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest
import yarl

from bot.discord_ui.delivery import RestBudget
from bot.discord_ui.publisher import TablePublisher
from bot.games import game_module
from bot.tables import Table

pytestmark = pytest.mark.asyncio


class Channel:
    """Table messages whose edits wait for Discord's answer until the test lets them have it."""

    def __init__(self, bot: Bot, channel_id: int) -> None:
        self.bot, self.id = bot, channel_id

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self, message_id)


class Message:
    def __init__(self, channel: Channel, message_id: int) -> None:
        self.channel, self.id = channel, message_id

    async def edit(self, **fields) -> SimpleNamespace:
        bot = self.channel.bot
        await bot.http.request(discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                                  channel_id=self.channel.id, message_id=self.id))
        return SimpleNamespace(id=self.id, attachments=[])


class HTTP:
    """discord.py's HTTP client as far as the budget goes: paced by it, and a table's edit
    waits for Discord's answer when it is the slow table's."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def request(self, route: discord.http.Route, **kwargs) -> None:
        await self.bot.rest_budget._before_request(None, None, SimpleNamespace(url=yarl.URL(route.url)))
        channel_id = route.channel_id
        self.bot.edits.append(channel_id)
        self.bot.edited.set()
        if channel_id == self.bot.slow:
            await self.bot.answer.wait()


class Pictures:
    """A render pool whose pictures are ready at once."""

    processes = 2

    async def run(self, draw, *args) -> bytes:
        return b"picture"


class Bot:
    """One channel per table, whose edit of the table ``slow`` waits for :attr:`answer`."""

    def __init__(self, slow: int) -> None:
        self.edits: list[int] = []
        self.edited = asyncio.Event()
        self.answer = asyncio.Event()
        self.slow = slow
        self.render_pool = Pictures()
        self.rest_budget = RestBudget()
        self.http = HTTP(self)
        self.rest_budget.pace(self.http)

    def get_guild(self, guild_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return Channel(self, channel_id)


def table_in(channel_id: int) -> Table:
    module = game_module("koikoi")
    match = module.new_match(2, module.Rules(), seed=channel_id)
    return Table(game_id=channel_id, guild_id=1, channel_id=channel_id, game="koikoi",
                 players=[11, 0], names=["A", "AI"], host_id=11, stake=0, match=match)


async def test_a_table_waiting_for_discords_answer_lets_the_next_table_draw():
    """With one turn, a second table is drawn and sent while the first table's edit is still
    out: a slow round trip to Discord would otherwise hold up every table behind it."""
    bot = Bot(slow=1)
    publisher = TablePublisher(bot)
    publisher._updates.gate = 1
    tables = [table_in(1), table_in(2)]
    for table in tables:
        publisher.marks(table).table = [table.channel_id, 50 + table.channel_id]
        publisher._mark_table(table)

    async def both_sent() -> None:
        while bot.edits != [1, 2]:
            bot.edited.clear()
            await bot.edited.wait()

    # The second table's edit goes out before the first's answer (a bound, not a pause: a turn
    # held through the answer would never let it go).
    await asyncio.wait_for(both_sent(), timeout=60)
    bot.answer.set()
    await publisher.drain()
    assert bot.edits == [1, 2] and publisher._updates.pending() == 0


async def test_tables_have_one_turn_per_render_worker_and_one_fewer_while_a_drawing_waits():
    bot = Bot(slow=0)
    publisher = TablePublisher(bot)
    bot.render_pool.waiting = 0
    assert publisher._updates.gate == 2
    bot.render_pool.waiting = 1  # a hand waits for a worker: it gets the next one free
    assert publisher._updates.gate == 1
    bot.render_pool.processes = 1
    assert publisher._updates.gate == 1  # one worker: the tables keep their one turn

