"""Starting games: ``/koikoi`` against a named opponent (a challenge), an open lobby, or the AI.

Lobby and challenge messages keep their whole state in the message itself (custom ids and the
embed), so their buttons keep working after a restart.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES, game_module
from bot.games.base import InvalidRules
from bot.settlement import ESCROW_POINTS, is_per_point, stake_text
from bot.store import StoreError
from bot.tables import AI_LEVELS, TableError, ai_seat
from cogs.table_ui import ACCENT, refuse
from rendering.view import GAME_NAMES

CHALLENGE_SECONDS = 300
MENTION = re.compile(r"<@!?([0-9]+)>")
AI_LINE = re.compile(r"^AI (?:[0-9]+ )?\(([a-z]+)\)$", re.M)


def ai_name(level: str) -> str:
    return f"AI ({level})"


def ai_names(levels: list[str]) -> list[str]:
    """Seat names of AI players: the level in the name, numbered when several share it."""
    out = []
    for i, level in enumerate(levels):
        same = levels.count(level)
        out.append(ai_name(level) if same == 1 else f"AI {levels[:i + 1].count(level)} ({level})")
    return out


def build_rules(game: str, house: dict[str, Any], preset: str | None, rounds: int | None,
                target: int | None, teams: str | None = None):
    """The game's rules: a preset, then the server's house rules, then this game's options."""
    module = game_module(game)
    changes = dict(house)
    if teams is not None:
        changes["teams"] = teams
    name = preset or changes.pop("preset_name", None) or next(iter(module.Rules.PRESETS))
    changes.pop("preset_name", None)
    if target is not None:  # first to the target; with no round count given, no round limit
        changes["target_score"] = target
        changes["rounds"] = rounds or 0
    elif rounds is not None:
        changes["rounds"] = rounds
    return module.Rules.preset(name, **changes)


async def start_table(interaction: discord.Interaction, game: str, players: list[int | str],
                      names: list[str], host_id: int, rules_spec: dict[str, Any], stake: int) -> None:
    """Create and show the table; refuses with a clear message (nothing started) on bad input."""
    bot = interaction.client
    settings = await bot.store.get_settings(interaction.guild_id)  # type: ignore[attr-defined]
    module = game_module(game)
    low, high = module.PLAYERS
    if not low <= len(players) <= high:
        raise TableError(f"{GAME_NAMES[game]} is played by {low} to {high} players.")
    try:
        rules = build_rules(game, settings.rules_for(game), rules_spec.get("preset"),
                            rules_spec.get("rounds"), rules_spec.get("target"), rules_spec.get("teams"))
        module.new_match(len(players), rules, 0)  # rules that need another table size refuse here
    except (InvalidRules, ValueError) as exc:
        raise TableError(f"Those rules don't work with {len(players)} players: {exc}.") from None
    if stake:  # a first staked game opens the player's account with the server's starting chips
        for player in players:
            if isinstance(player, int):
                await bot.store.open_account(interaction.guild_id, player)  # type: ignore[attr-defined]
    try:
        await bot.tables.start(  # type: ignore[attr-defined]
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
            players=players, names=names, host_id=host_id, rules=rules, stake=stake,
            seed=secrets.randbits(63), key=f"start:{interaction.id}")
    except StoreError as exc:
        raise TableError(str(exc)) from None


def _spec_id(game: str, host: int, rounds: int, stake: int, target: int, preset: str,
             teams: str | None = None) -> str:
    return f"{game}:{host}:{rounds}:{stake}:{target}:{preset or '-'}" + (f":{teams}" if teams else "")


_SPEC = (r"(?P<game>[a-z_]+):(?P<host>[0-9]+):(?P<rounds>[0-9]+):(?P<stake>[0-9]+):(?P<target>[0-9]+):"
         r"(?P<preset>[a-z0-9_-]+)(?::(?P<teams>off|pairs|triples))?")


