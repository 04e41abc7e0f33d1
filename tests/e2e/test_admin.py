"""/settings and /chips-admin end to end: hidden from members by default_member_permissions,
checked again at run time, every change validated with a message naming the allowed values."""

from __future__ import annotations

import discord
import pytest

from bot.store import UnknownAccount
from tests.discord_standin import CommandHidden
from tests.e2e.community_data import assert_guild_only, embed, field, only_private, start_hbot
from tests.e2e.test_koikoi_bot import reply_text, table_posted

pytestmark = pytest.mark.asyncio

MANAGE_GUILD = str(discord.Permissions(manage_guild=True).value)


@pytest.fixture
async def hbot(start_bot, standin, world, tmp_path):
    return await start_hbot(start_bot, standin, world, tmp_path)


def saved(record) -> bool:
    return only_private(record) and reply_text(record).startswith("✅")


async def test_staff_commands_are_hidden_from_members_and_checked_at_run_time(hbot, standin,
                                                                             world):
    commands = {c["name"]: c for c in standin.registered_commands(world.guild)}
    for name in ("settings", "chips-admin"):
        assert commands[name]["default_member_permissions"] == MANAGE_GUILD
        assert_guild_only(commands[name])
    assert {o["name"] for o in commands["settings"]["options"]} == {
        "show", "rules", "option", "reset", "timeout", "hand_delivery", "stakes", "language", "hints"}
    assert {o["name"] for o in commands["chips-admin"]["options"]} == {"grant", "revoke", "config"}
    # Discord does not even offer the commands to a member without Manage Server
    with pytest.raises(CommandHidden):
        await world.player.slash(world.channel, "settings show")
    with pytest.raises(CommandHidden):
        await world.player.slash(world.channel, "chips-admin grant", user=world.player,
                                 amount=10, reason="me")
    # a server may open them to anyone in its Integrations settings: the bot still refuses
    standin.permit_command(world.guild, "settings", world.player)
    standin.permit_command(world.guild, "chips-admin", world.player)
    for command, options in (("settings show", {}), ("settings timeout", {"seconds": 30}),
                             ("settings rules", {"game": "koikoi", "preset": "modern"}),
                             ("settings stakes", {"policy": "nobody"}),
                             ("chips-admin grant", {"user": world.player, "amount": 10,
                                                    "reason": "me"}),
                             ("chips-admin config", {"daily_amount": 5000})):
        record = await world.player.slash(world.channel, command, **options)
        assert only_private(record) and "Manage Server" in reply_text(record), command
    settings = await hbot.store.get_settings(world.guild.id)
    assert (settings.turn_timeout_s, settings.house_rules, settings.stake_policy,
            settings.daily_amount) == (120, {}, "everyone", 100)
    with pytest.raises(UnknownAccount):
        await hbot.store.balance(world.guild.id, world.player.id)  # no account was opened
    # an administrator sees them without holding Manage Server explicitly
    boss = standin.create_user("dora")
    standin.add_member(world.guild, boss, permissions=discord.Permissions(administrator=True))
    shown = await boss.slash(world.channel, "settings show")
    assert only_private(shown) and shown.messages[0].embeds


async def test_house_rules_presets_options_and_their_errors(hbot, standin, world):
    admin, channel, store, guild = world.admin, world.channel, hbot.store, world.guild.id
    assert saved(await admin.slash(channel, "settings rules", game="koikoi", preset="modern"))
    bad = await admin.slash(channel, "settings rules", game="koikoi", preset="hawaiian")
    assert only_private(bad) and "`nintendo` (Nintendo), `modern` (Modern (Fuda Wiki)), `seed`" in reply_text(bad)
    # autocomplete: presets of the chosen game, option names, option values
    presets = await admin.autocomplete(channel, "settings rules", "preset", game="sakura")
    assert [c["value"] for c in presets.autocomplete_choices] == ["hawaiian", "seed"]
    names = await admin.autocomplete(channel, "settings option", "name", game="koikoi",
                                     name="koikoi_l")
    assert [c["value"] for c in names.autocomplete_choices] == ["koikoi_limit"]
    assert all(len(c["name"]) <= 100 for c in names.autocomplete_choices)
    values = await admin.autocomplete(channel, "settings option", "value", game="koikoi",
                                      name="koikoi_limit", value="")
    assert [c["value"] for c in values.autocomplete_choices] == ["unlimited", "once", "once_total", "min3"]
    flags = await admin.autocomplete(channel, "settings option", "value", game="koikoi",
                                     name="ameshiko_enabled", value="")
    assert [c["value"] for c in flags.autocomplete_choices] == ["on", "off"]

    assert saved(await admin.slash(channel, "settings option", game="koikoi",
                                   name="koikoi_limit", value="once"))
    assert saved(await admin.slash(channel, "settings option", game="koikoi",
                                   name="ameshiko_enabled", value="off"))
    assert saved(await admin.slash(channel, "settings option", game="koikoi", name="rounds",
                                   value="6"))
    # setting an option back to the preset's value drops the override
    assert saved(await admin.slash(channel, "settings option", game="koikoi",
                                   name="ameshiko_enabled", value="on"))
    assert (await store.get_settings(guild)).rules_for("koikoi") == {
        "preset_name": "modern", "koikoi_limit": "once", "rounds": 6}
    for name, value, allowed in (("koikoi_limit", "twice", "unlimited, once, once_total, min3"),
                                 ("ameshiko_enabled", "maybe", "on or off"),
                                 ("hand_size", "nine", "8, 10"),
                                 ("hand_size", "9", "8, 10"),
                                 ("no_such_option", "1", "no option")):
        record = await admin.slash(channel, "settings option", game="koikoi", name=name,
                                   value=value)
        assert only_private(record) and allowed in reply_text(record), (name, reply_text(record))
        assert reply_text(record).count(". ") == 0  # one sentence
    assert (await store.get_settings(guild)).rules_for("koikoi")["rounds"] == 6

    # the summary reads well and the rules really apply to the next game
    shown = await admin.slash(channel, "settings show")
    summary = field(shown.messages[0], "Koi-Koi house rules")
    assert "Preset **Modern (Fuda Wiki)** (`modern`)" in summary
    assert "`koikoi_limit` = once (preset: unlimited)" in summary
    assert field(shown.messages[0], "Mushi house rules") == (
        "Preset **Fuda Wiki** (`fudawiki`, the default)\nMatch: 12 rounds")
    await admin.slash(channel, "koikoi", ai="easy")
    await table_posted(standin, channel)
    [game] = await store.list_running_games(guild)
    assert game.rules["koikoi_limit"] == "once" and game.rules["point_table"] == "modern"
    assert game.rules["rounds"] == 6
    assert saved(await admin.slash(channel, "settings reset", game="koikoi"))
    assert (await store.get_settings(guild)).rules_for("koikoi") == {}


