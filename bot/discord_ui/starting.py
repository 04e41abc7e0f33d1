"""How a game starts from Discord, whichever way it was asked for (a command against the AI, a
challenge, a lobby, a rematch): the closed-lobby sentences, the stakes checked in time for the
answer, the lobby a press refers to, and the start itself (:mod:`bot.tables.starting`), undone and
told privately when it is refused.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.discord_ui.app import app
from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import in_public
from bot.discord_ui.text import refuse, safe_name
from bot.fairness import FairDeal, Input
from bot.i18n import N_, number, t
from bot.settlement import cover_for
from bot.store import StoreError, UnknownAccount
from bot.store.lobbies import Lobby, LobbyNotOpen, start_key
from bot.tables import Table, TableError, ai_seat
from bot.tables.starting import ai_names, lobby_spec, note_place, start_at
from bot.words import amount as counted

log = logging.getLogger(__name__)
T = TypeVar("T")


CHALLENGE_SECONDS = 300
LOBBY_CLOSED = N_("This lobby is no longer open.")
CHALLENGE_CLOSED = N_("This challenge is no longer open.")
REMATCH_CLOSED = N_("This rematch is no longer open.")
CLOSED = {"lobby": LOBBY_CLOSED, "challenge": CHALLENGE_CLOSED, "rematch": REMATCH_CLOSED}
STARTER = {"lobby": "start", "challenge": "accept", "rematch": "accept"}
"""What the press that starts each kind of lobby is, as an input of the deal (bot.fairness)."""
NO_MENTIONS = discord.AllowedMentions.none()


BEFORE_ANSWER_SECONDS = 2.0
"""How long what a command must know before its first answer may take: Discord waits 3 s for the
answer, and it must travel back."""


SLOW_DATABASE = N_("The bot's database is not answering quickly right now, so nothing was "
                   "started. Please try again in a moment.")


async def before_answer(work: Awaitable[T], undo: Callable[[T], Awaitable[object]] | None = None) -> T:
    """``work`` that a command needs before it answers, done in time for the answer or refused
    with one sentence (TableError). A write that lands after it was given up is undone with
    ``undo``, so that nothing the player was told did not happen stays."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), BEFORE_ANSWER_SECONDS)
    except TimeoutError:
        if undo is not None:
            task.add_done_callback(lambda done: _undo_late(done, undo))
        else:
            task.cancel()
        raise TableError(t(SLOW_DATABASE)) from None
    except StoreError as exc:  # the database is away: its one sentence
        raise TableError(sentence(exc)) from None


def _undo_late(done: asyncio.Future, undo: Callable[[Any], Awaitable[object]]) -> None:
    if done.cancelled() or done.exception() is not None:
        return
    undoing = asyncio.ensure_future(undo(done.result()))
    undoing.add_done_callback(lambda u: u.cancelled() or u.exception() is None
                              or log.warning("could not undo a late write: %s", u.exception()))


async def check_stakes(interaction: discord.Interaction, game: str, stake: int,
                       humans: list[int] | tuple[int, ...]) -> None:
    """Every human seat can cover the stake (a player without an account would open one with
    the starting chips); TableError naming who cannot. Reads only: nothing changes; in time
    for the command's answer, or refused."""
    if stake:
        await before_answer(_check_stakes(interaction, game, stake, humans))


async def _check_stakes(interaction: discord.Interaction, game: str, stake: int,
                        humans: list[int] | tuple[int, ...]) -> None:
    store = app(interaction).store
    scope = scope_of(interaction)
    settings = await store.get_settings(scope)
    needed = cover_for(game, stake)
    currency = safe_name(settings.currency_name)
    for user in humans:
        try:
            balance = await store.balance(scope, user)
        except UnknownAccount:
            balance = settings.starting_chips
        if balance < needed:
            if user == interaction.user.id:
                raise TableError(t("You have {balance}, but this stake needs {needed} from each player.",
                                   balance=counted(balance, currency), needed=number(needed)))
            raise TableError(t("{user} has {balance}, but this stake needs {needed} from each player.",
                               user=f"<@{user}>", balance=counted(balance, currency), needed=number(needed)))


async def start_table(interaction: discord.Interaction, game: str, players: list[int | str],
                      names: list[str], host_id: int, rules_spec: dict[str, Any], stake: int,
                      *, key: str, via: discord.Interaction | None = None, headline: str = "",
                      rules: Any = None, deal: FairDeal | None = None,
                      replays: int | None = None) -> Table:
    """Create and show the table; refuses with a clear message (nothing started) on bad input.
    ``key`` makes the start idempotent: a second call with it returns the same game. ``via``: an
    interaction deferred publicly whose answer becomes the table (its token then keeps the table
    up to date without counting against the bot's global rate limit). ``rules``: the exact rules
    to play (a rematch), instead of building them from ``rules_spec`` and the house rules.
    ``deal``: the lobby's commitment and the presses that seated its players; without one the
    game commits as it starts, mixing in this interaction's id. ``replays``: the finished game
    a rematch plays again."""
    return await start_at(app(interaction).store, app(interaction).tables, place_of(interaction),
                          game, players, names, host_id, rules_spec, stake, key=key, via=via,
                          headline=headline, rules=rules, replays=replays,
                          deal=deal or FairDeal.fresh([Input("command", str(interaction.id))]))


