"""Starting games safely: one game per challenge or lobby however many presses arrive at once,
forged or misplaced buttons refused, refusals private, and no message that pings more than it
should. The real bot against the Discord stand-in."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import sys
import time
from contextlib import closing

import pytest

from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.store import StoreUnavailable
from tests.discord_standin.state import walk_components
from tests.e2e.playing import answer_fault
from tests.e2e.test_koikoi_bot import human_moves_first, reply_text, table_messages, table_posted

CALLED_OFF = "Discord did not take my answer, so I called off what you asked: please try again."

pytestmark = pytest.mark.asyncio

COMPONENT = 3


def make_bot(standin, db, guild_id):
    return HanafudaBot(Settings(token=standin.token, database_path=db, dev_guild_id=guild_id))


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "safety.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await standin.settle()
    return bot


def cid(message, prefix):
    return next(c for c in message.custom_ids() if c.startswith(prefix))


def lobby_id_of(message):
    return cid(message, "hf:lb:join:").rsplit(":", 1)[1]


async def count(bot, sql, *params):
    return (await bot.store._db.fetchall(sql, params))[0][0]


async def forged_press(standin, user, message, custom_id, *, channel=None, message_id=None):
    """A component interaction Discord's own client would never send: ``custom_id`` on a copy of
    ``message`` (optionally as if it were shown in another channel, as another message)."""
    real = standin.message(message)
    fake = dataclasses.replace(
        real, channel=channel or real.channel, id=message_id or real.id,
        components=[{"type": 1, "id": 1, "components": [
            {"type": 2, "id": 2, "style": 1, "label": "Press", "custom_id": custom_id}]}])
    return await standin.run_interaction(user, fake.channel, COMPONENT,
                                         {"custom_id": custom_id, "component_type": 2}, target=fake)


def watch_calls(monkeypatch, owner, name: str) -> asyncio.Event:
    """An event set once ``owner.name`` (an async method, the bot's store's say) has been called
    and has returned or raised: a test waits on it for a step the bot takes beside a press."""
    called, method = asyncio.Event(), getattr(owner, name)

    async def noted(*args, **kwargs):
        try:
            return await method(*args, **kwargs)
        finally:
            called.set()

    monkeypatch.setattr(owner, name, noted)
    return called


def updates_a_message(call) -> bool:
    """An interaction's answer that edits the message its press was on (UPDATE_MESSAGE)."""
    return isinstance(call.body, dict) and call.body.get("type") == 7


def posts_a_message(call) -> bool:
    """An interaction's answer that posts a message (CHANNEL_MESSAGE_WITH_SOURCE)."""
    return isinstance(call.body, dict) and call.body.get("type") == 4


async def lobby_remembered(bot, standin, world, monkeypatch):
    """A one-round Koi-Koi lobby opened by the admin, once the store holds its message's id (noted
    just after the command's answer: a press is judged against it, and the bot's own redraw of
    the message needs it)."""
    remembered = watch_calls(monkeypatch, bot.store, "set_lobby_message")
    lobby = (await world.admin.slash(world.channel, "koikoi", rounds=1)).original
    await asyncio.wait_for(remembered.wait(), standin.wait_timeout)
    return lobby


def replies(record):
    """The messages the bot answered with (not the lobby message a deferred press updates)."""
    found = list(record.followups)
    if record.response_type in (4, 5) and record.original is not None:
        found.insert(0, record.original)
    return [m for m in found if not m.deleted]


def private(record) -> bool:
    return bool(replies(record)) and all(m.ephemeral for m in replies(record))


async def test_twenty_accepts_start_one_game_and_escrow_once(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    await human_moves_first(hbot, world)  # a one-round match must not be settled at its deal
    before = {u.id: (await store.open_account(guild, u.id))[0] for u in (world.admin, world.player)}
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1, stake=40)
    challenge = record.original
    accept = cid(challenge, "hf:ch:accept:")
    presses = await asyncio.gather(*(world.player.click(challenge, accept) for _ in range(20)))
    await table_posted(standin, world.channel)
    assert await count(hbot, "SELECT count(*) FROM games") == 1
    assert await count(hbot, "SELECT count(*) FROM transfers WHERE kind = 'stake'") == 2
    assert len(table_messages(standin, world.channel)) == 1
    for user in (world.admin, world.player):
        assert await store.balance(guild, user.id) == before[user.id] - 40
    refused = [p for p in presses if "already started" in reply_text(p)]
    assert len(refused) == 19 and all(private(p) for p in refused)
    await standin.wait_until(
        lambda: standin.message(challenge).embeds[0]["title"] == "Challenge accepted", timeout=10)
    assert (await store.audit()).ok


