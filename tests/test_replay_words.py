"""/replay tells every move in the words of the live table: no engine action text, no card ids,
no rule codes such as "(6B)"."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from bot import presenter
from bot.games import GAMES, game_module
from bot.games.base import Action
from bot.games.rng import Rng
from bot.replay import Replay, action_words, event_lines
from bot.store.models import GameEvent, GameRecord
from cogs.records import _frame_content, how_it_ended

NAMES = ["Ana", "Bo", "Cy"]
CODES = [
    re.compile(r"`"),  # a code span
    re.compile(r"\b[a-z]+(_[a-z0-9]+)*:[a-z0-9_>+]+"),  # an action's text: play:crane>pine_chaff_1
    re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),  # a card id or a slug: pine_chaff_1, blue_ribbon_sep
    re.compile(r"\(\d+[A-Z]\)|\b\d[A-Z]:"),  # a rule's number: (6B), 6A:
]


def code_in(text: str) -> str | None:
    for pattern in CODES:
        if found := pattern.search(text):
            return found.group(0)
    return None


def played_record(game: str, seed: int) -> GameRecord:
    """A finished one-round game of ``game`` played at random, stored as the bot stores it."""
    module = game_module(game)
    players = module.PLAYERS[0] if game != "hana_awase" else 3
    rules = module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=1)
    match = module.new_match(players, rules, seed)
    rng = Rng(seed)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    events = []
    while not match.is_over:
        legal = match.legal_actions()
        action = str(legal[rng.below(len(legal))])
        events.append(GameEvent(len(events) + 1, "ai:easy", action, match.apply(action), now))
    state = {"names": NAMES[:players], "match": match.to_dict()}
    return GameRecord(game_id=1, guild_id=1, channel_id=1, message_id=None, game=game,
                      rules=rules.to_dict(), players=["ai:easy"] * players, stake=0, status="finished",
                      state_json=json.dumps(state), state_version=1, last_seq=len(events), seed=seed,
                      created_at=now, updated_at=now, ended_at=now, end_reason="match over",
                      events=events)


@pytest.mark.parametrize("game", GAMES)
def test_every_replayed_move_is_in_words(game):
    record = played_record(game, seed=5)
    assert record.events
    for step in range(len(record.events) + 1):
        embed, view, _, _ = _frame_content(record, step)
        for text in (embed.description or "", view.last_move):
            assert not code_in(text), f"{game} move {step}: {code_in(text)!r} in {text!r}"
        if step:
            action = record.events[step - 1].action
            assert action_words(game, action) in embed.description
            assert ":" not in action or action not in embed.description


def test_a_move_reads_like_its_button_at_the_table():
    action = "play:crane>pine_chaff_1"
    assert action_words("koikoi", action) == presenter.action_label("koikoi", Action.parse(action))
    assert action_words("koikoi", action) == "Crane and Sun → Pine"
    assert action_words("koikoi", "koikoi") == "Koi-Koi!"
    assert action_words("koikoi", None) == ""


def test_replay_lines_are_the_live_table_s_lines():
    record = played_record("koikoi", seed=2)
    frame = Replay(record).frame(1)
    assert event_lines("koikoi", frame.events, NAMES[:2]) == [
        line for e in frame.events if (line := presenter.describe_event("koikoi", e, NAMES[:2]))]


def test_first_bloom_says_keep_and_discard_without_rule_numbers():
    labels = [presenter.action_label("shedding", Action.parse(a))
              for a in ("keep:pine_chaff_1", "struggle_match:pine_chaff_1>crane")]
    assert labels == ["Keep Pine", "Discard Pine with Crane and Sun"]
    line = presenter.describe_event("shedding", {"type": "keep", "player": 0, "forced": True}, NAMES)
    assert line == "Ana keeps the drawn card: it matches nothing on the field"


@pytest.mark.parametrize("status, reason, said", [
    ("finished", "match over", "Played to the end"),
    ("finished", "forfeited", "Ended by a forfeit"),
    ("finished", "3 turns timed out in a row", "Ended by a forfeit (3 turns timed out in a row)"),
    ("cancelled", "cancelled by *Al*", "Cancelled by \\*Al\\*"),
    ("cancelled", "the server left", "Cancelled: the server left"),
    ("cancelled", None, "Cancelled"),
    ("running", None, "Still in play"),
])
def test_the_end_of_a_replay_reads_naturally(status, reason, said):
    assert how_it_ended(status, reason) == said
