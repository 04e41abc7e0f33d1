"""/season schedule end to end through the Discord stand-in: staff choose a cadence in a channel,
the bot starts each season when its period begins and announces it there with the honours of
the one that ended (pinging nobody), an announcement owed at a stop goes out at the next start
and one sent just before a stop is not posted twice, a channel gone is told to staff, and a
season nobody played ends without a message. A season staff start whose answer Discord refuses
is announced the same way, in the channel the command was used in."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest

from bot.store import Store
from bot.store.seasons import next_start, period_start
from cogs.seasons import RETRY_SECONDS
from tests.e2e.community_data import embed, field, finish_quick, only_private
from tests.e2e.playing import reply_text
from tests.e2e.test_koikoi_bot import make_bot
from tests.e2e.test_start_safety import posts_a_message, watch_calls
from tests.e2e.test_table_safety import WAIT

pytestmark = pytest.mark.asyncio


def announcements(standin, channel) -> list:
    return [m for m in standin.channel_messages(channel)
            if m.embeds and m.embeds[0].get("title", "").startswith("🌸 ")]


def sends_of(standin, nonce: str) -> list:
    return [r for r in standin.requests if r.method == "POST" and isinstance(r.body, dict)
            and r.body.get("nonce") == nonce]


def month_after(now_ms: int) -> tuple[int, str]:
    """A minute into the month after ``now_ms``, and that month's English name."""
    begun = next_start("monthly", now_ms)
    return begun + 60_000, datetime.fromtimestamp(begun / 1000, tz=UTC).strftime("%B %Y")


