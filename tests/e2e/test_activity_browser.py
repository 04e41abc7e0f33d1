"""The Activity's page in a real browser: headless Chromium loads it inside a harness page that
plays Discord's part of the frame protocol, against the real server, store and AI. Skipped only
where Debian's chromium is not installed (CI installs it).

Every step waits on the page's own state (the move number and the end it shows in its DOM), as
Playwright's waits do, never on a clock. Screenshots of each test go to ``out/activity/``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from pathlib import Path

import pytest
from aiohttp import web

from bot import presenter
from bot.activity.server import DISCORD_ORIGINS, ActivityServer, activity_for
from bot.config import Settings
from bot.discord_ui.client import HanafudaBot
from bot.games import koikoi
from bot.presenters.base import card_name
from tests.e2e.test_deal_of_the_day import pin_the_day
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HARNESS = Path(__file__).with_name("harness")
ARTIFACTS = Path(os.environ.get("HANAFUDA_ARTIFACTS", "out")) / "activity"
PHONE = {"width": 390, "height": 844}
STEP_MS = 60_000  # only a hang reaches it: each wait ends when the page shows what it waits for


@pytest.fixture
def chromium():
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture
async def browser(chromium):
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


@pytest.fixture
async def page_bot(start_bot, standin, world, tmp_path):
    """The bot with an Activity server whose app also serves the test's harness (Discord's
    side of the frame), and lets that harness be framed beside Discord's origins."""
    bot = await start_bot(framed_bot(Settings(token=standin.token, database_path=tmp_path / "b.sqlite3",
                                              dev_guild_id=world.guild.id, activity_port=0,
                                              client_secret=standin.oauth.client_secret,
                                              hint_rollouts=6), standin))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    return bot


def framed_bot(settings: Settings, standin) -> HanafudaBot:
    """The bot with its Activity, whose app also serves the test's harness and lets it frame
    the Activity beside Discord's origins."""
    make = activity_for(settings, frame_ancestors=(*DISCORD_ORIGINS, "'self'"))

    def activity(bot: HanafudaBot) -> ActivityServer:
        server = make(bot)
        add_harness(server.app, standin)
        return server

    return HanafudaBot(settings, activity=activity)


def add_harness(app: web.Application, standin) -> None:
    async def file(request: web.Request) -> web.FileResponse:
        # Discord's page may frame the Activity; its own policy is not the Activity's
        return web.FileResponse(HARNESS / request.match_info["name"],
                                headers={"Content-Security-Policy": "default-src 'self'"})

    async def code(request: web.Request) -> web.Response:
        return web.json_response({"code": standin.oauth.authorize(standin.users[int(request.query["user"])])})

    async def whose(request: web.Request) -> web.Response:
        grant = standin.oauth.tokens.get(request.query["token"])
        if grant is None:
            raise web.HTTPUnauthorized()
        return web.json_response({**grant.user.payload(), "public_flags": 0})

    app.router.add_get("/harness/{name:harness\\.(?:html|js|css)}", file)
    app.router.add_get("/harness/code", code)
    app.router.add_get("/harness/whose", whose)


async def open_activity(browser, bot, standin, world, user, *, viewport=PHONE, locale="en-US",
                        instance: str | None = None, custom_id: str | None = None):
    """A tab with the harness framing the Activity for ``user``: a new instance in the world's
    channel, or ``instance``, which the user joins; ``custom_id``: launched through a link
    shared with it."""
    if instance is None:
        instance = standin.oauth.open_activity(world.channel, user)
    else:
        standin.oauth.join_activity(instance, user)
    context = await browser.new_context(viewport=viewport, locale=locale)
    tab = await context.new_page()
    query = (f"instance={instance}&user={user.id}&guild={world.guild.id}&channel={world.channel.id}"
             f"&client={standin.application_id}")
    if custom_id is not None:
        query += f"&custom_id={custom_id}"
    await tab.goto(f"http://127.0.0.1:{bot.activity_server.port}/harness/harness.html?{query}")
    frame = tab.frame_locator("#activity")
    return tab, frame


NEXT = """([pressed]) => {
  const root = document.getElementById("table");
  if (!root || !root.dataset.seq) return null;
  if (document.getElementById("dialog").open) return "dialog";
  if (root.dataset.over === "1") return "over";
  if (document.querySelector("button.slap")) return "slap";
  if (Number(root.dataset.seq) <= pressed) return null;
  if (document.querySelector(".decisions button")) return "decide";
  if (document.querySelector(".hand button:not([disabled])")) return "play";
  return null;
}"""


