"""Reminders of the deal of the day in the store: asked for from the next day on, due from their
hour (20:00 UTC unless chosen) while the member has started none of the server's deals that day, each day's done once
(sent, or refused for good, which stops them until asked again), stopped by their key only by
their member, and part of what /privacy shows, exports and forgets."""

from __future__ import annotations

import pytest

from bot.store import InvalidInput
from bot.store.daily import DAY_MS

from .conftest import ALICE, BOB, GUILD
from .test_daily_deals import finish, start_entry

pytestmark = pytest.mark.asyncio

HOUR = 3600


def to_hour(clock, hour: int) -> None:
    """Move the clock forward to the next ``hour``:00 UTC."""
    seconds = (hour * HOUR - clock.now % (DAY_MS / 1000)) % (DAY_MS / 1000)
    clock.advance(seconds or DAY_MS / 1000)


async def test_a_reminder_is_due_at_eight_on_days_not_played_and_done_once(store, clock):
    asked = await store.set_daily_reminder(GUILD, ALICE, True)
    assert asked.reminded_day == store.daily_deal_day() and len(asked.key) == 16
    await store.set_daily_reminder(GUILD, BOB, True)
    assert await store.due_daily_reminders() == []  # from tomorrow on
    to_hour(clock, 19)
    assert await store.due_daily_reminders() == []  # not before 20:00
    _, game = await start_entry(store, BOB)  # bob plays today's deal: nothing to remind him of
    to_hour(clock, 20)
    [due] = await store.due_daily_reminders()
    assert (due.guild_id, due.user_id, due.key, due.run) == (GUILD, ALICE, asked.key, 0)
    today = store.daily_deal_day()
    await store.daily_reminded(GUILD, ALICE, today, delivered=True)
    assert await store.due_daily_reminders() == []  # once a day
    await store.daily_reminded(GUILD, ALICE, today, delivered=False)  # a late note changes nothing
    assert (await store.daily_reminder(GUILD, ALICE)).refused_day is None

    await finish(store, game.game_id, 3, 0)
    to_hour(clock, 20)  # the next day: bob's run of one day is at stake
    assert [(r.user_id, r.run) for r in await store.due_daily_reminders()] == [(ALICE, 0), (BOB, 1)]


async def test_a_reminder_comes_at_the_hour_its_member_chose(store, clock):
    early = await store.set_daily_reminder(GUILD, ALICE, True, hour=0)  # as the deals are dealt
    await store.set_daily_reminder(GUILD, BOB, True, hour=9)
    assert early.hour == 0
    to_hour(clock, 0)
    assert [r.user_id for r in await store.due_daily_reminders()] == [ALICE]
    to_hour(clock, 9)
    assert [r.user_id for r in await store.due_daily_reminders()] == [ALICE, BOB]
    moved = await store.set_daily_reminder(GUILD, BOB, True, hour=23)  # asked again: a new hour
    assert moved.hour == 23 and [r.user_id for r in await store.due_daily_reminders()] == [ALICE]
    for hour in (24, -1, "9"):
        with pytest.raises(InvalidInput):
            await store.set_daily_reminder(GUILD, ALICE, True, hour=hour)


async def test_a_refusal_stops_them_until_the_member_asks_again(store, clock):
    await store.set_daily_reminder(GUILD, ALICE, True)
    to_hour(clock, 21)
    await store.daily_reminded(GUILD, ALICE, store.daily_deal_day(), delivered=False)
    clock.advance(DAY_MS / 1000)
    assert await store.due_daily_reminders() == []  # DMs closed: not tried every day
    again = await store.set_daily_reminder(GUILD, ALICE, True)
    assert again.refused_day is None and again.reminded_day == store.daily_deal_day()
    clock.advance(DAY_MS / 1000)
    assert [r.user_id for r in await store.due_daily_reminders()] == [ALICE]


async def test_stop_takes_the_key_and_its_member_only(store, clock):
    mine = await store.set_daily_reminder(GUILD, ALICE, True)
    assert (await store.set_daily_reminder(GUILD, ALICE, True)).key == mine.key  # asked again: kept
    assert not await store.stop_daily_reminder(mine.key, BOB)  # another member's press
    assert await store.daily_reminder(GUILD, ALICE) is not None
    assert await store.stop_daily_reminder(mine.key, ALICE)
    assert await store.daily_reminder(GUILD, ALICE) is None
    assert not await store.stop_daily_reminder(mine.key, ALICE)  # pressed twice
    assert await store.set_daily_reminder(GUILD, BOB, True) is not None
    assert await store.set_daily_reminder(GUILD, BOB, False) is None
    assert await store.daily_reminder(GUILD, BOB) is None


async def test_privacy_shows_exports_and_forgets_a_reminder(store, clock):
    await store.set_daily_reminder(GUILD, ALICE, True)
    data = await store.member_data(GUILD, ALICE)
    assert data.reminded and data.stored_here  # a reminder alone holds the member's id
    exported = await store.export_member(GUILD, ALICE)
    assert exported["deal_reminder"]["last_day"] == store.daily_deal_day()
    assert await store.forget_member(GUILD, ALICE, names=["alice"]) is not None
    assert await store.daily_reminder(GUILD, ALICE) is None
    assert not (await store.member_data(GUILD, ALICE)).stored_here