async def test_staff_schedule_seasons_and_the_bot_starts_and_announces_each(start_bot, standin, world,
                                                                           tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    store, guild, cog = bot.store, world.guild.id, bot.get_cog("SeasonCog")
    alice, bob = world.admin, world.player
    await finish_quick(store, guild, "koikoi", [alice.id, bob.id], ["won", "lost"])

    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    assert {o["name"] for o in commands["season"]["options"]} == {"start", "schedule", "list"}
    refused = await bob.slash(world.channel, "season schedule", every="monthly")
    assert only_private(refused) and "Manage Server" in reply_text(refused)
    assert await store.season_schedule(guild) is None
    listed = await bob.slash(world.channel, "season list")
    assert "every month with" in reply_text(listed)

    # the clock stands a minute into next month: setting the schedule wakes it, and the month
    # that began after it was set starts a season of its name; Discord fails the first post
    await asyncio.wait_for(cog.watch.looked.wait(), WAIT)  # the look at the start has found nothing
    cog.watch.looked.clear()
    later, month = month_after(int(time.time() * 1000))
    cog.clock = lambda: later / 1000
    fault = standin.fail_next("POST /channels/{channel_id}/messages", status=503,
                              channel_id=world.channel.id, where=lambda call: "🌸" in str(call.body))
    answer = await alice.slash(world.channel, "season schedule", every="monthly")
    assert only_private(answer)
    assert "1st of every month at 00:00 UTC" in reply_text(answer)
    assert f"<#{world.channel.id}>" in reply_text(answer)
    await asyncio.wait_for(cog.watch.looked.wait(), WAIT)
    assert fault.remaining == 0 and not announcements(standin, world.channel)
    assert (await store.season_schedule(guild)).owed == 1  # still owed: tried again a minute on
    assert await cog.run_schedules() > RETRY_SECONDS  # posted now: next, the next midnight
    [posted] = announcements(standin, world.channel)
    assert embed(posted)["title"] == f"🌸 Season 1: {month}"
    honours = field(posted, "The honours of Before the first season").split("\n")
    assert honours[0] == f"🥇 <@{alice.id}> · 1 win"
    assert "season.png" in posted.files
    tries = sends_of(standin, f"hfs{guild:x}.1")
    assert [r.status for r in tries] == [503, 200]
    assert all(r.body["allowed_mentions"] == {"parse": []} for r in tries)  # named, never pinged
    [season] = await store.seasons(guild)
    assert (season.name, season.started_by) == (month, 0)
    assert (await store.season_schedule(guild)).owed is None

    # a second look in the same month starts and posts nothing more
    await cog.run_schedules()
    assert len(await store.seasons(guild)) == 1 and len(announcements(standin, world.channel)) == 1

    page = (await bob.slash(world.channel, "season list")).original
    text = embed(page)["description"]
    assert f"**Season 1: {month}**" in text and "started by the schedule" in text
    assert "🗓️ A new season starts on the 1st of every month at 00:00 UTC" in text
    assert f"<t:{next_start('monthly', later) // 1000}:R>" in text

    settings = (await alice.slash(world.channel, "settings show")).original
    assert field(settings, "Seasons").startswith("A new season starts on the 1st of every month")

    off = await alice.slash(world.channel, "season schedule", every="off")
    assert "no longer start by themselves" in reply_text(off)
    cog.clock = lambda: (next_start("monthly", later) + 60_000) / 1000
    await cog.run_schedules()
    assert len(await store.seasons(guild)) == 1
    page = (await bob.slash(world.channel, "season list")).original
    assert "🗓️" not in embed(page)["description"]
    settings = (await alice.slash(world.channel, "settings show")).original
    assert field(settings, "Seasons").startswith("Started by staff with")


async def test_an_announcement_owed_at_a_stop_goes_out_once_at_the_next_start(start_bot, standin, world,
                                                                             tmp_path):
    db, guild = tmp_path / "bot.sqlite3", world.guild.id
    alice, bob = world.admin, world.player
    first = await start_bot(make_bot(standin, db, guild))
    # a game of the season that ends (shown already: the next start owes its end nothing)
    await first.store.mark_final_shown(
        await finish_quick(first.store, guild, "koikoi", [alice.id, bob.id], ["won", "lost"]))
    await first.store.set_season_schedule(guild, "weekly", world.channel.id)
    noted = asyncio.Event()

    async def stop_before_noting(*args, **kwargs):  # the process stops here
        noted.set()
        await asyncio.Event().wait()

    first.store.season_announced = stop_before_noting
    week = next_start("weekly", int(time.time() * 1000)) + 60_000
    first.get_cog("SeasonCog").clock = lambda: week / 1000
    running = asyncio.create_task(first.get_cog("SeasonCog").run_schedules())
    await asyncio.wait_for(noted.wait(), WAIT)
    running.cancel()
    await first.close()
    [posted] = announcements(standin, world.channel)
    day = datetime.fromtimestamp(period_start("weekly", week) / 1000, tz=UTC)
    assert embed(posted)["title"] == f"🌸 Season 1: Week of {day:%b} {day.day}, {day.year}"

    # the store never heard it went out: the next start sends it again, and Discord keeps the
    # first message for its nonce
    second = await start_bot(make_bot(standin, db, guild))
    await asyncio.wait_for(second.get_cog("SeasonCog").watch.looked.wait(), WAIT)  # its first look
    await second.close()
    assert len(sends_of(standin, f"hfs{guild:x}.1")) == 2
    assert announcements(standin, world.channel) == [posted]
    store = await Store.open(db)
    try:
        assert (await store.season_schedule(guild)).owed is None
        # a season started while no bot ran is announced by the next one to start
        await store.mark_final_shown(
            await finish_quick(store, guild, "koikoi", [bob.id, alice.id], ["won", "lost"]))
        later = next_start("weekly", week) + 60_000
        assert (await store.start_scheduled_season(guild, "Week two", later)).season == 2
    finally:
        await store.close()
    await start_bot(make_bot(standin, db, guild))
    await standin.wait_until(lambda: len(announcements(standin, world.channel)) == 2,
                             "the second season's announcement", timeout=WAIT)
    assert embed(announcements(standin, world.channel)[1])["title"] == "🌸 Season 2: Week two"


async def test_a_channel_gone_is_told_to_staff_and_an_unplayed_season_ends_quietly(start_bot, standin,
                                                                                  world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    store, guild, cog = bot.store, world.guild.id, bot.get_cog("SeasonCog")
    alice, bob = world.admin, world.player
    gone = 9_123_456_789  # no channel of Discord's
    await store.set_season_schedule(guild, "monthly", gone)
    later, month = month_after(int(time.time() * 1000))
    cog.clock = lambda: later / 1000

    # nobody played before it: the season starts, and no message tells the channel so
    await cog.run_schedules()
    assert [s.name for s in await store.seasons(guild)] == [month]
    assert (await store.season_schedule(guild)).owed is None
    assert not [r for r in standin.requests if r.path.endswith(f"/channels/{gone}/messages")]

    # a played season's announcement to a channel that is gone: refused for good, noted
    await finish_quick(store, guild, "koikoi", [alice.id, bob.id], ["won", "lost"])
    next_month = next_start("monthly", later) + 60_000
    cog.clock = lambda: next_month / 1000
    await cog.run_schedules()
    tried = [r for r in standin.requests if r.path.endswith(f"/channels/{gone}/messages")]
    assert len(tried) == 1 and len(await store.seasons(guild)) == 2
    plan = await store.season_schedule(guild)
    assert (plan.owed, plan.undelivered) == (None, 2)
    await cog.run_schedules()  # not tried again
    assert len([r for r in standin.requests if r.path.endswith(f"/channels/{gone}/messages")]) == 1
    page = (await bob.slash(world.channel, "season list")).original
    assert (f"⚠️ The announcement of Season 2: {datetime.fromtimestamp(next_month / 1000, tz=UTC):%B %Y} "
            f"could not be posted in <#{gone}>") in embed(page)["description"]

    # a Japanese server's seasons are named in Japanese; setting the schedule wakes the bot
    await finish_quick(store, guild, "koikoi", [alice.id, bob.id], ["won", "lost"])
    await store.update_settings(guild, language="ja")
    third = next_start("monthly", next_month) + 60_000
    cog.clock = lambda: third / 1000
    await alice.slash(world.channel, "season schedule", every="monthly")
    begun = datetime.fromtimestamp(period_start("monthly", third) / 1000, tz=UTC)
    [posted] = await standin.wait_until(lambda: announcements(standin, world.channel),
                                        "the announcement in Japanese", timeout=WAIT)
    assert f"{begun.year}年{begun.month}月" in embed(posted)["title"]


@pytest.mark.usefixtures("no_late_acks")
async def test_a_season_whose_answer_was_refused_is_announced_where_staff_started_it(
        start_bot, standin, world, tmp_path):
    """The answer of ``/season start`` is its announcement: when Discord refuses it (the token
    gone) the season has begun unseen, so the bot owes the channel the announcement, even with
    nobody's honours to tell and a schedule announcing elsewhere, which it leaves as it was."""
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    store, guild, cog = bot.store, world.guild.id, bot.get_cog("SeasonCog")
    elsewhere = standin.create_channel(world.guild, "seasons")
    await store.set_season_schedule(guild, "weekly", elsewhere.id)
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               status=404, where=posts_a_message)
    await world.admin.slash(world.channel, "season start", name="Spring")
    assert standin.take_violations("no-ack")  # what Discord showed staff in its place
    [posted] = await standin.wait_until(lambda: announcements(standin, world.channel),
                                        "the announcement, posted by the bot", timeout=WAIT)
    assert answer.remaining == 0
    assert embed(posted)["title"] == "🌸 Season 1: Spring" and not posted.components
    [sent] = sends_of(standin, f"hfs{guild:x}.1")
    assert sent.body["allowed_mentions"] == {"parse": []}
    assert not announcements(standin, elsewhere)
    assert [s.name for s in await store.seasons(guild)] == ["Spring"]
    await standin.wait_until(lambda: cog.watch.looked.is_set(), "the look that posted it", timeout=WAIT)
    plan = await store.season_schedule(guild)
    assert (plan.cadence, plan.channel_id, plan.owed, plan.owed_in) == ("weekly", elsewhere.id, None, None)
    await cog.run_schedules()  # owed no more: not posted twice
    assert len(announcements(standin, world.channel)) == 1


@pytest.mark.usefixtures("no_late_acks")
async def test_a_refused_answer_and_a_refused_post_leave_no_warning_of_the_schedule(
        start_bot, standin, world, tmp_path, monkeypatch):
    """The channel refuses the owed announcement for good too: it is owed no more, and with no
    schedule to warn about ``/season list`` shows none."""
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    store, guild = bot.store, world.guild.id
    noted = watch_calls(monkeypatch, store, "season_announced")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               status=404, where=posts_a_message)
    post = standin.fail_next("POST /channels/{channel_id}/messages", status=403,
                             channel_id=world.channel.id, where=lambda call: "🌸" in str(call.body))
    await world.admin.slash(world.channel, "season start", name="Spring")
    assert standin.take_violations("no-ack")  # what Discord showed staff in its place
    await asyncio.wait_for(noted.wait(), WAIT)
    assert answer.remaining == 0 and post.remaining == 0
    assert not announcements(standin, world.channel)
    plan = await store.season_schedule(guild)
    assert (plan.cadence, plan.owed, plan.owed_in, plan.undelivered) == (None, None, None, None)
    page = (await world.player.slash(world.channel, "season list")).original
    text = embed(page)["description"]
    assert "**Season 1: Spring**" in text and "⚠️" not in text and "🗓️" not in text