async def play_to_the_end(tab, frame_locator, shots: list[str], name: str) -> dict:
    """Click through a game: a card of the hand, a decision, a capture choice, the summary."""
    frame = tab.frames[1]
    pressed, clicks = -1, {"play": 0, "decide": 0, "dialog": 0}
    for _ in range(500):
        step = await (await frame.wait_for_function(NEXT, arg=[pressed], timeout=STEP_MS)).json_value()
        if step == "over":
            break
        if step == "dialog":
            choice = frame.locator("#dialog .choices button")
            if await choice.count():
                await choice.first.click()
            else:
                await shot(tab, shots, f"{name}-summary")
                await frame.locator("#dialog button.primary").click()
            await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
        elif step == "slap":  # First Bloom's race: slap, then wait for the race to be over
            await frame.locator("button.slap").click()
            await frame.wait_for_function("() => !document.querySelector('button.slap')", timeout=STEP_MS)
        else:
            pressed = int(await frame.locator("#table").get_attribute("data-seq"))
            if clicks["play"] == 0:
                await shot(tab, shots, f"{name}-first-turn")
            target = ".decisions button" if step == "decide" else ".hand button:not([disabled])"
            await frame.locator(target).first.click()
        clicks[step] = clicks.get(step, 0) + 1
    else:
        raise AssertionError("the game did not end within 500 steps")
    await shot(tab, shots, f"{name}-over")
    return clicks


async def shot(tab, shots: list[str], name: str) -> None:
    """A screenshot once every card picture and font of the page has loaded."""
    await tab.frames[1].wait_for_function("() => [...document.images].every(i => i.complete)",
                                          timeout=STEP_MS)
    await tab.frames[1].evaluate("() => document.fonts.ready.then(() => true)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await tab.screenshot(path=str(path))
    shots.append(path.name)


async def test_koikoi_against_the_ai_played_to_the_end_by_clicks(page_bot, standin, world, browser):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    tab, frame = await open_activity(browser, page_bot, standin, world, world.admin)
    shots: list[str] = []
    clicks = await play_to_the_end(tab, frame, shots, "koikoi-phone")
    assert clicks["play"] >= 1
    result = await frame.locator(".log .last").inner_text()
    assert result and "·" in result  # who won, and the score
    # every card shown on the page has its name for a screen reader, none is a bare picture
    names = await frame.locator("span.card[role=img]").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))")
    assert names and all(names)
    assert not [line for line in await harness_errors(tab)]
    assert "koikoi-phone-over.png" in shots


async def test_the_hint_button_shows_the_searchs_prices_over_the_table(page_bot, standin, world, browser):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    tab, frame = await open_activity(browser, page_bot, standin, world, world.admin)
    hint = frame.locator("button.hint")
    await hint.wait_for(timeout=STEP_MS)
    seq = await frame.locator("#table").get_attribute("data-seq")
    await hint.click()
    dialog = frame.locator("#dialog[open]")
    await dialog.wait_for(timeout=STEP_MS)
    assert "Hint" in await dialog.locator("h2").inner_text()
    lines = await dialog.locator(".hint-line").all_inner_texts()
    assert lines[0].startswith("The search prefers") and "%" in lines[0] and "**" not in lines[0]
    assert await dialog.locator(".note").inner_text()
    await shot(tab, [], "koikoi-hint")
    await dialog.locator("button.primary").click()
    await tab.frames[1].wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
    # nothing was played: the same turn, and it still plays to the end
    assert await frame.locator("#table").get_attribute("data-seq") == seq
    await play_to_the_end(tab, frame, [], "koikoi-after-hint")
    assert not await harness_errors(tab)


async def harness_errors(tab) -> list[str]:
    """What the harness answered with an error (a token it did not know, say)."""
    return await tab.evaluate("() => window.harness.answered.filter(a => a === 'ERROR')")


ENGLISH = re.compile(r"[A-Za-z]{2,}")


