"""The cog that starts games: a game against the AI at once, a challenge to a member, or an open
lobby, each refused in one sentence before any public answer when its options or the stakes do
not work; and the challenges' expiry."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any

import discord
from discord.ext import commands

from bot import metrics
from bot.discord_ui.answer import CalledOff, acknowledge, landed, press_reply
from bot.discord_ui.app import app
from bot.discord_ui.background import Background, through_outages
from bot.discord_ui.delivery import UNDELIVERED, delivered
from bot.discord_ui.errors import told
from bot.discord_ui.game_settings import seat_counts
from bot.discord_ui.lobby_messages import show_lobby, show_unshown
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import in_public
from bot.discord_ui.starting import (
    CHALLENGE_SECONDS,
    NO_MENTIONS,
    before_answer,
    check_stakes,
    expired_embed,
    noted,
    start_table,
)
from bot.discord_ui.text import clip, refuse, safe_name
from bot.games import game_module
from bot.games.base import InvalidRules
from bot.i18n import t
from bot.presenters.problems import rules_problem
from bot.store import StoreError
from bot.store.lobbies import Lobby
from bot.tables import TableError, ai_seat
from bot.tables.rules import build_rules, table_rules
from bot.tables.starting import ai_names
from bot.words import plural
from rendering.view import GAME_NAMES

from .commands import guest_problem, option_problem
from .presses import lobby_face

log = logging.getLogger(__name__)

MAX_REPLY = 1800  # below Discord's 2,000-character message limit, with room for the frame


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
        await acknowledge(interaction)
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
            undo=lambda late: store.withdraw_lobby(late.lobby_id))
        settings = await app(self.bot).store.get_settings(lobby.guild_id)
        with in_public(interaction):
            embed, view = lobby_face(lobby, settings)
        await self._post(interaction, lobby, content=f"<@{opponent.id}>", embed=embed, view=view,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                  users=[opponent], replied_user=False))
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
            undo=lambda late: store.withdraw_lobby(late.lobby_id))
        with in_public(interaction):
            embed, view = lobby_face(lobby, settings)
        await self._post(interaction, lobby, embed=embed, view=view, allowed_mentions=NO_MENTIONS)

    async def _post(self, interaction: discord.Interaction, lobby: Lobby, **message: Any) -> None:
        """Answer the command with the lobby's or challenge's message, and note its id. Should
        Discord refuse the answer (the command's token gone), nobody saw it: it is closed rather
        than left open where no one can press."""
        store = app(self.bot).store
        try:
            message_id = await press_reply(interaction, **message)
        except UNDELIVERED as exc:
            message_id = await landed(interaction, exc)
            if message_id is None:
                await store.withdraw_lobby(lobby.lobby_id)
                raise CalledOff() from exc
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await store.set_lobby_message(lobby.lobby_id, message_id, shown=lobby.revision)

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
        that is refused too). The database away at that moment is waited out and a message
        Discord does not take is tried again: given up, the challenge would show its buttons
        until the next start."""
        store = app(self.bot).store
        try:
            lobby = await through_outages(lambda: store.get_lobby(lobby_id))
            if lobby is None or lobby.status != "open" or lobby.expires_at is None:
                return
            await asyncio.sleep(max(0.0, lobby.expires_at - time.time()))
            expired = await through_outages(lambda: store.expire_lobby(lobby_id))
            if expired is None or expired.message_id is None:
                return  # answered meanwhile
            answer = self._answers.get(lobby_id)
            if answer is not None:  # a guest's challenge: only its answer can show it
                await delivered(lambda: answer.edit_original_response(
                    embed=expired_embed(expired), view=None, allowed_mentions=NO_MENTIONS),
                    f"the expiry of challenge {lobby_id}")
                return
            await self.bot.wait_until_ready()  # which servers the bot is in: known once connected
            if self.bot.get_guild(expired.guild_id) is None:
                return  # a guest's challenge whose answer is gone: a press on it says it expired
            await show_lobby(self.bot, lobby_id)
        except asyncio.CancelledError:
            raise
        except StoreError:
            log.warning("could not close expired challenge %s", lobby_id, exc_info=True)
        finally:
            self._answers.pop(lobby_id, None)

