"""Tournaments through the stand-in: sign-up with fees, a Swiss tournament of 8 (humans and AI)
and a single-elimination one played to the end through a restart in the middle, standings
posted after every round, the ledger balancing to the chip. Humans who never press lose by the
turn timeout (three timeouts forfeit); the AI plays its own tables."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from datetime import UTC, datetime

import pytest

from bot.store import EVERY_SERVER
from bot.tables import TableManager
from cogs.tournaments import WEEKDAYS
from tests.e2e.playing import answer_fault, reply_text
from tests.e2e.test_start_safety import (
    CALLED_OFF,
    cid,
    make_bot,
    posts_a_message,
    private,
    updates_a_message,
    watch_calls,
)

pytestmark = pytest.mark.asyncio


def is_tournament_table(message) -> bool:
    """A tournament's table: its headline names the tournament, the round and the table."""
    return "table.png" in message.files and any(
        line.startswith("Tournament #") for line in message.text().splitlines())


@pytest.fixture(autouse=True)
def fast_tables(monkeypatch):
    """Class attributes, so the tables a restarted bot resumes are fast from their first move."""
    monkeypatch.setattr(TableManager, "ai_delay", 0.0)
    monkeypatch.setattr(TableManager, "timeout_override", 0.05)


def tournament_message(standin, channel):
    return next(m for m in standin.messages.values()
                if m.channel is channel and m.embeds and "🏆" in m.embeds[0].get("title", ""))


def standings(standin, channel) -> list:
    return [m for m in standin.messages.values() if m.channel is channel and m.attachments
            and m.embeds and "standings" in m.embeds[0].get("description", "")]


def results_stored(db) -> int:
    """Pairings with a stored result, read from the bot's database file as it is now."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return conn.execute("SELECT count(*) FROM tournament_pairings "
                            "WHERE status = 'done'").fetchone()[0]


async def rounds_announced(standin, channel, db, count: int, rounds: int,
                           tables_per_round: int) -> list:
    """Wait for the standings of the first ``count`` of ``rounds`` rounds, one stored result at a
    time, then the round's standings (each a wait of its own, so a slow machine makes each step
    slower, not too late). A restart may post a round's standings twice, never none."""
    for n in range(1, count + 1):
        for done in range(tables_per_round * (n - 1) + 1, tables_per_round * n + 1):
            await standin.wait_for(lambda done=done: results_stored(db) >= done,
                                   f"{done} tournament results stored")
        said = "final standings" if n == rounds else f"after round {n} of {rounds}"
        await standin.wait_for(lambda said=said: any(said in m.embeds[0]["description"]
                                                     for m in standings(standin, channel)),
                               f"the standings of round {n}")
    return standings(standin, channel)


async def sign_up(standin, world, fmt, ais, fee, more=()):
    record = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format=fmt, rounds=1, stake=fee)
    message = record.original
    assert not message.ephemeral and "Sign-up is open" in message.embeds[0]["description"]
    for user in (world.admin, world.player, world.shy, *more):
        await user.click(message, cid(message, "hf:tn:join:"))
    for level in ais:
        await world.admin.select(message, cid(message, "hf:tnai:"), [level])
    return standin.message(message)