async def test_twenty_starts_of_a_lobby_start_one_game_and_escrow_once(hbot, standin, world):
    store, guild = hbot.store, world.guild.id
    await human_moves_first(hbot, world)  # a one-round match must not be settled at its deal
    record = await world.admin.slash(world.channel, "koikoi", rounds=1, stake=25)
    lobby = record.original
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    start, lobby_id = cid(lobby, "hf:lb:start:"), lobby_id_of(lobby)
    presses = await asyncio.gather(*(world.admin.click(lobby, start) for _ in range(20)))
    await table_posted(standin, world.channel)
    assert await count(hbot, "SELECT count(*) FROM games") == 1
    assert await count(hbot, "SELECT count(*) FROM transfers WHERE kind = 'stake'") == 2
    assert len(table_messages(standin, world.channel)) == 1
    assert await store.balance(guild, world.player.id) == 1000 - 25
    await standin.wait_until(lambda: any("game is on" in reply_text(p) for p in presses), timeout=10)
    assert sum("game is on" in reply_text(p) for p in presses) == 1
    refused = [p for p in presses if "already started" in reply_text(p)]
    assert len(refused) == 19 and all(private(p) for p in refused)
    stored = await store.get_lobby(lobby_id)
    assert stored.status == "started" and stored.game_id is not None


async def test_members_joining_at_once_are_all_seated(hbot, standin, world):
    users = [world.player, world.shy]
    for name in ("dave", "erin", "frank"):
        users.append(standin.create_user(name))
        standin.add_member(world.guild, users[-1])
    record = await world.admin.slash(world.channel, "sakura", rounds=1)
    lobby = record.original
    join = cid(lobby, "hf:lb:join:")
    await asyncio.gather(*(u.click(lobby, join) for u in users))
    shown = standin.message(lobby).embeds[0]["description"]
    assert all(f"<@{u.id}>" in shown for u in users)
    stored = await hbot.store.get_lobby(lobby_id_of(lobby))
    assert sorted(stored.humans) == sorted([world.admin.id, *(u.id for u in users)])


async def test_forged_lobby_buttons_are_refused(hbot, standin, world):
    record = await world.admin.slash(world.channel, "koikoi", rounds=1)
    lobby = record.original
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    # the data the old buttons carried, changed: the presser as host, a stake of 500
    forged = await forged_press(standin, world.player, lobby,
                                f"hf:lb:start:koikoi:{world.player.id}:1:500:0:-")
    assert "no longer open" in reply_text(forged) and private(forged)
    forged = await forged_press(standin, world.player, lobby, "hf:lb:start:" + "A" * 22)
    assert "no longer open" in reply_text(forged) and private(forged)
    # the real id, pressed by someone who is not the host
    not_host = await forged_press(standin, world.player, lobby, cid(lobby, "hf:lb:start:"))
    assert "Only the host" in reply_text(not_host) and private(not_host)
    assert not hbot.tables.tables and not table_messages(standin, world.channel)
    assert await count(hbot, "SELECT count(*) FROM games") == 0
    assert standin.message(lobby).components  # still open for the real host


async def test_presses_from_another_server_or_channel_are_refused(hbot, standin, world, monkeypatch):
    # The lobby's message id is stored just after the command's answer: the presses below are
    # judged against it, so they wait until it is there.
    lobby = await lobby_remembered(hbot, standin, world, monkeypatch)
    join = cid(lobby, "hf:lb:join:")
    elsewhere = standin.create_guild("Other Club")
    far = standin.create_channel(elsewhere, "games")
    standin.add_member(elsewhere, world.player)
    near = standin.create_channel(world.guild, "off-topic")
    for channel in (far, near):
        press = await forged_press(standin, world.player, lobby, join, channel=channel,
                                   message_id=standin.ids.next())
        assert "no longer open" in reply_text(press) and private(press)
    # the right channel, but another message than the lobby's
    other = await forged_press(standin, world.player, lobby, join, message_id=standin.ids.next())
    assert "no longer open" in reply_text(other) and private(other)
    stored = await hbot.store.get_lobby(lobby_id_of(lobby))
    assert stored.humans == (world.admin.id,)


