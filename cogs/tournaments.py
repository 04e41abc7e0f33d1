"""``/tournament create``: Swiss, single-elimination and round-robin tournaments on a server.

Staff (Manage Server, checked when the command runs) create one; members sign up with the Join
button (the entry fee moves into the pot, :mod:`bot.store.tournaments`) and staff add AI entrants
and press Start. Each round the bot opens one table per pairing in the tournament's channel with
the same machinery as ``/koikoi`` (``TableManager.start``, keyed by tournament, round and board,
so a retry or a restart opens no table twice). Tables stay in the channel rather than threads: the
bot's invite asks for no thread permissions, and a table in the channel is where its players and
the ``/games`` list already look. AI-against-AI pairings are tables the AI plays like any other
(its moves come from the AI workers, paced by ``TableManager.ai_delay``): stored move by move,
resumed after a restart, and watchable.

When a table ends (:attr:`TableManager.end_listeners`) its tournament is advanced: results are
read from the stored game, and once every pairing of the round is done the standings are posted
(a picture drawn in the render workers, the same standings as text for screen readers) and the
next round is paired and opened. Everything is read from the store, so after a restart the bot
picks up where it was: finished games are recorded, running ones are waited for, a round not yet
announced is announced. A player who does not show up loses by the turn timeout (three timeouts
in a row forfeit). Staff can drop a player (their running game forfeited, no further pairings)
or cancel (running games cancelled, every fee refunded). A member can always withdraw, from
anywhere: Leave on the message or in the DM sent when they join, or ``/tournament leave`` (in a
DM too, so after leaving the server): refunded before the start, dropped once it runs. Buttons
carry only the tournament's number; every press is checked against the stored tournament, read
only from its own server or, from a DM, by one of its entrants.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import acknowledge, answers, send
from bot.discord_ui.app import app
from bot.discord_ui.background import Background, Watch
from bot.discord_ui.cog import NOT_STAFF, ServerCog, is_manager
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.delivery import Coalescer, Retry, passing
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.game_settings import match_length, rules_text
from bot.discord_ui.parts import ACCENT, controls
from bot.discord_ui.speaking import Speaks, in_public, in_server
from bot.discord_ui.text import NO_PINGS, fit_embed, refuse, safe_name, weekday_name
from bot.games import GAMES, game_module
from bot.games.base import InvalidRules
from bot.i18n import N_, number, t, tn, tp
from bot.presenters.problems import rules_problem
from bot.store import EVERY_SERVER, SYSTEM_ACTOR, Scope, StoreError
from bot.store.tournaments import MAX_ENTRANTS, Entrant, Tournament, TournamentError, Weekly
from bot.tables import AI_LEVELS, AlreadyStarted, TableError, ai_seat
from bot.tables.rules import MAX_STAKE, build_rules, seats_problem
from bot.tournaments import pairing as fmt
from bot.tournaments.prizes import prize_shares, prize_split
from rendering.tournament import StandingsView, render_standings, standings_view
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

FORMAT_NAMES = {"swiss": N_("Swiss"), "single_elimination": N_("single elimination"),
                "round_robin": N_("round robin")}
GONE = N_("This tournament is no longer open to that.")
RETRY_S = 30.0  # a tournament that could not advance (database or Discord trouble) tries again
HOUR_S = 3600.0  # the longest the timed starts sleep, should the clock jump
STARTS_IN = (("in 10 minutes", 10), ("in 30 minutes", 30), ("in 1 hour", 60),
             ("in 2 hours", 120), ("in 6 hours", 360), ("in 24 hours", 1440))
"""When a tournament may start by itself, counted from its creation (the option's choices)."""
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SIGNUP_BEFORE = (("30 minutes before", 30), ("1 hour before", 60), ("2 hours before", 120),
                 ("6 hours before", 360), ("1 day before", 1440))
"""How long before a weekly tournament's start its sign-up opens (the option's choices)."""


def signup_text(minutes: int) -> str:
    """A sign-up's length as the weekly tournament's answer says it ("1 hour")."""
    if minutes % 1440 == 0:
        return tn("{n} day", "{n} days", minutes // 1440)
    if minutes % 60 == 0:
        return tn("{n} hour", "{n} hours", minutes // 60)
    return tn("{n} minute", "{n} minutes", minutes)


def format_name(code: str) -> str:
    return t(FORMAT_NAMES[code])


def prizes_text(tour: Tournament) -> str:
    split = prize_split(tour.format, max(2, len(tour.seeded) or len(tour.signed_up)))
    places = " · ".join(t("{place}: {percent}%", place=number(i + 1), percent=pct)
                        for i, pct in enumerate(split))
    return t("{places} of the pot ({pot})", places=places, pot=number(tour.pot))


# -- what the tournament message shows -------------------------------------------------------------

def tournament_embed(tour: Tournament, currency: str) -> discord.Embed:
    game = GAME_NAMES.get(tour.game, tour.game)
    title = t("🏆 {game} tournament #{number}", game=game, number=tour.tournament_id)
    rules = game_module(tour.game).Rules.from_dict(tour.rules)
    if tour.status == "open" and tour.starts_at is not None:
        state = t("Sign-up is open: press Join. It starts by itself <t:{when}:R> with two "
                  "entrants or more (staff may add AI entrants, or press Start sooner).",
                  when=tour.starts_at // 1000)
    elif tour.status == "open":
        state = t("Sign-up is open: press Join. Staff add AI entrants and press Start.")
    elif tour.status == "running":
        state = t("Round {round} of {rounds} is being played; the tables are below.",
                  round=tour.round, rounds=tour.rounds)
    elif tour.status == "finished":
        winner = next((e for e in tour.entrants if e.place == 1), None)
        state = t("Over: {name} won.", name=safe_name(winner.name) if winner else "?")
    else:
        state = t("Cancelled; every entry fee was refunded.")
    embed = discord.Embed(title=title, colour=ACCENT, description=state)
    embed.add_field(name=t("Format"), value=format_name(tour.format))
    embed.add_field(name=t("Match"), value=match_length(rules, tour.game))
    embed.add_field(name=t("Rules"), value=rules_text(tour.game, rules, True))
    embed.add_field(name=t("Entry fee"), value=number(tour.fee) + " " + safe_name(currency)[:32]
                    if tour.fee else t("free"))
    embed.add_field(name=t("Prizes"), value=prizes_text(tour) if tour.fee else t("none (no fee)"))
    shown = tour.signed_up if tour.status == "open" else tour.seeded
    names = []
    for e in shown:
        name = safe_name(e.name)
        if e.status == "dropped":
            name = t("{name} (dropped)", name=name)
        names.append(name)
    count = t("{count} of at most {most}", count=len(tour.signed_up),
              most=MAX_ENTRANTS[tour.format]) if tour.status == "open" else number(len(shown))
    embed.add_field(name=t("Entrants: {count}", count=count),
                    value=", ".join(names)[:1000] or t("nobody yet"), inline=False)
    return fit_embed(embed)


def standings_nonce(tour: Tournament) -> str | None:
    """The nonce of the standings after the tournament's current round (None past the 25
    characters Discord takes, which no tournament's id and round come near)."""
    nonce = f"hft{tour.tournament_id}.{tour.round}"
    return nonce if len(nonce) <= 25 else None


def tournament_view(tour: Tournament) -> discord.ui.View | None:
    tid = tour.tournament_id
    if tour.status == "open":
        return controls(TournamentButton("join", tid), TournamentButton("leave", tid),
                        TournamentButton("start", tid), TournamentButton("cancel", tid),
                        TournamentAISelect(tid))
    if tour.status == "running":  # an entrant can always withdraw: Leave stays
        active = [e for e in tour.seeded if e.status == "in"]
        return controls(TournamentButton("leave", tid), TournamentButton("cancel", tid),
                        DropSelect(tid, active))
    return None


def standings_lines(tour: Tournament, view: StandingsView) -> list[str]:
    """The standings as text (what a screen reader reads beside the picture)."""
    heads = view.headers
    lines = []
    for row in view.rows:
        cells = ", ".join(f"{h} {c}" for h, c in zip(heads, row.cells, strict=True))
        lines.append(f"{row.rank}. {safe_name(row.name)}: {cells}")
    return lines


def build_view(tour: Tournament, ranking: list[int] | None = None) -> StandingsView:
    """The standings after the latest round; with the final ``ranking`` (seeds, first place
    first), the prizes it pays and the winner."""
    names = {e.seed: e.name for e in tour.seeded}
    done = max((r for r, (status, _) in tour.round_status.items() if status == "done"), default=0)
    players = tn("{n} player", "{n} players", len(names))
    prizes: dict[int, int] = {}
    footer = ""
    if ranking is not None:
        shares = prize_shares(tour.pot, tour.format, len(ranking))
        prizes = {seed: shares[i] for i, seed in enumerate(ranking[:len(shares)]) if shares[i]}
        footer = t("Winner: {name}", name=names[ranking[0]])
        subtitle = t("{format}, {players}: final standings", format=format_name(tour.format),
                     players=players)
    else:
        subtitle = t("{format}, {players}: standings after round {round} of {rounds}",
                     format=format_name(tour.format), players=players, round=done,
                     rounds=tour.rounds)
    return standings_view(
        format=tour.format,
        title=t("{game} tournament #{number}", game=GAME_NAMES.get(tour.game, tour.game),
                number=tour.tournament_id),
        subtitle=subtitle, names=names, entrants=len(names), games=tour.games(),
        dropped=tour.dropped_seeds, prizes=prizes, footer=footer)


# -- presses ---------------------------------------------------------------------------------------

def scope_of_press(interaction: discord.Interaction) -> Scope:
    """What a press may read: its own server's tournaments, or from a DM the presser's own."""
    return Scope.press(interaction.guild_id, interaction.user.id)


def on_its_message(interaction: discord.Interaction, tour: Tournament) -> bool:
    """Whether the press was made on the tournament's own message (where staff run it)."""
    message_id = interaction.message.id if interaction.message is not None else None
    return tour.channel_id == interaction.channel_id and (tour.message_id is None
                                                          or tour.message_id == message_id)


async def pressed(interaction: discord.Interaction, tid: int, op: str) -> Tournament:
    """The stored tournament a press refers to, if the presser may see it (its server's, or from
    a DM one they signed up for) and, but to leave it, pressed on its own message."""
    store = app(interaction).store
    try:
        tour = await store.tournament(tid, scope=scope_of_press(interaction))
    except TournamentError:
        raise TournamentError(t(GONE)) from None
    if op != "leave" and not on_its_message(interaction, tour):
        raise TournamentError(t(GONE))
    return tour


def cog_of(interaction: discord.Interaction) -> TournamentCog:
    return interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined,return-value]


def withdrawn_text(tour: Tournament, gone: Entrant) -> str:
    """What a member who withdrew is told: the fee refunded before the start, kept in the pot
    (and no further games) once it runs."""
    if tour.status == "open":
        if gone.paid:
            return t("You left tournament #{number}; your entry fee of {fee} was refunded.",
                     number=tour.tournament_id, fee=number(gone.paid))
        return t("You left tournament #{number}.", number=tour.tournament_id)
    if gone.paid:
        return t("You withdrew from tournament #{number}: you get no further games and a game of "
                 "yours still being played is forfeited. Your entry fee of {fee} stays in the "
                 "prize pot (a fee comes back only before the start).",
                 number=tour.tournament_id, fee=number(gone.paid))
    return t("You withdrew from tournament #{number}: you get no further games and a game of "
             "yours still being played is forfeited.", number=tour.tournament_id)


async def leave_press(interaction: discord.Interaction, tour: Tournament) -> None:
    """Leave, from the tournament's message, a DM's button or any place the presser may see it:
    the message is brought up to date and the presser told what it cost them."""
    cog = cog_of(interaction)
    here = on_its_message(interaction, tour)
    # Answered first: the withdrawal waits for the tournament's lock, which a round being opened
    # holds while its posts wait for the channel's rate limit.
    if here:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    tour, gone = await cog.withdraw(tour.tournament_id, interaction.user.id,
                                    scope_of_press(interaction), refresh=not here)
    if here:
        with in_public(interaction):
            embed, view = (tournament_embed(tour, await cog.currency(tour.guild_id)),
                           tournament_view(tour))
        await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=NO_PINGS)
        await cog.shown(tour)
        if tour.status == "open":  # the message shows it; a withdrawal from a game is told
            return
    await interaction.followup.send(withdrawn_text(tour, gone), ephemeral=True,
                                    allowed_mentions=NO_PINGS)


async def tournament_press(interaction: discord.Interaction, op: str, tid: int,
                           value: str | None = None) -> None:
    store = app(interaction).store
    cog = cog_of(interaction)
    guild, user = interaction.guild_id, interaction.user
    try:
        tour = await pressed(interaction, tid, op)
        if op in ("start", "cancel", "ai", "drop") and not is_manager(interaction):
            raise TournamentError(t(NOT_STAFF))
        if op == "join":
            tour = await store.join_tournament(tid, guild, user.id, user.display_name)
        elif op == "leave":
            await leave_press(interaction, tour)
            return
        elif op == "ai":
            if value not in AI_LEVELS:
                raise TournamentError(t("Choose an AI level: {levels}.", levels=", ".join(AI_LEVELS)))
            level_count = sum(1 for e in tour.signed_up if e.ai_level == value) + 1
            with in_public(interaction):
                name = t("AI {number} ({level})", number=level_count, level=tp("choice", value))
            tour = await store.add_tournament_ai(tid, guild, value, name)
        elif op == "start":
            tour = await store.start_tournament(tid, guild)
        elif op == "cancel":
            await interaction.response.defer()
            await cog.cancel(tour, user.id)
            return
        elif op == "drop":
            await interaction.response.defer(ephemeral=True, thinking=True)
            name = await cog.drop(tour, int(value or 0), user.id)
            await interaction.followup.send(t("{name} is out of the tournament.", name=safe_name(name)),
                                            ephemeral=True, allowed_mentions=NO_PINGS)
            return
        else:
            raise TournamentError(t(GONE))
    except (StoreError, TableError, ValueError) as exc:
        await refuse(interaction, told(exc))
        return
    with in_public(interaction):
        embed, view = tournament_embed(tour, await cog.currency(guild)), tournament_view(tour)
    await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)
    await cog.shown(tour)
    if op == "start":
        cog.schedule(tid)
    elif op == "join":
        await cog.send_leave_note(interaction, tour)


class TournamentButton(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                       template=r"hf:tn:(?P<op>[a-z]{1,8}):(?P<tid>[0-9]{1,19})"):
    """Join, Leave, Start and Cancel on a tournament's message."""

    LABELS = {"join": (N_("Join"), discord.ButtonStyle.success),
              "leave": (N_("Leave"), discord.ButtonStyle.secondary),
              "start": (N_("Start"), discord.ButtonStyle.primary),
              "cancel": (N_("Cancel tournament"), discord.ButtonStyle.danger)}

    def __init__(self, op: str, tid: int) -> None:
        label, style = self.LABELS.get(op, (N_("Join"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=t(label), style=style,
                                           custom_id=f"hf:tn:{op}:{tid}"))
        self.op, self.tid = op, tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["op"], int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await tournament_press(interaction, self.op, self.tid)


class TournamentAISelect(Speaks, discord.ui.DynamicItem[discord.ui.Select],
                         template=r"hf:tnai:(?P<tid>[0-9]{1,19})"):
    """Staff add an AI entrant at the chosen level."""

    def __init__(self, tid: int) -> None:
        options = [discord.SelectOption(label=t("Add AI ({level})", level=tp("choice", level)),
                                        value=level) for level in AI_LEVELS]
        super().__init__(discord.ui.Select(placeholder=t("Add an AI entrant (staff)…"),
                                           options=options, custom_id=f"hf:tnai:{tid}"))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await tournament_press(interaction, "ai", self.tid,
                               self.item.values[0] if self.item.values else None)


class DropSelect(Speaks, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"hf:tndrop:(?P<tid>[0-9]{1,19})"):
    """Staff take an entrant out of a running tournament (the values are entrant numbers)."""

    def __init__(self, tid: int, entrants: list[Any] | None = None) -> None:
        options = [discord.SelectOption(label=e.name[:100], value=str(e.entrant))
                   for e in (entrants or [])[:25]]
        super().__init__(discord.ui.Select(
            placeholder=t("Drop a player (staff)…"), custom_id=f"hf:tndrop:{tid}",
            options=options or [discord.SelectOption(label="-", value="0")]))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else "0"
        await tournament_press(interaction, "drop", self.tid, value if value.isdigit() else "0")


# -- the cog ---------------------------------------------------------------------------------------

def planned_rules(game: str, format: str, rounds: int, stake: int, preset: str | None,
                  settings: Any) -> Any:
    """The rules a tournament of these options plays by, over the server's house rules; a
    TableError saying what is wrong with them (nothing is stored)."""
    if game not in GAMES:
        raise TableError(t("Choose a game: {games}.", games=", ".join(GAME_NAMES.values())))
    if format not in FORMAT_NAMES:
        raise TableError(t("Choose a format: Swiss, single elimination or round robin."))
    if not 1 <= rounds <= 1000 or not 0 <= stake <= MAX_STAKE:
        raise TableError(t("Rounds go from 1 to {most}; the entry fee from 0 to {fee}.",
                           most=number(1000), fee=number(MAX_STAKE)))
    if preset is not None and preset not in game_module(game).Rules.PRESETS:
        raise TableError(t("Choose a rule set: {presets}.",
                           presets=", ".join(game_module(game).Rules.PRESETS)))
    try:
        rules = build_rules(game, settings.rules_for(game), preset, rounds, None)
    except (InvalidRules, ValueError) as exc:
        raise TableError(t("Those rules don't work: {problem}.",
                           problem=rules_problem(exc)[:300])) from None
    if seats_problem(game, 2, rules):
        raise TableError(t("Tournament tables seat two players; these rules need more."))
    return rules


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=GAME_NAMES[g], value=g) for g in GAMES]