async def test_swiss_of_eight_through_a_restart_pays_prizes_to_the_chip(start_bot, standin,
                                                                        world, tmp_path):
    db = tmp_path / "swiss.sqlite3"
    bot = await start_bot(make_bot(standin, db, world.guild.id))
    store, guild = bot.store, world.guild.id
    cog = bot.get_cog("TournamentCog")
    posted = []  # the standings posts, as the cog made them
    post = cog._post_standings

    async def noted(tour, ranking):
        posted.append((tour, ranking))
        return await post(tour, ranking)

    cog._post_standings = noted
    start = 1000  # the starting chips: each account opens when its owner signs up

    refused = await world.player.slash(world.channel, "tournament create", game="koikoi",
                                       format="swiss", rounds=1)
    assert private(refused) and "Manage Server" in reply_text(refused)
    # six members and two AI entrants: members who never press lose their games in three
    # timed-out turns, so the tournament takes seconds
    members = [standin.create_user(name) for name in ("dave", "erin", "frank")]
    for member in members:
        standin.add_member(world.guild, member)
    message = await sign_up(standin, world, "swiss", ["easy", "normal"], fee=60, more=members)
    again = await world.player.click(message, cid(message, "hf:tn:join:"))
    assert private(again) and "already signed up" in reply_text(again)
    early = await world.player.click(message, cid(message, "hf:tn:start:"))
    assert private(early) and "Manage Server" in reply_text(early)
    assert "8 of at most" in str(standin.message(message).embeds[0]["fields"])
    [tid] = [t for t, _ in await store.live_tournaments()]
    assert (await store.tournament(tid, scope=EVERY_SERVER)).pot == 360

    await world.admin.click(message, cid(message, "hf:tn:start:"))
    # round 1 is played; its standings (picture and text) come once every table has ended
    first = await rounds_announced(standin, world.channel, db, 1, 3, tables_per_round=4)
    assert "after round 1 of 3" in first[0].embeds[0]["description"]
    assert first[0].attachments[0].filename == "standings.png"
    # posted again, as after a stop before the store noted it: Discord keeps the first
    await post(*posted[0])
    assert len(standings(standin, world.channel)) == 1
    await bot.close()  # round 2 is being paired or played: the restart comes in the middle

    bot = await start_bot(make_bot(standin, db, world.guild.id))
    store = bot.store
    final = [m for m in await rounds_announced(standin, world.channel, db, 3, 3, tables_per_round=4)
             if "final standings" in m.embeds[0]["description"]]
    # then the prizes are paid and the tournament's message says who won
    await standin.wait_for(lambda: "won" in standin.message(message).embeds[0]["description"],
                           "the tournament message showing the winner")
    tour = await store.tournament(tid, scope=EVERY_SERVER)
    assert tour.status == "finished" and sorted(tour.round_status) == [1, 2, 3]
    for r in (1, 2, 3):  # everyone still in played once a round, nobody met anyone twice
        seated = [s for p in tour.round_pairings(r) for s in (p.a, p.b) if s is not None]
        assert sorted(seated) == tour.active_seeds
    met = [frozenset((p.a, p.b)) for p in tour.pairings if p.b is not None]
    assert len(met) == len(set(met))
    prizes = sorted((e.prize for e in tour.entrants), reverse=True)
    assert prizes[:3] == [216, 108, 36] and sum(prizes) == 360
    assert "Winner:" in final[0].embeds[0]["description"]
    moved = await store.tournament_ledger(tid)
    paid_to_humans = sum(e.prize for e in tour.entrants if e.user_id is not None)
    assert moved["stake"] == 360 and moved.get("payout", 0) == paid_to_humans
    for e in tour.entrants:
        if e.user_id is not None:
            assert await store.balance(guild, e.user_id) == start - 60 + e.prize
    assert (await store.audit()).ok
    assert not standin.message(message).components  # over: no buttons left


