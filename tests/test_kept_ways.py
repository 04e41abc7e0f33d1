"""The ways into a message that only an interaction's token reaches (a private hand's copy, a
guest table), kept in the store for a start after a crash: what is kept, and what a start
builds of it."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace

import discord

from bot.discord_ui.feeds import INTERACTION_SECONDS, Via
from bot.discord_ui.tokens import Token
from tests.test_sent_objects_freed import _interaction


def _bot(interaction) -> SimpleNamespace:
    return SimpleNamespace(_connection=interaction._state)


def test_a_kept_way_is_the_same_way_in_after_a_start():
    interaction = _interaction(201)
    via = Via(Token(interaction), 77, followup=True)
    note = json.loads(json.dumps(via.note()))  # as the store keeps it
    again = Via.kept(_bot(interaction), note)
    assert again is not None and again.fresh
    assert (again.token.id, again.token.user_id, again.token.public) == (201, 5, True)
    assert (again.token.followup.id, again.token.followup.token) == (2, "tok")
    assert (again.message_id, again.followup, again.at) == (77, True, via.at)
    assert again.note() == via.note()  # nothing to write again after the start


def test_a_press_not_answered_yet_keeps_the_older_way_into_the_same_message():
    older = Via(Token(_interaction(202)), 77, followup=True)
    press = Via(Token(_interaction(203)), 77, answered=asyncio.Event(), instead=older)
    assert press.note() == older.note()  # it may yet answer with a message of its own
    press.answered.set()
    assert press.note()["interaction"] == 203
    press.withdrawn = True  # it did: its token reaches that message, not the hand
    assert press.note() == older.note()
    press.instead = None
    assert press.note() is None


def test_a_token_past_its_time_or_a_note_that_is_not_one_is_no_way_in():
    interaction = _interaction(204)
    note = Via(Token(interaction), 77).note()
    assert Via.kept(_bot(interaction), {**note, "at": time.time() - INTERACTION_SECONDS - 1}) is None
    for broken in ({k: v for k, v in note.items() if k != "token"}, {**note, "at": "soon"},
                   {**note, "interaction": None}):
        assert Via.kept(_bot(interaction), broken) is None


class _Asked:
    """A follow-up webhook whose ``fetch_message`` answers as Discord would: the press's answer
    (``took``), or 404 for an interaction it never had an answer to."""

    def __init__(self, took: bool) -> None:
        self.took, self.asked = took, 0

    async def fetch_message(self, message_id):
        self.asked += 1
        if not self.took:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Message")
        return SimpleNamespace(id=77)


async def test_a_press_whose_answer_was_lost_is_used_only_once_discord_says_it_took_it():
    for took in (True, False):
        press = Via(Token(_interaction(205)), 77, answered=asyncio.Event(), unsettled=True)
        press.answered.set()
        press.token.followup = asked = _Asked(took)
        assert await press.ready() is took and asked.asked == 1
        assert press.unsettled is not took and press.fresh is took
        await press.ready()
        assert asked.asked == 1  # asked once: the answer is known from then on
    # With an older way into the same message, that one is used and nothing is asked.
    older = Via(Token(_interaction(206)), 77, followup=True)
    press = Via(Token(_interaction(207)), 77, answered=asyncio.Event(), instead=older, unsettled=True)
    press.answered.set()
    press.token.followup = asked = _Asked(True)
    assert press.note() == older.note()  # and the store keeps that one
    assert await press.ready() is False and asked.asked == 0


def test_a_kept_way_whose_answer_was_lost_is_asked_about_after_a_start():
    interaction = _interaction(208)
    press = Via(Token(interaction), 77, unsettled=True)
    again = Via.kept(_bot(interaction), json.loads(json.dumps(press.note())))
    assert again is not None and again.unsettled and again.note() == press.note()
