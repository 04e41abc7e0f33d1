"""Starting games: ``/koikoi`` against a named opponent (a challenge), an open lobby, or the AI.

Lobbies and challenges are stored (:mod:`bot.store.lobbies`): their buttons carry only the
lobby's random id, and every press is checked against the stored record (server, channel,
message, host, opponent, expiry), so a crafted interaction cannot change the stake, the rules or
who hosts, and the buttons work again after a restart. Starting moves the record from ``open``
to ``starting`` in one transaction, so however many presses arrive at once, one game starts.

Every refusal is ephemeral: anything that can refuse is checked before a public response.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.discord_ui.app import app
from bot.discord_ui.background import Background
from bot.discord_ui.cog import anywhere
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.fair import add_commitment
from bot.discord_ui.game_settings import add_settings, preset_label, seat_counts
from bot.discord_ui.lobby_messages import face_of, note_shown, show_lobby, show_unshown
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.starting import (
    CHALLENGE_CLOSED,
    CHALLENGE_SECONDS,
    LOBBY_CLOSED,
    NO_MENTIONS,
    before_answer,
    check_stakes,
    expired_embed,
    launch,
    lobby_lock,
    noted,
    pressed,
    start_table,
)
from bot.discord_ui.text import clip, refuse, safe_name
from bot.games import GAMES, game_module
from bot.games.base import InvalidRules
from bot.games.descriptor import descriptors
from bot.games.seotda.rules import INT_RANGES as SEOTDA_RANGES
from bot.i18n import N_, number, t, tp
from bot.presenters.problems import rules_problem
from bot.settlement import ESCROW_POINTS, is_betting, is_per_point, match_nouns
from bot.store import StoreError
from bot.store.lobbies import Lobby, LobbyError, LobbyExpired, LobbyNotOpen, LobbyRefused
from bot.tables import AI_LEVELS, TableError, ai_seat
from bot.tables.rules import MAX_STAKE, build_rules, table_rules
from bot.tables.starting import Place, ai_names
from bot.words import plural
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

MAX_ROUNDS = 1000
MAX_REPLY = 1800  # below Discord's 2,000-character message limit, with room for the frame
TEAMS = ("off", "pairs", "triples")


async def lobby_press(interaction: discord.Interaction, op: str, lobby_id: str, level: str | None = None) -> None:
    """Join, Leave, Cancel, Add AI or Start, checked against the stored lobby."""
    store = app(interaction).store
    user = interaction.user.id
    try:
        lobby = await pressed(interaction, lobby_id, "lobby")
        if op == "start":
            await start_lobby(interaction, lobby)
            return
        async with lobby_lock(lobby.lobby_id):
            if op == "join":
                lobby = await store.join_lobby(lobby.lobby_id, user, press=interaction.id)
            elif op == "leave":
                lobby = await store.leave_lobby(lobby.lobby_id, user)
            elif op == "ai":
                if level not in AI_LEVELS:
                    raise LobbyRefused(t("Choose an AI level: {levels}.", levels=", ".join(AI_LEVELS)))
                lobby = await store.add_lobby_ai(lobby.lobby_id, user, level)
            elif op == "cancel":
                lobby = await store.close_lobby(lobby.lobby_id, user)
            else:
                raise LobbyNotOpen(t(LOBBY_CLOSED))
            settings = await store.get_settings(lobby.guild_id)
            with in_public(interaction):
                embed, view = lobby_face(lobby, settings)
            await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
    except (LobbyError, TableError) as exc:
        await refuse(interaction, told(exc))
        return
    await note_shown(interaction.client, lobby)


async def start_lobby(interaction: discord.Interaction, lobby: Lobby) -> None:
    store = app(interaction).store
    if interaction.user.id != lobby.host_id:
        raise LobbyRefused(t("Only the host can start the game."))
    guest = place_of(interaction).guest
    # A guest answers the press as an update of the lobby, which then becomes the table.
    await interaction.response.defer(ephemeral=True, thinking=not guest)
    metrics.acknowledged(interaction)
    try:
        lobby = await store.begin_lobby_start(lobby.lobby_id, interaction.user.id)
    except LobbyError as exc:
        await refuse(interaction, sentence(exc))
        return
    if await launch(interaction, lobby) is None or guest:
        return
    if interaction.message is not None:
        await show_started(interaction, lobby.lobby_id, interaction.message.edit)
    await interaction.followup.send(t("The game is on: look for the table below."), ephemeral=True,
                                    allowed_mentions=NO_MENTIONS)


async def challenge_press(interaction: discord.Interaction, op: str, lobby_id: str) -> None:
    """Accept or Decline: only the challenged member, before the stored expiry."""
    store = app(interaction).store
    try:
        lobby = await pressed(interaction, lobby_id, "challenge")
        if op not in ("accept", "decline"):
            raise LobbyNotOpen(t(CHALLENGE_CLOSED))
        if interaction.user.id != lobby.opponent_id:
            raise LobbyRefused(t("This challenge is not for you."))
        if op == "decline":
            lobby = await store.close_lobby(lobby.lobby_id, interaction.user.id)
            settings = await store.get_settings(lobby.guild_id)
            with in_public(interaction):
                declined, _ = lobby_face(lobby, settings)
            await interaction.response.edit_message(embed=declined, view=None, allowed_mentions=NO_MENTIONS)
            await note_shown(interaction.client, lobby)
            return
        await interaction.response.defer()
        metrics.acknowledged(interaction)
        lobby = await store.begin_lobby_start(lobby.lobby_id, interaction.user.id)
    except LobbyExpired:
        expired = await store.expire_lobby(lobby_id)
        if expired is None:
            await refuse(interaction, t(CHALLENGE_CLOSED))
            return
        with in_public(interaction):
            gone = expired_embed(expired)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=gone, view=None, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.edit_message(embed=gone, view=None, allowed_mentions=NO_MENTIONS)
        await note_shown(interaction.client, expired)
        return
    except LobbyError as exc:
        await refuse(interaction, sentence(exc))
        return
    if await launch(interaction, lobby) is None or place_of(interaction).guest:
        return  # a guest's challenge message became the table
    await show_started(interaction, lobby.lobby_id, interaction.edit_original_response)


async def show_started(interaction: discord.Interaction, lobby_id: str,
                       edit: Callable[..., Awaitable[Any]]) -> None:
    """Show the lobby or challenge this press started as started, through ``edit`` (its message's
    or the press's own), and note it shown."""
    store = app(interaction).store
    try:
        lobby = await store.get_lobby(lobby_id)
        if lobby is None:
            return
        settings = await store.get_settings(lobby.guild_id)
        with in_public(interaction):
            embed, view = lobby_face(lobby, settings)
        await edit(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
    except (discord.HTTPException, StoreError):  # the game runs all the same; a start redraws it
        log.info("lobby %s: its message could not show the start", lobby_id, exc_info=True)
        return
    await note_shown(interaction.client, lobby)


# -- components: they carry the lobby id and nothing else ------------------------------------------
LOBBY_BUTTONS = {"join": (N_("Join"), discord.ButtonStyle.success),
                 "leave": (N_("Leave"), discord.ButtonStyle.secondary),
                 "start": (N_("Start"), discord.ButtonStyle.primary),
                 "cancel": (N_("Cancel"), discord.ButtonStyle.danger)}


class LobbyButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hf:lb:(?P<op>[a-z]{1,16}):(?P<lobby>[\s\S]*)"):
    """Join, Leave, Start and Cancel of an open lobby. The template takes any id, so a forged
    or stale one is answered (refused) rather than left to fail."""

    def __init__(self, op: str, lobby_id: str) -> None:
        label, style = LOBBY_BUTTONS.get(op, (op, discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=t(label) if op in LOBBY_BUTTONS else label, style=style, custom_id=f"hf:lb:{op}:{lobby_id}"))
        self.op, self.lobby_id = op, lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], match["lobby"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await lobby_press(interaction, self.op, self.lobby_id)


class LobbyAISelect(Speaks, discord.ui.DynamicItem[discord.ui.Select], template=r"hf:lbai:(?P<lobby>[\s\S]*)"):
    """The host adds an AI player at the chosen level."""

    def __init__(self, lobby_id: str) -> None:
        options = [discord.SelectOption(label=t("Add AI ({level})", level=tp("choice", level)), value=level)
                   for level in AI_LEVELS]
        super().__init__(discord.ui.Select(placeholder=t("Add an AI player…"), options=options,
                                           custom_id=f"hf:lbai:{lobby_id}"))
        self.lobby_id = lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["lobby"])

    async def callback(self, interaction: discord.Interaction) -> None:
        level = self.item.values[0] if self.item.values else None
        await lobby_press(interaction, "ai", self.lobby_id, level)


class ChallengeButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"hf:ch:(?P<op>[a-z]{1,16}):(?P<lobby>[\s\S]*)"):
    """Accept or Decline of a challenge."""

    def __init__(self, op: str, lobby_id: str) -> None:
        label, style = ((t("Accept"), discord.ButtonStyle.success) if op == "accept"
                        else (t("Decline"), discord.ButtonStyle.danger))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hf:ch:{op}:{lobby_id}"))
        self.op, self.lobby_id = op, lobby_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], match["lobby"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await challenge_press(interaction, self.op, self.lobby_id)


# -- what a lobby shows ----------------------------------------------------------------------------
def lobby_text(humans: list[int] | tuple[int, ...], ais: list[str] | tuple[str, ...]) -> str:
    """Members as user mentions (they ping nobody: every message here allows no mentions)."""
    return "\n".join([*(f"<@{h}>" for h in humans), *ai_names(list(ais))])


def lobby_rules(lobby: Lobby, settings: Any):
    """The rules the lobby's table would play now (its options over the server's house rules)."""
    try:
        return build_rules(lobby.game, settings.rules_for(lobby.game), lobby.preset, lobby.rounds,
                           lobby.target, lobby.teams, lobby.stake, lobby.options)
    except InvalidRules:  # house rules changed since: show the lobby's own options on the default
        return build_rules(lobby.game, {}, lobby.preset, lobby.rounds, lobby.target, lobby.teams,
                           lobby.stake, lobby.options)


def lobby_embed(lobby: Lobby, settings: Any, title: str | None = None, *, open_: bool = True
                ) -> discord.Embed:
    """The members and every setting of the lobby or challenge: game, match length, rule set,
    stake in the server's currency, teams and the seats taken of those the rules allow; an open
    lobby says how to join (``open_``: not once it started)."""
    embed = discord.Embed(title=title or t("{game} lobby", game=GAME_NAMES[lobby.game]), colour=ACCENT,
                          description=lobby_text(lobby.humans, lobby.ais))
    add_settings(embed, lobby.game, lobby_rules(lobby, settings), lobby.stake, settings.currency_name,
                 chosen_preset=lobby.preset is not None,
                 seated=lobby.seats if lobby.kind == "lobby" else None,
                 seats=lobby.kind == "lobby")
    if open_:
        add_commitment(embed, lobby.commitment)
    if lobby.kind == "lobby" and open_:
        embed.set_footer(text=t("Join to take a seat; the host adds AI players and presses Start."))
    return embed


def lobby_face(lobby: Lobby, settings: Any) -> tuple[discord.Embed, discord.ui.View | None]:
    """What a lobby's or challenge's message shows in each state, with its controls while it is
    open (one being started still shows open: its message changes once the game is on)."""
    game = GAME_NAMES[lobby.game]
    if lobby.kind == "challenge":
        if lobby.status == "expired":
            return expired_embed(lobby), None
        if lobby.status == "closed":
            return discord.Embed(title=t("Challenge declined"), colour=ACCENT,
                                 description=t("{user} declined.", user=f"<@{lobby.opponent_id}>")), None
        if lobby.status == "started":
            return discord.Embed(title=t("Challenge accepted"), colour=ACCENT,
                                 description=f"<@{lobby.host_id}> vs <@{lobby.opponent_id}>"), None
        embed = lobby_embed(lobby, settings, title=t("{game} challenge", game=game))
        lines = [t("{host} challenges {opponent}.", host=f"<@{lobby.host_id}>", opponent=f"<@{lobby.opponent_id}>")]
        if lobby.expires_at is not None:
            lines.append(t("The challenge expires {when}.", when=f"<t:{int(lobby.expires_at)}:R>"))
        embed.description = "\n".join(lines)
        return embed, challenge_view(lobby.lobby_id)
    if lobby.status == "closed":
        return discord.Embed(title=t("Lobby closed"), description=t("The host cancelled it."), colour=ACCENT), None
    if lobby.status == "started":
        return lobby_embed(lobby, settings, title=t("{game} lobby: started", game=game), open_=False), None
    return lobby_embed(lobby, settings), lobby_view(lobby.lobby_id)


async def lobby_message(client: Any, lobby: Lobby, settings: Any) -> tuple[discord.Embed, discord.ui.View | None]:
    """:func:`lobby_face` as a start's redraw asks for it (bot.discord_ui.lobby_messages)."""
    return lobby_face(lobby, settings)


def lobby_view(lobby_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_BUTTONS:
        view.add_item(LobbyButton(op, lobby_id))
    view.add_item(LobbyAISelect(lobby_id))
    return view


def challenge_view(lobby_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton("accept", lobby_id))
    view.add_item(ChallengeButton("decline", lobby_id))
    return view


# -- the commands ----------------------------------------------------------------------------------
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


def game_command(cog: PlayCog, game: str) -> app_commands.Command:
    """The start command of one game, with that game's presets and player counts as choices.
    Every string option is a choice list (no free text reaches the bot through them)."""
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
        await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players)

    async def start_sakura(interaction: discord.Interaction, opponent: discord.User | None = None,
                           ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                           rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                           stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None,
                           teams: str | None = None) -> None:
        await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players, teams)

    async def start_seotda(interaction: discord.Interaction, opponent: discord.User | None = None,
                           ai: str | None = None, players: app_commands.Range[int, 2, 7] | None = None,
                           rounds: int | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                           stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None,
                           ante: Ante | None = None, max_raises: MaxRaises | None = None) -> None:
        await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset, players,
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
            await cog.open_game(interaction, game, opponent, ai, rounds, target, stake, preset)
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