async def test_elimination_with_drops_through_a_restart_and_a_cancel(start_bot, standin, world,
                                                                    tmp_path, monkeypatch):
    """Staff drop both humans (their games forfeited), one before and one after a restart, so
    the two AI entrants play the final on their own; a second tournament is cancelled."""
    monkeypatch.setattr(TableManager, "timeout_override", 3600.0)  # humans leave only by a drop
    db = tmp_path / "elim.sqlite3"
    bot = await start_bot(make_bot(standin, db, world.guild.id))
    store, guild = bot.store, world.guild.id
    # a dealt-hand yaku would end a human's one-round game at the deal, before staff drop them
    await store.set_house_rules(guild, "koikoi", {"teyaku": "off"})
    message = await sign_up(standin, world, "single_elimination", ["normal", "easy"], fee=40)
    await world.shy.click(message, cid(message, "hf:tn:leave:"))  # before the start: refunded
    await standin.wait_for(lambda: "carol" not in entrants_field(standin.message(message)),
                           "the tournament message without carol")
    assert await store.balance(guild, world.shy.id) == 1000
    [tid] = [t for t, _ in await store.live_tournaments()]
    await world.admin.click(message, cid(message, "hf:tn:start:"))
    tables = await standin.wait_for(lambda: len([m for m in standin.messages.values()
                                                 if is_tournament_table(m)]) == 2,
                                    "the two tables of round 1")
    assert tables
    tour = await store.tournament(tid, scope=EVERY_SERVER)
    bob = next(e for e in tour.entrants if e.user_id == world.player.id)
    message = standin.message(message)
    dropped = await world.admin.select(message, cid(message, "hf:tndrop:"), [str(bob.entrant)])
    assert private(dropped) and "out of the tournament" in reply_text(dropped)
    await bot.close()

    bot = await start_bot(make_bot(standin, db, world.guild.id))
    store = bot.store
    tour = await store.tournament(tid, scope=EVERY_SERVER)
    alice = next(e for e in tour.entrants if e.user_id == world.admin.id)
    message = standin.message(message)
    await world.admin.select(message, cid(message, "hf:tndrop:"), [str(alice.entrant)])
    final = await standin.wait_for(
        lambda: [m for m in standings(standin, world.channel)
                 if "final standings" in m.embeds[0]["description"]], "the final standings")
    await standin.wait_for(lambda: "won" in standin.message(message).embeds[0]["description"],
                           "the tournament message showing the winner")
    tour = await store.tournament(tid, scope=EVERY_SERVER)
    assert tour.status == "finished" and tour.rounds == 2
    champion = next(e for e in tour.entrants if e.place == 1)
    assert champion.ai_level is not None and champion.prize == 80  # winner takes all: 2 fees
    assert {e.status for e in tour.entrants if e.user_id in (world.admin.id, world.player.id)} \
        == {"dropped"}
    assert [p.b for p in tour.round_pairings(2)] != [None]  # the final was played by the AIs
    assert "Winner:" in final[0].embeds[0]["description"]
    moved = await store.tournament_ledger(tid)
    assert (moved["stake"], moved["refund"], moved.get("payout", 0)) == (120, 40, 0)
    assert (await store.audit()).ok

    # a second one, cancelled before it ends: every fee comes back
    again = await sign_up(standin, world, "round_robin", [], fee=25)
    users = (world.admin, world.player, world.shy)
    balances = {u.id: await store.balance(guild, u.id) for u in users}
    await world.admin.click(again, cid(again, "hf:tn:cancel:"))
    await standin.wait_for(lambda: "Cancelled" in standin.message(again).embeds[0]["description"],
                           "the cancelled tournament")
    for user in users:
        assert await store.balance(guild, user.id) == balances[user.id] + 25
    assert (await store.audit()).ok


def entrants_field(message) -> str:
    return next(f["value"] for f in message.embeds[0]["fields"] if f["name"].startswith("Entrants"))


