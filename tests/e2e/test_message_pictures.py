"""One-message tables as a player sees them: the table and the hand the bot sent through the
stand-in, drawn in headless Chromium by a page that lays out Components V2 the way Discord's
dark theme does (tests/e2e/harness/message.html). The screenshots are kept as test artifacts;
docs/screenshots/one-message-table.png and one-message-hand.png in the README are two of them, and
so is docs/screenshots/help.png, the /help page."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from tests.e2e.playing import controls, hand_message, move_of, table_posted
from tests.e2e.test_activity_browser import browser, chromium  # noqa: F401  (fixtures)
from tests.e2e.test_koikoi_bot import human_moves_first, make_bot

pytestmark = pytest.mark.asyncio

HARNESS = Path(__file__).with_name("harness") / "message.html"
ARTIFACTS = Path(os.environ.get("HANAFUDA_ARTIFACTS", "out")) / "messages"
WIDTH = {"width": 680, "height": 400}


READ_COMPONENTS = """() => JSON.stringify({
    heading: document.querySelector('h2').textContent,
    alt: [...document.images].map(i => i.alt),
    buttons: [...document.querySelectorAll('[data-custom-id]')].map(b => b.dataset.customId),
    width: document.querySelector('.gallery img').getBoundingClientRect().width})"""
READ_EMBED = """() => JSON.stringify({
    title: document.querySelector('.embed .title').textContent,
    commands: [...document.querySelectorAll('[data-command]')].map(c => c.dataset.command),
    height: document.querySelector('#chat').getBoundingClientRect().height})"""


async def shot(browser, shown: dict, name: str, read: str) -> dict:  # noqa: F811
    """``shown`` drawn and screenshot as ``name``; what the page shows, read back by ``read``."""
    tab = await browser.new_page(viewport=WIDTH, device_scale_factor=1)
    try:
        await tab.goto(HARNESS.as_uri())
        await tab.evaluate("message => window.show(message)", {"author": "Hanafuda", **shown})
        await tab.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await tab.locator("#chat").screenshot(path=str(ARTIFACTS / f"{name}.png"))
        return json.loads(await tab.evaluate(read))
    finally:
        await tab.close()


async def draw(browser, message, name: str) -> dict:  # noqa: F811
    """A Components V2 message drawn and screenshot; what the page shows, read back."""
    files = {a.filename: "data:image/png;base64," + base64.b64encode(a.data).decode() for a in message.attachments}
    return await shot(browser, {"components": message.components, "files": files}, name, READ_COMPONENTS)


async def offered(standin, user, after: int):
    return await standin.wait_for(
        lambda: (h := hand_message(standin, user)) is not None and move_of(h) > after and h,
        f"a hand offering a move after move {after}")


async def test_a_table_and_a_hand_drawn_as_discord_lays_them_out(start_bot, standin, world, tmp_path,
                                                                  browser):  # noqa: F811
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=3)
    [table] = await table_posted(standin, world.channel)
    pressed = -1
    for _ in range(2):  # a few moves, so the table tells of them
        hand = await offered(standin, world.admin, pressed)
        pressed = move_of(hand)
        await world.admin.click(hand, controls(hand)[0])
    hand = await offered(standin, world.admin, pressed)
    await bot.publisher.drain()
    for message, name in ((standin.message(table), "one-message-table"), (hand, "one-message-hand")):
        shown = await draw(browser, message, name)
        assert shown["heading"].startswith("Koi-Koi")
        [alt] = shown["alt"]
        assert alt == message.components[0]["components"][1]["items"][0]["description"]
        assert shown["buttons"] == message.custom_ids()  # every control, in order
        assert shown["width"] > 400  # the picture fills the message's width


async def test_the_help_page_drawn_as_discord_lays_it_out(start_bot, standin, world, tmp_path,
                                                          browser):  # noqa: F811
    """/help as a member of staff sees it: each command a link, drawn as Discord draws one."""
    await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    record = await world.admin.slash(world.channel, "help")
    (message,) = record.messages
    shown = await shot(browser, {"embeds": message.embeds, "files": {}}, "help", READ_EMBED)
    assert shown["title"] == "Hanafuda: the commands"
    assert shown["commands"][:7] == ["koikoi", "gostop", "mushi", "sakura", "hanaawase", "firstbloom", "seotda"]
    assert {"help", "chips balance", "settings show", "privacy-admin forget"} <= set(shown["commands"])
    assert shown["height"] < 1400  # one screen of a tall phone, staff's commands included