def _spec(match: re.Match[str]) -> dict[str, Any]:
    rounds, target = int(match["rounds"]), int(match["target"])
    return {"game": match["game"], "host": int(match["host"]), "stake": int(match["stake"]),
            "rounds": rounds or None, "target": target or None,
            "preset": None if match["preset"] == "-" else match["preset"], "teams": match["teams"]}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hf:lb:(?P<op>join|leave|start|cancel|ai):" + _SPEC):
    """Join, Leave, Start, Cancel and Add AI of an open lobby."""

    LABELS = {"join": ("Join", discord.ButtonStyle.success), "leave": ("Leave", discord.ButtonStyle.secondary),
              "start": ("Start", discord.ButtonStyle.primary), "ai": ("Add AI", discord.ButtonStyle.secondary),
              "cancel": ("Cancel", discord.ButtonStyle.danger)}

    def __init__(self, op: str, spec_id: str) -> None:
        label, style = self.LABELS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hf:lb:{op}:{spec_id}"))
        self.op, self.spec_id = op, spec_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        inst = cls(match["op"], match.string.split(":", 3)[3])
        inst.spec = _spec(match)
        return inst

    async def callback(self, interaction: discord.Interaction) -> None:
        await update_lobby(interaction, self.spec, self.op)


class LobbyAISelect(discord.ui.DynamicItem[discord.ui.Select], template=r"hf:lbai:" + _SPEC):
    """The host adds an AI player at the chosen level."""

    def __init__(self, spec_id: str) -> None:
        options = [discord.SelectOption(label=f"Add AI ({level})", value=level) for level in AI_LEVELS]
        super().__init__(discord.ui.Select(placeholder="Add an AI player…", options=options,
                                           custom_id=f"hf:lbai:{spec_id}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        inst = cls(match.string.split(":", 2)[2])
        inst.spec = _spec(match)
        return inst

    async def callback(self, interaction: discord.Interaction) -> None:
        level = self.item.values[0] if self.item.values else "normal"
        await update_lobby(interaction, self.spec, "ai", level)


async def update_lobby(interaction: discord.Interaction, spec: dict[str, Any], op: str,
                       level: str = "normal") -> None:
    """One lobby operation; the lobby's members live in the message's embed."""
    module = game_module(spec["game"])
    low, high = module.PLAYERS
    text = (interaction.message.embeds[0].description or "") if interaction.message.embeds else ""
    humans = [int(m) for m in MENTION.findall(text)]
    ais = AI_LINE.findall(text)
    user = interaction.user.id
    try:
        if op == "join":
            if user in humans:
                raise TableError("You are already in this lobby.")
            if len(humans) + len(ais) >= high:
                raise TableError("This lobby is full.")
            humans.append(user)
        elif op == "leave":
            if user not in humans:
                raise TableError("You are not in this lobby.")
            if user == spec["host"]:
                raise TableError("The host cannot leave; press Cancel to close the lobby.")
            humans.remove(user)
        elif op == "ai":
            if user != spec["host"]:
                raise TableError("Only the host can add AI players.")
            if len(humans) + len(ais) >= high:
                raise TableError("This lobby is full.")
            if level not in AI_LEVELS:
                raise TableError(f"Choose an AI level: {', '.join(AI_LEVELS)}.")
            ais.append(level)
        elif op == "cancel":
            if user != spec["host"]:
                raise TableError("Only the host can cancel the lobby.")
            await interaction.response.edit_message(
                embed=discord.Embed(title="Lobby closed", description="The host cancelled it.", colour=ACCENT),
                view=None)
            return
        elif op == "start":
            if user != spec["host"]:
                raise TableError("Only the host can start the game.")
            if len(humans) + len(ais) < low:
                raise TableError(f"{GAME_NAMES[spec['game']]} needs at least {low} players.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            players: list[int | str] = [*humans, *(ai_seat(level) for level in ais)]
            names = [await display_name(interaction, h) for h in humans] + ai_names(ais)
            await start_table(interaction, spec["game"], players, names, spec["host"], spec, spec["stake"])
            await interaction.message.edit(
                embed=discord.Embed(title="Lobby started", description=lobby_text(humans, ais), colour=ACCENT),
                view=None)
            await interaction.followup.send("The game is on: look for the table below.", ephemeral=True)
            return
    except TableError as exc:
        await refuse(interaction, str(exc))
        return
    await interaction.response.edit_message(embed=lobby_embed(spec, humans, ais))


def lobby_text(humans: list[int], ais: list[str]) -> str:
    return "\n".join([*(f"<@{h}>" for h in humans), *ai_names(ais)])


def lobby_embed(spec: dict[str, Any], humans: list[int], ais: list[str]) -> discord.Embed:
    low, high = game_module(spec["game"]).PLAYERS
    embed = discord.Embed(title=f"{GAME_NAMES[spec['game']]} lobby", colour=ACCENT,
                          description=lobby_text(humans, ais))
    embed.set_footer(text=f"{len(humans) + len(ais)}/{high} players · "
                          f"{stake_text(spec['game'], spec['stake'])}")
    return embed


def lobby_view(spec_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start", "cancel"):
        view.add_item(LobbyButton(op, spec_id))
    view.add_item(LobbyAISelect(spec_id))
    return view


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"hf:ch:(?P<op>accept|decline):(?P<opp>[0-9]+):(?P<exp>[0-9]+):" + _SPEC):
    """Accept or Decline of a challenge; only the challenged player may press, until it expires."""

    def __init__(self, op: str, opp: int, exp: int, spec_id: str) -> None:
        label, style = ("Accept", discord.ButtonStyle.success) if op == "accept" else ("Decline", discord.ButtonStyle.danger)
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"hf:ch:{op}:{opp}:{exp}:{spec_id}"))
        self.op, self.opp, self.exp = op, opp, exp

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        inst = cls(match["op"], int(match["opp"]), int(match["exp"]), match.string.split(":", 5)[5])
        inst.spec = _spec(match)
        return inst

    async def callback(self, interaction: discord.Interaction) -> None:
        spec = self.spec
        if interaction.user.id != self.opp:
            await refuse(interaction, "This challenge is not for you.")
            return
        if time.time() > self.exp:
            await interaction.response.edit_message(
                embed=discord.Embed(title="Challenge expired", description=f"<@{self.opp}> did not answer in time.",
                                    colour=ACCENT), view=None)
            return
        if self.op == "decline":
            await interaction.response.edit_message(
                embed=discord.Embed(title="Challenge declined", description=f"<@{self.opp}> declined.",
                                    colour=ACCENT), view=None)
            return
        await interaction.response.defer()
        names = [await display_name(interaction, spec["host"]), interaction.user.display_name]
        try:
            await start_table(interaction, spec["game"], [spec["host"], self.opp], names, spec["host"],
                              spec, spec["stake"])
        except TableError as exc:
            await refuse(interaction, str(exc))
            return
        await interaction.edit_original_response(
            embed=discord.Embed(title="Challenge accepted", description=f"<@{spec['host']}> vs <@{self.opp}>",
                                colour=ACCENT), view=None)


async def display_name(interaction: discord.Interaction, user_id: int) -> str:
    guild = interaction.guild
    member = guild.get_member(user_id) if guild else None
    if member is not None:
        return member.display_name
    if user_id == interaction.user.id:
        return interaction.user.display_name
    try:
        user = interaction.client.get_user(user_id) or await interaction.client.fetch_user(user_id)
        return user.display_name
    except discord.HTTPException:
        return f"Player {user_id % 10000}"


GAME_COMMANDS: dict[str, str] = {
    "koikoi": "koikoi", "gostop": "gostop", "mushi": "mushi", "sakura": "sakura",
    "hana_awase": "hanaawase", "shedding": "firstbloom",
}
"""Slash command name of each game."""

DESCRIPTIONS = {
    "koikoi": "Play Koi-Koi: challenge someone, open a lobby, or play the AI",
    "gostop": "Play Go-Stop (Matgo for two, or three players): challenge, lobby or AI",
    "mushi": "Play Mushi, the two-player game with the wild lightning",
    "sakura": "Play Higo-Bana (Sakura) with 2 to 7 players, alone or in teams",
    "hana_awase": "Play Hana-Awase with 2 to 4 players",
    "shedding": "Play First Bloom, the shedding game: empty your hand first, then slap!",
}


def _stake_help(game: str) -> str:
    if is_per_point(game):
        return f"Chips per point; each player escrows {ESCROW_POINTS}x this, the most they can lose"
    return "Chips each player puts in; the winner takes the pot"


def game_command(cog: PlayCog, game: str) -> app_commands.Command:
    """The start command of one game, with that game's presets and player counts as choices."""
    module = game_module(game)
    low, high = module.PLAYERS
    described = dict(
        opponent="Challenge this member to a two-player game (leave empty for an open lobby)",
        ai="Play against the AI at this level right away",
        players=f"Seats at the table when you play the AI ({low}-{high}; the others are AI)",
        rounds="Rounds in the match (default: the server's house rules)",
        target="Play until someone reaches this many points instead",
        stake=_stake_help(game),
        preset="Rule set (default: the server's house rules)",
    )
    choices = dict(
        ai=[app_commands.Choice(name=lvl, value=lvl) for lvl in AI_LEVELS],
        preset=[app_commands.Choice(name=p, value=p) for p in module.Rules.PRESETS],
        rounds=[app_commands.Choice(name=str(n), value=n) for n in (1, 3, 6, 10, 12)],
    )

    async def start(interaction: discord.Interaction, opponent: discord.Member | None = None,
                    ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                    rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                    stake: app_commands.Range[int, 0, 1_000_000] = 0, preset: str | None = None) -> None:
        await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players)

    async def start_sakura(interaction: discord.Interaction, opponent: discord.Member | None = None,
                           ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                           rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                           stake: app_commands.Range[int, 0, 1_000_000] = 0, preset: str | None = None,
                           teams: str | None = None) -> None:
        await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players, teams)

    callback = start
    if game == "sakura":
        described["teams"] = "Teams sharing a capture pile: pairs (4 or 6 players) or triples (6)"
        choices["teams"] = [app_commands.Choice(name=t, value=t) for t in ("off", "pairs", "triples")]
        callback = start_sakura
    if high == 2:
        del described["players"]
    callback = app_commands.describe(**described)(app_commands.choices(**choices)(callback))
    if high == 2:  # a two-player game has no seat count to choose
        async def two(interaction: discord.Interaction, opponent: discord.Member | None = None,
                      ai: str | None = None, rounds: int | None = None,
                      target: app_commands.Range[int, 1, 1000] | None = None,
                      stake: app_commands.Range[int, 0, 1_000_000] = 0, preset: str | None = None) -> None:
            await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset)
        callback = app_commands.describe(**described)(app_commands.choices(**choices)(two))
    command = app_commands.Command(name=GAME_COMMANDS[game], description=DESCRIPTIONS[game], callback=callback)
    return app_commands.guild_only()(command)


