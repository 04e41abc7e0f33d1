"""Achievements through the stand-in: a game's final table names what it earned its players, and
/stats lists a player's achievements with the next one to earn, in the player's language."""

from __future__ import annotations

import pytest

from tests.e2e.community_data import embed, field, start_hbot
from tests.e2e.playing import section, table_messages, table_posted

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_hbot(start_bot, standin, world, tmp_path)
    # A one-round match dealt a hand yaku would be over before its forfeit could decide it.
    await bot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    return bot


async def test_the_final_table_and_stats_show_what_was_earned(hbot, standin, world):
    alice, bob = world.admin, world.player
    challenge = (await alice.slash(world.channel, "koikoi", opponent=bob, rounds=1)).original
    await bob.click(challenge, next(c for c in challenge.custom_ids() if ":accept:" in c))
    await table_posted(standin, world.channel)
    [table] = hbot.tables.tables.values()
    await hbot.tables.forfeit_by(table.game_id, bob.id)  # alice wins her first game here
    [message] = table_messages(standin, world.channel)
    final = await standin.wait_for(
        lambda: (m := standin.message(message)) and section(m, "Result") and m, "the final table")
    result = section(final, "Result")
    assert "New achievements: alice: 🌱 First win" in result
    assert "bob" not in result.split("New achievements:", 1)[1]  # a loss earns nothing

    mine = (await alice.slash(world.channel, "stats")).original
    held, to_earn, *rest = field(mine, "Achievements (1 of 13)").split("\n")
    assert (held, to_earn) == ("🌱 First win", "To earn:")  # her own record: every one still to earn
    assert rest[0] == "🎴 Regular: finish 10 games" and len(rest) == 12
    assert "🌕 Five brights: take all five brights in a round of Koi-Koi, Go-Stop, Mushi or Hana-Awase" in rest
    assert rest[7:10] == [  # each game's own feat, in the games' order
        "💮 Basa: win a round of Higo-Bana by 100 points or more over every other side",
        "🍁 Hand hiki: discard all four cards of a month from your hand in First Bloom",
        "🎆 38 Gwang-ttaeng: show 38 gwang-ttaeng, the best hand of Seotda, at a showdown"]
    assert "stats.png" in mine.files  # the card, with its tile of how many (see the rendering tests)
    theirs = (await alice.slash(world.channel, "stats", user=bob)).original
    assert field(theirs, "Achievements (0 of 13)") == "Next: 🌱 First win (win a game)"
    assert embed(theirs)  # posted for the channel, naming nobody with a ping
    standin.assert_no_mass_mentions()

    # the board of achievements: of every game and season, the game asked for said so
    board = (await bob.slash(world.channel, "leaderboard", order="achievements")).original
    assert f"**#1** <@{alice.id}> — 1 achievement" in embed(board)["description"]
    assert "leaderboard.png" in board.files
    one_game = (await bob.slash(world.channel, "leaderboard", order="achievements", game="koikoi")).original
    assert "Achievements are earned over every game" in embed(one_game)["description"]
    await alice.slash(world.channel, "season start", name="Later")
    kept = (await bob.slash(world.channel, "leaderboard", order="achievements")).original
    assert f"<@{alice.id}> — 1 achievement" in embed(kept)["description"]  # kept through seasons
    assert "Season" not in embed(kept)["footer"]["text"]

    # in the server's language, as everything posted for the channel
    await alice.slash(world.channel, "settings language", language="ja")
    ja = (await alice.slash(world.channel, "stats")).original
    theirs_ja = (await alice.slash(world.channel, "stats", user=bob, season="all")).original
    assert field(theirs_ja, "実績（13個中0個）") == "次の目標：🌱 初勝利（ゲームに1回勝つ）"
    assert field(ja, "実績（13個中1個）").startswith("🌱 初勝利\nこれから得られる実績：\n🎴 常連：ゲームを10回終える")
