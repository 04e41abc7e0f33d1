"""Languages through Discord: the commands Discord shows, /language, /settings language."""

from __future__ import annotations

import re

import pytest

from tests.discord_standin.server import CommandHidden
from tests.e2e.community_data import start_hbot
from tests.e2e.playing import hand_message, play_out, reply_text, table_posted
from tests.e2e.test_koikoi_bot import make_bot, no_dealt_hand_wins


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


async def test_a_japanese_player_at_a_korean_servers_table(start_bot, standin, world, tmp_path):
    """The table speaks the server's language, the hand and its DMs the player's own."""
    world.guild.locale = "ko"  # the server's Discord language, sent when the bot connects
    player = world.admin
    player.locale = "ja"
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await no_dealt_hand_wins(bot, world)
    await player.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await table_posted(standin, world.channel)
    hand = await standin.wait_for(lambda: hand_message(standin, player), "the player's hand")
    assert hand.embeds[0]["title"] == "こいこい · あなたの手札"
    assert "手目" in hand.embeds[0]["footer"]["text"]
    alert = await standin.wait_for(
        lambda: next((m for m in standin.dms(player) if "あなたの番です" in m.content), None),
        "the turn alert in Japanese")
    assert "[卓へ移動](" in alert.content
    shown = standin.message(table)
    assert shown.embeds[0]["title"]  # drawn by the presenter for the table
    assert "번째 수" in shown.embeds[0]["footer"]["text"] or any(
        f["name"] == "차례" for f in shown.embeds[0]["fields"])
    labels = [c.get("label") for row in shown.components for c in row["components"]]
    assert {"내 손패", "규칙", "기권", "게임 취소"} <= set(labels)  # the table's buttons, in Korean
    stranger = world.player
    stranger.locale = "ko"
    hand_id = next(c for c in shown.custom_ids() if c.startswith("hf:hand:"))
    refused = await stranger.click(shown, hand_id)  # refused in the presser's own language
    assert reply_text(refused) == "이 게임에 참여하지 않아서 여기엔 내 손패가 없어요."
    await play_out(standin, world.channel, [player])
    final = standin.message(table)
    assert any(f["name"] == "결과" for f in final.embeds[0]["fields"])  # the result, in Korean


async def test_an_english_server_keeps_english_tables(start_bot, standin, world, tmp_path):
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    await no_dealt_hand_wins(bot, world)
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [table] = await table_posted(standin, world.channel)
    hand = await standin.wait_for(lambda: hand_message(standin, world.admin), "the hand")
    assert hand.embeds[0]["title"] == "Koi-Koi · your hand"
    assert "move" in standin.message(table).embeds[0]["footer"]["text"]
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
NOT_WORDS = re.compile(r"<[@#:!&t][^>]*>|\]\(https?://[^)]*\)|https?://\S+")


def words_of(message) -> list[str]:
    """Every text of a message a person reads: content, embeds, buttons and menus."""
    out = [message.content or ""]
    for embed in message.embeds:
        out += [embed.get("title", ""), embed.get("description", ""),
                (embed.get("footer") or {}).get("text", "")]
        out += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    for row in message.components:
        for item in row.get("components", []):
            out += [item.get("label") or "", item.get("placeholder") or ""]
            out += [o.get("label", "") for o in item.get("options", [])]
    return out


def english_words(messages, names) -> set[str]:
    found = set()
    for message in messages:
        for text in words_of(message):
            text = NOT_WORDS.sub(" ", text)
            for name in names:
                text = text.replace(name, " ")
            found |= set(ASCII_WORD.findall(text))
    return found


@pytest.mark.parametrize("game, language, house_rules", [
    ("koikoi", "ja", {"teyaku": "off"}),  # a dealt-hand yaku would end the round before any move
    ("gostop", "ko", {"chongtong": "off"}),  # so would a chongtong at the deal
    ("mushi", "ko", {}),
    ("mushi", "ja", {}),
    ("hanaawase", "ja", {}),
    ("hanaawase", "ko", {}),
    ("sakura", "ja", {}),
    ("sakura", "ko", {}),
    ("firstbloom", "ja", {}),
    ("firstbloom", "ko", {}),
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
    assert len(seen) > 3
    assert english_words(seen, [player.name]) == set()