async def test_a_member_withdraws_from_anywhere_even_after_leaving_the_server(
        start_bot, standin, world, tmp_path, monkeypatch):
    """Joining brings a DM with a Leave button (privately here when DMs are closed); Leave works
    from that DM, and /tournament leave from a DM after leaving the server: the fee comes back
    before the start. Once it runs, Leave takes the member out of the pairings, their game
    forfeited and their fee left in the pot; the ledger balances throughout."""
    monkeypatch.setattr(TableManager, "timeout_override", 3600.0)  # humans leave only by Leave
    bot = await start_bot(make_bot(standin, tmp_path / "leave.sqlite3", world.guild.id))
    store, guild = bot.store, world.guild.id
    # a dealt-hand yaku could end her one-round game, and her part in it, before she leaves
    await store.set_house_rules(guild, "koikoi", {"teyaku": "off"})
    [command] = [c for c in standin.registered_commands(world.guild) if c["name"] == "tournament"]
    assert 1 in command["contexts"] and "leave" in [o["name"] for o in command["options"]]
    erin = standin.create_user("erin")
    standin.add_member(world.guild, erin)
    record = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format="single_elimination", rounds=1, stake=30)
    message = record.original
    [tid] = [t for t, _ in await store.live_tournaments()]

    await world.player.click(message, cid(message, "hf:tn:join:"))
    note = await standin.wait_for(
        lambda: next((m for m in standin.dms(world.player) if f"hf:tn:leave:{tid}" in
                      m.custom_ids()), None), "the DM with a Leave button")
    assert f"tournament #{tid} on Hanafuda Club" in note.content and "30" in note.content
    # /tournament leave is named plainly: this bot published its commands to its server alone,
    # and the note is a DM, where only a global command's link works
    assert "use `/tournament leave`, from anywhere" in note.content
    assert await store.balance(guild, world.player.id) == 970
    left = await world.player.click(note, f"hf:tn:leave:{tid}")  # from the DM
    assert private(left) and "entry fee of 30 was refunded" in reply_text(left)
    assert await store.balance(guild, world.player.id) == 1000
    await standin.wait_for(lambda: "bob" not in entrants_field(standin.message(message)),
                           "the tournament message without bob")

    joined = await world.shy.click(message, cid(message, "hf:tn:join:"))  # her DMs are closed
    told = await standin.wait_for(lambda: joined.followups and joined.followups[0],
                                  "the Leave button told privately", channels=[world.channel])
    assert told.ephemeral and f"hf:tn:leave:{tid}" in told.custom_ids()
    await erin.click(message, cid(message, "hf:tn:join:"))
    standin.remove_member(world.guild, erin)  # erin leaves the server, still signed up
    gone = await erin.slash(None, "tournament leave")  # from her DM: the only one she is in
    assert private(gone) and f"You left tournament #{tid}" in reply_text(gone)
    assert await store.balance(guild, erin.id) == 1000
    again = await erin.slash(None, "tournament leave", tournament=tid)
    assert private(again) and "You are not signed up" in reply_text(again)

    for user in (world.player, world.admin):
        await user.click(message, cid(message, "hf:tn:join:"))
    await world.admin.select(message, cid(message, "hf:tnai:"), ["easy"])
    await world.admin.click(message, cid(message, "hf:tn:start:"))
    await standin.wait_for(lambda: len([m for m in standin.messages.values()
                                        if is_tournament_table(m)]) == 2,
                           "the two tables of round 1")
    message = standin.message(message)
    # A round being opened holds the tournament's lock while its posts wait for the channel:
    # Leave is answered at once all the same, and withdraws once the lock is free.
    async with bot.get_cog("TournamentCog").lock(tid):
        out = await world.shy.click(message, cid(message, "hf:tn:leave:"))  # while it runs
        assert out.initial is not None and out.initial.type == 6
    await standin.wait_for(lambda: "fee of 30 stays in the prize pot" in reply_text(out),
                           "the withdrawal told privately", channels=[world.channel])
    tour = await store.tournament(tid, scope=EVERY_SERVER)
    shy = next(e for e in tour.entrants if e.user_id == world.shy.id)
    assert shy.status == "dropped" and tour.pot == 90
    assert await store.balance(guild, world.shy.id) == 970
    [pairing] = [p for p in tour.round_pairings(1) if shy.seed in (p.a, p.b)]
    await standin.wait_for(lambda: bot.tables.tables.get(pairing.game_id) is None
                           or bot.tables.tables[pairing.game_id].finished, "her table forfeited")
    assert (await store.audit()).ok