async def test_before_its_message_is_stored_a_lobby_counts_presses_on_that_message_only(
        hbot, standin, world, monkeypatch):
    """The lobby's message id is stored just after the answer that posted it. Meanwhile a press
    counts only on the message that answer made: its id forged onto another message of the
    channel is refused, and Join on the lobby's own message seats the member."""
    remember = hbot.store.set_lobby_message
    calls = 0
    first_stored, second_held, release = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def late(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 1:
            await remember(*args, **kwargs)
            first_stored.set()
            return
        second_held.set()
        await release.wait()
        await remember(*args, **kwargs)

    monkeypatch.setattr(hbot.store, "set_lobby_message", late)
    other = (await world.admin.slash(world.channel, "sakura", rounds=1)).original
    await asyncio.wait_for(first_stored.wait(), standin.wait_timeout)
    lobby = (await world.admin.slash(world.channel, "koikoi", rounds=1)).original
    await asyncio.wait_for(second_held.wait(), standin.wait_timeout)
    assert (await hbot.store.get_lobby(lobby_id_of(lobby))).message_id is None
    join = cid(lobby, "hf:lb:join:")
    forged = await forged_press(standin, world.player, other, join)
    assert "no longer open" in reply_text(forged) and private(forged)
    await world.player.click(lobby, join)
    assert (await hbot.store.get_lobby(lobby_id_of(lobby))).humans == (world.admin.id, world.player.id)
    release.set()


async def test_forged_challenges_are_refused(hbot, standin, world):
    await human_moves_first(hbot, world)  # the accepted game must still be running below
    record = await world.admin.slash(world.channel, "koikoi", opponent=world.player, rounds=1)
    challenge = record.original
    exp = 2_000_000_000
    forged = await forged_press(standin, world.shy, challenge,
                                f"hf:ch:accept:{world.shy.id}:{exp}:koikoi:{world.admin.id}:1:500:0:-")
    assert "no longer open" in reply_text(forged) and private(forged)
    real = await forged_press(standin, world.shy, challenge, cid(challenge, "hf:ch:accept:"))
    assert "not for you" in reply_text(real) and private(real)
    assert not hbot.tables.tables and await count(hbot, "SELECT count(*) FROM games") == 0
    await world.player.click(challenge, cid(challenge, "hf:ch:accept:"))
    await table_posted(standin, world.channel)
    [table] = hbot.tables.tables.values()
    assert table.players == [world.admin.id, world.player.id] and table.stake == 0


async def test_a_stake_beyond_the_balance_is_refused_privately(hbot, standin, world):
    await hbot.store.open_account(world.guild.id, world.player.id)
    record = await world.player.slash(world.channel, "koikoi", ai="normal", stake=999_999)
    assert private(record) and "999,999" in reply_text(record)
    assert "1,000" in reply_text(record)  # the balance, shown to its owner only
    assert not standin.channel_messages(world.channel)  # nothing public at all
    assert not hbot.tables.tables


async def test_a_lobby_start_with_a_poor_member_is_refused_privately_and_reopens(hbot, standin, world):
    await human_moves_first(hbot, world)  # a one-round match must not be settled at its deal
    store, guild = hbot.store, world.guild.id
    await store.open_account(guild, world.player.id)
    await store.revoke(guild, world.player.id, 700, key="drain", actor=world.admin.id, reason="test")
    record = await world.admin.slash(world.channel, "koikoi", rounds=1, stake=500)
    lobby = record.original
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    public_before = len(standin.channel_messages(world.channel))
    refused = await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    assert private(refused) and f"<@{world.player.id}> has 300" in reply_text(refused)
    assert len(standin.channel_messages(world.channel)) == public_before
    assert (await store.get_lobby(lobby_id_of(lobby))).status == "open"
    assert await store.balance(guild, world.player.id) == 300 and not hbot.tables.tables
    await store.grant(guild, world.player.id, 700, key="refill", actor=world.admin.id, reason="test")
    started = await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    await standin.wait_until(lambda: "game is on" in reply_text(started), timeout=10)
    await table_posted(standin, world.channel)
    assert await store.balance(guild, world.player.id) == 500


async def test_crafted_option_values_are_refused_without_echo(hbot, standin, world):
    long = "x" * 5000
    for options in ({"preset": long}, {"ai": long}, {"preset": long, "ai": "easy"},
                    {"stake": -5}, {"rounds": 10**9}):
        record = await world.admin.slash(world.channel, "koikoi", **options)
        text = reply_text(record)
        assert private(record) and "xxxxxxxx" not in text and len(text) < 2000, (options, text)
    assert not standin.channel_messages(world.channel) and not hbot.tables.tables


def _bodies(standin):
    """Every message body the bot sent (interaction callbacks carry theirs in ``data``)."""
    for request in standin.requests:
        body = request.body
        if not isinstance(body, dict):
            continue
        if request.path.endswith("/callback"):
            body = body.get("data") or {}
        if body.get("content") or body.get("embeds") or body.get("components"):
            yield request, body


def words(body: dict) -> str:
    """What a body says in its content and laid-out texts, where a name could ping."""
    texts = [c.get("content") or "" for c in walk_components(body.get("components") or [])]
    return "\n".join([body.get("content") or "", *texts]).strip()


async def test_names_are_escaped_and_nothing_pings_everyone(hbot, standin, world):
    loud = standin.create_user("@everyone")
    standin.add_member(world.guild, loud)
    await loud.slash(world.channel, "koikoi", ai="easy", rounds=1)
    await table_posted(standin, world.channel)
    record = await loud.slash(world.channel, "sakura", rounds=1)
    lobby = record.original
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    await loud.select(lobby, cid(lobby, "hf:lbai:"), ["easy"])
    await world.player.click(lobby, cid(lobby, "hf:lb:leave:"))
    await loud.click(lobby, cid(lobby, "hf:lb:cancel:"))
    record = await loud.slash(world.channel, "mushi", opponent=world.player, stake=5)
    await world.player.click(record.original, cid(record.original, "hf:ch:decline:"))
    sent = list(_bodies(standin))
    assert any("sits down" in words(b) for _, b in sent)  # the table's headline names everyone
    for request, body in sent:
        content = words(body)
        if content:
            mentions = body.get("allowed_mentions")
            assert mentions is not None, (request.path, content)
            assert not {"everyone", "roles"} & set(mentions.get("parse", [])), (request.path, mentions)
            assert "@everyone" not in content, content  # escaped: "@\u200beveryone"
        if "<@" in content and "challenges" not in str(body.get("embeds")):
            assert not (body.get("allowed_mentions") or {}).get("users"), body
    challenge = next(b for _, b in sent if "challenges" in str(b.get("embeds")))
    assert [int(u) for u in challenge["allowed_mentions"]["users"]] == [world.player.id]


async def test_lobby_shows_its_settings(hbot, standin, world):
    record = await world.admin.slash(world.channel, "gostop", rounds=3, preset="seed", stake=5)
    fields = {f["name"]: f["value"] for f in record.original.embeds[0]["fields"]}
    assert fields["Game"] == "Go-Stop" or "Go-Stop" in fields["Game"]
    assert fields["Match"] == "3 rounds" and fields["Rules"] == "Seed 000"
    assert "5 chips per point" in fields["Stake"] and fields["Seats"].startswith("1/3")
    record = await world.admin.slash(world.channel, "sakura", target=50, teams="pairs")
    fields = {f["name"]: f["value"] for f in record.original.embeds[0]["fields"]}
    assert fields["Match"] == "first to 50 points" and fields["Teams"] == "Pairs (teams of two)"
    assert fields["Rules"] == "Hawaiian (Fuda Wiki), the server's house rules"
    assert fields["Seats"] == "1/6 · 4 or 6 players"  # pairs seat 4 or 6, never 7


async def test_closing_leaves_no_challenge_expiry_running(start_bot, standin, world, tmp_path):
    """The store closes last: every challenge's expiry has ended by then, and a challenge whose
    command finishes while the bot closes is not timed in a task that would outlive the store
    (the next start times it again from the store)."""
    bot = await start_bot(make_bot(standin, tmp_path / "closing.sqlite3", world.guild.id))
    await standin.settle()
    cog = bot.get_cog("PlayCog")
    timed = asyncio.Event()
    schedule = cog.schedule_expiry

    def noted(lobby_id: str) -> None:
        schedule(lobby_id)
        timed.set()

    cog.schedule_expiry = noted
    challenge = (await world.admin.slash(world.channel, "mushi", opponent=world.player)).original
    await asyncio.wait_for(timed.wait(), standin.wait_timeout)
    [timing] = cog._tasks
    await bot.close()
    assert timing.cancelled() and not cog._tasks
    cog.schedule_expiry(cid(challenge, "hf:ch:accept:").rsplit(":", 1)[1])  # its command, late
    assert not cog._tasks


async def test_a_challenge_expiring_while_the_database_is_away_is_closed_once_it_is_back(
        hbot, standin, world, monkeypatch):
    """The database refuses the challenge's expiry when it falls due (twice): the expiry waits it
    out and closes the challenge, rather than leaving its buttons up until the next start."""
    monkeypatch.setattr(sys.modules["cogs.play.cog"], "CHALLENGE_SECONDS", 1)  # the loaded extension
    expire, refused = hbot.store.expire_lobby, []

    async def away_twice(lobby_id):
        if len(refused) < 2:
            refused.append(lobby_id)
            raise StoreUnavailable("locked")
        return await expire(lobby_id)

    monkeypatch.setattr(hbot.store, "expire_lobby", away_twice)
    challenge = (await world.admin.slash(world.channel, "koikoi", opponent=world.player)).original
    await standin.wait_for(lambda: not standin.message(challenge).components,
                           "the challenge closed once the database is back", channels=[world.channel])
    assert standin.message(challenge).embeds[0]["title"] == "Challenge expired"
    assert len(refused) == 2 and (await hbot.store.get_lobby(refused[0])).status == "expired"


async def test_a_button_that_fails_unforeseen_is_answered_in_one_line(hbot, standin, world,
                                                                      monkeypatch):
    """A failure nobody foresaw inside a button's work (here the store's join) is answered to the
    presser in one private line, as a command's is, not left to discord.py, which only logs it
    while Discord shows "This interaction failed"; the lobby is left as it was."""
    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    lobby = (await world.admin.slash(world.channel, "koikoi", rounds=1)).original
    monkeypatch.setattr(hbot.store, "join_lobby", broken)
    joined = await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    assert joined.original.flags & 64
    assert reply_text(joined) == "Something went wrong on my side; please try again in a moment."
    assert f"<@{world.player.id}>" not in standin.message(lobby).embeds[0]["description"]


async def test_buttons_and_expiry_survive_a_restart(start_bot, standin, world, tmp_path):
    db = tmp_path / "restart.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    await human_moves_first(first, world)  # the started game must still be running below
    record = await world.admin.slash(world.channel, "koikoi", rounds=1)
    lobby = record.original
    await world.player.click(lobby, cid(lobby, "hf:lb:join:"))
    # a Start that crashed between claiming the lobby and creating the game
    await first.store.begin_lobby_start(lobby_id_of(lobby), world.admin.id)
    challenge = (await world.admin.slash(world.channel, "mushi", opponent=world.player)).original
    challenge_id = cid(challenge, "hf:ch:accept:").rsplit(":", 1)[1]
    await first.close()
    # the bot was down when the challenge ran out: the next start must close it
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE lobbies SET expires_at = ? WHERE lobby_id = ?",
                     (int(time.time() * 1000) - 1000, challenge_id))
    assert standin.message(challenge).components
    second = await start_bot(make_bot(standin, db, world.guild.id))
    await standin.wait_until(lambda: not standin.message(challenge).components, timeout=10)
    assert standin.message(challenge).embeds[0]["title"] == "Challenge expired"
    assert (await second.store.get_lobby(lobby_id_of(lobby))).status == "open"
    started = await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    await standin.wait_until(lambda: "game is on" in reply_text(started), timeout=10)
    await table_posted(standin, world.channel)
    [table] = second.tables.tables.values()
    assert table.players == [world.admin.id, world.player.id]


