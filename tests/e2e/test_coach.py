"""The coach end to end through the Discord stand-in: /review of one's own finished game in
English, Japanese and Korean (the same game priced the same every time), its refusals, and the
Hint button of a casual game."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.games import koikoi
from bot.workers import PoolClosed
from tests.e2e.community_data import embed, only_private, start_hbot
from tests.e2e.playing import controls, game_over, hand_message, play_out, reply_text, table_posted
from tests.e2e.test_start_safety import make_bot

pytestmark = pytest.mark.asyncio

# A deal where seat 0, the member who starts a game against the AI, plays first.
FIRST_SEED = next(seed for seed in range(64)
                  if koikoi.new_match(2, koikoi.Rules(teyaku="off"), seed).current_player == 0)
TITLES = {"en": "review", "ja": "振り返り", "ko": "복기"}


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    bot = await start_hbot(start_bot, standin, world, tmp_path)
    # Small budgets keep the suite quick; the figures' meaning does not change with them.
    bot.settings = replace(bot.settings, review_rollouts=6, hint_rollouts=6)
    await bot.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    bot.tables.new_seed = lambda: FIRST_SEED
    return bot


async def finished_game(hbot, standin, world, **options) -> int:
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1, **options)
    [running] = await hbot.store.list_running_games(world.guild.id)
    await table_posted(standin, world.channel)
    await play_out(standin, world.channel, [world.admin])
    await game_over(standin, world.channel)
    return running.game_id


async def reviewed(standin, user, channel, game_id: int):
    """The final answer of a /review (its progress message replaced by the review)."""
    asked = await user.slash(channel, "review", game_id=game_id)
    assert only_private(asked)
    return await standin.wait_for(
        lambda: next((m for m in asked.messages if m.embeds and "#" in embed(m)["title"]), None),
        "the review", channels=[asked.channel])


async def test_a_review_in_three_languages_lists_the_costly_moments(hbot, standin, world):
    game_id = await finished_game(hbot, standin, world)
    answers = {}
    for language in ("en", "ja", "ko"):
        world.admin.locale = language
        message = await reviewed(standin, world.admin, world.channel, game_id)
        head = embed(message)
        assert TITLES[language] in head["title"] and f"#{game_id}" in head["title"]
        moments = message.embeds[1:]
        assert 1 <= len(moments) + 1 <= 4
        assert sorted(message.files) == sorted(f"moment-{n}.png" for n in range(1, len(moments) + 1))
        for n, moment in enumerate(moments, start=1):
            assert moment["image"]["url"] == f"attachment://moment-{n}.png"
            assert message.files[f"moment-{n}.png"][:4] == b"\x89PNG"
        answers[language] = message
    en = answers["en"]
    if len(en.embeds) > 1:
        assert "You chose" in en.embeds[1]["description"] and "Better" in en.embeds[1]["description"]
        assert "あなたの手" in answers["ja"].embeds[1]["description"]
        assert "고른 수" in answers["ko"].embeds[1]["description"]
    assert "points" in embed(en)["description"] and "点" in embed(answers["ja"])["description"]
    world.admin.locale = "en"
    again = await reviewed(standin, world.admin, world.channel, game_id)
    assert again.embeds == en.embeds  # the same seeds: the same review


async def test_a_review_is_refused_in_one_sentence(hbot, standin, world):
    game_id = await finished_game(hbot, standin, world)
    not_mine = await world.player.slash(world.channel, "review", game_id=game_id)
    assert "only your own games" in reply_text(not_mine)
    unknown = await world.admin.slash(world.channel, "review", game_id=game_id + 100)
    assert f"No game #{game_id + 100}" in reply_text(unknown)
    other = standin.create_guild("Other Club")
    there = standin.create_channel(other, "games")
    standin.add_member(other, world.admin)
    elsewhere = await world.admin.slash(there, "review", game_id=game_id)
    assert f"No game #{game_id}" in reply_text(elsewhere)  # another server's game is not read
    await hbot.store.note_review(world.guild.id, game_id, world.admin.id, "en")  # one in the making
    twice = await world.admin.slash(world.channel, "review", game_id=game_id)
    assert "already being reviewed" in reply_text(twice)
    await hbot.store.review_done(world.guild.id, game_id, world.admin.id)
    for record in (not_mine, unknown, elsewhere, twice):
        assert only_private(record) and "Traceback" not in reply_text(record)
        assert reply_text(record).count(". ") <= 1


async def test_a_running_or_cancelled_game_is_not_reviewed(hbot, standin, world):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1)
    [running] = await hbot.store.list_running_games(world.guild.id)
    early = await world.admin.slash(world.channel, "review", game_id=running.game_id)
    assert "still being played" in reply_text(early)
    table = hbot.tables.tables[running.game_id]
    await hbot.tables.cancel(table, world.admin.id, "cancelled by alice")
    cancelled = await world.admin.slash(world.channel, "review", game_id=running.game_id)
    assert "was cancelled" in reply_text(cancelled)




# -- hints -------------------------------------------------------------------------------------------
HINT_TITLES = {"en": "Hint", "ja": "ヒント", "ko": "힌트"}
PREFERS = {"en": "The search prefers", "ja": "探索のおすすめ", "ko": "탐색이 고른 수"}


async def first_hand(standin, user):
    return await standin.wait_for(lambda: hand_message(standin, user), "a hand offering moves",
                                  channels=[user.dm_channel])


def hint_id(message) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith("hf:hint:")), None)


async def hint_on_first_hand(standin, world, game: str, language: str):
    """The hint the admin gets on the first hand of a casual ``game`` against the AI, in
    ``language``: the hand, and the answer's text once checked to be theirs alone."""
    world.admin.locale = language
    await world.admin.slash(world.channel, game, ai="normal", rounds=1)
    hand = await first_hand(standin, world.admin)
    pressed = await world.admin.click(hand, hint_id(hand))
    answer = await standin.wait_for(lambda: next((m for m in pressed.messages if m.embeds), None),
                                    "the hint", channels=[pressed.channel])
    assert answer.ephemeral and answer.ephemeral_for.id == world.admin.id
    assert HINT_TITLES[language] in embed(answer)["title"]
    return hand, embed(answer)["description"]


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
async def test_a_casual_game_offers_a_hint_answered_privately(hbot, standin, world, language):
    _, text = await hint_on_first_hand(standin, world, "koikoi", language)
    assert PREFERS[language] in text and "%" in text


