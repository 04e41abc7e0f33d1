"""Where each command is offered, as the synced payload tells Discord: the games, their rules and a
player's own records follow a user who installed the app into DMs, group DMs and servers without
the bot; a server's staff, economy and records stay in the servers that added it."""

from __future__ import annotations

import asyncio

import pytest

from bot.__main__ import command_payload
from bot.games.descriptor import descriptors

GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
PLAYER_COMMANDS = {d.command for d in descriptors()} | {"rules", "stats", "leaderboard", "language", "help",
                                                        "privacy", "deal"}


@pytest.fixture(scope="module")
def payload() -> dict[str, dict]:
    return {c["name"]: c for c in asyncio.run(command_payload())}


def test_every_command_says_where_it_is_offered(payload):
    for name, command in payload.items():
        assert command.get("contexts"), name
        assert command.get("integration_types"), name


def test_the_games_and_a_players_own_commands_follow_a_user_install(payload):
    assert set(payload) >= PLAYER_COMMANDS
    for name in PLAYER_COMMANDS:
        assert sorted(payload[name]["contexts"]) == [GUILD, BOT_DM, PRIVATE_CHANNEL], name
        assert sorted(payload[name]["integration_types"]) == [GUILD_INSTALL, USER_INSTALL], name


def test_staff_economy_and_server_records_stay_in_servers_that_added_the_app(payload):
    for name in set(payload) - PLAYER_COMMANDS:
        assert payload[name]["integration_types"] == [GUILD_INSTALL], name
        assert GUILD in payload[name]["contexts"] and PRIVATE_CHANNEL not in payload[name]["contexts"], name
    for name in ("settings", "chips-admin", "chips", "season", "privacy-admin", "games"):
        assert payload[name]["contexts"] == [GUILD], name