async def test_timeout_hand_delivery_and_stake_policy(hbot, standin, world):
    admin, channel, store, guild = world.admin, world.channel, hbot.store, world.guild.id
    for seconds in (5, 100000):
        record = await admin.slash(channel, "settings timeout", seconds=seconds)
        assert only_private(record) and "from 10 to 86,400 seconds" in reply_text(record)
    assert saved(await admin.slash(channel, "settings timeout", seconds=45))
    assert saved(await admin.slash(channel, "settings hand_delivery", mode="ephemeral"))
    missing = await admin.slash(channel, "settings stakes", policy="role")
    assert only_private(missing) and "Choose the role" in reply_text(missing)
    role = standin.create_role(world.guild, "high rollers")
    stray = await admin.slash(channel, "settings stakes", policy="managers", role=role)
    assert only_private(stray) and "only applies when the policy is 'role'" in reply_text(stray)
    assert saved(await admin.slash(channel, "settings stakes", policy="role", role=role))
    settings = await store.get_settings(guild)
    assert (settings.turn_timeout_s, settings.hand_delivery, settings.stake_policy,
            settings.stake_role_id) == (45, "ephemeral", "role", role.id)
    shown = (await admin.slash(channel, "settings show")).messages[0]
    assert field(shown, "Turn timeout") == "45 seconds"
    assert "ephemeral" in field(shown, "Hands delivered")
    assert f"<@&{role.id}>" in field(shown, "Who may start staked games")
    # the policy is what /koikoi obeys: bob has no role yet
    refused = await world.player.slash(channel, "koikoi", ai="easy", stake=10)
    assert only_private(refused) and "staff" in reply_text(refused)
    standin.give_role(world.guild, world.player, role)
    await hbot.store.open_account(guild, world.player.id)
    await world.player.slash(channel, "koikoi", ai="easy", stake=10)
    await table_posted(standin, channel)
    assert await store.balance(guild, world.player.id) == 990
    assert saved(await admin.slash(channel, "settings stakes", policy="everyone"))
    assert (await store.get_settings(guild)).stake_role_id is None


async def test_chip_grants_revokes_and_the_economy(hbot, standin, world):
    admin, channel, store, guild = world.admin, world.channel, hbot.store, world.guild.id
    granted = await admin.slash(channel, "chips-admin grant", user=world.player, amount=500,
                                reason="tournament prize")
    assert saved(granted) and "balance is 1,500" in reply_text(granted)
    revoked = await admin.slash(channel, "chips-admin revoke", user=world.player, amount=200,
                                reason="typo")
    assert saved(revoked) and "balance is 1,300" in reply_text(revoked)
    too_much = await admin.slash(channel, "chips-admin revoke", user=world.player, amount=5000,
                                 reason="all")
    assert only_private(too_much) and reply_text(too_much) == (
        "bob has only 1,300 chips; revoke at most that.")
    nobody = await admin.slash(channel, "chips-admin revoke", user=world.shy, amount=1,
                               reason="x")
    assert only_private(nobody) and "nothing to take back" in reply_text(nobody)
    to_bot = await admin.slash(channel, "chips-admin grant", user=standin.bot_user, amount=1,
                               reason="x")
    assert only_private(to_bot) and "Bots" in reply_text(to_bot)
    history = await world.player.slash(channel, "chips history")
    text = embed(history.original)["description"]
    assert "granted by staff · tournament prize" in text and "taken back by staff · typo" in text
    lines = await store.history(guild, world.player.id)
    assert {line.actor for line in lines if line.kind in ("grant", "revoke")} == {admin.id}

    shown = await admin.slash(channel, "chips-admin config")
    assert only_private(shown) and "Currency **chips**" in reply_text(shown)
    assert saved(await admin.slash(channel, "chips-admin config", starting_chips=50,
                                   daily_amount=0, currency_name="ryo"))
    for options, allowed in (({"currency_name": "x" * 40}, "1 to 32 characters"),
                             ({"starting_chips": -1}, "from 0 to"),
                             ({"daily_amount": 10**13}, "from 0 to 1,000,000,000,000")):
        record = await admin.slash(channel, "chips-admin config", **options)
        assert only_private(record) and allowed in reply_text(record), options
    newcomer = await world.shy.slash(channel, "chips balance")
    assert "You have **50** ryo" in reply_text(newcomer)
    off = await world.shy.slash(channel, "chips daily")
    assert only_private(off) and "turned off" in reply_text(off)
    assert (await store.audit()).ok