@pytest.mark.parametrize("language, name", [("ja", "はなこ"), ("ko", "하나")])
async def test_a_japanese_or_korean_page_has_no_english_word(page_bot, standin, world, browser, language, name):
    member = standin.create_user(name)
    member.locale = language
    standin.add_member(world.guild, member)
    await member.slash(world.channel, "koikoi", ai="normal", rounds=1)
    tab, frame = await open_activity(browser, page_bot, standin, world, member, locale=language)
    inner = tab.frames[1]
    await inner.wait_for_function(
        "() => document.querySelector('.hand button:not([disabled])') || document.querySelector('.decisions button')",
        timeout=STEP_MS)
    shots: list[str] = []
    await shot(tab, shots, f"koikoi-{language}")
    seen = await inner.evaluate("""() => {
      const texts = [document.body.innerText, document.title];
      for (const el of document.querySelectorAll('[aria-label], [title]'))
        texts.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
      return texts.join('\\n');
    }""")
    assert await inner.evaluate("() => document.documentElement.lang") == language
    words = set(ENGLISH.findall(seen)) - {"AI"}  # "AI" is how Japanese and Korean write it too
    assert not words, (words, seen)


@pytest.mark.parametrize("language, name", [("ja", "はなこ"), ("ko", "하나")])
async def test_the_lobby_in_japanese_or_korean_has_no_english_word(page_bot, standin, world, browser,
                                                                   language, name):
    member = standin.create_user(name)
    member.locale = language
    standin.add_member(world.guild, member)
    tab, _ = await open_activity(browser, page_bot, standin, world, member, locale=language)
    inner = tab.frames[1]
    await inner.wait_for_selector("#lobby-game", timeout=STEP_MS)
    seen = await inner.evaluate("""() => [document.body.innerText,
      ...[...document.querySelectorAll('option')].map(o => o.textContent)].join(' ')""")
    words = set(ENGLISH.findall(seen)) - {"AI"}
    assert not words, (words, seen)


async def keyboard_press(tab, frame, selector: str) -> None:
    """Tab to the first control matching ``selector`` and press Enter, as a keyboard user does."""
    for _ in range(300):
        if await frame.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)",
                                selector):
            await tab.keyboard.press("Enter")
            return
        await tab.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


async def test_gostop_against_the_ai_played_by_keyboard_alone(page_bot, standin, world, browser):
    # a chongtong at the deal would end the round before the keyboard plays a card
    await page_bot.store.set_house_rules(world.guild.id, "gostop", {"chongtong": "off"})
    await world.admin.slash(world.channel, "gostop", ai="normal", rounds=1)
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin,
                                 viewport={"width": 1280, "height": 800})
    frame = tab.frames[1]
    shots: list[str] = []
    pressed, steps = -1, {"play": 0, "decide": 0, "dialog": 0}
    for _ in range(500):
        step = await (await frame.wait_for_function(NEXT, arg=[pressed], timeout=STEP_MS)).json_value()
        if step == "over":
            break
        if step == "dialog":
            if await frame.locator("#dialog .choices button").count():
                await keyboard_press(tab, frame, "#dialog .choices button")
            else:
                await shot(tab, shots, "gostop-desktop-summary")
                await keyboard_press(tab, frame, "#dialog button.primary")
            await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
        else:
            pressed = int(await frame.locator("#table").get_attribute("data-seq"))
            if steps["play"] == 0:
                await shot(tab, shots, "gostop-desktop")
            await keyboard_press(tab, frame, ".decisions button" if step == "decide"
                                 else ".hand button:not([disabled])")
        steps[step] += 1
    else:
        raise AssertionError("the game did not end within 500 steps")
    await shot(tab, shots, "gostop-desktop-over")
    assert steps["play"] >= 5
    assert "·" in await frame.locator(".log .last").inner_text()
    assert not page_bot.tables.tables  # over, and settled


def _choice_deal() -> tuple[int, str, list[str]]:
    """A Koi-Koi deal where the player who starts holds a card that may take either of two
    field cards: its seed, the card and the two it may take."""
    for seed in range(1000):
        match = koikoi.new_match(2, koikoi.Rules(teyaku="off"), seed)
        if match.current_player != 0:
            continue
        moves = [a for _, a in presenter.hand_actions(match.observation(0))]
        for card in {a.card for a in moves}:
            targets = [a.target for a in moves if a.card == card and a.target]
            if len(targets) == 2:
                return seed, card, targets
    raise AssertionError("no deal of the first thousand offers a choice")