async def test_the_message_follows_its_tournament_through_a_stop_and_crossing_edits(
        start_bot, standin, world, tmp_path, monkeypatch):
    """A sign-up stored just before a stop, its edit never made, shows after the next start (the
    first redraw failing at Discord is tried again); a change stored while a press's edit was on
    its way is drawn once that edit has landed."""
    db = tmp_path / "follow.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    store, guild = first.store, world.guild.id
    remembered = asyncio.Event()
    remember = store.set_tournament_message

    async def noted(*args, **kwargs):
        try:
            return await remember(*args, **kwargs)
        finally:
            remembered.set()

    monkeypatch.setattr(store, "set_tournament_message", noted)
    message = (await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                       format="swiss", rounds=1)).original
    await asyncio.wait_for(remembered.wait(), standin.wait_timeout)
    tid = (await store.live_tournaments())[0][0]

    # Carol's sign-up is stored while the player's press is being drawn: the later draw shows it.
    mark = store.tournament_shown

    async def meanwhile(tournament_id, revision):
        if revision == 1:
            await store.join_tournament(tournament_id, guild, world.shy.id, "carol")
        return await mark(tournament_id, revision)

    monkeypatch.setattr(store, "tournament_shown", meanwhile)
    await world.player.click(message, cid(message, "hf:tn:join:"))
    await standin.wait_for(lambda: "carol" in standin.message(message).embeds[0]["fields"][-1]["value"],
                           "the sign-up stored meanwhile shown")
    monkeypatch.setattr(store, "tournament_shown", mark)

    # Dave's sign-up is stored, and the bot stops before its edit.
    dave = standin.create_user("dave")
    await store.join_tournament(tid, guild, dave.id, "dave")
    await first.close()
    assert "dave" not in standin.message(message).embeds[0]["fields"][-1]["value"]
    fault = standin.fail_next("PATCH /channels/{channel_id}/messages/{message_id}", status=503,
                              message_id=message.id)
    second = await start_bot(make_bot(standin, db, world.guild.id))
    await standin.wait_for(lambda: "dave" in standin.message(message).embeds[0]["fields"][-1]["value"],
                           "the sign-up stored before the stop shown")
    assert fault.remaining == 0 and "Entrants: 3" in standin.message(message).embeds[0]["fields"][-1]["name"]
    cog = second.get_cog("TournamentCog")
    await asyncio.wait_for(asyncio.gather(*cog._tasks), standin.wait_timeout)  # the redraws marked
    await asyncio.wait_for(cog._redraws.drain(), standin.wait_timeout)
    assert await second.store.unshown_tournaments() == []


async def test_standings_discord_did_not_take_are_posted_again(start_bot, standin, world, tmp_path):
    """Discord fails the final standings' post twice (a 503, which discord.py does not retry):
    the tournament posts them again shortly, once, and only then pays and finishes."""
    bot = await start_bot(make_bot(standin, tmp_path / "retry.sqlite3", world.guild.id))
    bot.get_cog("TournamentCog").retry_s = 0.05
    record = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format="single_elimination", rounds=1)
    message = record.original
    for level in ("easy", "normal"):
        await world.admin.select(message, cid(message, "hf:tnai:"), [level])
    fault = standin.fail_next("POST /channels/{channel_id}/messages", status=503, times=2,
                              channel_id=world.channel.id,
                              where=lambda call: "final standings" in str(call.body))
    await world.admin.click(standin.message(message), cid(message, "hf:tn:start:"))
    final = await standin.wait_for(
        lambda: [m for m in standings(standin, world.channel)
                 if "final standings" in m.embeds[0]["description"]], "the final standings")
    await standin.wait_for(lambda: "won" in standin.message(message).embeds[0]["description"],
                           "the tournament message showing the winner")
    assert fault.remaining == 0 and len(final) == 1
    refused = [r for r in standin.requests if r.method == "POST" and r.status == 503]
    assert len(refused) == 2


