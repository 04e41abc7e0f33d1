"""The start command of each game (``/koikoi``, ``/gostop`` ...): its options, their words and
choices from the game's descriptor, and what is wrong with the options a command was sent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.cog import anywhere
from bot.discord_ui.game_settings import preset_label
from bot.discord_ui.text import safe_name
from bot.games import game_module
from bot.games.descriptor import descriptors
from bot.games.seotda.rules import INT_RANGES as SEOTDA_RANGES
from bot.i18n import number, t
from bot.settlement import ESCROW_POINTS, is_betting, is_per_point, match_nouns
from bot.tables import AI_LEVELS
from bot.tables.rules import MAX_STAKE
from bot.tables.starting import Place
from bot.words import plural

MAX_ROUNDS = 1000
TEAMS = ("off", "pairs", "triples")

GAME_COMMANDS: dict[str, str] = {d.slug: d.command for d in descriptors()}
"""Slash command name of each game (its descriptor's)."""

DESCRIPTIONS: dict[str, str] = {d.slug: d.command_description for d in descriptors()}
"""Slash command description of each game (its descriptor's)."""


# Seotda's per-table limits as slash options, in the ranges its rules check (the rules refuse
# what a crafted interaction sends outside them, with their own message).
Ante = app_commands.Range[int, SEOTDA_RANGES["ante"][0], SEOTDA_RANGES["ante"][1]]
MaxRaises = app_commands.Range[int, SEOTDA_RANGES["max_raises"][0], SEOTDA_RANGES["max_raises"][1]]


def _stake_help(game: str) -> str:
    if is_betting(game):
        return "Buy-in: the chips each player brings; every bet is paid from them as it is made"
    if is_per_point(game):
        return f"Chips per point; each player escrows {ESCROW_POINTS}x this, the most they can lose"
    return "Chips each player puts in; the winner takes the pot"


def game_command(open_game: Callable[..., Awaitable[None]], game: str) -> app_commands.Command:
    """The start command of one game, with that game's presets and player counts as choices,
    calling ``open_game`` (the cog's) with what it was sent. Every string option is a choice
    list (no free text reaches the bot through them)."""
    module = game_module(game)
    low, high = module.PLAYERS
    described = dict(
        opponent="Challenge this player to a two-player game (leave empty for an open lobby)",
        ai="Play against the AI at this level right away",
        players=f"Seats at the table when you play the AI ({low}-{high}; the others are AI)",
        rounds="Rounds in the match (default: the server's house rules)",
        target="Play until someone reaches this many points instead",
        stake=_stake_help(game),
        preset="Rule set (default: the server's house rules)",
    )
    choices = dict(
        ai=[app_commands.Choice(name=lvl, value=lvl) for lvl in AI_LEVELS],
        preset=[app_commands.Choice(name=preset_label(game, p), value=p) for p in module.Rules.PRESETS],
        rounds=[app_commands.Choice(name=str(n), value=n) for n in (1, 3, 6, 10, 12)],
    )

    async def start(interaction: discord.Interaction, opponent: discord.User | None = None,
                    ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                    rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                    stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None) -> None:
        await open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players)

    async def start_sakura(interaction: discord.Interaction, opponent: discord.User | None = None,
                           ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                           rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                           stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None,
                           teams: str | None = None) -> None:
        await open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players, teams)

    async def start_seotda(interaction: discord.Interaction, opponent: discord.User | None = None,
                           ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                           rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                           stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None,
                           ante: Ante | None = None, max_raises: MaxRaises | None = None) -> None:
        await open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players,
                            options={"ante": ante, "max_raises": max_raises})

    callback = start
    if game == "sakura":
        described["teams"] = "Teams sharing a capture pile: pairs (4 or 6 players) or triples (6)"
        choices["teams"] = [app_commands.Choice(name=t, value=t) for t in TEAMS]
        callback = start_sakura
    elif game == "seotda":
        described["ante"] = "Chips each player puts in before every deal (default: the server's house rules)"
        described["max_raises"] = "Raises allowed in one betting round (default: the server's house rules)"
        callback = start_seotda
    if high == 2:
        del described["players"]
    callback = app_commands.describe(**described)(app_commands.choices(**choices)(callback))
    if high == 2:  # a two-player game has no seat count to choose
        async def two(interaction: discord.Interaction, opponent: discord.User | None = None,
                      ai: str | None = None, rounds: int | None = None,
                      target: app_commands.Range[int, 1, 1000] | None = None,
                      stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None) -> None:
            await open_game(interaction, game, opponent, ai, rounds, target, stake, preset)
        callback = app_commands.describe(**described)(app_commands.choices(**choices)(two))
    command = app_commands.Command(name=GAME_COMMANDS[game], description=DESCRIPTIONS[game], callback=callback)
    return anywhere(command)


def guest_problem(place: Place, stake: int, ai: str | None, opponent: discord.User | None,
                  channel: Any) -> str | None:
    """What a game cannot be where the app is a guest, in one sentence (None: it can be)."""
    if not place.guest:
        return None
    if stake:
        return t("Games outside servers that added the bot are played without chips; leave the stake out.")
    if not place.public and ai is None:
        return t("Only you can see my answers here, because this server does not let members use "
                 "external apps in public: play the AI, or ask the server to allow Use External Apps.")
    recipients = getattr(channel, "recipients", None)
    if opponent is not None and recipients is not None and opponent.id not in {u.id for u in recipients}:
        return t("{user} is not in this conversation, so they could not see your challenge.",
                 user=safe_name(opponent.display_name))
    return None


def option_problem(game: str, ai: str | None, rounds: int | None, target: int | None, stake: int,
                   preset: str | None, players: int | None, teams: str | None) -> str | None:
    """Discord enforces the declared choices and ranges, but a crafted interaction need not:
    what is wrong with the options, without echoing what was sent."""
    presets = game_module(game).Rules.PRESETS
    if ai is not None and ai not in AI_LEVELS:
        return t("Choose an AI level: {levels}.", levels=", ".join(AI_LEVELS))
    if preset is not None and preset not in presets:
        return t("Choose a rule set: {presets}.", presets=", ".join(preset_label(game, p) for p in presets))
    if teams is not None and (game != "sakura" or teams not in TEAMS):
        return t("Teams are {teams} (Sakura only).", teams=", ".join(TEAMS))
    unit, score = match_nouns(game)
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        return (t("Hands go from 1 to {most}.", most=number(MAX_ROUNDS)) if unit == "hand"
                else t("Rounds go from 1 to {most}.", most=number(MAX_ROUNDS)))
    if target is not None and not 1 <= target <= 1000:
        return t("The target goes from 1 to {most}.", most=plural(1000, score))
    if not 0 <= stake <= MAX_STAKE:
        return t("The stake goes from 0 to {most}.", most=number(MAX_STAKE))
    if players is not None and not 2 <= players <= 7:
        return t("Tables have 2 to 7 seats.")
    return None

