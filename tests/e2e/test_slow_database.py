"""Every command and every press is answered in time while the database hangs (issue 43): a
command that has not answered when Discord's 3 s are half gone says "thinking", a press is
acknowledged as its control declares (``bot.discord_ui.answer``), and the answer, or its
refusal, follows once the database is back.

Every slash command the bot registers is run, each with the options it requires, while every
call into the store waits; the stand-in fails the test at teardown for any press acknowledged
late or never. Once the database answers again, every "thinking" is replaced by its answer; a
refusal after a public "thinking" is said privately. On a quick database nothing changes."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import pytest

from tests.e2e.community_data import play_game, start_hbot
from tests.e2e.playing import table_posted
from tests.e2e.test_record_scope import OPS, SELECTED, component_type, custom_ids, holding

pytestmark = pytest.mark.asyncio

SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


def runs(command: dict[str, Any]):
    """Every runnable path of a command ("chips give") with its options."""
    subs = [o for o in command.get("options", []) if o["type"] in (SUBCOMMAND, GROUP)]
    if not subs:
        yield command["name"], command.get("options", [])
        return
    for sub in subs:
        for path, options in runs(sub):
            yield f"{command['name']} {path}", options


def required(options: list[dict[str, Any]], world) -> dict[str, Any]:
    """A value for every required option: its first choice, or a plain value of its type."""
    values: dict[str, Any] = {}
    for option in options:
        if not option.get("required"):
            continue
        if option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif option["type"] == STRING:
            values[option["name"]] = "koikoi"
        elif option["type"] in (INTEGER, NUMBER):
            values[option["name"]] = max(1, option.get("min_value", 1))
        elif option["type"] == BOOLEAN:
            values[option["name"]] = False
        elif option["type"] in (USER, MENTIONABLE):
            values[option["name"]] = world.player
        elif option["type"] == CHANNEL:
            values[option["name"]] = world.channel
        else:
            raise AssertionError(f"no test value for option type {option['type']}")
    return values


def hang(db, gate: asyncio.Event) -> list[str]:
    """Make every reach into the database (``bot.store.db.Database``) wait for ``gate``, as a
    database that hangs would; what the store keeps in memory (the servers' settings) still
    answers. The names of the calls that waited."""
    waited: list[str] = []
    for name in ("transact", "fetchall", "fetchone"):
        real = getattr(db, name)

        async def waiting(*args, _real=real, _name=name, **kwargs):
            waited.append(_name)
            await gate.wait()
            return await _real(*args, **kwargs)

        setattr(db, name, waiting)
    for name in ("write", "snapshot"):
        real = getattr(db, name)

        @contextlib.asynccontextmanager
        async def entering(*args, _real=real, _name=name, **kwargs):
            waited.append(_name)
            await gate.wait()
            async with _real(*args, **kwargs) as conn:
                yield conn

        setattr(db, name, entering)
    return waited


async def test_every_command_is_answered_in_time_while_the_database_hangs(hbot, standin, world):
    commands = standin.registered_commands(world.guild)
    paths = [(path, options) for command in commands for path, options in runs(command)]
    assert len(paths) >= 35  # every command of every cog
    gate = asyncio.Event()
    waited = hang(hbot.store._db, gate)
    records = await asyncio.gather(*(
        world.admin.slash(world.channel, path, reply=False, **required(options, world))
        for path, options in paths))
    runs_ = [(path, record) for (path, _), record in zip(paths, records, strict=True)]
    late = [path for path, record in runs_ if record.initial is None]
    assert waited  # the commands did reach for the database meanwhile
    assert late == [], f"not acknowledged while the database hung: {late}"
    thinking = [path for path, record in runs_ if record.initial.type == 5]
    assert len(thinking) >= 20  # the commands that read first said "thinking" in time
    gate.set()  # the database answers again: what waited finishes
    for path, record in runs_:  # and every "thinking" is replaced by its answer, or removed
        await standin.finish_interaction(record)
        original = record.original
        if original is not None and original.deleted:  # a refusal: said privately instead
            assert any(m.ephemeral for m in record.followups), path
        elif original is not None:
            assert not original.loading, path
    await hbot.publisher.drain()


async def test_a_quick_database_answers_at_once(hbot, standin, world):
    """No "thinking" on a quick database: the answer is the interaction's first response."""
    record = await world.admin.slash(world.channel, "chips balance")
    assert record.initial.type == 4
    assert "💰" in record.messages[0].content


async def test_a_refusal_after_a_public_thinking_is_private(hbot, standin, world):
    """A public command acknowledged with "thinking" while the database was slow, then refused:
    the thinking message goes and the refusal is seen only by the member who asked."""
    gate = asyncio.Event()
    hang(hbot.store._db, gate)
    record = await world.admin.slash(world.channel, "chips give", reply=False, user=world.player,
                                     amount=10**12)
    assert record.initial.type == 5 and not record.original.ephemeral
    gate.set()
    await standin.finish_interaction(record)
    assert record.original.deleted
    refusal = await standin.wait_for(
        lambda: next((m for m in record.followups if not m.deleted), None), "the refusal")
    assert refusal.ephemeral and refusal.ephemeral_for is world.admin
    assert "not" in refusal.content  # "You have …, not …; give less"
    public = standin.channel_messages(world.channel)
    assert all(m.id != record.original.id and "🤝" not in m.content for m in public)


async def test_every_press_is_answered_in_time_while_the_database_hangs(hbot, standin, world):
    """Every control the cogs register (the walk of ``test_record_scope``: each route's custom
    ids written from its template, naming this server's records), pressed while every call into
    the store waits, is acknowledged in Discord's time; once the database answers, a private
    "thinking" is replaced by its answer, and a real lobby's Join shows the member seated."""
    store, guild, channel = hbot.store, world.guild, world.channel
    host, member = world.admin, world.player
    done, _ = await play_game(store, guild.id, "koikoi", [host.id, member.id], ["alice", "bob"],
                              seed=3, channel_id=channel.id)
    await host.slash(channel, "koikoi", ai="easy")
    await table_posted(standin, channel)
    [live] = [g.game_id for g in await store.list_running_games(guild.id)]
    cup = await store.create_tournament(guild.id, channel.id, created_by=member.id, game="koikoi",
                                        format="swiss", rules={"rounds": 1}, fee=10, key="cup")
    spec = dict(game="koikoi", min_seats=2, max_seats=2, expires_at=time.time() + 3600)
    lobby = await store.create_lobby("lobby", guild.id, channel.id, member.id, **spec)
    challenge = await store.create_lobby("challenge", guild.id, channel.id, member.id,
                                         opponent_id=host.id, **spec)
    reminder = await store.set_daily_reminder(guild.id, host.id, True)
    real = (await member.slash(channel, "mushi", rounds=1)).original  # a lobby host waits in
    samples: dict[str, list[str | None]] = {
        "gid": [str(done), str(live)], "tid": [str(cup.tournament_id)],
        "lobby": [lobby.lobby_id, challenge.lobby_id], "op": OPS, "asker": [str(host.id)],
        "user": [str(host.id)], "member": [str(host.id)], "seq": ["0"], "part": ["0"],
        "action": ["#0"], "step": ["0"], "page": ["0"], "game": ["koikoi"], "order": ["rating"],
        "period": ["all"], "dir": ["next"], "season": [None], "tag": [None], "sure": [None, ":sure"],
        "expires": [str(int(time.time()) + 3600)], "nonce": ["0123456789ab"], "key": [reminder.key]}
    presses = [(custom_id, component_type(route)) for route in hbot.dynamic_items
               for custom_id in custom_ids(route.__discord_ui_compiled_template__, samples)]
    assert len(presses) >= 60
    held = [holding(standin, channel, custom_id, kind) for custom_id, kind in presses]

    gate = asyncio.Event()
    waited = hang(store._db, gate)
    records = await asyncio.gather(
        host.press(real, cid_of(real, "hf:lb:join:")),
        *(host.press(message, custom_id) if kind == 2 else host.choose(message, custom_id, [SELECTED])
          for (custom_id, kind), message in zip(presses, held, strict=True)))
    acks = await asyncio.gather(*(standin.finish_interaction(r, reply=False) for r in records))
    late = [r.data.get("custom_id") for r in acks if r.initial is None]
    assert waited and late == [], f"not acknowledged while the database hung: {late}"
    gate.set()  # the database answers again: what waited finishes
    for record in records:
        await standin.finish_interaction(record)
        if record.initial.type == 5:  # a private "thinking": replaced by its answer
            assert record.original is not None and not record.original.loading, record.data
    await standin.wait_for(lambda: f"<@{host.id}>" in standin.message(real).embeds[0]["description"],
                           "the lobby showing the member who joined", channels=[channel])
    await hbot.publisher.drain()


def cid_of(message, prefix: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(prefix))
