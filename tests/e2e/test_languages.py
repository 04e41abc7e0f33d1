"""Languages through Discord: the commands Discord shows, /language, /settings language."""

from __future__ import annotations

import pytest

from tests.discord_standin.server import CommandHidden
from tests.e2e.community_data import start_hbot
from tests.e2e.playing import reply_text


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
