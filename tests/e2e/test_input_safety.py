"""Hostile or broken input through the Discord stand-in: over-long option values, names that
look like mentions, chips for non-members and bots, and a database that is read-only, full or
corrupt. Each refusal is private, one sentence, fits Discord, and changes nothing."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord_ui.text import CONTENT
from bot.store import StoreUnavailable, UnknownAccount
from tests.e2e.community_data import (
    embed,
    finish_quick,
    footer_has,
    only_private,
    pager_ids,
    start_hbot,
    turn_page,
)
from tests.e2e.test_koikoi_bot import reply_text
from tests.store.faults import corrupt_table, counts, fill_up, make_read_only, problem_lines

pytestmark = pytest.mark.asyncio

SENTENCE = "The bot's database is having trouble; nothing was changed. Please try again later."
MY_COMMANDS = ("leaderboard", "stats", "chips", "chips-admin", "settings", "rules", "history",
               "replay", "export")
STRING = 3


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


@pytest.fixture
def logs(caplog):
    caplog.set_level(logging.INFO)
    return caplog


def leaves(options: list[dict[str, Any]], path: str = ""):
    """Every (path, option) of a command's options that is not a subcommand or group."""
    for option in options:
        where = f"{path} {option['name']}".strip()
        if option["type"] in (1, 2):
            yield from leaves(option.get("options", []), where)
        else:
            yield where, option


def message_bodies(request) -> list[dict[str, Any]]:
    """The message a request of the bot sends or edits (interaction callbacks, webhooks, channel
    posts), if it carries one."""
    body = request.body
    if not isinstance(body, dict):
        return []
    if isinstance(body.get("data"), dict) and body.get("type") in (4, 7):
        body = body["data"]
    return [body] if ("content" in body or "embeds" in body or "components" in body) else []


def text_of(record) -> str:
    """The words of everything answered to one interaction."""
    return "\n".join(message.text() for message in record.messages)


def tracebacks(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info]


# -- item 8: long input ----------------------------------------------------------------------------
async def test_every_string_option_of_these_commands_is_bounded(hbot, standin, world):
    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    bounded = {}
    for name in MY_COMMANDS:
        for path, option in leaves(commands[name].get("options", []), name):
            if option["type"] == STRING and not option.get("choices"):
                bounded[path] = option.get("max_length")
    assert bounded == {
        "chips-admin grant reason": 200, "chips-admin revoke reason": 200,
        "chips-admin config currency_name": 32,
        "settings rules preset": 100, "settings option name": 100, "settings option value": 100,
        "leaderboard season": 16, "stats season": 16,
    }


async def test_long_values_are_refused_in_one_short_private_sentence(hbot, standin, world):
    admin, channel, store, guild = world.admin, world.channel, hbot.store, world.guild.id
    await store.open_account(guild, world.player.id)
    before = (counts(store.path), await store.get_settings(guild))
    long = "x" * 6000
    for command, options in (
        ("settings option", {"game": "koikoi", "name": "koikoi_limit", "value": long}),
        ("settings option", {"game": "koikoi", "name": long, "value": "once"}),
        ("settings rules", {"game": "koikoi", "preset": long}),
        ("chips-admin grant", {"user": world.player, "amount": 5, "reason": long}),
        ("chips-admin revoke", {"user": world.player, "amount": 5, "reason": long}),
        ("chips-admin config", {"currency_name": long}),
    ):
        record = await admin.slash(channel, command, **options)
        assert only_private(record), command
        text = reply_text(record)
        assert len(text) < 300 and "6,000" in text and long[:200] not in text, (command, text)
    assert (counts(store.path), await store.get_settings(guild)) == before
    # a value the game refuses is quoted no longer than it may be
    record = await admin.slash(channel, "settings option", game="koikoi", name="koikoi_limit",
                               value="y" * 100)
    assert only_private(record) and len(reply_text(record)) <= CONTENT


async def test_autocomplete_never_offers_a_choice_past_100_characters(hbot, standin, world):
    typed = "9" * 150  # a whole number, so the value menu would offer it back as typed
    answer = await world.admin.autocomplete(world.channel, "settings option", "value",
                                            game="koikoi", name="rounds", value=typed)
    choices = answer.autocomplete_choices
    assert choices and all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    assert typed not in [c["value"] for c in choices]
    fitting = await world.admin.autocomplete(world.channel, "settings option", "value",
                                             game="koikoi", name="rounds", value="9" * 5)
    assert "9" * 5 in [c["value"] for c in fitting.autocomplete_choices]