class PlayCog(commands.Cog):
    """Slash commands that start games: one per game (``/koikoi``, ``/gostop`` ...)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def open_game(self, interaction: discord.Interaction, game: str, opponent: discord.Member | None,
                        ai: str | None, rounds: int | None, target: int | None, stake: int,
                        preset: str | None, players: int | None = None, teams: str | None = None) -> None:
        user = interaction.user
        settings = await self.bot.store.get_settings(interaction.guild_id)  # type: ignore[attr-defined]
        perms = getattr(user, "guild_permissions", None)
        if stake and not settings.may_start_staked(is_manager=bool(perms and perms.manage_guild),
                                                   role_ids=[r.id for r in getattr(user, "roles", [])]):
            await refuse(interaction, "On this server only staff may start games with a stake.")
            return
        spec = {"game": game, "host": user.id, "stake": stake, "rounds": rounds, "target": target,
                "preset": preset, "teams": teams}
        spec_id = _spec_id(game, user.id, rounds or 0, stake, target or 0, preset or "", teams)
        low, high = game_module(game).PLAYERS
        try:  # refuse bad rules now rather than when the game starts
            build_rules(game, settings.rules_for(game), preset, rounds, target, teams)
        except InvalidRules as exc:
            await refuse(interaction, f"Those rules don't work: {exc}.")
            return
        if players is not None and ai is None:
            await refuse(interaction, "The players option sets the table size against the AI; "
                                      "add ai, or open a lobby without it.")
            return
        if ai is not None:
            seats = players or low
            if not low <= seats <= high:
                await refuse(interaction, f"{GAME_NAMES[game]} is played by {low} to {high} players.")
                return
            await interaction.response.defer(thinking=True)
            levels = [ai] * (seats - 1)
            try:
                await start_table(interaction, game, [user.id, *(ai_seat(lvl) for lvl in levels)],
                                  [user.display_name, *ai_names(levels)], user.id, spec, stake)
            except TableError as exc:
                await interaction.followup.send(str(exc), ephemeral=True)
                return
            against = ", ".join(ai_names(levels))
            await interaction.followup.send(f"{user.display_name} sits down against {against}.")
            return
        if opponent is not None:
            if low > 2:
                await refuse(interaction, f"{GAME_NAMES[game]} needs {low} players: open a lobby instead.")
                return
            if opponent.id == user.id:
                await refuse(interaction, "You cannot challenge yourself; leave the opponent empty for a lobby.")
                return
            if opponent.bot:
                await refuse(interaction, "Bots can't play; use the ai option to play against mine.")
                return
            exp = int(time.time()) + CHALLENGE_SECONDS
            view = discord.ui.View(timeout=None)
            view.add_item(ChallengeButton("accept", opponent.id, exp, spec_id))
            view.add_item(ChallengeButton("decline", opponent.id, exp, spec_id))
            embed = discord.Embed(
                title=f"{GAME_NAMES[game]} challenge", colour=ACCENT,
                description=f"<@{user.id}> challenges <@{opponent.id}>"
                            + (f" ({stake_text(game, stake)})" if stake else "")
                            + f".\nThe challenge expires <t:{exp}:R>.")
            await interaction.response.send_message(
                content=f"<@{opponent.id}>", embed=embed, view=view,
                allowed_mentions=discord.AllowedMentions(users=[opponent]))
            message = await interaction.original_response()
            self.bot.loop.create_task(self._expire(message, opponent.id, exp))
            return
        await interaction.response.send_message(embed=lobby_embed(spec, [user.id], []), view=lobby_view(spec_id))


    async def _expire(self, message: discord.InteractionMessage, opponent_id: int, exp: float) -> None:
        """Close an unanswered challenge when it expires (a click after that is refused too)."""
        await asyncio.sleep(max(0.0, exp - time.time()))
        try:
            fresh = await message.channel.fetch_message(message.id)
            if fresh.components:
                await fresh.edit(embed=discord.Embed(
                    title="Challenge expired", description=f"<@{opponent_id}> did not answer in time.",
                    colour=ACCENT), view=None)
        except discord.HTTPException:
            pass  # deleted or unreachable: nothing left to close


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LobbyButton, LobbyAISelect, ChallengeButton)
    cog = PlayCog(bot)
    await bot.add_cog(cog)
    for game in GAMES:
        bot.tree.add_command(game_command(cog, game), override=True)
