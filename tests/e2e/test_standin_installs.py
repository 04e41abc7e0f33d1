"""The stand-in models the places an app reaches through user installs: group DMs and servers
that never added the bot. There the app may only answer interactions, publicly only where Use
External Apps is on, with at most five follow-ups each; every other request is refused and
recorded, so a test of the bot there counts every request Discord would refuse."""

from __future__ import annotations

import aiohttp
import pytest

from tests.discord_standin import CommandHidden, StandIn
from tests.discord_standin.state import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    MESSAGE_FLAG_EPHEMERAL,
    USE_EXTERNAL_APPS,
)
from tests.discord_standin.users import interaction_payload, new_record

QUIET = {"allowed_mentions": {"parse": []}}
GAME = {"name": "koikoi", "type": 1, "id": "1", "contexts": [0, 1, 2], "integration_types": [0, 1]}
STAFF = {"name": "settings", "type": 1, "id": "2", "contexts": [0], "integration_types": [0]}


@pytest.fixture
async def http(standin: StandIn):
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {standin.token}"}) as session:
        yield session


def record_in(standin: StandIn, user, channel, command=GAME):
    """An interaction as `dispatch_interaction` makes it, without a bot on the gateway."""
    record = new_record(standin, user, channel, 2, {"name": command["name"], "type": 1}, None)
    record.context = standin.context_of(channel)
    record.owners = standin.installs_for(user, channel, command)
    record.app_permissions = standin.app_permissions_in(channel)
    record.foreign = not standin.is_member_in(channel)
    standin.interactions[record.id] = record
    standin.interactions_by_token[record.token] = record
    return record


def test_commands_reach_a_place_only_through_an_install_that_allows_it(standin: StandIn):
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    group = standin.create_group_dm("friends", alice, bob)
    home = standin.create_guild("Home")
    standin.add_member(home, alice)
    lounge = standin.create_channel(home, "lounge")
    elsewhere = standin.create_guild("Elsewhere", with_bot=False)
    standin.add_member(elsewhere, alice)
    street = standin.create_channel(elsewhere, "street")
    assert standin.installs_for(alice, lounge, GAME) == {"0": str(home.id)}
    assert standin.installs_for(alice, group, GAME) == {}  # nobody installed it for alice yet
    assert standin.installs_for(alice, street, GAME) == {}
    standin.install_for(alice)
    assert standin.installs_for(alice, group, GAME) == {"1": str(alice.id)}
    assert standin.installs_for(alice, street, GAME) == {"1": str(alice.id)}
    assert standin.installs_for(alice, lounge, GAME) == {"0": str(home.id), "1": str(alice.id)}
    assert standin.installs_for(alice, group, STAFF) == {}  # a server-only command stays there
    assert standin.installs_for(alice, street, STAFF) == {}
    assert standin.installs_for(bob, group, GAME) == {}
    assert [standin.context_of(c) for c in (lounge, alice.dm_channel, group)] == [
        CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL]
    assert standin.app_permissions_in(group) & USE_EXTERNAL_APPS
    street.external_apps = False
    assert not standin.app_permissions_in(street) & USE_EXTERNAL_APPS
    payload = interaction_payload(standin, record_in(standin, alice, group))
    assert payload["context"] == CONTEXT_PRIVATE_CHANNEL and "guild_id" not in payload
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert payload["channel"]["type"] == 3 and len(payload["channel"]["recipients"]) == 2
    payload = interaction_payload(standin, record_in(standin, alice, street))
    assert payload["guild_id"] == str(elsewhere.id) and payload["context"] == CONTEXT_GUILD
    assert int(payload["app_permissions"]) & USE_EXTERNAL_APPS == 0


async def test_a_command_not_offered_in_a_place_cannot_be_run_there(standin: StandIn, start_bot):
    import discord
    from discord import app_commands
    from discord.ext import commands

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())

    @bot.tree.command(name="settings", description="staff only")
    @app_commands.guild_only()
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    await start_bot(bot)
    await bot.tree.sync()
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    with pytest.raises(CommandHidden):
        await alice.slash(standin.create_group_dm("friends", alice, bob), "settings")


async def test_the_bot_may_only_answer_where_it_is_not_a_member(standin: StandIn, http):
    alice, bob = standin.create_user("alice"), standin.create_user("bob")
    standin.install_for(alice)
    group = standin.create_group_dm("friends", alice, bob)
    elsewhere = standin.create_guild("Elsewhere", with_bot=False)
    standin.add_member(elsewhere, alice)
    street = standin.create_channel(elsewhere, "street")
    for channel in (group, street):
        async with http.post(f"{standin.api_url}/channels/{channel.id}/messages",
                             json={"content": "hello", **QUIET}) as resp:
            assert resp.status == 403 and (await resp.json())["code"] == 50001
    assert [v.kind for v in standin.take_violations()] == ["missing-access", "missing-access"]
    record = record_in(standin, alice, group)
    async with http.post(f"{standin.api_url}/interactions/{record.id}/{record.token}/callback",
                         json={"type": 4, "data": {"content": "a table", **QUIET}}) as resp:
        assert resp.status == 204
    webhook = f"{standin.api_url}/webhooks/{standin.application_id}/{record.token}"
    for n in range(5):
        async with http.post(webhook, json={"content": f"follow-up {n}", **QUIET}) as resp:
            assert resp.status == 204
    async with http.post(webhook, json={"content": "one too many", **QUIET}) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 40094
    assert [v.kind for v in standin.take_violations()] == ["followup-limit"]
    assert record.original.is_visible_to(bob)  # a public answer in a group DM: both see it


async def test_without_use_external_apps_only_private_answers_are_allowed(standin: StandIn, http):
    alice = standin.create_user("alice")
    standin.install_for(alice)
    elsewhere = standin.create_guild("Elsewhere", with_bot=False)
    standin.add_member(elsewhere, alice)
    street = standin.create_channel(elsewhere, "street")
    street.external_apps = False
    public, private = record_in(standin, alice, street), record_in(standin, alice, street)
    async with http.post(f"{standin.api_url}/interactions/{public.id}/{public.token}/callback",
                         json={"type": 5}) as resp:
        assert resp.status == 403 and (await resp.json())["code"] == 50013
    assert [v.kind for v in standin.take_violations()] == ["external-apps"]
    async with http.post(f"{standin.api_url}/interactions/{private.id}/{private.token}/callback",
                         json={"type": 5, "data": {"flags": MESSAGE_FLAG_EPHEMERAL}}) as resp:
        assert resp.status == 204
    webhook = f"{standin.api_url}/webhooks/{standin.application_id}/{private.token}"
    async with http.post(webhook, json={"content": "your table", **QUIET}) as resp:
        assert resp.status == 204  # replaces the private "thinking" message
    async with http.post(webhook, json={"content": "for everyone", **QUIET}) as resp:
        assert resp.status == 403
    async with http.post(webhook, json={"content": "for you", "flags": MESSAGE_FLAG_EPHEMERAL,
                                        **QUIET}) as resp:
        assert resp.status == 204
    assert [v.kind for v in standin.take_violations()] == ["external-apps"]