# -- item 9: chips for someone who cannot have them ------------------------------------------------
async def test_chips_for_non_members_bots_and_yourself_say_why_and_change_nothing(hbot, standin,
                                                                                 world):
    store, guild, player, admin = hbot.store, world.guild.id, world.player, world.admin
    stranger = standin.create_user("eve")  # a Discord user, but not in this server
    await store.open_account(guild, player.id)
    before = counts(store.path)

    for target, why in ((stranger, "eve is not a member of this server"),
                        (standin.bot_user, "Bots have no chips")):
        record = await player.slash(world.channel, "chips give", user=target, amount=10)
        assert only_private(record) and why in reply_text(record), reply_text(record)
        for command in ("chips-admin grant", "chips-admin revoke"):
            record = await admin.slash(world.channel, command, user=target, amount=10,
                                       reason="test")
            assert only_private(record) and why in reply_text(record), (command, target)
        record = await player.slash(world.channel, "chips balance", user=target)
        assert only_private(record) and why in reply_text(record)
    itself = await player.slash(world.channel, "chips give", user=player, amount=10)
    assert only_private(itself) and "yourself" in reply_text(itself)
    # a gift larger than the balance opens no account for the one who would have received it
    too_much = await player.slash(world.channel, "chips give", user=world.shy, amount=5000)
    assert only_private(too_much) and "You have 1,000 chips, not 5,000" in reply_text(too_much)
    with pytest.raises(UnknownAccount):
        await store.balance(guild, world.shy.id)
    assert counts(store.path) == before and (await store.audit()).ok
    # a former member's record still shows
    stats = await player.slash(world.channel, "stats", user=stranger)
    assert not stats.original.ephemeral and embed(stats.original)["title"] == "📊 eve"


# -- item 4: names that look like mentions or markdown ---------------------------------------------
async def test_mention_names_and_currency_never_ping_and_are_shown_escaped(hbot, standin, world):
    store, guild, channel = hbot.store, world.guild.id, world.channel
    role = standin.create_role(world.guild, "mods")
    mallory = standin.create_user("mallory")
    standin.add_member(world.guild, mallory, nick="@everyone")
    currency = f"<@&{role.id}>"
    assert len(currency) <= 32
    await world.admin.slash(channel, "chips-admin config", currency_name=currency)
    await finish_quick(store, guild, "koikoi", [mallory.id, world.player.id], ["won", "lost"])
    start = len(standin.requests)

    records = [
        await mallory.slash(channel, "chips balance"),
        await mallory.slash(channel, "chips daily"),
        await mallory.slash(channel, "chips give", user=world.player, amount=5),
        await world.player.slash(channel, "chips balance", user=mallory),
        await world.player.slash(channel, "stats", user=mallory),
        await mallory.slash(channel, "stats"),
        await mallory.slash(channel, "leaderboard", order="chips"),
        await mallory.slash(channel, "leaderboard", game="koikoi", order="wins"),
        await mallory.slash(channel, "chips history"),
        await world.admin.slash(channel, "chips-admin grant", user=mallory, amount=7,
                                reason=f"@everyone **bold** <@&{role.id}>"),
        await world.admin.slash(channel, "settings show"),
    ]
    for record in records:
        text = text_of(record)
        assert text and "@everyone" not in text and "<@&" not in text, text
        assert "**bold**" not in text
    assert "@\u200beveryone" in text_of(records[3]) and "@\u200beveryone" in text_of(records[4])
    assert f"<@\u200b&{role.id}>" in text_of(records[0])

    sent = [body for request in standin.requests[start:] for body in message_bodies(request)]
    assert len(sent) >= len(records)
    for body in sent:
        mentions = body.get("allowed_mentions")
        assert mentions is not None, body
        assert not {"everyone", "roles"} & set(mentions.get("parse", [])), body
        assert not mentions.get("roles"), body
    # the gift pings its recipient, and only them
    gift = next(b for b in sent if "gave **5**" in b.get("content", ""))
    assert [int(u) for u in gift["allowed_mentions"]["users"]] == [world.player.id]


