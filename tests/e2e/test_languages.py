"""Languages through Discord: the commands Discord shows, /language, /settings language."""

from __future__ import annotations

import json
import re

import pytest

from bot.i18n import speaking, t
from bot.replay import _FORMAT_FIELDS
from bot.store import EVERY_SERVER, SeatResult
from rendering.view import GAME_NAMES
from tests.discord_standin.server import CommandHidden
from tests.discord_standin.state import walk_components
from tests.e2e.community_data import finish_quick, pager_ids, play_game, start_hbot
from tests.e2e.playing import (
    hand_message,
    heading,
    play_out,
    reply_text,
    section,
    small_print,
    table_posted,
)
from tests.e2e.test_koikoi_bot import human_moves_first, make_bot
from tests.e2e.test_records import answer, step_to
from tests.i18n.test_player_korean import BOTH_FORMS


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


def command(standin, guild_id: int, name: str) -> dict:
    return next(c for c in standin.commands[guild_id] if c["name"] == name)


async def test_discord_receives_every_command_in_japanese_and_korean(hbot, standin, world):
    koikoi = command(standin, world.guild.id, "koikoi")  # the sync the stand-in checked against the spec
    assert koikoi["name_localizations"] == {"ja": "こいこい", "ko": "고이고이"}
    assert koikoi["description_localizations"]["ja"].startswith("こいこいで遊ぶ")
    ai = next(o for o in koikoi["options"] if o["name"] == "ai")
    hard = next(c for c in ai["choices"] if c["value"] == "hard")
    assert hard["name_localizations"] == {"ja": "むずかしい", "ko": "어려움"}
    settings = command(standin, world.guild.id, "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert language["name_localizations"] == {"ja": "言語", "ko": "언어"}


async def test_a_member_is_answered_in_their_client_language_until_they_choose(hbot, standin, world):
    player = world.player
    player.locale = "ja"
    record = await player.slash(world.channel, "language", language="auto")
    assert reply_text(record) == "Discordの言語設定（日本語）に合わせます。"
    record = await player.slash(world.channel, "language", language="ko")  # chosen: wins over the client
    assert reply_text(record) == "이제 한국어로 말할게요."
    assert hbot.languages.of_user(player.id) == "ko"  # and a DM to them will be Korean
    record = await player.slash(world.channel, "language", language="en")
    assert reply_text(record) == "I will speak English with you."


async def test_staff_set_the_language_of_the_servers_public_messages(hbot, standin, world):
    admin = world.admin
    admin.locale = "ko"
    record = await admin.slash(world.channel, "settings language", language="ja")
    assert "공개 판과 메시지를 이제 日本語로 표시합니다." in reply_text(record)  # answered in her language
    assert (await hbot.store.get_settings(world.guild.id)).language == "ja"
    assert await hbot.languages.of_guild(world.guild.id, None) == "ja"
    record = await admin.slash(world.channel, "settings language", language="auto")
    assert (await hbot.store.get_settings(world.guild.id)).language == ""
    world.guild.locale = "ko"
    assert await hbot.languages.of_guild(world.guild.id, "ko") == "ko"


async def test_a_member_without_manage_server_cannot_change_the_servers_language(hbot, standin, world):
    with pytest.raises(CommandHidden):  # Discord does not even show /settings to them
        await world.player.slash(world.channel, "settings language", language="ko")
    assert (await hbot.store.get_settings(world.guild.id)).language == ""


async def hand_press(standin, user, hand) -> None:
    """Press the first move the hand offers."""
    await user.click(hand, next(c for c in hand.custom_ids() if c.startswith(("hf:act:", "hf:mv:"))))


async def test_a_japanese_player_at_a_korean_servers_table(start_bot, standin, world, tmp_path):
    """The table speaks the server's language, the hand and its DMs the player's own."""
    world.guild.locale = "ko"  # the server's Discord language, sent when the bot connects
    player = world.admin
    player.locale = "ja"
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    await player.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await table_posted(standin, world.channel)
    hand = await standin.wait_for(lambda: hand_message(standin, player), "the player's hand")
    assert heading(hand) == "こいこい · あなたの手札"
    assert "手目" in small_print(hand)
    # a turn alert comes once the player answered their hand and looked away (here: at once)
    bot.publisher.looking_seconds = 0.0
    await hand_press(standin, player, hand)
    alert = await standin.wait_for(
        lambda: next((m for m in standin.dms(player) if "あなたの番です" in m.content), None),
        "the turn alert in Japanese")
    assert "[卓へ移動](" in alert.content
    shown = standin.message(table)
    assert heading(shown)  # drawn by the presenter for the table
    assert "번째 수" in small_print(shown) or section(shown, "차례")
    labels = [c.get("label") for c in walk_components(shown.components)]
    assert {"내 손패", "규칙", "기권", "게임 취소"} <= set(labels)  # the table's buttons, in Korean
    stranger = world.player
    stranger.locale = "ko"
    hand_id = next(c for c in shown.custom_ids() if c.startswith("hf:hand:"))
    refused = await stranger.click(shown, hand_id)  # refused in the presser's own language
    assert reply_text(refused) == "이 게임에 참여하지 않아서 여기엔 내 손패가 없어요."
    await play_out(standin, world.channel, [player])
    final = standin.message(table)
    assert section(final, "결과")  # the result, in Korean


async def test_an_english_server_keeps_english_tables(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await human_moves_first(bot, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await table_posted(standin, world.channel)
    hand = await standin.wait_for(lambda: hand_message(standin, world.admin), "the hand")
    assert heading(hand) == "Koi-Koi · your hand"
    assert "move" in small_print(standin.message(table))
    # the check of the Japanese match below finds English where there is some
    assert {"your", "hand", "move"} <= english_words([hand, standin.message(table)], [world.admin.name])


async def test_a_lobby_speaks_the_server_and_refuses_in_the_pressers_language(start_bot, standin, world,
                                                                             tmp_path):
    world.guild.locale = "ja"
    host, guest = world.admin, world.player
    host.locale, guest.locale = "ko", "en-US"
    await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    record = await host.slash(world.channel, "koikoi")
    lobby = record.messages[-1]
    assert lobby.embeds[0]["title"] == "こいこいのロビー"  # public: the server's language
    labels = [c.get("label") for row in lobby.components for c in row["components"]]
    assert {"参加", "抜ける", "開始", "取り消し"} <= set(labels)
    start = next(c for c in lobby.custom_ids() if c.startswith("hf:lb:start:"))
    refused = await guest.click(lobby, start)  # only the host starts: told in the guest's English
    assert reply_text(refused) == "Only the host can start the game."
    bad = await host.slash(world.channel, "koikoi", opponent=host)
    assert reply_text(bad) == "자기 자신에게는 도전할 수 없어요. 로비를 열려면 상대를 비워 두세요."


ASCII_WORD = re.compile(r"[A-Za-z]{3,}")
NOT_WORDS = re.compile(r"<[@#:!&t][^>]*>|\]\(https?://[^)]*\)|https?://\S+"
                       r"|`[^`]*`"  # code: an option's name and value as staff type them
                       r"|/(?:chips-admin|chips|settings|season|tournament|deal) [a-z_-]+|/[a-z][a-z_-]*")  # a command to type


def words_of(message) -> list[str]:
    """Every text of a message a person reads: content, embeds, text displays, picture
    descriptions, buttons and menus."""
    out = message.text().splitlines()
    for item in walk_components(message.components):
        out += [item.get("label") or "", item.get("placeholder") or ""]
        out += [o.get("label", "") for o in item.get("options", [])]
    return out


def english_texts(messages, names) -> list[str]:
    """The texts of ``messages`` that hold an English word (names, codes and links aside)."""
    found = []
    for message in messages:
        for text in words_of(message):
            bare = NOT_WORDS.sub(" ", text)
            for name in names:
                bare = bare.replace(name, " ")
            if ASCII_WORD.search(bare):
                found.append(text)
    return found


def english_words(messages, names) -> set[str]:
    return {word for text in english_texts(messages, names) for word in ASCII_WORD.findall(
        NOT_WORDS.sub(" ", text)) if not any(word in name for name in names)}


@pytest.mark.parametrize("game, language, house_rules", [
    ("koikoi", "ja", {"teyaku": "off"}),  # a dealt-hand yaku would end the round before any move
    ("gostop", "ko", {"chongtong": "off"}),  # so would a chongtong at the deal
    ("koikoi", "ko", {"teyaku": "off"}),
    ("gostop", "ja", {"chongtong": "off"}),
    ("mushi", "ko", {}),
    ("mushi", "ja", {}),
    ("hanaawase", "ja", {}),
    ("hanaawase", "ko", {}),
    ("sakura", "ja", {}),
    ("sakura", "ko", {}),
    ("firstbloom", "ja", {}),
    ("firstbloom", "ko", {}),
    ("seotda", "ko", {}),
])
async def test_a_whole_match_has_no_english_sentence(start_bot, standin, world, tmp_path, game, language,
                                                     house_rules):
    """Everything a player reads in a whole match, public and private, is in their language (a
    server and a player of that language)."""
    world.guild.locale = language
    player = world.admin
    player.locale = language
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    if house_rules:
        await bot.store.set_house_rules(world.guild.id, game, house_rules)
    await player.slash(world.channel, game, ai="normal", rounds=2)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [player])
    await bot.publisher.drain()
    seen = standin.channel_messages(world.channel) + standin.dms(player) + standin.ephemerals(player)
    # The match is dealt from a fresh seed: a failure names it, so the deal can be played again.
    dealt = [tuple(row) for row in await bot.store._db.fetchall("SELECT game_id, seed FROM games")]
    assert len(seen) > 3, dealt
    assert english_words(seen, [player.name]) == set(), dealt
    assert [text for m in seen for text in words_of(m) if BOTH_FORMS.search(text)] == [], dealt  # Korean particles


# Proper names a translation keeps: the First Bloom rules' source and the game it resembles, a
# rule book, Discord and the time zone of the daily chips.
KEPT_NAMES = ["UNO", "Fuda Wiki", "Discord", "UTC"]


@pytest.mark.parametrize("language", ["ja", "ko"])
async def test_every_community_command_speaks_the_members_language(start_bot, standin, world, tmp_path,
                                                                  language):
    """Members and staff of a Japanese or Korean server use the boards, stats, chips, records,
    replays, exports, rules, the running games and the staff settings: nothing they read, public
    or private, is an English sentence (refusals included)."""
    world.guild.locale = language
    for member in (world.admin, world.player, world.shy):
        member.locale = language
    bot = await start_hbot(start_bot, standin, world, tmp_path)
    store, guild, channel = bot.store, world.guild.id, world.channel
    played, _ = await play_game(store, guild, "koikoi", [world.player.id, world.admin.id], ["bob", "alice"],
                                seed=3, rounds=2)
    await play_game(store, guild, "mushi", [world.player.id, world.admin.id], ["bob", "alice"], seed=4)
    await play_game(store, guild, "koikoi", [world.admin.id, world.player.id], ["alice", "bob"],
                    seed=5, finish=False)  # still running (not at a live table: "waiting to resume")
    cancelled, _ = await play_game(store, guild, "koikoi", [world.admin.id, world.player.id],
                                   ["alice", "bob"], seed=6, finish=False)
    await store.cancel_game(cancelled, actor=world.admin.id, reason="cancelled by alice")
    timed_out = await store.create_game(guild, 5, "koikoi", rules={}, players=[world.player.id, world.admin.id],
                                        seed=1, state_json="{}", state_version=1)
    await store.finish_game(timed_out.game_id, [SeatResult(0, 0, "lost"), SeatResult(1, 0, "won")],
                            reason="3 turns timed out in a row")
    for _ in range(5):  # two pages of /history
        await finish_quick(store, guild, "mushi", [world.player.id, world.admin.id], ["won", "lost"])
    player, admin = world.player, world.admin

    await player.slash(channel, "leaderboard")
    await player.slash(channel, "leaderboard", game="koikoi")
    await player.slash(channel, "leaderboard", order="rating")  # refused: ratings are per game
    await player.slash(channel, "stats", user=player)
    await admin.slash(channel, "stats", user=player)  # with their games together
    await world.shy.slash(channel, "stats")
    await player.slash(channel, "chips balance")
    await player.slash(channel, "chips balance", user=world.shy)  # refused: no account yet
    await player.slash(channel, "chips daily")
    await player.slash(channel, "chips daily")  # refused: already claimed
    await player.slash(channel, "chips give", user=admin, amount=10)
    await player.slash(channel, "chips give", user=admin, amount=99_999)  # refused: too many
    await player.slash(channel, "chips give", user=player, amount=1)  # refused: to oneself
    for i in range(11):
        await store.grant(guild, player.id, 1 + i, key=f"g{i}", actor=admin.id, reason="賞")
    history = (await player.slash(channel, "chips history")).original
    await player.click(history, pager_ids(history)["n"])
    listed = (await player.slash(channel, "history")).original
    await player.slash(channel, "history", user=world.shy)
    await admin.click(listed, pager_ids(listed)["n"])  # refused: not the asker
    replay = await answer(standin, await player.slash(channel, "replay", game_id=played), "replay.png")
    total = len((await store.load_game(played, scope=EVERY_SERVER, with_events=True)).events)
    await step_to(standin, player, replay, pager_ids(replay)["l"], f"{total}/{total}")
    for gid in (cancelled, timed_out.game_id):
        await answer(standin, await player.slash(channel, "replay", game_id=gid), "replay.png")
    await player.slash(channel, "replay", game_id=10_000)  # refused: no such game
    exported = await answer(standin, await player.slash(channel, "export", game_id=played),
                            f"hanafuda-game-{played}.json")
    await player.slash(channel, "rules")
    await answer(standin, await player.slash(channel, "rules", game="koikoi"), "yaku.png")
    await player.slash(channel, "games")
    games = (await admin.slash(channel, "games")).original  # staff: with a cancel button per game
    await admin.click(games, next(c for c in games.custom_ids() if c.startswith("hf:gcancel:")))
    await admin.slash(channel, "settings rules", game="koikoi", preset="modern")
    await admin.slash(channel, "settings rules", game="koikoi", preset="nothing")  # refused
    await admin.slash(channel, "settings option", game="koikoi", name="koikoi_limit", value="once")
    await admin.slash(channel, "settings option", game="koikoi", name="hand_size", value="9")  # refused
    await admin.slash(channel, "settings timeout", seconds=90)
    await admin.slash(channel, "settings hand_delivery", mode="ephemeral")
    await admin.slash(channel, "settings stakes", policy="managers")
    await admin.slash(channel, "settings show")
    await admin.slash(channel, "settings reset", game="koikoi")
    await admin.slash(channel, "chips-admin grant", user=player, amount=100, reason="賞品")
    await admin.slash(channel, "chips-admin revoke", user=player, amount=10**9 - 1, reason="賞品")  # refused
    await admin.slash(channel, "chips-admin revoke", user=world.shy, amount=1, reason="賞品")  # refused
    await admin.slash(channel, "chips-admin config", daily_amount=0)
    await player.slash(channel, "chips daily")  # refused: daily chips are off
    await player.slash(channel, "deal board")  # refused: nobody looked at today's deal yet
    dealt = await player.slash(channel, "deal play", game="mushi")  # a table only they see
    assert any("table.png" in m.files for m in dealt.messages)
    await player.slash(channel, "deal board")  # the deal's commitment; nobody finished yet
    await admin.slash(channel, "deal announce", post="on")
    await admin.slash(channel, "settings show")  # where the deals are posted

    seen = (standin.channel_messages(channel) + standin.ephemerals(player) + standin.ephemerals(admin)
            + standin.ephemerals(world.shy))
    assert len(seen) > 30
    names = ["bob", "alice", "carol", world.guild.name, *KEPT_NAMES]
    found = english_texts(seen, names)
    assert not found, "\n".join(found)
    assert [text for m in seen for text in words_of(m) if BOTH_FORMS.search(text)] == []  # Korean particles
    doc = json.loads(exported.files[f"hanafuda-game-{played}.json"])
    assert doc["format"]["language"] == language and doc["game"] == "koikoi"  # the keys stay English
    with speaking(language):
        assert doc["format"]["fields"]["seed"] == t(_FORMAT_FIELDS["seed"]) != _FORMAT_FIELDS["seed"]
        assert doc["title"] == GAME_NAMES["koikoi"]