async def test_a_card_that_may_take_either_of_two_asks_which(page_bot, standin, world, browser):
    seed, card, targets = _choice_deal()
    page_bot.tables.new_seed = lambda: seed
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin)
    frame = tab.frames[1]
    button = frame.locator(f'.hand button[data-key="hand:{card}"]:not([disabled])')
    await button.click()
    choices = frame.locator("#dialog .choices button")
    assert await choices.evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))") == \
        [card_name(t) for t in targets]
    await shot(tab, [], "koikoi-choice")
    await tab.keyboard.press("Escape")  # changing one's mind plays nothing
    await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
    assert await frame.locator("#table").get_attribute("data-seq") == "0"
    await button.click()
    await choices.nth(1).click()
    await frame.wait_for_function("() => Number(document.getElementById('table').dataset.seq) >= 1",
                                  timeout=STEP_MS)
    [table] = page_bot.tables.tables.values()
    assert {card, targets[1]} <= set(table.match.observation(0)["captured"][0])
    assert targets[0] not in table.match.observation(0)["captured"][0]


async def test_the_page_comes_back_by_itself_after_the_bot_restarts(start_bot, standin, world, browser, tmp_path):
    db = tmp_path / "restart.sqlite3"

    async def bot_with_activity(port: int):
        bot = await start_bot(framed_bot(Settings(token=standin.token, database_path=db,
                                                  dev_guild_id=world.guild.id, activity_port=port,
                                                  client_secret=standin.oauth.client_secret), standin))
        bot.tables.ai_delay = 0.01
        return bot

    first = await bot_with_activity(0)
    await human_moves_first(first, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    tab, _ = await open_activity(browser, first, standin, world, world.admin)
    frame = tab.frames[1]
    await frame.wait_for_function(NEXT, arg=[-1], timeout=STEP_MS)  # the player's turn: nothing moves
    before = await frame.evaluate(MINE)
    port = first.activity_server.port
    await first.close()
    second = await bot_with_activity(port)
    # signed in again through the SDK, and drawn anew from the restarted bot
    await tab.wait_for_function("() => window.harness.answered.filter(a => a === 'AUTHENTICATE').length >= 2",
                                timeout=STEP_MS)
    await frame.wait_for_function(f"() => Number(document.getElementById('table').dataset.shown) > {before['shown']}",
                                  timeout=STEP_MS)
    after = await frame.evaluate(MINE)
    assert {**after, "shown": 0} == {**before, "shown": 0}
    await play_to_the_end(tab, frame, [], "koikoi-restarted")
    assert not second.tables.tables


MINE = """() => ({
  seq: document.getElementById("table").dataset.seq,
  shown: Number(document.getElementById("table").dataset.shown),
  hand: [...document.querySelectorAll(".hand button")].map(b => b.getAttribute("aria-label")),
  field: [...document.querySelectorAll(".field .cards .card")].map(c => c.getAttribute("aria-label")),
})"""


async def test_the_lobby_starts_a_game_against_the_ai_and_comes_back_after_it(
        page_bot, standin, world, browser):
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin)
    frame = tab.frames[1]
    await frame.locator("#lobby-game").select_option("koikoi")
    await frame.locator("#lobby-length").select_option("1")
    await frame.locator("#lobby-level").select_option("easy")
    shots: list[str] = []
    await shot(tab, shots, "lobby")
    await frame.locator('button[data-key="lobby:ai"]').click()
    await frame.wait_for_function(NEXT, arg=[-1], timeout=STEP_MS)
    [table] = page_bot.tables.tables.values()
    assert table.game == "koikoi" and table.players == [world.admin.id, "ai:easy"]
    assert table.match.rules.rounds == 1
    await play_to_the_end(tab, frame, shots, "lobby-koikoi")
    await frame.locator('button[data-key="lobby:back"]').click()
    await frame.wait_for_selector("#lobby-game", timeout=STEP_MS)
    # the lobby keeps the choices just played, so the same game again is one press
    chosen = [await frame.locator(f"#lobby-{name}").input_value() for name in ("game", "length", "level")]
    assert chosen == ["koikoi", "1", "easy"]