async def noted(store: Any, interaction: discord.Interaction, write: Callable[[], Awaitable[T]]) -> T:
    """``write`` (a challenge's or lobby's row) once the place it is written in is noted."""
    await note_place(store, place_of(interaction))
    return await write()


# -- presses ---------------------------------------------------------------------------------------
_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


def lobby_lock(lobby_id: str) -> asyncio.Lock:
    """Serialises one lobby's change and message edit, so the message shows the latest members."""
    lock = _locks.get(lobby_id)
    if lock is None:
        lock = _locks[lobby_id] = asyncio.Lock()
    return lock


async def pressed(interaction: discord.Interaction, lobby_id: str, kind: str) -> Lobby:
    """The stored lobby a press refers to, if the press comes from where that lobby is shown;
    else LobbyNotOpen (unknown, forged or misplaced ids all look alike to the presser)."""
    lobby = await app(interaction).store.get_lobby(lobby_id)
    if (lobby is None or lobby.kind != kind or lobby.guild_id != scope_of(interaction)
            or lobby.channel_id != interaction.channel_id or not on_its_message(interaction, lobby)):
        raise LobbyNotOpen(t(CLOSED.get(kind, LOBBY_CLOSED)))
    return lobby


def on_its_message(interaction: discord.Interaction, lobby: Lobby) -> bool:
    """Whether the press was made on the lobby's message: the one stored, or, until its id is
    stored (just after the answer that posted it), the message that answer made."""
    message = interaction.message
    if message is None:
        return False
    if lobby.message_id is not None:
        return message.id == lobby.message_id
    metadata = message.interaction_metadata
    return lobby.origin_id is not None and metadata is not None and metadata.id == lobby.origin_id


async def launch(interaction: discord.Interaction, lobby: Lobby, *,
                 players: list[int | str] | None = None, names: list[str] | None = None,
                 rules: Any = None, host_id: int | None = None, headline: str = "") -> Table | None:
    """Start the game of a lobby this press moved to ``starting``. On a refusal the lobby opens
    again and the presser is told why (privately); None then. A rematch gives its own seats,
    names, rules and host (those of the game it repeats). Where the app is a guest the press,
    answered as a deferred update, turns the lobby's message into the table (the app may not
    post one of its own)."""
    store = app(interaction).store
    if players is None:
        players = [*lobby.humans, *(ai_seat(level) for level in lobby.ais)]
    humans = [p for p in players if isinstance(p, int)]
    try:
        await check_stakes(interaction, lobby.game, lobby.stake, humans)
        if names is None:
            shown_names = [await display_name(interaction, h) for h in lobby.humans]
            with in_public(interaction):  # the AI seats' names are shown to the whole channel
                names = shown_names + ai_names(list(lobby.ais))
        try:  # the press that starts the game is the last input its deal mixes in
            deal = await store.lobby_deal(lobby.lobby_id, scope_of(interaction),
                                          Input(STARTER[lobby.kind], str(interaction.id)))
        except StoreError as exc:
            raise TableError(sentence(exc)) from None
        table = await start_table(interaction, lobby.game, players, names,
                                  lobby.host_id if host_id is None else host_id, lobby_spec(lobby),
                                  lobby.stake, key=start_key(lobby.lobby_id), rules=rules,
                                  headline=headline, deal=deal, replays=lobby.source_game_id,
                                  via=interaction if place_of(interaction).guest else None)
    except TableError as exc:
        await store.settle_lobby_start(lobby.lobby_id)
        await refuse(interaction, told(exc))
        return None
    except BaseException:
        await asyncio.shield(store.settle_lobby_start(lobby.lobby_id))
        raise
    await store.finish_lobby_start(lobby.lobby_id, table.game_id)
    return table


def expired_embed(lobby: Lobby) -> discord.Embed:
    if lobby.kind == "rematch":
        return discord.Embed(title=t("Rematch expired"), colour=ACCENT,
                             description=t("Not every player confirmed in time; press Rematch on the "
                                           "final table to ask again."))
    return discord.Embed(title=t("Challenge expired"), colour=ACCENT,
                         description=t("{user} did not answer in time.", user=f"<@{lobby.opponent_id}>"))


async def display_name(interaction: discord.Interaction, user_id: int) -> str:
    guild = interaction.guild
    member = guild.get_member(user_id) if guild else None
    if member is not None:
        return member.display_name
    channel = interaction.channel
    for user in getattr(channel, "recipients", None) or ():  # a group DM's members
        if user.id == user_id:
            return user.display_name
    if user_id == interaction.user.id:
        return interaction.user.display_name
    try:
        user = interaction.client.get_user(user_id) or await interaction.client.fetch_user(user_id)
        return user.display_name
    except UNDELIVERED:
        return t("Player {number}", number=user_id % 10000)
