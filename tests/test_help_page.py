"""/help's page and its command links: every command of the tree under one heading, staff's
under the staff heading, and the ids Discord gave the commands asked for once and kept."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import discord
import pytest
from discord.enums import try_enum

from bot.__main__ import command_payload
from bot.discord_ui import command_links
from bot.discord_ui.command_links import CommandIds, mention
from bot.store import StoreUnavailable
from cogs.help import SECTIONS, STAFF, HelpCog

CHAT_INPUT = 1


@pytest.fixture(scope="module")
def payload() -> dict[str, dict]:
    return {c["name"]: c for c in asyncio.run(command_payload()) if c.get("type", 1) == CHAT_INPUT}


def test_every_command_sits_under_exactly_one_heading(payload):
    listed = [name for _, names in SECTIONS for name in names]
    assert sorted(listed) == sorted(payload)  # none left out, none twice, none that is gone


def test_the_staff_heading_holds_exactly_the_commands_discord_shows_to_staff_alone(payload):
    staff = {name for heading, names in SECTIONS if heading == STAFF for name in names}
    assert staff == {name for name, c in payload.items() if c.get("default_member_permissions")}


def test_a_mention_links_the_top_level_commands_id_or_names_it_plainly():
    ids = {"chips": 11, "koikoi": 12}
    assert mention("koikoi", ids) == "</koikoi:12>"
    assert mention("chips balance", ids) == "</chips balance:11>"
    assert mention("rules", ids) == "`/rules`"


def synced(*names: str, first_id: int = 100) -> list[SimpleNamespace]:
    commands = [SimpleNamespace(name=n, id=first_id + i, type=discord.AppCommandType.chat_input)
                for i, n in enumerate(names)]
    entry_point = try_enum(discord.AppCommandType, 4)  # the Activity's launcher, as discord.py reads it
    return commands + [SimpleNamespace(name="launch", id=1, type=entry_point)]


class Discord:
    """``tree.fetch_commands`` as the ids need it: answers when let, or fails."""

    def __init__(self) -> None:
        self.asked: list[int | None] = []
        self.answer: dict[int | None, list[SimpleNamespace]] = {None: synced("koikoi", "help")}
        self.failure: Exception | None = None
        self.let = asyncio.Event()
        self.let.set()
        self.called = asyncio.Event()

    async def fetch(self, guild_id: int | None) -> list[SimpleNamespace]:
        self.asked.append(guild_id)
        self.called.set()
        await self.let.wait()
        if self.failure is not None:
            raise self.failure
        return self.answer.get(guild_id, [])


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_the_ids_are_asked_for_once_by_pages_at_once_and_kept_for_an_hour():
    discord_, clock = Discord(), Clock()
    ids = CommandIds(discord_.fetch, clock=clock)
    discord_.let.clear()
    pages = [asyncio.create_task(ids.of(None)) for _ in range(3)]
    await discord_.called.wait()  # the three pages wait on the one request
    discord_.let.set()
    assert await asyncio.gather(*pages) == [{"koikoi": 100, "help": 101}] * 3  # the launcher is no link
    assert discord_.asked == [None]
    clock.now += command_links.KEEP_SECONDS - 1
    assert await ids.of(None) == {"koikoi": 100, "help": 101} and discord_.asked == [None]
    discord_.answer[None] = synced("koikoi", "help", "mushi", first_id=200)
    clock.now += 2
    assert await ids.of(None) == {"koikoi": 200, "help": 201, "mushi": 202}
    assert discord_.asked == [None, None]


async def test_the_development_servers_own_commands_win_there_only():
    discord_ = Discord()
    discord_.answer[7] = synced("koikoi", first_id=700)
    ids = CommandIds(discord_.fetch, dev_guild_id=7, clock=Clock())
    assert await ids.of(7) == {"koikoi": 700, "help": 101}
    assert await ids.of(8) == {"koikoi": 100, "help": 101}
    assert sorted(discord_.asked, key=str) == [7, None]


async def test_a_failed_fetch_names_commands_plainly_and_waits_before_asking_again():
    discord_, clock = Discord(), Clock()
    discord_.failure = discord.HTTPException(SimpleNamespace(status=503, reason="down"), "down")
    ids = CommandIds(discord_.fetch, clock=clock)
    assert await ids.of(None) == {}
    clock.now += command_links.RETRY_SECONDS - 1
    assert await ids.of(None) == {} and len(discord_.asked) == 1
    discord_.failure = None
    clock.now += 2
    assert await ids.of(None) == {"koikoi": 100, "help": 101} and len(discord_.asked) == 2


async def test_a_slow_answer_leaves_the_page_plain_and_serves_the_next_one(monkeypatch):
    monkeypatch.setattr(command_links, "FETCH_SECONDS", 0.01)
    discord_ = Discord()
    discord_.let.clear()
    ids = CommandIds(discord_.fetch, clock=Clock())
    assert await ids.of(None) == {}  # the page did not wait for Discord
    discord_.let.set()
    assert await ids.of(None) == {"koikoi": 100, "help": 101}  # the same request's answer
    assert discord_.asked == [None]


class Channel:
    def __init__(self, fails: bool = False) -> None:
        self.sent: list[dict] = []
        self.fails = fails

    def permissions_for(self, member):
        return discord.Permissions(send_messages=True, embed_links=True)

    async def send(self, **kwargs):
        if self.fails:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="down"), "down")
        self.sent.append(kwargs)


class Languages:
    async def of_guild(self, guild_id, locale):
        raise StoreUnavailable("the database is down")

    def of_guild_now(self, guild_id, locale):
        return "ja" if str(locale) == "ja" else "en"


def joined(channel: Channel) -> SimpleNamespace:
    return SimpleNamespace(id=7, system_channel=channel, me=object(), preferred_locale="ja")


def help_cog() -> HelpCog:
    bot = SimpleNamespace(languages=Languages(),
                          command_ids=CommandIds(Discord().fetch, clock=Clock()))
    return HelpCog(bot)


async def test_the_hello_speaks_the_servers_discord_language_while_the_database_is_down():
    channel = Channel()
    await help_cog().on_guild_join(joined(channel))
    (sent,) = channel.sent
    assert sent["embed"].title == "花札がやって来ました" and "</koikoi:100>" in sent["embed"].description
    assert sent["allowed_mentions"].to_dict() == {"parse": []}


async def test_a_hello_discord_refuses_is_let_go(caplog):
    caplog.set_level(logging.INFO, logger="cogs.help")
    channel = Channel(fails=True)
    await help_cog().on_guild_join(joined(channel))  # no error reaches discord.py's handler
    assert channel.sent == [] and "could not greet server 7" in caplog.text