async def test_a_tournament_starts_by_itself_when_its_time_comes_even_after_a_restart(
        start_bot, standin, world, tmp_path):
    """Created to start "in 30 minutes": its message says when; at that time (the cog's clock
    moved on) the bot closes sign-up and plays it, though a restart came in between; one with
    fewer than two entrants by then is called off, its fee refunded."""
    db = tmp_path / "timed.sqlite3"
    bot = await start_bot(make_bot(standin, db, world.guild.id))
    store, guild = bot.store, world.guild.id
    before = int(time.time())
    record = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format="single_elimination", rounds=1, starts_in=30)
    message = record.original
    [(tid, _, starts_at)] = await store.timed_tournaments()
    assert before + 30 * 60 <= starts_at // 1000 <= int(time.time()) + 30 * 60
    assert f"starts by itself <t:{starts_at // 1000}:R>" in message.embeds[0]["description"]
    refused = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                      format="swiss", rounds=1, starts_in=7)
    assert private(refused) and "from the list" in reply_text(refused)
    await world.player.click(message, cid(message, "hf:tn:join:"))
    await world.admin.select(standin.message(message), cid(message, "hf:tnai:"), ["easy"])
    lonely = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format="swiss", rounds=1, stake=25, starts_in=60)
    await world.shy.click(lonely.original, cid(lonely.original, "hf:tn:join:"))
    assert await store.balance(guild, world.shy.id) == 1000 - 25
    await bot.close()

    bot = await start_bot(make_bot(standin, db, world.guild.id))
    cog = bot.get_cog("TournamentCog")
    assert await cog.start_due() <= 30 * 60  # nothing due yet: it sleeps until the first one
    assert (await bot.store.tournament(tid, scope=EVERY_SERVER)).status == "open"
    cog.clock = lambda: starts_at / 1000 + 1
    await cog.start_due()
    assert (await bot.store.tournament(tid, scope=EVERY_SERVER)).status == "running"
    await standin.wait_for(lambda: "Round 1 of 1" in standin.message(message).embeds[0]["description"],
                           "the tournament message showing its round")
    cog.clock = lambda: starts_at / 1000 + 31 * 60  # the second one's time too
    await cog.start_due()
    await standin.wait_for(lambda: "Cancelled" in standin.message(lonely.original).embeds[0]["description"],
                           "the lonely tournament called off")
    assert await bot.store.balance(guild, world.shy.id) == 1000  # refunded
    assert await bot.store.timed_tournaments() == []
    await standin.wait_for(lambda: "won" in standin.message(message).embeds[0]["description"],
                           "the timed tournament played to its end")


def signups(standin, channel) -> list:
    """The tournament messages of a channel (sign-up, then standings as it runs; no picture)."""
    return [m for m in standin.channel_messages(channel) if not m.attachments
            and m.embeds and "tournament #" in m.embeds[0].get("title", "")]


async def test_a_weekly_tournament_opens_posts_and_starts_by_itself(start_bot, standin, world, tmp_path):
    """Staff set a weekly tournament in a channel; when its sign-up time comes the bot opens
    that week's tournament and posts its sign-up (once, however often it looks), staff add two
    AI entrants, and at its start it is played; a week's tournament opened just before a stop,
    its message never posted, is posted by the next start; stopping ends them."""
    db = tmp_path / "weekly.sqlite3"
    bot = await start_bot(make_bot(standin, db, world.guild.id))
    cog, store = bot.get_cog("TournamentCog"), bot.store
    day = (datetime.now(UTC).weekday() + 2) % 7
    refused = await world.player.slash(world.channel, "tournament weekly", game="koikoi",
                                       format="single_elimination", rounds=1, day=day, hour=12)
    assert private(refused) and "Manage Server" in reply_text(refused)
    answer = await world.admin.slash(world.channel, "tournament weekly", game="koikoi",
                                     format="single_elimination", rounds=1, day=day, hour=12,
                                     signup=60)
    [plan] = await store.weekly_tournaments(world.guild.id)
    start = plan.next_start(int(time.time() * 1000))
    said = reply_text(answer)
    assert private(answer) and said.startswith(
        f"Every {WEEKDAYS[day]} at 12:00 UTC a Koi-Koi tournament starts here by itself, its "
        f"sign-up open from 1 hour before; the next starts <t:{start // 1000}:F>.")
    assert "weekly-stop" in said
    assert await cog.start_due() <= 3600 and signups(standin, world.channel) == []  # not yet

    cog.clock = lambda: (start - 30 * 60_000) / 1000  # its sign-up is open
    await cog.start_due()
    await cog.start_due()  # a second look opens nothing more
    [posted] = signups(standin, world.channel)
    assert f"starts by itself <t:{start // 1000}:R>" in posted.embeds[0]["description"]
    [(tid, _, starts_at)] = await store.timed_tournaments()
    assert starts_at == start
    for level in ("easy", "normal"):
        await world.admin.select(standin.message(posted), cid(posted, "hf:tnai:"), [level])
    cog.clock = lambda: start / 1000 + 1
    await cog.start_due()
    await standin.wait_for(lambda: "won" in standin.message(posted).embeds[0]["description"],
                           "the week's tournament played to its end")

    # next week's, opened just before a stop and its message never posted
    week = plan.next_start(start + 1)
    await cog._open_weekly(plan, week)
    await bot.close()
    assert len(signups(standin, world.channel)) == 1
    bot = await start_bot(make_bot(standin, db, world.guild.id))
    await asyncio.wait_for(bot.get_cog("TournamentCog").watch.looked.wait(), standin.wait_timeout)
    [_, owed] = signups(standin, world.channel)  # posted by the first look after the start
    assert f"<t:{week // 1000}:R>" in owed.embeds[0]["description"]
    assert await bot.store.unposted_tournaments() == []
    settings = (await world.admin.slash(world.channel, "settings show")).messages[0]
    weekly = next(f["value"] for f in settings.embeds[0]["fields"] if f["name"] == "Weekly tournaments")
    assert weekly == f"<#{world.channel.id}>: Koi-Koi every {WEEKDAYS[day]} at 12:00 UTC"
    stopped = await world.admin.slash(world.channel, "tournament weekly-stop")
    assert "No more weekly Koi-Koi tournaments here" in reply_text(stopped)
    again = await world.admin.slash(world.channel, "tournament weekly-stop")
    assert "no weekly tournament" in reply_text(again)
    assert await bot.store.weekly_tournaments() == []
    settings = (await world.admin.slash(world.channel, "settings show")).messages[0]
    weekly = next(f["value"] for f in settings.embeds[0]["fields"] if f["name"] == "Weekly tournaments")
    assert weekly.startswith("None: ")