async def test_how_to_play_opens_over_the_lobby_and_over_the_table(page_bot, standin, world, browser):
    await page_bot.store.set_house_rules(world.guild.id, "gostop", {"chongtong": "off"})
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin)
    frame = tab.frames[1]
    await frame.locator("#lobby-game").select_option("gostop")
    await frame.locator('button[data-key="lobby:rules"]').click()
    await frame.wait_for_function("() => document.getElementById('dialog').open", timeout=STEP_MS)
    dialog = frame.locator("#dialog")
    assert await dialog.locator("h2").inner_text() == "📖 Go-Stop · how to play"
    assert await dialog.locator("p strong").count() >= 3  # the texts' bold marks, drawn as elements
    assert "`chongtong` = off" not in await dialog.inner_text()  # code marks drawn as code
    assert await dialog.locator("code", has_text="chongtong").count() == 1
    sheet = dialog.locator('button[data-key="rules:sheet"] img')
    await frame.wait_for_function("() => { const i = document.querySelector('#dialog .sheet img');"
                                  " return i && i.complete && i.naturalWidth === 1000; }", timeout=STEP_MS)
    fitted = await sheet.evaluate("i => i.getBoundingClientRect().width")
    shots: list[str] = []
    await shot(tab, shots, "rules")
    await frame.wait_for_function("() => { const i = document.querySelector('#dialog [data-key=\"rules:cards\"] img');"
                                  " return i && i.complete && i.naturalWidth > 800; }", timeout=STEP_MS)
    await dialog.locator('button[data-key="rules:sheet"]').click()  # a tap: its own size, scrolled
    await frame.wait_for_function("() => document.querySelector('#dialog .sheet img').getBoundingClientRect().width"
                                  " >= 999", timeout=STEP_MS)
    assert fitted < 400 and await dialog.locator(".sheet-box").first.evaluate("b => b.scrollWidth > b.clientWidth")
    await dialog.locator('button[data-key="rules:close"]').click()
    await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
    # and from the table, the game it plays
    await frame.locator('button[data-key="lobby:ai"]').click()
    await frame.wait_for_function(NEXT, arg=[-1], timeout=STEP_MS)
    await frame.locator('button[data-key="rules"]').click()
    await frame.wait_for_function("() => document.getElementById('dialog').open", timeout=STEP_MS)
    assert await dialog.locator("h2").inner_text() == "📖 Go-Stop · how to play"
    await dialog.locator('button[data-key="rules:close"]').click()
    await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
    [table] = page_bot.tables.tables.values()
    assert table.game == "gostop" and not table.finished


async def test_a_finished_game_against_the_ai_is_played_again_by_its_rematch_button(
        page_bot, standin, world, browser):
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin)
    frame = tab.frames[1]
    await frame.locator("#lobby-level").select_option("hard")
    await frame.locator('button[data-key="lobby:ai"]').click()
    await frame.wait_for_function(NEXT, arg=[-1], timeout=STEP_MS)
    [first] = page_bot.tables.tables.values()
    await page_bot.tables.forfeit_by(first.game_id, world.admin.id)
    again = frame.locator('button[data-key="lobby:again"]')
    await again.wait_for(timeout=STEP_MS)
    await shot(tab, [], "rematch")
    await again.click()
    await frame.wait_for_function("() => document.getElementById('table').dataset.over === '0' && "
                                  "!document.querySelector('[data-key=\"lobby:again\"]')", timeout=STEP_MS)
    [second] = page_bot.tables.tables.values()
    assert second.game_id != first.game_id and second.players == [world.admin.id, "ai:hard"]
    assert not await harness_errors(tab)