class PlayCog(commands.Cog):
    """Slash commands that start games: one per game (``/koikoi``, ``/gostop`` ...)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._tasks = Background()  # challenge expiries and edits that follow a press
        # Challenges where the app is a guest: the command that posted each, whose token is
        # the only way to close it when it expires.
        self._answers: dict[str, discord.Interaction] = {}

    async def cog_load(self) -> None:
        """Settle lobbies a crash left half-started, and time the open challenges again."""
        store = getattr(self.bot, "store", None)
        if store is None:  # only publishing the commands: no database, no lobbies
            return
        owns = app(self.bot).shard_plan.owns  # other processes: theirs
        for lobby in await store.recover_lobbies(owns):
            log.info("lobby %s was starting at shutdown: now %s", lobby.lobby_id, lobby.status)
        unshown = await store.unshown_lobbies(owns)
        if unshown:
            self._tasks.start(show_unshown(self.bot, unshown))
        for lobby in await store.open_challenges(owns):
            self.schedule_expiry(lobby.lobby_id)

    async def cog_unload(self) -> None:
        """Stop timing challenges, and wait until no expiry or edit runs: the store closes after
        this. A challenge made while the bot closes is timed again from the store at the next
        start."""
        await self._tasks.close()

    async def open_game(self, interaction: discord.Interaction, game: str, opponent: discord.User | None,
                        ai: str | None, rounds: int | None, target: int | None, stake: int,
                        preset: str | None, players: int | None = None, teams: str | None = None,
                        options: dict[str, int] | None = None) -> None:
        """``options``: the game's own per-table rules given as command options (Seotda's ante)."""
        user = interaction.user
        store = app(self.bot).store
        place = place_of(interaction)
        problem = option_problem(game, ai, rounds, target, stake, preset, players, teams) \
            or guest_problem(place, stake, ai, opponent, interaction.channel)
        if problem:
            await refuse(interaction, problem)
            return
        settings = await store.get_settings(place.scope)
        perms = getattr(user, "guild_permissions", None)
        if stake and not settings.may_start_staked(is_manager=bool(perms and perms.manage_guild),
                                                   role_ids=[r.id for r in getattr(user, "roles", [])]):
            await refuse(interaction, t("On this server only staff may start games with a stake."))
            return
        options = {name: value for name, value in (options or {}).items() if value is not None}
        spec = {"preset": preset, "rounds": rounds, "target": target, "teams": teams, "options": options}
        low, high = game_module(game).PLAYERS
        try:  # refuse bad rules now rather than when the game starts
            build_rules(game, settings.rules_for(game), preset, rounds, target, teams, stake, options)
        except InvalidRules as exc:
            await refuse(interaction, t("Those rules don't work: {problem}.", problem=clip(rules_problem(exc), 300)))
            return
        if players is not None and ai is None:
            await refuse(interaction, t("The players option sets the table size against the AI; "
                                        "add ai, or open a lobby without it."))
            return
        if opponent is not None and ai is not None:
            await refuse(interaction, t("Choose an opponent or the AI, not both."))
            return
        try:
            if ai is not None:
                await self._play_ai(interaction, game, ai, players or low, spec, stake, settings)
            elif opponent is not None:
                await self._challenge(interaction, game, opponent, spec, stake)
            else:
                await self._lobby(interaction, game, spec, stake)
        except TableError as exc:
            await refuse(interaction, told(exc))

    async def _play_ai(self, interaction: discord.Interaction, game: str, ai: str, seats: int,
                       spec: dict[str, Any], stake: int, settings: Any) -> None:
        """Everything that can refuse is checked before the public answer; should the start still
        fail (a balance spent meanwhile), the public answer says only that, the reason is private."""
        user = interaction.user
        table_rules(settings, game, seats, spec, stake)
        await check_stakes(interaction, game, stake, [user.id])
        # Where only private answers are allowed, the table is the player's alone.
        await interaction.response.defer(thinking=True, ephemeral=not place_of(interaction).public)
        metrics.acknowledged(interaction)
        levels = [ai] * (seats - 1)
        with in_public(interaction):  # the seats' names and the headline are for the whole channel
            opponents = ai_names(levels)
            headline = t("{player} sits down against {opponents}.", player=safe_name(user.display_name),
                         opponents=", ".join(opponents))
            failed = t("The game could not start.")
        try:
            await start_table(interaction, game, [user.id, *(ai_seat(lvl) for lvl in levels)],
                              [user.display_name, *opponents], user.id, spec, stake,
                              key=f"start:{interaction.id}", via=interaction, headline=headline)
        except TableError as exc:
            await interaction.edit_original_response(content=failed, allowed_mentions=NO_MENTIONS)
            await interaction.followup.send(clip(told(exc), MAX_REPLY), ephemeral=True, allowed_mentions=NO_MENTIONS)
            return

    async def _challenge(self, interaction: discord.Interaction, game: str, opponent: discord.User,
                         spec: dict[str, Any], stake: int) -> None:
        user = interaction.user
        low = game_module(game).PLAYERS[0]
        if low > 2:
            raise TableError(t("{game} needs {players}: open a lobby instead.", game=GAME_NAMES[game],
                               players=plural(low, "player")))
        if opponent.id == user.id:
            raise TableError(t("You cannot challenge yourself; leave the opponent empty for a lobby."))
        if opponent.bot:
            raise TableError(t("Bots can't play; use the ai option to play against mine."))
        await check_stakes(interaction, game, stake, [user.id])
        exp = int(time.time()) + CHALLENGE_SECONDS
        store = app(self.bot).store
        lobby = await before_answer(noted(store, interaction, lambda: store.create_lobby(
            "challenge", scope_of(interaction), interaction.channel_id, user.id, game=game,
            min_seats=2, max_seats=2, stake=stake, opponent_id=opponent.id, expires_at=exp,
            origin_id=interaction.id, **spec)),
            undo=lambda late: store.close_lobby(late.lobby_id, user.id))
        settings = await app(self.bot).store.get_settings(lobby.guild_id)
        with in_public(interaction):
            embed, view = lobby_face(lobby, settings)
        sent = await interaction.response.send_message(
            content=f"<@{opponent.id}>", embed=embed, view=view,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[opponent],
                                                     replied_user=False))
        await self._remember_message(interaction, lobby, sent)
        if place_of(interaction).guest:  # the app may edit the challenge only through its answer
            self._answers[lobby.lobby_id] = interaction
        self.schedule_expiry(lobby.lobby_id)

    async def _lobby(self, interaction: discord.Interaction, game: str, spec: dict[str, Any],
                     stake: int) -> None:
        store = app(self.bot).store
        settings = await store.get_settings(scope_of(interaction))
        rules = build_rules(game, settings.rules_for(game), spec["preset"], spec["rounds"],
                            spec["target"], spec["teams"], stake, spec["options"])
        counts = seat_counts(game, rules)  # Sakura in pairs seats 4 or 6, not 2 to 7
        if not counts:
            raise TableError(t("Those rules don't work at any table size of {game}.", game=GAME_NAMES[game]))
        await check_stakes(interaction, game, stake, [interaction.user.id])
        host = interaction.user.id
        lobby = await before_answer(noted(store, interaction, lambda: store.create_lobby(
            "lobby", scope_of(interaction), interaction.channel_id, host, game=game,
            min_seats=counts[0], max_seats=counts[-1], stake=stake, origin_id=interaction.id, **spec)),
            undo=lambda late: store.close_lobby(late.lobby_id, host))
        with in_public(interaction):
            embed, view = lobby_face(lobby, settings)
        sent = await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        await self._remember_message(interaction, lobby, sent)

    async def _remember_message(self, interaction: discord.Interaction, lobby: Lobby, sent: Any) -> None:
        message_id = getattr(sent, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await app(self.bot).store.set_lobby_message(lobby.lobby_id, message_id, shown=lobby.revision)

    # -- challenge expiry --------------------------------------------------------------------
    def schedule_expiry(self, lobby_id: str) -> None:
        """Close the challenge or rematch ``lobby_id`` when its stored expiry passes."""
        self._tasks.start(self._expire(lobby_id))

    def beside(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` (an edit of a lobby's message as the bot) beside the press that caused
        it, so the press is answered first: the edit may wait for the lobby's lock and the
        channel's rate limit."""
        self._tasks.start(work)

    async def _expire(self, lobby_id: str) -> None:
        """Close an unanswered challenge or rematch when its stored expiry passes (a press after
        that is refused too)."""
        store = app(self.bot).store
        try:
            lobby = await store.get_lobby(lobby_id)
            if lobby is None or lobby.status != "open" or lobby.expires_at is None:
                return
            await asyncio.sleep(max(0.0, lobby.expires_at - time.time()))
            expired = await store.expire_lobby(lobby_id)
            if expired is None or expired.message_id is None:
                return  # answered meanwhile
            answer = self._answers.get(lobby_id)
            if answer is not None:
                await answer.edit_original_response(embed=expired_embed(expired), view=None,
                                                    allowed_mentions=NO_MENTIONS)
                return
            await self.bot.wait_until_ready()  # which servers the bot is in: known once connected
            if self.bot.get_guild(expired.guild_id) is None:
                return  # a guest's challenge whose answer is gone: a press on it says it expired
            await show_lobby(self.bot, lobby_id)
        except asyncio.CancelledError:
            raise
        except (discord.HTTPException, StoreError):
            log.warning("could not close expired challenge %s", lobby_id, exc_info=True)
        finally:
            self._answers.pop(lobby_id, None)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LobbyButton, LobbyAISelect, ChallengeButton)
    face_of("lobby", lobby_message)
    face_of("challenge", lobby_message)
    cog = PlayCog(bot)
    await bot.add_cog(cog)
    for game in GAMES:
        bot.tree.add_command(game_command(cog, game), override=True)
