"""Launching the Activity through the stand-in: the table message's "Play in the Activity"
button and the app's Entry Point command, both answered with LAUNCH_ACTIVITY; neither is
offered while the Activity is off, and an Entry Point left from before is refused politely."""

from __future__ import annotations

import dataclasses

import aiohttp
import discord
import pytest

from bot.config import Settings
from bot.discord_ui.entry_point import entry_point_payload
from tests.discord_standin.state import walk_components
from tests.e2e.activity import activity_bot, joined
from tests.e2e.playing import reply_text
from tests.e2e.test_activity_server import base, koikoi_against_the_ai
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio

LAUNCH_ACTIVITY = 12


async def started(start_bot, standin, world, tmp_path, *, activity: bool):
    settings = Settings(token=standin.token, database_path=tmp_path / "bot.sqlite3",
                        dev_guild_id=world.guild.id, activity_port=0 if activity else None,
                        client_secret=standin.oauth.client_secret if activity else "")
    bot = await start_bot(activity_bot(settings))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    return bot


def launch_button(message) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith("hf:activity:")), None)


async def test_the_table_button_launches_the_activity_on_that_table(start_bot, standin, world, tmp_path):
    bot = await started(start_bot, standin, world, tmp_path, activity=True)
    table = await koikoi_against_the_ai(standin, world)
    button = launch_button(table)
    assert button is not None
    [label] = [c["label"] for c in walk_components(table.components) if c.get("custom_id") == button]
    assert label == "Play in the Activity"
    # a player and a member watching press it: both end in one instance of the channel
    pressed = await world.admin.click(table, button)
    watched = await world.player.click(table, button)
    assert pressed.response_type == watched.response_type == LAUNCH_ACTIVITY
    instance = standin.oauth.launches[pressed.id]
    assert standin.oauth.launches[watched.id] == instance
    assert standin.oauth.instances[instance].channel is world.channel
    assert standin.oauth.instances[instance].users == {world.admin.id, world.player.id}
    # the launched page shows the table the button was on
    async with aiohttp.ClientSession() as http:
        page, _ = await joined(http, base(bot), standin, world.admin, instance)
        state = await page.state(lambda s: s["moves"], "the player's turn")
        assert button == f"hf:activity:{state['game']['id']}"


async def test_the_entry_point_is_synced_and_launches_the_activity(start_bot, standin, world, tmp_path):
    bot = await started(start_bot, standin, world, tmp_path, activity=True)
    await bot.tree.sync()  # what `python -m bot sync` sends
    [entry] = [c for c in standin.commands[None] if c["type"] == 4]
    assert entry["handler"] == 1 and entry["name"] == "launch"
    record = await world.player.launch(world.channel)
    assert record.response_type == LAUNCH_ACTIVITY
    instance = standin.oauth.launches[record.id]
    assert standin.oauth.instances[instance].users == {world.player.id}
    # in a DM too, where the Activity can run as well
    assert (await world.player.launch(None)).response_type == LAUNCH_ACTIVITY
    # the stand-in holds the bot to Discord's rule: a later overwrite keeps the Entry Point
    bot.settings = dataclasses.replace(bot.settings, activity_port=None)
    with pytest.raises(discord.HTTPException):
        await bot.tree.sync()
    standin.violations.clear()  # provoked on purpose: that overwrite is what Discord refuses


async def test_without_the_activity_there_is_no_button_and_old_ones_say_why(
        start_bot, standin, world, tmp_path):
    bot = await started(start_bot, standin, world, tmp_path, activity=False)
    table = await koikoi_against_the_ai(standin, world)
    assert launch_button(table) is None
    await bot.tree.sync()
    assert all(c["type"] == 1 for c in standin.commands[None])
    # the Entry Point a sync made while the Activity was on, opened now: refused with a sentence
    await bot.http.upsert_global_command(bot.application_id, payload=entry_point_payload())
    record = await world.player.launch(world.channel)
    assert record.response_type == 4 and record.initial.body["data"]["flags"] & 64  # privately
    assert reply_text(record) == ("The Activity is not turned on for this bot; play with the "
                                  "buttons and commands here.")
    assert not standin.oauth.launches
