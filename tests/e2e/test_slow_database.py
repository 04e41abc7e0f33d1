"""Every command is answered in time while the database hangs (issue 43): a command that has
not answered when Discord's 3 s are half gone says "thinking" (``bot.discord_ui.answer``), and its
answer, or its refusal, follows once the database is back.

Every slash command the bot registers is run, each with the options it requires, while every
call into the store waits; the stand-in fails the test at teardown for any press acknowledged
late or never. Once the database answers again, every "thinking" is replaced by its answer; a
refusal after a public "thinking" is said privately. On a quick database nothing changes."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from tests.e2e.community_data import start_hbot

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