async def test_a_restart_brings_every_lobby_message_up_to_date(start_bot, standin, world, tmp_path,
                                                                monkeypatch):
    """Changes stored just before a stop whose edits were never made (a member seated, a challenge
    declined): the next start draws those messages again as the bot, and leaves alone a message
    that already shows its lobby."""
    db = tmp_path / "behind.sqlite3"
    first = await start_bot(make_bot(standin, db, world.guild.id))
    store = first.store
    remembered = 0
    all_remembered = asyncio.Event()
    remember = store.set_lobby_message

    async def noted(*args, **kwargs):
        nonlocal remembered
        try:
            return await remember(*args, **kwargs)
        finally:
            remembered += 1
            if remembered == 3:
                all_remembered.set()

    monkeypatch.setattr(store, "set_lobby_message", noted)
    behind = (await world.admin.slash(world.channel, "koikoi", rounds=1)).original
    shown = (await world.admin.slash(world.channel, "sakura", rounds=1)).original
    challenge = (await world.admin.slash(world.channel, "mushi", opponent=world.player)).original
    await asyncio.wait_for(all_remembered.wait(), standin.wait_timeout)
    joined = await world.player.click(shown, cid(shown, "hf:lb:join:"))  # drawn by the press itself
    assert joined.initial is not None
    # stored, and the process gone before the edits
    await store.join_lobby(lobby_id_of(behind), world.shy.id)
    await store.close_lobby(cid(challenge, "hf:ch:accept:").rsplit(":", 1)[1], world.player.id)
    await first.close()
    assert f"<@{world.shy.id}>" not in standin.message(behind).embeds[0]["description"]
    assert standin.message(challenge).components
    edits_of_shown = len([r for r in standin.requests if r.method == "PATCH" and str(shown.id) in r.path])

    # Discord fails the first redraw: it is tried again, with the lobby's lock free meanwhile
    fault = standin.fail_next("PATCH /channels/{channel_id}/messages/{message_id}", status=503,
                              message_id=behind.id)
    second = await start_bot(make_bot(standin, db, world.guild.id))
    await standin.wait_for(lambda: f"<@{world.shy.id}>" in standin.message(behind).embeds[0]["description"],
                           "the lobby showing the member seated before the stop")
    assert fault.remaining == 0
    await standin.wait_for(lambda: not standin.message(challenge).components,
                           "the challenge declined before the stop")
    assert standin.message(challenge).embeds[0]["title"] == "Challenge declined"
    assert cid(standin.message(behind), "hf:lb:join:")  # still open: its buttons kept
    redraw = list(second.get_cog("PlayCog")._tasks)  # no challenge is open: the redraw alone
    await asyncio.wait_for(asyncio.gather(*redraw), standin.wait_timeout)
    assert await second.store.unshown_lobbies() == []
    assert len([r for r in standin.requests if r.method == "PATCH" and str(shown.id) in r.path]) == edits_of_shown
    assert f"<@{world.player.id}>" in standin.message(shown).embeds[0]["description"]


