"""The ways into a message that only an interaction's token reaches (a private hand's copy, a
guest table), kept in the store for a start after a crash: what is kept, and what a start
builds of it."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace

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
