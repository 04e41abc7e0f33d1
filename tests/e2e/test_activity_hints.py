"""Hints on the Activity's page: the same casual games as the Hint button offer one, priced by
the same search, shown in the page's own words; a turn is priced once however often its page
asks, and a table that offers none says so and prices nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.tables import TableManager, hints
from tests.e2e.activity import activity_bot, joined
from tests.e2e.test_activity_server import base
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio

PREFERS = {"en": "The search prefers", "ja": "探索のおすすめ", "ko": "탐색이 고른 수"}
TITLES = {"en": "Hint", "ja": "ヒント", "ko": "힌트"}
LOCALES = {"en": "en-US", "ja": "ja", "ko": "ko"}  # as Discord names them


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path, monkeypatch):
    settings = Settings(token=standin.token, database_path=tmp_path / "bot.sqlite3",
                        dev_guild_id=world.guild.id, activity_port=0,
                        client_secret=standin.oauth.client_secret, hint_rollouts=6)
    # The AI thinks for an hour: after the player's move the turn stays the AI's.
    monkeypatch.setattr(TableManager, "ai_delay", 3600.0)
    bot = await start_bot(activity_bot(settings))
    await human_moves_first(bot, world)
    return bot


@pytest.fixture
def priced(monkeypatch) -> list[int]:
    """The games of every hint priced, in order."""
    seen: list[int] = []
    price_turn = hints.price_turn

    async def counted(tables, table, seat, rollouts):
        seen.append(table.game_id)
        return await price_turn(tables, table, seat, rollouts)

    monkeypatch.setattr(hints, "price_turn", counted)
    return seen


async def page_at_my_turn(hbot, standin, world, http):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(hbot), standin, world.admin, instance)
    return page, await page.state(lambda s: s["moves"], "the player's turn")


async def ask_hint(page, state) -> tuple[int, dict]:
    page.nonce += 1
    await page.send(type="hint", game=state["game"]["id"], n=page.nonce)
    nonce = page.nonce
    return nonce, await page.next(lambda m: m["type"] in ("hint", "refused") and m.get("n") == nonce,
                                  "the hint's answer")


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
async def test_a_casual_game_gives_the_page_a_hint_in_its_language(hbot, standin, world, http, priced,
                                                                   language):
    world.admin.locale = LOCALES[language]
    page, state = await page_at_my_turn(hbot, standin, world, http)
    assert state["hint"] is True
    _, hint = await ask_hint(page, state)
    assert hint["type"] == "hint", hint
    assert (hint["game"], hint["seq"]) == (state["game"]["id"], state["game"]["seq"])
    assert TITLES[language] in hint["title"]
    assert hint["lines"][0].startswith(PREFERS[language]) and "%" in hint["lines"][0]
    assert not any("**" in line for line in hint["lines"])  # Discord's bold marks, taken out
    assert hint["note"]
    # the same turn again: the same words, not priced a second time
    _, again = await ask_hint(page, state)
    assert {k: again[k] for k in ("lines", "note")} == {k: hint[k] for k in ("lines", "note")}
    assert priced == [state["game"]["id"]]
    # the hint changed nothing: the same move is still to play, and plays
    nonce = await page.press(state)
    assert (await page.answer(nonce))["type"] == "played"


async def test_no_hint_off_the_players_turn_or_where_the_server_turned_them_off(
        hbot, standin, world, http, priced):
    page, state = await page_at_my_turn(hbot, standin, world, http)
    nonce = await page.press(state)
    assert (await page.answer(nonce))["type"] == "played"
    waiting = await page.state(lambda s, seq=state["game"]["seq"]: s["game"]["seq"] > seq, "the AI's turn")
    assert waiting["hint"] is False and not waiting["moves"]
    _, refused = await ask_hint(page, waiting)
    assert refused["type"] == "refused" and refused["code"] == "hint"
    assert refused["text"] == "Hints are for your own turn; ask again when it is your move."
    # a game this page does not show is refused before any table reads it
    page.nonce += 1
    await page.send(type="hint", game=state["game"]["id"] + 1000, n=page.nonce)
    other = await page.next(lambda m: m["type"] == "refused" and m.get("n") == page.nonce, "the refusal")
    assert other["code"] == "table"
    # the server turns hints off: the next game's page offers none, and an ask is refused
    [running] = await hbot.store.list_running_games(world.guild.id)
    await hbot.tables.cancel(hbot.tables.tables[running.game_id], world.admin.id, "cancelled by alice")
    await world.admin.slash(world.channel, "settings hints", offered=False)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    state = await page.state(lambda s: s["moves"] and s["game"]["id"] != running.game_id, "the new game")
    assert state["hint"] is False
    _, refused = await ask_hint(page, state)
    assert refused["type"] == "refused" and refused["text"].startswith("Hints are only for casual games")
    assert priced == []


async def test_a_page_that_asks_while_its_hint_is_priced_is_told_to_wait(hbot, standin, world, http,
                                                                         monkeypatch):
    page, state = await page_at_my_turn(hbot, standin, world, http)
    started, release = asyncio.Event(), asyncio.Event()
    price_turn = hints.price_turn

    async def held(tables, table, seat, rollouts):
        started.set()
        await release.wait()
        return await price_turn(tables, table, seat, rollouts)

    monkeypatch.setattr(hints, "price_turn", held)
    page.nonce += 1
    first = page.nonce
    await page.send(type="hint", game=state["game"]["id"], n=first)
    await started.wait()
    _, busy = await ask_hint(page, state)
    assert busy["type"] == "refused" and busy["code"] == "busy"
    release.set()
    hint = await page.next(lambda m: m["type"] == "hint" and m.get("n") == first, "the first hint")
    assert hint["lines"]


async def test_a_game_from_the_pages_lobby_offers_hints_and_a_staked_one_none(hbot, standin, world,
                                                                              http):
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(hbot), standin, world.admin, instance)
    await page.next(lambda m: m["type"] == "idle", "the lobby")
    page.nonce += 1
    await page.send(type="ai", play="koikoi", level="normal", rounds=1, n=page.nonce)
    state = await page.state(lambda s: s["moves"], "the player's turn")
    assert state["hint"] is True
    await hbot.tables.cancel(hbot.tables.tables[state["game"]["id"]], world.admin.id, "cancelled by alice")
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1, stake=50)
    staked = await page.state(lambda s: s["moves"] and s["game"]["id"] != state["game"]["id"],
                              "the staked game")
    assert staked["hint"] is False


async def test_a_failure_nobody_foresaw_is_one_sentence_and_the_table_goes_on(hbot, standin, world, http,
                                                                              monkeypatch, caplog):
    """A hint or a press that fails inside the bot is answered with one sentence (its
    traceback goes to the log), and the next ask is served as usual."""
    page, state = await page_at_my_turn(hbot, standin, world, http)
    price_turn = hints.price_turn

    async def broken(*args):
        raise RuntimeError("the search broke")

    monkeypatch.setattr(hints, "price_turn", broken)
    _, failed = await ask_hint(page, state)
    assert failed["type"] == "refused" and failed["code"] == "fault"
    assert failed["text"] == "Something went wrong; there is no hint now."
    assert "the search broke" in caplog.text and "the search broke" not in failed["text"]
    monkeypatch.setattr(hints, "price_turn", price_turn)
    _, hint = await ask_hint(page, state)
    assert hint["type"] == "hint"
    press = hbot.tables.press

    async def press_broken(*args, **kwargs):
        raise RuntimeError("the table broke")

    monkeypatch.setattr(hbot.tables, "press", press_broken)
    failed = await page.answer(await page.press(state))
    assert failed["code"] == "fault" and failed["text"] == "Something went wrong; nothing was played."
    monkeypatch.setattr(hbot.tables, "press", press)
    assert (await page.answer(await page.press(state)))["type"] == "played"


async def test_a_seotda_hint_on_the_page_prices_every_bet(hbot, standin, world, http):
    await world.admin.slash(world.channel, "seotda", ai="normal", rounds=1)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(hbot), standin, world.admin, instance)
    state = await page.state(lambda s: s["moves"], "the player's bet")
    assert state["hint"] is True
    _, hint = await ask_hint(page, state)
    assert hint["type"] == "hint", hint
    assert hint["lines"][0].startswith("The AI's pick is ") and "chips expected" in hint["lines"][0]
    choices = [line for line in hint["lines"] if line.startswith("• ")]
    assert len(choices) == len(state["moves"]) and all(line.endswith("%") for line in choices)
    assert "sampled deals of the cards you cannot see" in hint["note"]