@pytest.mark.usefixtures("no_late_acks")
async def test_a_lobby_message_discord_failed_to_edit_is_drawn_by_the_bot(hbot, standin, world,
                                                                         monkeypatch):
    """Discord fails a press's edit of the lobby's message: a join's answer (its token gone:
    the interaction unknown), the start's edit of the message (a server error, which discord.py
    does not try again on a channel's message). Each change is stored all the same, and the bot
    draws the message itself until it shows it, rather than leaving it behind until the next
    start."""
    lobby = await lobby_remembered(hbot, standin, world, monkeypatch)
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               status=404, where=updates_a_message)
    await world.player.press(lobby, cid(lobby, "hf:lb:join:"))
    await standin.wait_for(lambda: f"<@{world.player.id}>" in standin.message(lobby).embeds[0]["description"],
                           "the member seated, drawn by the bot", channels=[world.channel])
    assert answer.remaining == 0
    edit = standin.fail_next("PATCH /channels/{channel_id}/messages/{message_id}", status=503,
                             message_id=lobby.id)
    await world.admin.click(lobby, cid(lobby, "hf:lb:start:"))
    await table_posted(standin, world.channel)
    await standin.wait_for(lambda: standin.message(lobby).embeds[0]["title"] == "Koi-Koi lobby: started",
                           "the lobby shown started, drawn by the bot", channels=[world.channel])
    assert edit.remaining == 0 and not standin.message(lobby).components
    await asyncio.wait_for(asyncio.gather(*hbot.get_cog("PlayCog")._tasks), standin.wait_timeout)
    assert await hbot.store.unshown_lobbies() == []
    assert len(hbot.tables.tables) == 1


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("fault", ["token gone", "cut before twice"])
@pytest.mark.parametrize("opponent", [False, True], ids=["lobby", "challenge"])
async def test_a_lobby_whose_answer_discord_refuses_is_closed(hbot, standin, world, monkeypatch,
                                                              opponent, fault):
    """Discord refuses the command's answer that would post the lobby or the challenge (its
    token gone), or the connection is cut before Discord took it, and again when it is sent
    once more: nobody saw it, so it is closed rather than left open where no one can press.
    Cut before, Discord still takes a word: the starter is told it was called off and that
    starting again is safe."""
    closed = watch_calls(monkeypatch, hbot.store, "withdraw_lobby")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               where=posts_a_message, **answer_fault(fault))
    record = await world.admin.slash(world.channel, "koikoi", rounds=1,
                                     **({"opponent": world.player} if opponent else {}))
    await asyncio.wait_for(closed.wait(), standin.wait_timeout)
    assert answer.remaining == 0
    if fault == "cut before twice":
        assert record.original.flags & 64 and reply_text(record) == CALLED_OFF
    assert await count(hbot, "SELECT count(*) FROM lobbies") == 1
    assert await count(hbot, "SELECT count(*) FROM lobbies WHERE status = 'open'") == 0


