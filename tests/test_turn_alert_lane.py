"""Turn alerts queued faster than they go out collapse into the newest one."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from bot.discord_ui.publisher import Marks, TablePublisher, Via
from bot.games import game_module
from bot.tables import Table

pytestmark = pytest.mark.asyncio
ids = itertools.count(1000)


@dataclass
class Sent:
    channel: Channel
    id: int = field(default_factory=lambda: next(ids))
    content: str = ""


@dataclass
class Channel:
    id: int
    log: list

    async def send(self, content: str, allowed_mentions, nonce: str | None = None) -> Sent:
        assert nonce is not None and len(nonce) <= 25  # an alert sent again is kept once
        msg = Sent(self, content=content)
        self.log.append(("send", self.id, content, allowed_mentions))
        return msg

    def get_partial_message(self, message_id: int) -> Deleted:
        return Deleted(self, message_id)


@dataclass
class Deleted:
    channel: Channel
    id: int

    async def delete(self) -> None:
        self.channel.log.append(("delete", self.channel.id, self.id, None))


class Http:
    def __init__(self, log: list) -> None:
        self.log = log

    async def start_private_message(self, user_id: int) -> dict:
        self.log.append(("open", user_id, None, None))
        return {"id": 900 + user_id}


class Bot:
    """Only what the alert lane touches: channels by id that record sends and deletes."""

    def __init__(self) -> None:
        self.log: list = []
        self.http = Http(self.log)

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return Channel(channel_id, self.log)


def two_humans() -> Table:
    module = game_module("koikoi")
    match = module.new_match(2, module.Rules(teyaku="off"), seed=5)
    table = Table(game_id=7, guild_id=1, channel_id=2, game="koikoi", players=[11, 12],
                  names=["A", "B"], host_id=11, stake=0, match=match)
    table.turn_seat = match.current_player
    return table


def shown_by(publisher: TablePublisher, table: Table) -> Marks:
    marks = publisher.marks(table)
    marks.table = [2, 3]
    marks.hands = {0: [100, 1], 1: [200, 2]}  # both hands are DMs already
    return marks


async def test_alerts_queued_before_one_went_out_send_only_the_newest():
    bot = Bot()
    publisher = TablePublisher(bot)
    table = two_humans()
    marks = shown_by(publisher, table)
    first = table.match.current_player
    publisher._queue_turn_alert(table)
    # the turn passes twice before the lane runs: the first player moves, then the second
    for _ in range(2):
        mover = table.match.current_player
        while table.match.current_player == mover:
            table.match.apply(table.match.legal_actions()[0], mover)
            table.seq += 1
        table.turn_since, table.turn_seat = table.seq, table.match.current_player
        publisher._queue_turn_alert(table)
    await publisher.drain()
    assert table.match.current_player == first
    sends = [entry for entry in bot.log if entry[0] == "send"]
    assert len(sends) == 1 and not [e for e in bot.log if e[0] == "delete"]
    channel = marks.hands[first][0]
    assert sends[0][1] == channel and sends[0][2].startswith("Your turn in <#2>")
    assert marks.alert["seat"] == first and marks.alert["since"] == table.seq


async def test_the_end_deletes_the_last_alert():
    bot = Bot()
    publisher = TablePublisher(bot)
    table = two_humans()
    marks = shown_by(publisher, table)
    publisher._queue_turn_alert(table)
    await publisher.drain()
    alert = marks.alert
    table.finished = True
    publisher._queue_turn_alert(table)
    await publisher.drain()
    assert bot.log[-1][:3] == ("delete", alert["channel"], alert["message"]) and marks.alert is None


async def test_no_alert_for_a_turn_the_player_already_pressed_in():
    """An alert that waited in the lane while the player pressed a move of that very turn is not
    sent: they are at the table, and their move is on its way."""
    bot = Bot()
    publisher = TablePublisher(bot)
    publisher.looking_seconds = 0.0  # the minute of looking aside: only the press of this turn counts
    table = two_humans()
    shown_by(publisher, table)
    seat = table.match.current_player
    table.turn_since = table.seq
    pressed = Via(SimpleNamespace(id=1, user_id=5), None)  # its token edits nothing here
    publisher.pressed(table, seat, pressed)
    publisher._queue_turn_alert(table)
    await publisher.drain()
    assert [entry for entry in bot.log if entry[0] == "send"] == []
    table.seq += 2  # the turn came back to them later: that one is alerted
    table.turn_since = table.seq
    publisher._queue_turn_alert(table)
    await publisher.drain()
    assert [entry[0] for entry in bot.log] == ["send"]


async def test_a_table_let_go_to_another_process_is_not_alerted_from_here():
    """Once another process drives the table, an alert still queued here sends nothing, and
    what this process kept of the table goes."""
    bot = Bot()
    publisher = TablePublisher(bot)
    table = two_humans()
    shown_by(publisher, table)
    table.turn_since = table.seq
    publisher._queue_turn_alert(table)
    publisher.let_go(table)
    await publisher.drain()
    assert bot.log == [] and table.game_id not in publisher._feeds