async def test_the_deal_of_the_day_is_played_from_the_lobby_with_no_hint(page_bot, standin, world, browser):
    await pin_the_day(page_bot, world.guild.id)  # a deal whose first move is the member's
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin)
    frame = tab.frames[1]
    await frame.locator("#lobby-game").select_option("koikoi")
    daily = frame.locator("section.daily")
    assert "one round against the AI (hard), once a day" in await daily.inner_text()
    await daily.locator('button[data-key="lobby:daily"]').click()
    await frame.wait_for_function(NEXT, arg=[-1], timeout=STEP_MS)
    [table] = page_bot.tables.tables.values()
    assert table.players == [world.admin.id, "ai:hard"] and table.match.rules.rounds == 1
    assert await frame.locator("header .tag").inner_text() == "🌅 Deal of the day"
    await frame.locator(".hand button:not([disabled])").first.wait_for(timeout=STEP_MS)
    assert await frame.locator("button.hint").count() == 0  # everyone plays the day's deal unaided
    shots: list[str] = []
    await play_to_the_end(tab, frame, shots, "daily")
    result = frame.locator(".log .daily-result").first
    await result.wait_for(timeout=STEP_MS)
    assert (await result.inner_text()).startswith("Deal of the day: ")
    assert "place 1 of 1 so far" in await result.inner_text()
    assert await frame.locator('[data-key="lobby:again"]').count() == 0  # once a day
    # shared through Discord's own window, sent by the member with the Activity's link
    await frame.locator('button[data-key="daily:share"]').click()
    await frame.wait_for_function("() => document.getElementById('status').textContent === 'Shared.'",
                                  timeout=STEP_MS)
    [sent] = await tab.evaluate("() => window.harness.shared")
    assert sent["custom_id"] == "daily:koikoi"
    line, invite = sent["message"].split("\n")  # the result alone, never a card of the deal
    assert line.startswith("🌅 I played the Koi-Koi deal of ") and \
        line.endswith(" against the AI, place 1 of 1 so far.")
    assert invite == "Everyone here is dealt the same cards until midnight UTC. Can you beat me?"
    await frame.locator('button[data-key="daily:board"]').click()
    mine = frame.locator("#dialog[open] ol.board li.me")
    await mine.wait_for(timeout=STEP_MS)
    assert "alice" in await mine.inner_text()
    await shot(tab, shots, "daily-board")
    await frame.locator('button[data-key="board:close"]').click()
    await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
    # back in the lobby, the box says the day's deal of the game chosen was played
    await frame.locator('button[data-key="lobby:back"]').click()
    await frame.wait_for_function("() => (document.getElementById('lobby-today') || {}).textContent"
                                  " && document.getElementById('lobby-today').textContent.startsWith('Played today:')",
                                  timeout=STEP_MS)
    await frame.locator("#lobby-game").select_option("gostop")  # a game not played today: nothing
    assert await frame.locator("#lobby-today").inner_text() == ""
    assert not await harness_errors(tab)


async def test_a_shared_result_opens_the_lobby_on_its_games_deal_of_the_day(page_bot, standin, world, browser):
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin, custom_id="daily:mushi")
    frame = tab.frames[1]
    play = frame.locator('button[data-key="lobby:daily"]')
    await frame.wait_for_function("() => document.activeElement && document.activeElement.dataset.key === 'lobby:daily'",
                                  timeout=STEP_MS)
    assert await frame.locator("#lobby-game").input_value() == "mushi"
    await play.click()  # the deal of the day of the game the link named
    await frame.wait_for_function(NEXT, arg=[-1], timeout=STEP_MS)
    [table] = page_bot.tables.tables.values()
    assert table.game == "mushi" and table.players == [world.admin.id, "ai:hard"]
    # a link naming no game of the lobby's opens the lobby as it is
    other, _ = await open_activity(browser, page_bot, standin, world, world.player, custom_id="daily:chess")
    frame = other.frames[1]
    await frame.locator("#lobby-game").wait_for(timeout=STEP_MS)
    assert await frame.locator("#lobby-game").input_value() == "koikoi"
    assert await frame.evaluate("() => document.activeElement.dataset.key || ''") != "lobby:daily"
    assert not await harness_errors(tab) and not await harness_errors(other)


async def test_the_host_invites_friends_then_closes_the_seats_and_the_lobby_comes_back(page_bot, standin, world, browser):
    tab, _ = await open_activity(browser, page_bot, standin, world, world.admin)
    frame = tab.frames[1]
    await frame.locator("#lobby-game").select_option("sakura")
    await frame.locator("#lobby-players").select_option("3")
    await frame.locator('button[data-key="lobby:open"]').click()
    close = frame.locator('button[data-key="lobby:unseat"]')
    await close.wait_for(timeout=STEP_MS)
    assert await close.inner_text() == "Cancel"
    # the host brings friends in through Discord's own invite window
    await shot(tab, [], "open-seats")
    await frame.locator('button[data-key="lobby:invite"]').click()
    await tab.wait_for_function("() => window.harness.answered.includes('OPEN_INVITE_DIALOG')", timeout=STEP_MS)
    assert await frame.locator("#status").inner_text() == ""  # no word of a failure
    await close.click()
    await frame.wait_for_selector("#lobby-game", timeout=STEP_MS)
    assert not page_bot.activity_server.lobbies.open and not page_bot.tables.tables
    assert await frame.locator("#lobby-game").input_value() == "sakura"  # the choices kept