@pytest.mark.usefixtures("no_late_acks")
@pytest.mark.parametrize("opponent", [False, True], ids=["lobby", "challenge"])
async def test_a_lobby_whose_answer_was_cut_after_discord_took_it_stays_open(
        hbot, standin, world, monkeypatch, opponent):
    """The connection is cut after Discord posted the lobby's or challenge's answer: the bot
    asks Discord, finds the message shown, notes it and keeps the lobby open; a join works."""
    noted = watch_calls(monkeypatch, hbot.store, "set_lobby_message")
    answer = standin.fail_next("POST /interactions/{interaction_id}/{interaction_token}/callback",
                               where=posts_a_message, drop="after")
    record = await world.admin.slash(world.channel, "koikoi", rounds=1,
                                     **({"opponent": world.player} if opponent else {}))
    await asyncio.wait_for(noted.wait(), standin.wait_timeout)
    assert answer.remaining == 0
    [lobby] = await hbot.store._db.fetchall("SELECT status, message_id FROM lobbies")
    assert (lobby[0], lobby[1]) == ("open", record.original.id)
    accept = "hf:ch:accept:" if opponent else "hf:lb:join:"
    await world.player.click(record.original, cid(record.original, accept))
    if opponent:
        await table_posted(standin, world.channel)
    else:
        await standin.wait_for(lambda: f"<@{world.player.id}>" in standin.message(record.original)
                               .embeds[0]["description"], "bob seated", channels=[world.channel])