async def test_no_hint_in_staked_games_or_where_the_server_turned_them_off(hbot, standin, world):
    await world.admin.slash(world.channel, "koikoi", ai="normal", rounds=1, stake=50)
    staked = await first_hand(standin, world.admin)
    assert hint_id(staked) is None and controls(staked)
    [running] = await hbot.store.list_running_games(world.guild.id)
    await hbot.tables.cancel(hbot.tables.tables[running.game_id], world.admin.id, "cancelled by alice")
    turned = await world.admin.slash(world.channel, "settings hints", offered=False)
    assert "No game offers hints" in reply_text(turned)
    await world.player.slash(world.channel, "koikoi", ai="normal", rounds=1)
    casual = await first_hand(standin, world.player)
    assert hint_id(casual) is None and controls(casual)


SEOTDA_PICK = {"en": "The AI's pick is", "ja": "AIのおすすめは", "ko": "AI가 고른 수는"}
SEOTDA_EACH = {"en": "Your chance to win the hand with each choice:",
               "ja": "それぞれを選んだときにこの勝負に勝つ確率：", "ko": "선택별로 이 판을 이길 확률:"}


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
async def test_a_seotda_hint_gives_every_bet_its_chips_and_chance(hbot, standin, world, language):
    hand, text = await hint_on_first_hand(standin, world, "seotda", language)
    bets = controls(hand)
    assert SEOTDA_PICK[language] in text and SEOTDA_EACH[language] in text
    choices = [line for line in text.splitlines() if line.startswith("• ")]
    assert len(choices) == len(bets) >= 2  # every bet the hand offers, each with its chance
    assert all(line.endswith("%") for line in choices)


async def test_a_review_a_stop_cuts_short_comes_by_direct_message_after_the_start(
        start_bot, standin, world, tmp_path):
    """The request is noted before it is acknowledged. The bot stops while pricing it: the player
    is told the review will come by DM, and the next start makes it again and sends it there,
    in the language it was asked in."""
    first = await start_hbot(start_bot, standin, world, tmp_path)
    first.settings = replace(first.settings, review_rollouts=6)
    await first.store.set_house_rules(world.guild.id, "koikoi", {"teyaku": "off"})
    first.tables.new_seed = lambda: FIRST_SEED
    game_id = await finished_game(first, standin, world)
    cog = first.get_cog("CoachCog")
    noted_first = []

    async def stopping(game, found, progress):  # the worker pools close under the review
        noted_first.append([(r.game_id, r.language) for r in await first.store.pending_reviews()])
        raise PoolClosed()

    cog._price_all = stopping
    world.admin.locale = "ja"
    asked = await world.admin.slash(world.channel, "review", game_id=game_id)
    assert only_private(asked)
    await standin.wait_for(lambda: "DMでお送りします" in reply_text(asked), "the stop told")
    assert noted_first == [[(game_id, "ja")]]
    before = len(standin.dms(world.admin))
    await first.close()
    world.admin.locale = "en"  # the answer keeps the language the review was asked in

    second = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    second.settings = replace(second.settings, review_rollouts=6)
    sent = await standin.wait_for(
        lambda: next((m for m in standin.dms(world.admin)[before:]
                      if m.embeds and TITLES["ja"] in embed(m)["title"]), None),
        "the review by direct message")
    assert f"対局#{game_id}" in sent.content and f"#{game_id}" in embed(sent)["title"]
    assert sorted(sent.files) == sorted(f"moment-{n}.png" for n in range(1, len(sent.embeds)))
    await asyncio.wait_for(asyncio.gather(*second.get_cog("CoachCog")._tasks), standin.wait_timeout)
    assert await second.store.pending_reviews() == []
    again = await reviewed(standin, world.admin, world.channel, game_id)  # asked again: answered
    assert len(again.embeds) == len(sent.embeds)