async def play_together(players: list[tuple], name: str) -> dict[int, int]:
    """Two or more pages of one game, each clicking on its own turn until the game is over on
    every page: the moves each made."""
    pressed = {i: -1 for i in range(len(players))}
    moves = dict.fromkeys(pressed, 0)
    over: set[int] = set()
    for _ in range(1000):
        if len(over) == len(players):
            return moves
        waits = {asyncio.ensure_future(tab.frames[1].wait_for_function(NEXT, arg=[pressed[i]], timeout=STEP_MS)): i
                 for i, (tab, _) in enumerate(players) if i not in over}
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for waiting in pending:
            waiting.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for finished in done:
            i, step = waits[finished], await finished.result().json_value()
            tab, _ = players[i]
            frame = tab.frames[1]
            if step == "over":
                over.add(i)
            elif step == "dialog":
                choice = frame.locator("#dialog .choices button")
                await (choice.first if await choice.count() else frame.locator("#dialog button.primary")).click()
                await frame.wait_for_function("() => !document.getElementById('dialog').open", timeout=STEP_MS)
            elif step == "slap":
                await frame.locator("button.slap").click()
                await frame.wait_for_function("() => !document.querySelector('button.slap')", timeout=STEP_MS)
            else:
                pressed[i] = int(await frame.locator("#table").get_attribute("data-seq"))
                target = ".decisions button" if step == "decide" else ".hand button:not([disabled])"
                await frame.locator(target).first.click()
                moves[i] += 1
    raise AssertionError(f"{name} did not end within 1000 steps")


async def test_two_players_in_one_activity_play_koikoi_to_the_end(page_bot, standin, world, browser):
    """One opens seats in the lobby, the other takes the last one; both play from their pages."""
    instance = standin.oauth.open_activity(world.channel, world.admin)
    host = await open_activity(browser, page_bot, standin, world, world.admin, instance=instance)
    friend = await open_activity(browser, page_bot, standin, world, world.player, instance=instance)
    host_frame, friend_frame = host[0].frames[1], friend[0].frames[1]
    await host_frame.locator("#lobby-game").select_option("koikoi")
    await host_frame.locator("#lobby-length").select_option("1")
    await host_frame.locator('button[data-key="lobby:open"]').click()
    await friend_frame.locator('button[data-key="lobby:sit"]').click()
    for frame in (host_frame, friend_frame):
        await frame.wait_for_function("() => document.getElementById('table').dataset.seq", timeout=STEP_MS)
    [table] = page_bot.tables.tables.values()
    assert table.players == [world.admin.id, world.player.id]
    shots: list[str] = []
    await shot(host[0], shots, "koikoi-two-players")
    moves = await play_together([host, friend], "koikoi for two")
    assert moves[0] >= 1 and moves[1] >= 1
    results = [await frame.locator(".log .last").inner_text() for frame in (host_frame, friend_frame)]
    assert results[0] == results[1] and "·" in results[0]
    assert not page_bot.tables.tables  # over, and settled
    # Rematch on both pages: the first opens the rematch's seats, the second's starts it
    await host_frame.locator('button[data-key="lobby:again"]').click()
    await host_frame.wait_for_function(
        "() => document.querySelector('.lobby h1')?.textContent === 'Koi-Koi rematch'", timeout=STEP_MS)
    assert await host_frame.locator('button[data-key="lobby:unseat"]').inner_text() == "Cancel"
    await friend_frame.locator('button[data-key="lobby:again"]').click()
    for frame in (host_frame, friend_frame):
        await frame.wait_for_function("() => document.getElementById('table').dataset.over === '0'",
                                      timeout=STEP_MS)
    [again] = page_bot.tables.tables.values()
    assert sorted(again.players) == sorted(table.players) and again.match.rules.rounds == 1


@pytest.mark.parametrize("game, options", [
    ("mushi", {"ai": "easy", "rounds": 1}),
    ("sakura", {"ai": "normal", "rounds": 1}),
    ("hanaawase", {"ai": "normal", "rounds": 1}),
    ("firstbloom", {"ai": "normal", "rounds": 1}),
    ("seotda", {"ai": "normal", "rounds": 1}),
])
async def test_every_other_game_plays_to_its_end_in_the_browser(page_bot, standin, world, browser,
                                                                game, options):
    await world.admin.slash(world.channel, game, **options)
    tab, frame = await open_activity(browser, page_bot, standin, world, world.admin)
    await play_to_the_end(tab, frame, [], game)
    assert await tab.frames[1].locator(".log .last").inner_text()  # how it ended
    assert not page_bot.tables.tables
