"""How to play, on the Activity's page: a game's rules as ``/rules`` tells them, the rules it is
played by where the page is, and its yaku sheet served as a picture; asked from the lobby or
during a game, in the page's language, and changing nothing at the table."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.config import Settings
from bot.games import GAMES
from bot.i18n import speaking
from bot.rules_text import how_to_play
from tests.e2e.activity import activity_bot, joined
from tests.e2e.test_activity_lobby import lobby_of
from tests.e2e.test_activity_server import base
from tests.e2e.test_koikoi_bot import human_moves_first

pytestmark = pytest.mark.asyncio

LOCALES = {"en": "en-US", "ja": "ja", "ko": "ko"}  # as Discord names them
HOUSE = {"en": "House rules on this server", "ja": "このサーバーのハウスルール", "ko": "이 서버의 하우스 룰"}


@pytest.fixture
async def rbot(start_bot, standin, world, tmp_path):
    settings = Settings(token=standin.token, database_path=tmp_path / "bot.sqlite3",
                        dev_guild_id=world.guild.id, activity_port=0,
                        client_secret=standin.oauth.client_secret)
    bot = await start_bot(activity_bot(settings))
    bot.tables.ai_delay = 3600.0  # the game stays where the page left it
    await human_moves_first(bot, world)  # Koi-Koi's hand yaku off, the player to move first
    return bot


async def ask(page, game: str) -> dict:
    """Ask for a game's rules: the answer, or the refusal."""
    page.nonce += 1
    await page.send(type="rules", play=game, n=page.nonce)
    return await page.next(lambda m, n=page.nonce: m["type"] in ("rules", "refused") and m.get("n") == n,
                           f"the rules of {game}")


async def rules(page, game: str) -> dict:
    answer = await ask(page, game)
    assert answer["type"] == "rules", answer
    return answer


async def test_every_game_has_its_rules_and_sheet_for_the_page(rbot, standin, world, http):
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(rbot), standin, world.admin, instance)
    await lobby_of(page)
    for game in GAMES:
        told = await rules(page, game)
        with speaking("en"):
            assert told["text"] == how_to_play(game)
        assert told["game"] == game and "how to play" in told["title"]
        assert told["house_title"] == "House rules on this server" and told["house"].startswith("Preset")
        assert told["sheet"] == f"sheets/{game}-en.png" and told["sheet_alt"]
        async with http.get(f"{base(rbot)}/{told['sheet']}") as got:
            assert got.status == 200 and got.content_type == "image/png"
            assert got.headers["Cache-Control"] == "public, max-age=86400"
            image = Image.open(io.BytesIO(await got.read()))
            assert image.width == 1000 and image.height > 300
            tag = got.headers["ETag"]
        async with http.get(f"{base(rbot)}/{told['sheet']}", headers={"If-None-Match": tag}) as again:
            assert again.status == 304
        assert told["cards"] == f"decks/{game}-en.png" and told["cards_alt"] and told["cards_title"]
        async with http.get(f"{base(rbot)}/{told['cards']}") as got:  # the cards by month
            assert got.status == 200 and got.content_type == "image/png"
            assert Image.open(io.BytesIO(await got.read())).width <= 1000
            assert got.headers["ETag"] != tag
    # the server's own house rules: Koi-Koi's hand yaku are off here
    assert "`teyaku` = off" in (await rules(page, "koikoi"))["house"]
    # nothing but a game of the bot's, and a sheet of a game and a language it has
    answer = await ask(page, "chess")
    assert answer["type"] == "refused" and answer["code"] == "rules" and answer["text"] == "There is no such game."
    for path in ("sheets/chess-en.png", "sheets/koikoi-fr.png", "sheets/koikoi-en.gif", "sheets/../app.js-en.png",
                 "decks/chess-en.png", "decks/koikoi-xx.png"):
        async with http.get(f"{base(rbot)}/{path}") as got:
            assert got.status == 404, path
    assert not rbot.tables.tables


@pytest.mark.parametrize("language", ["ja", "ko"])
async def test_the_rules_come_in_the_pages_language(rbot, standin, world, http, language):
    world.admin.locale = LOCALES[language]
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(rbot), standin, world.admin, instance)
    await lobby_of(page)
    told = await rules(page, "gostop")
    with speaking(language):
        assert told["text"] == how_to_play("gostop")
    assert told["house_title"] == HOUSE[language] and told["sheet"] == f"sheets/gostop-{language}.png"
    assert "how to play" not in told["title"] and not any(c.isascii() and c.isalpha() for c in told["sheet_alt"])
    async with http.get(f"{base(rbot)}/{told['sheet']}") as got:
        assert got.status == 200


async def test_the_rules_are_read_during_a_game_and_change_nothing(rbot, standin, world, http):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    instance = standin.oauth.open_activity(world.channel, world.admin)
    page, _ = await joined(http, base(rbot), standin, world.admin, instance)
    state = await page.state(lambda s: s["moves"], "the player's turn")
    [table] = rbot.tables.tables.values()
    seq = table.seq
    told = await rules(page, state["game"]["kind"])
    assert told["game"] == "koikoi" and "`teyaku` = off" in told["house"]
    assert table.seq == seq and not table.finished
    # and the game goes on from the page
    answer = await page.answer(await page.press(state))
    assert answer["type"] == "played" and table.seq > seq


async def test_where_the_bot_is_a_guest_the_games_own_rules_are_told(rbot, standin, world, http):
    instance = standin.oauth.open_activity(world.player.dm_channel, world.player)
    page, _ = await joined(http, base(rbot), standin, world.player, instance)
    await page.next(lambda m: m["type"] == "idle", "the idle page")
    told = await rules(page, "koikoi")
    assert told["house_title"] == "The game's own rules"
    assert "teyaku" not in told["house"] and "(`nintendo`, the default)" in told["house"]