# -- item 10: database trouble ---------------------------------------------------------------------
async def test_read_only_database_refuses_changes_and_keeps_answering_reads(hbot, standin, world,
                                                                            logs):
    store, guild, channel = hbot.store, world.guild.id, world.channel
    player, admin = world.player, world.admin
    for user in (player.id, admin.id):
        await store.open_account(guild, user)
    for i in range(12):
        await finish_quick(store, guild, "koikoi", [player.id, 9000 + i], ["won", "lost"])
    board = (await player.slash(channel, "leaderboard", order="wins")).original
    before = counts(store.path)
    await make_read_only(store)

    for user, command, options in (
        (player, "chips daily", {}),
        (player, "chips give", {"user": admin, "amount": 5}),
        (admin, "chips-admin grant", {"user": player, "amount": 5, "reason": "prize"}),
        (admin, "chips-admin revoke", {"user": player, "amount": 5, "reason": "oops"}),
        (admin, "chips-admin config", {"currency_name": "ryo"}),
        (admin, "settings timeout", {"seconds": 30}),
        (admin, "settings rules", {"game": "koikoi", "preset": "modern"}),
    ):
        record = await user.slash(channel, command, **options)
        assert only_private(record) and reply_text(record) == SENTENCE, command
    # reads go on
    assert "You have **1,000** chips" in reply_text(await player.slash(channel, "chips balance"))
    assert embed((await player.slash(channel, "stats")).original)["title"] == "📊 bob"
    assert (await player.slash(channel, "chips history")).original.embeds
    assert (await admin.slash(channel, "settings show")).original.embeds
    await turn_page(standin, player, board, pager_ids(board)["n"], footer_has("page 2 of 2"))

    assert counts(store.path) == before
    [line] = problem_lines(logs.records)
    assert "read-only" in line
    assert not tracebacks(logs)


async def test_full_database_refuses_the_grant_that_does_not_fit(hbot, standin, world, logs):
    store, guild, channel, admin = hbot.store, world.guild.id, world.channel, world.admin
    player = world.player
    await store.open_account(guild, player.id)
    await store.update_settings(guild, turn_timeout_s=60)
    await fill_up(store)

    async def grant(key: str):
        return await store.grant(guild, player.id, 1, key=key, actor=admin.id, reason="prize",
                                 open_account=True)

    # grants like the command's own fill the ledger's last pages until one no longer fits
    for _ in range(10_000):
        try:
            await grant(str(standin.ids.next()))
        except StoreUnavailable as exc:
            assert exc.problem == "full"
            break
    else:
        pytest.fail("the database never filled up")
    await store.update_settings(guild, turn_timeout_s=30)  # same size: fits, and ends the episode
    assert "works again" in problem_lines(logs.records)[-1]
    mark = len(logs.records)
    balance, before = await store.balance(guild, player.id), counts(store.path)

    record = await admin.slash(channel, "chips-admin grant", user=player, amount=1,
                               reason="prize")
    assert only_private(record) and reply_text(record) == SENTENCE
    assert await store.balance(guild, player.id) == balance and counts(store.path) == before
    assert (await store.audit()).ok
    [line] = problem_lines(logs.records[mark:])
    assert "full" in line
    assert not tracebacks(logs)


async def test_corrupt_database_answers_commands_and_buttons_with_the_sentence(hbot, standin,
                                                                               world, logs):
    store, guild, channel, player = hbot.store, world.guild.id, world.channel, world.player
    await store.open_account(guild, player.id)
    for i in range(11):
        await store.grant(guild, player.id, 1 + i, key=f"g{i}", actor=world.admin.id,
                          reason="prize")
    await store.update_settings(guild, currency_name="ryo")
    history = (await player.slash(channel, "chips history")).original
    before = await store.balance(guild, player.id)
    await corrupt_table(store, "guild_settings")

    # The first to touch the damaged table is /chips daily (its amount is read with the claim);
    # from then on settings kept in memory are not trusted either, and every command says so.
    answers = [
        await player.slash(channel, "chips daily"),
        await player.slash(channel, "chips balance"),
        await player.slash(channel, "leaderboard", order="chips"),
        await player.slash(channel, "stats"),
        await player.slash(channel, "rules", game="koikoi"),  # deferred first, privately
        await world.admin.slash(channel, "settings show"),
        await player.click(history, pager_ids(history)["n"]),
        await player.slash(channel, "koikoi", ai="easy"),  # another cog's command, same answer
    ]
    for record in answers:  # /rules answers after its deferral: wait for that follow-up
        await standin.wait_until(lambda r=record: SENTENCE in reply_text(r), timeout=15)
        assert only_private(record), record.data
    assert await store.balance(guild, player.id) == before and (await store.audit()).ok
    [line] = problem_lines(logs.records)
    assert "corrupt" in line
    assert not tracebacks(logs)
