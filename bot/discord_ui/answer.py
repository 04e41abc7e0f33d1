"""Answers that keep Discord's 3 seconds, however slow the database is.

Discord shows "The application did not respond" to an interaction not acknowledged within 3 s,
and a command that reads the store before it answers misses that while the database is slow.
A command declares how it answers (``@answers(private=...)``); the command tree then
acknowledges it with "thinking" (:func:`watch`) when it has not answered within
:data:`DEFER_AFTER`, and its answer goes out through :func:`send`, :func:`acknowledge` or
:func:`send_private`, which know whether that happened. On a quick database nothing changes: the
command answers as it always did.

The three share one :class:`_Answering` per interaction (in ``interaction.extras``), so the
acknowledgement and an answer can never both be the interaction's first response; and every
first response goes through :func:`first_response`, which settles one whose connection was cut
on its way by asking Discord whether it took it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord
from discord import app_commands

from bot.discord_ui.delivery import UNDELIVERED
from bot.discord_ui.places import place_of

__all__ = ["ANSWER", "DEFER_AFTER", "CalledOff", "acknowledge", "answers", "done_pressing",
           "first_response", "landed", "posted_instead", "press_defer", "press_reply",
           "press_update", "responded", "send", "send_private", "watch", "watch_press"]

log = logging.getLogger(__name__)


class CalledOff(Exception):
    """Discord did not take the answer that stood for what a command or press opened (a lobby,
    a challenge, a tournament's sign-up, a rematch's request, a shared result), so it was called
    off: nobody saw it. Unlike an answer lost after work that stands (a gift), asking again is
    safe, and the error handler says so rather than "check first"."""


class DoneUnseen(Exception):
    """Discord did not take the private answer that told of work done and kept (a staff grant, a
    changed setting); ``done`` is that answer, which the error handler gives in its place with
    a word that it is done, rather than "check first": asking again would do it twice."""

    def __init__(self, done: str) -> None:
        super().__init__(done)
        self.done = done


async def answered_done(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """A private answer that tells of work done: when Discord does not take it (and shows none),
    :class:`DoneUnseen` carries it to the error handler."""
    try:
        await send(interaction, text, ephemeral=True, **kwargs)
    except UNDELIVERED as exc:
        if await landed(interaction, exc) is None:
            raise DoneUnseen(text) from exc


C = TypeVar("C", bound=app_commands.Command[Any, ..., Any])
R = TypeVar("R")

ANSWER = "answer"  # the key of a command's extras: "public" or "private"
KEY = "hanafuda.answering"  # the key of the interaction's extras
DEFER_AFTER = 1.5  # seconds after receipt: time left for the acknowledgement to reach Discord


def answers(*, private: bool) -> Callable[[C], C]:
    """Decorator, above the command's own: the command is acknowledged for it when slow,
    publicly or privately as its answer will be (Discord gives the first answer after
    "thinking" the thinking's visibility)."""
    def declare(command: C) -> C:
        if not isinstance(command, app_commands.Command):
            raise TypeError("@answers goes above the decorator that makes the command")
        command.extras[ANSWER] = "private" if private else "public"
        return command
    return declare


@dataclass
class _Answering:
    started: bool = False  # the first response (answer or acknowledgement) is on its way
    updated_late: bool = False  # acknowledged late as an update: the pressed message is no answer
    deferring: asyncio.Task[Any] | None = None  # the acknowledgement :func:`watch` sent
    public_thinking: bool = False  # a public "thinking" message still waits for its answer
    timer: asyncio.TimerHandle | None = None  # a press's late acknowledgement, armed
    taken: bool = False  # Discord took the first response, though its reply never came back


def _state(interaction: discord.Interaction) -> _Answering:
    state = interaction.extras.get(KEY)
    if state is None:
        state = interaction.extras[KEY] = _Answering()
    return state


CUT = (aiohttp.ClientError, OSError)  # a request's fate unknown: Discord may have taken it


async def first_response(interaction: discord.Interaction, respond: Callable[[], Awaitable[R]],
                         *files: discord.File) -> R | discord.InteractionMessage:
    """The interaction's first response, sent by ``respond()`` (which may upload ``files``).

    A connection cut on the way leaves its fate unknown, and discord.py counts the response
    unsent; what followed would then be a second first response, which Discord refuses, or an
    apology for work that stands. So Discord is asked: a response it took stands (what follows
    goes as follow-ups, :func:`responded`), one it never had is sent once more. ``respond()``'s
    result, or the message Discord shows for a response whose reply was lost; the cut is raised
    again when Discord cannot be asked."""
    try:
        return await respond()
    except CUT as exc:
        cut = exc
    try:
        shown: discord.InteractionMessage | None = await interaction.original_response()
    except discord.NotFound:
        shown = None
    except UNDELIVERED:
        raise cut from None
    if shown is not None:
        _state(interaction).taken = True
        log.info("the first response's reply was lost (%s); Discord took it", cut)
        return shown
    log.info("the first response was lost on its way (%s); sending it again", cut)
    for file in files:
        file.reset()
    return await respond()


def responded(interaction: discord.Interaction) -> bool:
    """Whether the interaction's first response went: as discord.py counts it, or taken by
    Discord though its reply was lost (:func:`first_response`)."""
    return interaction.response.is_done() or _state(interaction).taken


def watch(interaction: discord.Interaction) -> None:
    """Arm the late acknowledgement of a command that declared how it answers (the tree calls
    this for every command before it runs)."""
    command = interaction.command
    extras = getattr(command, "extras", None) or {}
    answer = extras.get(ANSWER)
    if answer is None:
        return
    _state(interaction)
    asyncio.get_running_loop().call_later(DEFER_AFTER, _defer_late, interaction, answer == "private")


def watch_press(interaction: discord.Interaction, *, private: bool = False) -> None:
    """Arm the late acknowledgement of a press on one of the bot's controls (from
    :class:`~bot.discord_ui.speaking.Speaks`): a press whose work has not answered
    :data:`DEFER_AFTER` s after receipt (the database slow) is acknowledged, as a deferred update
    (nothing shown; :func:`press_update` then edits the pressed message) or, ``private``, as a
    "thinking" only the presser sees (its answer replaces it); :func:`send` and
    :func:`send_private` answer after either. A press's first response must go through them (or
    :func:`press_defer`), never straight to ``interaction.response``: the acknowledgement may be
    on its way."""
    _state(interaction).timer = asyncio.get_running_loop().call_later(
        DEFER_AFTER, _defer_press_late, interaction, private)


def done_pressing(interaction: discord.Interaction) -> None:
    """The press's work is over: its late acknowledgement, if not sent, is not needed (and the
    timer lets go of the interaction)."""
    state = interaction.extras.get(KEY)
    if state is not None and state.timer is not None:
        state.timer.cancel()
        state.timer = None


def _defer_press_late(interaction: discord.Interaction, private: bool) -> None:
    state = _state(interaction)
    state.timer = None
    if state.started or responded(interaction):
        return
    state.started = True
    state.updated_late = not private
    state.deferring = asyncio.ensure_future(first_response(interaction, lambda: (
        interaction.response.defer(ephemeral=True, thinking=True) if private
        else interaction.response.defer())))
    state.deferring.add_done_callback(_logged)


async def press_defer(interaction: discord.Interaction, *, ephemeral: bool = False,
                      thinking: bool = False) -> None:
    """Acknowledge a press now, unless its late acknowledgement was already sent (its answer then
    goes as a follow-up, which :func:`send` and ``interaction.followup`` make)."""
    await _settled(interaction)
    if not responded(interaction):
        await first_response(interaction, lambda: interaction.response.defer(
            ephemeral=ephemeral, thinking=thinking))


async def press_update(interaction: discord.Interaction, **fields: Any) -> None:
    """A press's answer that edits the message it was pressed on: the first response, or, after
    the late acknowledgement, an edit of that message through the press's token."""
    await _settled(interaction)
    if responded(interaction):
        await interaction.edit_original_response(**fields)
    else:
        await first_response(interaction, lambda: interaction.response.edit_message(**fields),
                             *_files(fields))


def _files(message: dict[str, Any]) -> list[discord.File]:
    """The files a message's arguments upload (an edit's among its attachments)."""
    file = message.get("file")
    files = [file] if file is not None else list(message.get("files") or ())
    return files + [a for a in message.get("attachments") or () if isinstance(a, discord.File)]


def _private_only(interaction: discord.Interaction) -> bool:
    """Where the app is a guest and external apps may not answer in public, every answer is
    private (Discord refuses a public one)."""
    return not place_of(interaction).public


def _defer_late(interaction: discord.Interaction, private: bool) -> None:
    private = private or _private_only(interaction)
    state = _state(interaction)
    if state.started or responded(interaction):
        return
    state.started = True
    state.public_thinking = not private
    state.deferring = asyncio.ensure_future(first_response(
        interaction, lambda: interaction.response.defer(ephemeral=private, thinking=True)))
    state.deferring.add_done_callback(_logged)


def _logged(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("could not acknowledge a slow command: %s", task.exception())


async def _settled(interaction: discord.Interaction) -> _Answering:
    """The interaction's answering state once an acknowledgement on its way has arrived (or
    failed: the answer then tries on its own and reports its own failure)."""
    state = _state(interaction)
    state.started = True
    if state.timer is not None:  # answered in time: no late acknowledgement
        state.timer.cancel()
        state.timer = None
    if state.deferring is not None:
        with contextlib.suppress(Exception):
            await asyncio.shield(state.deferring)
    return state


async def send(interaction: discord.Interaction, content: str | None = None, **kwargs: Any
               ) -> int | None:
    """The command's answer: its first response, or what replaces its "thinking" message. The
    answer's message id when Discord gave it."""
    if _private_only(interaction):
        kwargs["ephemeral"] = True
    return await press_reply(interaction, content, **kwargs)


async def press_reply(interaction: discord.Interaction, content: str | None = None, **kwargs: Any
                      ) -> int | None:
    """A new message in answer to a press (or a command's, as :func:`send` without its care for
    guest places): the first response, or a follow-up after an acknowledgement. Its message id
    when Discord gave it."""
    state = await _settled(interaction)
    if responded(interaction):
        state.public_thinking = False
        message = await interaction.followup.send(content, wait=True, **kwargs)
        return message.id
    sent = await first_response(
        interaction, lambda: interaction.response.send_message(content, **kwargs), *_files(kwargs))
    return sent.id if isinstance(sent, discord.Message) else getattr(sent, "message_id", None)


async def send_private(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """An answer for the presser alone, answered or not yet. A public "thinking" message would
    make the first followup public, so it is removed first."""
    state = await _settled(interaction)
    if not responded(interaction):
        await first_response(interaction, lambda: interaction.response.send_message(
            content, ephemeral=True, **kwargs), *_files(kwargs))
        return
    if state.public_thinking:
        state.public_thinking = False
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(content, ephemeral=True, **kwargs)


async def acknowledge(interaction: discord.Interaction, *, private: bool = False) -> None:
    """Acknowledge now (for an answer that takes work, such as a picture), unless it already is;
    the answer then goes out with :func:`send`."""
    state = await _settled(interaction)
    private = private or _private_only(interaction)
    if not responded(interaction):
        state.public_thinking = not private
        await first_response(interaction, lambda: interaction.response.defer(
            ephemeral=private, thinking=True))


async def landed(interaction: discord.Interaction, failure: Exception) -> int | None:
    """The id of the interaction's answer when its sending failed with ``failure`` and yet
    Discord holds it: a cut connection may lose the reply to an answer Discord took, and only
    asking tells. None after a refusal (nothing was taken) or when Discord shows none."""
    if isinstance(failure, discord.HTTPException) or _state(interaction).updated_late:
        return None  # refused; or the original response is the pressed message, not this answer
    try:
        answer = await interaction.original_response()
    except UNDELIVERED:
        return None
    return None if answer.flags.loading else answer.id  # still "thinking": not the answer


async def posted_instead(interaction: discord.Interaction, refused: Exception, what: str,
                         **message: Any) -> int | None:
    """Post ``message`` as the bot's own in the interaction's channel, after Discord refused it
    as the interaction's public answer (the token gone, a server error past discord.py's tries,
    a cut connection after which Discord shows no answer), for an answer that tells of something
    done which must not be done twice (a gift, a rematch's request): those it concerns see it,
    and whoever asked does not ask again thinking it failed. The message's id (the answer's, had
    it landed after all); None where the bot may not post (a guest place, a channel closed to
    it)."""
    shown = await landed(interaction, refused)
    if shown is not None:
        return shown
    log.warning("%s was refused as the answer (%s); posting it in the channel", what, refused)
    if place_of(interaction).guest or interaction.channel_id is None:
        return None
    channel = interaction.client.get_partial_messageable(interaction.channel_id,
                                                         guild_id=interaction.guild_id)
    try:
        return (await channel.send(**message)).id
    except UNDELIVERED as exc:
        log.warning("%s cannot be posted in channel %s either (%s)", what, interaction.channel_id, exc)
        return None