@pytest.mark.usefixtures("no_late_acks")
async def test_a_start_whose_answer_discord_refuses_still_runs_the_rounds(start_bot, standin,
                                                                          world, tmp_path):
    """The Start press's answer fails (its token gone: Discord says the interaction is unknown),
    after the store started the tournament: its first round opens all the same, and the bot
    draws the message itself, as started."""
    bot = await start_bot(make_bot(standin, tmp_path / "unanswered.sqlite3", world.guild.id))
    message = await sign_up(standin, world, "round_robin", [], fee=0)
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               status=404, where=updates_a_message)
    await world.admin.press(message, cid(message, "hf:tn:start:"))
    await standin.wait_for(lambda: any(is_tournament_table(m) for m in standin.messages.values()
                                       if m.channel is world.channel),
                           "a table of the first round", channels=[world.channel])
    await standin.wait_for(lambda: not any(c.startswith("hf:tn:join:")
                                           for c in standin.message(message).custom_ids()),
                           "the message showing the tournament started", channels=[world.channel])
    assert answer.remaining == 0
    cog = bot.get_cog("TournamentCog")
    await asyncio.wait_for(cog._redraws.drain(), standin.wait_timeout)
    assert await bot.store.unshown_tournaments() == []


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("fault", ["token gone", "cut before twice"])
async def test_a_tournament_whose_answer_discord_refuses_is_called_off(start_bot, standin, world,
                                                                       tmp_path, monkeypatch, fault):
    """Discord refuses the answer that would post the sign-up (the command's token gone), or the
    connection is cut before Discord took it, and again when it is sent once more: nobody saw
    the tournament, so it is called off rather than left open where no one can join; cut
    before, its maker is told so."""
    bot = await start_bot(make_bot(standin, tmp_path / "unseen.sqlite3", world.guild.id))
    cancelled = watch_calls(monkeypatch, bot.store, "cancel_tournament")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               where=posts_a_message, **answer_fault(fault))
    record = await world.admin.slash(world.channel, "tournament create", game="koikoi",
                                     format="swiss", rounds=1)
    await asyncio.wait_for(cancelled.wait(), standin.wait_timeout)
    assert answer.remaining == 0
    assert await bot.store.live_tournaments() == []
    if fault == "cut before twice":
        await standin.wait_for(lambda: record.original, "the maker's answer")
        assert record.original.flags & 64 and reply_text(record) == CALLED_OFF