# The options a tournament and a weekly one share: their words and their choices.
OPTION_WORDS = {"game": "The game played at every table",
                "format": "Swiss (by score), single elimination, or round robin (up to 8)",
                "rounds": "Rounds in each match",
                "stake": "Entry fee each player pays into the prize pot",
                "preset": "Rule set (default: the server's house rules)"}
OPTION_CHOICES = {
    "game": _game_choices(),
    "format": [app_commands.Choice(name="Swiss", value="swiss"),
               app_commands.Choice(name="single elimination", value="single_elimination"),
               app_commands.Choice(name="round robin", value="round_robin")],
    "rounds": [app_commands.Choice(name=str(n), value=n) for n in (1, 3, 6, 10, 12)]}


class TournamentCog(ServerCog):
    """Tournaments: the command, the sign-up message, and running the rounds."""

    # Usable in a DM too: a member who left the server can still withdraw (/tournament leave).
    tournament = app_commands.Group(
        name="tournament", description="Tournaments on this server",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True))

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games: dict[int, int] = {}  # game id -> tournament of the pairing it plays
        self._tasks = Background()  # rounds and redraws: each ends when its work is done
        self._watch = Background()  # the timed starts' loop, which runs until unload
        self.retry_s = RETRY_S
        self.clock: Callable[[], float] = time.time  # what "now" is to the timed starts
        self.watch = Watch(self.start_due, RETRY_S, "the tournaments that start by themselves")
        # Redraws of a message as the bot: one at a time per tournament, the latest state.
        self._redraws = Coalescer(Retry(passing))

    async def cog_load(self) -> None:
        """Listen for ended tables, and know every running tournament's games before the
        running tables are resumed (a game may end at once); then advance each tournament."""
        if getattr(self.bot, "store", None) is None:  # only publishing the commands
            return
        app(self.bot).tables.end_listeners.append(self._table_ended)
        owns = app(self.bot).shard_plan.owns
        live = [tid for tid, guild in await self.store.live_tournaments() if owns(guild)]
        for tid in live:
            tour = await self.store.tournament(tid, scope=EVERY_SERVER)
            for p in tour.pairings:
                if p.game_id is not None and p.status == "pending":
                    self._games[p.game_id] = tid
        self._tasks.start(self._resume(live))
        self._watch.start(self.watch.run(self.bot.wait_until_ready))
        unshown = await self.store.unshown_tournaments(owns)
        if unshown:
            self._tasks.start(self._redraw_unshown(unshown))

    async def cog_unload(self) -> None:
        tables = getattr(self.bot, "tables", None)
        if tables is not None and self._table_ended in tables.end_listeners:
            tables.end_listeners.remove(self._table_ended)
        await self._watch.close()
        await self._tasks.close()  # the store closes after this: no round may still run
        self._redraws.cancel()
        await self._redraws.drain()

    async def _resume(self, live: list[int]) -> None:
        await self.bot.wait_until_ready()
        for tid in live:
            self.schedule(tid)

    async def start_due(self) -> float:
        """Open this week's tournament of each weekly one whose sign-up time has come, post the
        sign-up messages still owed, and start (or, short of two entrants, call off) every
        tournament whose time has come, on this process's servers; the seconds until the next
        of these (an hour at most)."""
        now = int(self.clock() * 1000)
        owns = app(self.bot).shard_plan.owns

        def ours(guild_id: int) -> bool:  # a server this process drives, with the bot in it
            return owns(guild_id) and self.bot.get_guild(guild_id) is not None

        wait = HOUR_S
        for plan in await self.store.weekly_tournaments():
            if not ours(plan.guild_id):
                continue
            start = plan.due(now)
            if start is None:
                opens = plan.next_start(now) - plan.signup_min * 60_000
                wait = min(wait, (opens - now) / 1000)
            else:
                await self._open_weekly(plan, start)
        for tid in await self.store.unposted_tournaments():
            tour = await self.store.tournament(tid, scope=EVERY_SERVER)
            if ours(tour.guild_id) and not await self._post_signup(tour):
                wait = min(wait, self.retry_s)
        for tid, guild, starts_at in await self.store.timed_tournaments():
            if not owns(guild):
                continue
            if starts_at > now:
                return min(wait, (starts_at - now) / 1000)
            await self._start_timed(tid)
        return wait

    async def _open_weekly(self, plan: Weekly, start: int) -> None:
        """This week's tournament of ``plan``, starting at ``start``: opened once (its key is the
        channel and the start), by the house rules in force now; its message is posted by the
        same look (:meth:`_post_signup`)."""
        settings = await self.store.get_settings(plan.guild_id)
        with in_server(self.bot, plan.guild_id, settings):
            try:
                rules = planned_rules(plan.game, plan.format, plan.rounds, plan.fee, plan.preset,
                                      settings)
            except TableError as exc:  # the house rules changed to ones it cannot play
                log.warning("weekly tournament of channel %s not opened: %s", plan.channel_id,
                            told(exc))
                return
        await self.store.create_tournament(
            plan.guild_id, plan.channel_id, created_by=SYSTEM_ACTOR, game=plan.game,
            format=plan.format, rules=rules.to_dict(), fee=plan.fee,
            key=f"weekly:{plan.channel_id}:{start}", starts_at=start)

    async def _post_signup(self, tour: Tournament) -> bool:
        """Post the sign-up message of a tournament the bot opened, and note it; False when
        Discord should be asked again. One Discord refuses for good (the channel gone or closed
        to the bot) is called off, fees refunded. The nonce keeps a post repeated after a stop
        between sending and noting it from appearing twice."""
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            embed, view = tournament_embed(tour, settings.currency_name), tournament_view(tour)
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        try:
            sent = await channel.send(embed=embed, view=view, allowed_mentions=NO_PINGS,
                                      nonce=f"hft{tour.tournament_id}.0")
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            if isinstance(exc, discord.HTTPException) and not passing(exc):
                log.warning("tournament %s: its sign-up cannot be posted in channel %s (%s); "
                            "called off", tour.tournament_id, tour.channel_id, exc)
                await self.cancel(tour, SYSTEM_ACTOR)
                return True
            log.warning("tournament %s: its sign-up will be posted again (%s)",
                        tour.tournament_id, exc)
            return False
        await self.store.set_tournament_message(tour.tournament_id, sent.id, shown=tour.revision)
        return True

    async def _start_timed(self, tid: int) -> None:
        async with self.lock(tid):
            tour = await self.store.tournament(tid, scope=EVERY_SERVER)
            if tour.status != "open":
                return
            if len(tour.signed_up) >= 2:
                tour = await self.store.start_tournament(tid, tour.guild_id)
                await self._refresh_message(tour)
        if tour.status == "running":
            self.schedule(tid)
        else:  # nobody to play: called off, the fees refunded
            log.info("tournament %s: fewer than two entrants at its start; called off", tid)
            await self.cancel(tour, SYSTEM_ACTOR)

    def _table_ended(self, table: Any) -> None:
        tid = self._games.pop(table.game_id, None)
        if tid is not None:
            self.schedule(tid)

    def schedule(self, tid: int, delay: float = 0.0) -> None:
        self._tasks.start(self._advance_after(tid, delay))

    def lock(self, tid: int) -> asyncio.Lock:
        lock = self._locks.get(tid)
        if lock is None:
            lock = self._locks[tid] = asyncio.Lock()
        return lock

    async def currency(self, guild_id: int) -> str:
        return (await self.store.get_settings(guild_id)).currency_name

    # -- the command -----------------------------------------------------------------------------
    @answers(private=False)
    @tournament.command(name="create", description="Open a tournament for sign-up (staff)")
    # Discord takes a group's places only; this one's are for /help, which lists it in servers.
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.describe(**OPTION_WORDS, starts_in="Start by itself then, with two entrants or more")
    @app_commands.choices(**OPTION_CHOICES, starts_in=[
        app_commands.Choice(name=name, value=minutes) for name, minutes in STARTS_IN])
    async def create(self, interaction: discord.Interaction, game: str, format: str, rounds: int,
                     stake: app_commands.Range[int, 0, MAX_STAKE] = 0,
                     preset: str | None = None, starts_in: int | None = None) -> None:
        if interaction.guild_id is None:
            await refuse(interaction, t("Create a tournament in the server channel it is for."))
            return
        if not is_manager(interaction):
            await refuse(interaction, t(NOT_STAFF))
            return
        if starts_in is not None and starts_in not in dict(STARTS_IN).values():
            await refuse(interaction, t("Choose when it starts from the list."))
            return
        settings = await self.store.get_settings(interaction.guild_id)
        try:
            rules = planned_rules(game, format, rounds, stake, preset, settings)
        except TableError as exc:
            await refuse(interaction, told(exc))
            return
        try:
            tour = await self.store.create_tournament(
                interaction.guild_id, interaction.channel_id, created_by=interaction.user.id,
                game=game, format=format, rules=rules.to_dict(), fee=stake,
                key=str(interaction.id),
                starts_at=None if starts_in is None else int((self.clock() + starts_in * 60) * 1000))
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        with in_public(interaction):
            embed, view = tournament_embed(tour, settings.currency_name), tournament_view(tour)
        sent = await send(interaction, embed=embed, view=view, allowed_mentions=NO_PINGS)
        message_id = sent or (await interaction.original_response()).id
        await self.store.set_tournament_message(tour.tournament_id, message_id, shown=tour.revision)
        if tour.starts_at is not None:
            self.watch.wake()  # its start may be the soonest

    @answers(private=True)
    @tournament.command(name="weekly",
                        description="Open a tournament here every week that starts by itself (staff)")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.describe(**OPTION_WORDS, day="The day it starts (UTC)",
                           hour="The hour it starts, 0 to 23 (UTC)",
                           signup="How long before its start sign-up opens")
    @app_commands.choices(
        **OPTION_CHOICES,
        day=[app_commands.Choice(name=name, value=n) for n, name in enumerate(WEEKDAYS)],
        signup=[app_commands.Choice(name=name, value=minutes) for name, minutes in SIGNUP_BEFORE])
    async def weekly(self, interaction: discord.Interaction, game: str, format: str, rounds: int,
                     day: int, hour: app_commands.Range[int, 0, 23],
                     stake: app_commands.Range[int, 0, MAX_STAKE] = 0, preset: str | None = None,
                     signup: int = 60) -> None:
        if interaction.guild_id is None or not is_manager(interaction):
            await refuse(interaction, t(NOT_STAFF) if interaction.guild_id else
                         t("Create a tournament in the server channel it is for."))
            return
        if not (0 <= day <= 6 and 0 <= hour <= 23 and signup in dict(SIGNUP_BEFORE).values()):
            await refuse(interaction, t("Choose the day and the sign-up time from the lists, and "
                                        "an hour from 0 to 23."))
            return
        can = interaction.app_permissions
        if not (can.send_messages and can.embed_links):
            await refuse(interaction, t("I cannot post the sign-ups in this channel: give me Send "
                                        "Messages and Embed Links here, or use the command in "
                                        "another channel."))
            return
        settings = await self.store.get_settings(interaction.guild_id)
        try:
            planned_rules(game, format, rounds, stake, preset, settings)  # they play today
            plan = await self.store.set_weekly_tournament(Weekly(
                interaction.channel_id, interaction.guild_id, game, format, rounds, stake, preset,
                day, hour, signup))
        except TableError as exc:
            await refuse(interaction, told(exc))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        self.watch.wake()
        start = plan.next_start(int(self.clock() * 1000))
        await send(interaction, t(
            "Every {day} at {hour}:00 UTC a {game} tournament starts here by itself, its sign-up "
            "open from {before} before; the next starts <t:{when}:F>. {stop} stops them.",
            day=weekday_name(day), hour=f"{hour:02d}",
            game=GAME_NAMES.get(game, game), before=signup_text(signup), when=start // 1000,
            stop=mention("tournament weekly-stop", await links_for(interaction))),
            ephemeral=True, allowed_mentions=NO_PINGS)

    @answers(private=True)
    @tournament.command(name="weekly-stop",
                        description="Stop this channel's weekly tournament (staff)")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def weekly_stop(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or not is_manager(interaction):
            await refuse(interaction, t(NOT_STAFF))
            return
        try:
            stopped = await self.store.stop_weekly_tournament(interaction.guild_id,
                                                              interaction.channel_id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, t("This channel has no weekly tournament.") if stopped is None
                   else t("No more weekly {game} tournaments here; one already open goes on.",
                          game=GAME_NAMES.get(stopped.game, stopped.game)),
                   ephemeral=True, allowed_mentions=NO_PINGS)

    @weekly.autocomplete("preset")
    async def weekly_preset_choices(self, interaction: discord.Interaction, current: str
                                    ) -> list[app_commands.Choice[str]]:
        return await self.preset_choices(interaction, current)

    @create.autocomplete("preset")
    async def preset_choices(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        presets = game_module(game).Rules.PRESETS if game in GAMES else ()
        return [app_commands.Choice(name=p, value=p) for p in presets
                if current.lower() in p.lower()][:25]

    @answers(private=True)
    @tournament.command(name="leave",
                        description="Withdraw from a tournament you signed up for, from anywhere")
    @app_commands.describe(tournament="The tournament's number (default: the one you are in)")
    async def leave(self, interaction: discord.Interaction,
                    tournament: app_commands.Range[int, 1, 2**53 - 1] | None = None) -> None:
        scope = scope_of_press(interaction)
        if tournament is None:
            mine = await self.store.signed_up_tournaments(scope)
            if len(mine) != 1:
                await refuse(interaction, t(
                    "You are signed up for several tournaments ({numbers}); choose one with the "
                    "tournament option.", numbers=", ".join(f"#{m[0]}" for m in mine)) if mine
                    else t("You are not signed up for any tournament here.") if interaction.guild_id
                    else t("You are not signed up for any tournament."))
                return
            tournament = mine[0][0]
        await acknowledge(interaction, private=True)
        try:
            tour, gone = await self.withdraw(tournament, interaction.user.id, scope, refresh=True)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, withdrawn_text(tour, gone), ephemeral=True,
                   allowed_mentions=NO_PINGS)

    @leave.autocomplete("tournament")
    async def my_tournaments(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[int]]:
        """The live tournaments the member is in: of this server, or from a DM of every one."""
        choices = []
        for tid, guild_id, game, _ in await self.store.signed_up_tournaments(
                scope_of_press(interaction)):
            guild = self.bot.get_guild(guild_id)
            name = " · ".join([f"#{tid}", GAME_NAMES.get(game, game),
                               *([guild.name] if guild is not None else [])])
            if str(current).strip() in str(tid):
                choices.append(app_commands.Choice(name=name[:100], value=tid))
        return choices[:25]

    # -- running the rounds ------------------------------------------------------------------------
    async def _advance_after(self, tid: int, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        await self.advance(tid)

    async def advance(self, tid: int) -> None:
        """Bring a tournament as far as its stored state allows: record finished games, announce
        a completed round, pair and open the next, or finish and pay the prizes."""
        try:
            async with self.lock(tid):
                await self._advance(tid)
        except asyncio.CancelledError:
            raise
        except Exception:  # database trouble, Discord refusing a post: try again shortly
            log.exception("tournament %s could not advance; trying again in %g s", tid,
                          self.retry_s)
            self.schedule(tid, delay=self.retry_s)

    async def _advance(self, tid: int) -> None:
        store = self.store
        while True:
            tour = await store.tournament(tid, scope=EVERY_SERVER)
            if tour.status != "running":
                return
            if tour.round == 0:
                first = self._pairing(tour, 1)
                tour = await store.begin_tournament_round(tid, 1, first.pairs, first.byes)
                await self._refresh_message(tour)
                continue
            r = tour.round
            recorded = False
            pending = [p for p in tour.round_pairings(r) if p.status == "pending"]
            for p in pending:
                game_id = p.game_id if p.game_id is not None else await self._open_table(tour, p)
                result = await self._result(tour, p, game_id)
                if result is not None:
                    await store.record_tournament_result(tid, r, p.board, result[0])
                    recorded = True
            if recorded:
                continue
            if pending:
                return  # waiting for games
            status, announced = tour.round_status[r]
            if status != "done":
                return
            following = self._pairing(tour, r + 1)
            ranking = self._ranking(tour) if following is None else None
            if not announced:  # posted before the next step is stored: a crash repeats it
                await self._post_standings(tour, ranking)
                await store.mark_tournament_round_announced(tid, r)
            if following is not None:
                tour = await store.begin_tournament_round(tid, r + 1, following.pairs,
                                                          following.byes)
                await self._refresh_message(tour)
                continue
            tour = await store.finish_tournament(tid, ranking)
            await self._refresh_message(tour)
            return

    def _ranking(self, tour: Tournament) -> list[int]:
        seeds = [e.seed for e in tour.seeded]
        table = (fmt.elimination_standings(seeds, tour.games(), tour.dropped_seeds)
                 if tour.format == "single_elimination"
                 else fmt.standings(seeds, tour.games(), tour.dropped_seeds))
        return [s.entrant for s in table]

    def _pairing(self, tour: Tournament, r: int) -> fmt.Pairing | None:
        """Round ``r``'s pairing from the results so far; None when the tournament is over."""
        active = tour.active_seeds
        if r > tour.rounds or len(active) < 2:
            return None
        seeds = [e.seed for e in tour.seeded]
        if tour.format == "single_elimination":
            pairing = fmt.pair_elimination(len(seeds), tour.games(), active, r)
            return pairing if pairing.pairs else None  # one player left: the champion
        if tour.format == "round_robin":
            return fmt.pair_round_robin(seeds, active, r)
        return fmt.pair_swiss(active, tour.games())

    async def _open_table(self, tour: Tournament, p: Any) -> int:
        """Open the table of pairing ``p`` (once: keyed by tournament, round and board)."""
        key = f"tournament:{tour.tournament_id}:{p.round}:{p.board}"
        a, b = tour.by_seed(p.a), tour.by_seed(p.b)
        seats = [e.user_id if e.user_id is not None else ai_seat(e.ai_level) for e in (a, b)]
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            headline = t("Tournament #{number}, round {round}, table {board}: {a} vs {b}.",
                         number=tour.tournament_id, round=p.round, board=p.board,
                         a=safe_name(a.name), b=safe_name(b.name))
        try:
            table = await app(self.bot).tables.start(
                guild_id=tour.guild_id, channel_id=tour.channel_id, game=tour.game, players=seats,
                names=[a.name, b.name], host_id=tour.created_by,
                rules=game_module(tour.game).Rules.from_dict(tour.rules), stake=0,
                key=key, headline=headline)
            game_id = table.game_id
        except AlreadyStarted:  # opened before a restart, or by a retry
            game_id = await self.store.game_started_as(tour.guild_id, key)
            if game_id is None:
                raise
        self._games[game_id] = tour.tournament_id
        await self.store.link_tournament_game(tour.tournament_id, p.round, p.board, game_id)
        return game_id

    async def _result(self, tour: Tournament, p: Any, game_id: int) -> tuple[int | None] | None:
        """(the winning seed, or None for a draw) of a pairing whose game has ended; None while
        it runs. A game cancelled outside the tournament counts as a draw."""
        record = await self.store.load_game(game_id, scope=tour.guild_id, with_events=False)
        if record.status == "running":
            return None
        if record.status != "finished":
            return (None,)
        seeds = (p.a, p.b)
        outcome = await self.store.game_outcome(game_id, guild_id=tour.guild_id)
        verdicts = {r.seat: r.outcome for r in outcome.results}  # human seats only
        if "won" in verdicts.values():
            return (seeds[next(s for s, v in verdicts.items() if v == "won")],)
        if "lost" in verdicts.values():  # lost, or forfeited, against an AI seat
            return (seeds[1 - next(s for s, v in verdicts.items() if v == "lost")],)
        if verdicts:
            return (None,)
        match = game_module(record.game).match_from_dict(record.state["match"])  # AI vs AI
        winners = match.winners() if match.is_over else []
        return (seeds[winners[0]],) if len(winners) == 1 else (None,)

    # -- messages --------------------------------------------------------------------------------
    async def _refresh_message(self, tour: Tournament) -> None:
        """Bring the tournament's message to ``tour`` as the bot; a passing failure is drawn
        again later (:meth:`redraw`)."""
        try:
            await self._show(tour)
        except discord.HTTPException as exc:
            log.info("tournament %s: its message could not be updated", tour.tournament_id,
                     exc_info=True)
            if passing(exc):
                self.redraw(tour.tournament_id)

    def redraw(self, tid: int) -> None:
        """Draw the tournament's message from the store as the bot, beside what runs now: one
        draw at a time per tournament, a change meanwhile drawn once more after it, and a
        passing failure tried again after the deliveries' delays (the lock free meanwhile);
        past the last try the next start draws it."""
        self._redraws.mark(tid, lambda: self._redraw_once(tid))

    async def _redraw_once(self, tid: int) -> None:
        async with self.lock(tid):
            await self._show(await self.store.tournament(tid, scope=EVERY_SERVER))

    async def _show(self, tour: Tournament) -> None:
        """One edit of the tournament's message to ``tour``, noted shown once it went out (or
        once the message is gone: nothing is left to bring up to date)."""
        if tour.message_id is None:
            return
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            embed, view = tournament_embed(tour, settings.currency_name), tournament_view(tour)
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        try:
            await channel.get_partial_message(tour.message_id).edit(
                embed=embed, view=view, allowed_mentions=NO_PINGS)
        except (discord.NotFound, discord.Forbidden):
            log.info("tournament %s: its message is gone", tour.tournament_id)
        await self.shown(tour)

    async def shown(self, tour: Tournament) -> None:
        """Note that the tournament's message shows ``tour``. Should the store have moved on
        meanwhile (a press's change drawn before this edit landed), the message is drawn again."""
        try:
            latest = await self.store.tournament_shown(tour.tournament_id, tour.revision)
        except StoreError:  # the next start draws it
            log.info("tournament %s: could not note its message shown", tour.tournament_id,
                     exc_info=True)
            return
        if latest > tour.revision:
            self.redraw(tour.tournament_id)

    async def _redraw_unshown(self, tids: list[int]) -> None:
        """At start: draw again each message a stop left behind its tournament."""
        await self.bot.wait_until_ready()
        for tid in tids:
            self.redraw(tid)

    async def redraw_behind(self) -> None:
        """Draw again every message of this process's tournaments that is behind its row (a
        member forgotten: their name goes from the messages that showed it)."""
        try:
            behind = await self.store.unshown_tournaments(app(self.bot).shard_plan.owns)
        except StoreError:  # the next start draws them
            log.info("could not find the tournament messages to draw again", exc_info=True)
            return
        for tid in behind:
            self.redraw(tid)

    async def _post_standings(self, tour: Tournament, ranking: list[int] | None) -> None:
        """The standings after a round (or the final ones, with the prizes): a picture from the
        render workers, and the same as text for screen readers. They are posted before the
        store notes them; the nonce, which Discord keeps unique for a few minutes, keeps a post
        repeated after a stop in that moment from appearing twice. A post Discord refuses for
        good (the channel gone or closed to the bot) is given up; a failure that may pass is
        raised, and the tournament tries the post again shortly."""
        settings = await self.store.get_settings(tour.guild_id)
        with in_server(self.bot, tour.guild_id, settings):
            view = build_view(tour, ranking)
            lines = standings_lines(tour, view)
            footer = discord.utils.escape_mentions(discord.utils.escape_markdown(view.footer))
            embed = discord.Embed(title=view.title, colour=ACCENT,
                                  description="\n".join(filter(None, [
                                      view.subtitle, *lines, view.legend, footer])))
        png = await app(self.bot).render_pool.run(render_standings, view)
        embed.set_image(url="attachment://standings.png")
        channel = self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        try:
            await channel.send(embed=fit_embed(embed), allowed_mentions=NO_PINGS,
                               file=discord.File(io.BytesIO(png), filename="standings.png"),
                               nonce=standings_nonce(tour))
        except discord.HTTPException as exc:
            if passing(exc):
                raise
            log.warning("tournament %s: the standings cannot be posted in channel %s (%s)",
                        tour.tournament_id, tour.channel_id, exc)

    # -- staff -----------------------------------------------------------------------------------
    async def drop(self, tour: Tournament, entrant: int, actor: int) -> str:
        """Take an entrant out; a running game of theirs is forfeited. Their name."""
        async with self.lock(tour.tournament_id):
            tour, gone = await self.store.drop_tournament_entrant(
                tour.tournament_id, tour.guild_id, entrant, actor=actor)
            await self._taken_out(tour, gone)
            await self._refresh_message(await self.store.tournament(tour.tournament_id,
                                                                    scope=tour.guild_id))
        self.schedule(tour.tournament_id)
        return gone.name

    async def withdraw(self, tid: int, user_id: int, scope: Scope, *, refresh: bool
                       ) -> tuple[Tournament, Entrant]:
        """The member leaves, wherever they asked (``scope``: their press): refunded before the
        start, out of the pairings with their running game forfeited once it runs. ``refresh``:
        bring the tournament's message up to date (the press was not made on it)."""
        async with self.lock(tid):
            tour, gone = await self.store.withdraw_from_tournament(tid, user_id, scope=scope)
            await self._taken_out(tour, gone)
            if tour.status == "running":
                tour = await self.store.tournament(tid, scope=tour.guild_id)
            if refresh:
                await self._refresh_message(tour)
        if app(self.bot).shard_plan.owns(tour.guild_id):
            self.schedule(tid)  # else its own process advances it (a DM reaches shard 0's)
        return tour, gone

    async def _taken_out(self, tour: Tournament, gone: Entrant) -> None:
        """An entrant left a running tournament: their game of this round is forfeited (or, not
        opened yet, recorded as lost)."""
        for p in tour.round_pairings(tour.round):
            if p.status != "pending" or gone.seed not in (p.a, p.b):
                continue
            table = app(self.bot).tables.tables.get(p.game_id) if p.game_id else None
            if table is not None:
                seat = 0 if p.a == gone.seed else 1
                with contextlib.suppress(TableError):  # ended meanwhile: its result stands
                    await app(self.bot).tables.forfeit(table, seat, "dropped from the tournament")
            elif p.game_id is not None and not app(self.bot).shard_plan.owns(tour.guild_id):
                continue  # another process plays that game out and records its result
            else:
                other = p.b if p.a == gone.seed else p.a
                await self.store.record_tournament_result(tour.tournament_id, p.round,
                                                          p.board, other)

    async def send_leave_note(self, interaction: discord.Interaction, tour: Tournament) -> None:
        """Tell a member who signed up how to withdraw from anywhere: a DM with a Leave button
        (it works after they leave the server too), or privately here when their DMs are closed."""
        guild = interaction.guild.name if interaction.guild is not None else "?"
        fee = (t("Before the start your entry fee of {fee} comes back.", fee=number(tour.fee))
               if tour.fee else "")
        text = " ".join(part for part in (
            t("You are signed up for {game} tournament #{number} on {server}.",
              game=GAME_NAMES.get(tour.game, tour.game), number=tour.tournament_id,
              server=safe_name(guild)),
            # the global command's link: the note goes to the member's DM, outside the server
            t("To withdraw, press Leave here or use {leave}, from anywhere.",
              leave=mention("tournament leave", await app(self.bot).command_ids.of(None))), fee)
            if part)
        view = controls(TournamentButton("leave", tour.tournament_id))
        try:
            await interaction.user.send(text, view=view, allowed_mentions=NO_PINGS)
        except discord.HTTPException:  # DMs closed: say it here, privately
            await interaction.followup.send(text, view=view, ephemeral=True,
                                            allowed_mentions=NO_PINGS)

    async def cancel(self, tour: Tournament, actor: int) -> None:
        """Call the tournament off: fees refunded, its running games cancelled."""
        async with self.lock(tour.tournament_id):
            tour = await self.store.cancel_tournament(tour.tournament_id, tour.guild_id,
                                                      actor=actor)
            for p in tour.pairings:
                table = app(self.bot).tables.tables.get(p.game_id) if p.game_id else None
                if p.status == "pending" and table is not None:
                    with contextlib.suppress(TableError):  # ended meanwhile
                        await app(self.bot).tables.cancel(table, actor, "tournament cancelled")
            await self._refresh_message(tour)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(TournamentButton, TournamentAISelect, DropSelect)
    await bot.add_cog(TournamentCog(bot))