@pytest.mark.parametrize("opponent", [False, True], ids=["lobby", "challenge"])
async def test_a_lobby_stored_after_its_command_gave_up_is_withdrawn(hbot, standin, world, monkeypatch,
                                                                     opponent):
    """The database answers too slowly for the command's answer: the player is told nothing
    started, and the lobby or challenge its write stores after that is withdrawn (a challenge
    too, which its host could not close by hand)."""
    from bot.discord_ui import starting

    monkeypatch.setattr(starting, "BEFORE_ANSWER_SECONDS", 0.01)
    release, create = asyncio.Event(), hbot.store.create_lobby

    async def held(*args, **kwargs):
        await release.wait()
        return await create(*args, **kwargs)

    monkeypatch.setattr(hbot.store, "create_lobby", held)
    withdrawn = watch_calls(monkeypatch, hbot.store, "withdraw_lobby")
    refused = await world.admin.slash(world.channel, "koikoi", rounds=1,
                                      **({"opponent": world.player} if opponent else {}))
    assert private(refused) and "not answering quickly" in reply_text(refused)
    release.set()
    await asyncio.wait_for(withdrawn.wait(), standin.wait_timeout)
    assert await count(hbot, "SELECT count(*) FROM lobbies") == 1
    assert await count(hbot, "SELECT count(*) FROM lobbies WHERE status = 'open'") == 0
