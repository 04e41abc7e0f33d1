"""A table keeps the events of its latest moves, not their text: each place that shows the
table narrates them in its own language, and a game stored by older code, which kept the text,
still shows its log until new moves replace it."""

from __future__ import annotations

import json
from types import SimpleNamespace

from bot import presenter
from bot.games import game_module
from bot.games.rng import Rng
from bot.i18n import speaking
from bot.tables import LOG_LENGTH, Table

NAMES = ["Aki", "Ben"]


def table_after(moves: int, seed: int = 3) -> Table:
    module = game_module("koikoi")
    match = module.new_match(2, None, seed)
    table = Table(game_id=1, guild_id=2, channel_id=3, game="koikoi", players=[10, 11],
                  names=list(NAMES), host_id=10, stake=0, match=match, timeouts=[0, 0])
    table.recent.extend(presenter.narrated("koikoi", match.intro_events, NAMES))
    rng = Rng(seed)
    for _ in range(moves):
        seat = match.current_player
        if seat is None:
            break
        legal = match.legal_actions()
        events = match.apply(legal[rng.below(len(legal))], seat)
        table.recent.extend(presenter.narrated("koikoi", events, NAMES))
        table.seq += 1
    return table


def record_of(table: Table, state: str) -> SimpleNamespace:
    return SimpleNamespace(state_json=state, game_id=table.game_id, guild_id=table.guild_id,
                           channel_id=table.channel_id, game=table.game, players=table.players,
                           stake=table.stake, last_seq=table.seq, message_id=None, deal=None,
                           shard_key=table.guild_id)


def test_the_log_is_narrated_in_the_language_of_where_it_is_shown():
    table = table_after(10)
    assert len(table.recent) == LOG_LENGTH
    with speaking("en"):
        english = presenter.log_lines("koikoi", table.recent, NAMES)
    with speaking("ja"):
        japanese = presenter.log_lines("koikoi", table.recent, NAMES)
    assert len(english) == len(japanese) == LOG_LENGTH
    assert english != japanese
    assert all("Aki" in line or "Ben" in line for line in english)


def test_only_events_that_make_a_line_are_kept_and_they_survive_a_restart():
    table = table_after(7)
    assert all(presenter.describe_event("koikoi", e, NAMES) for e in table.recent)
    again = Table.from_record(record_of(table, table.state_json()))
    assert list(again.recent) == list(table.recent)
    assert again.legacy_log == []


def test_a_log_stored_as_text_by_older_code_shows_until_new_moves_replace_it():
    table = table_after(0)
    state = json.loads(table.state_json())
    del state["recent"]
    state["log"] = [f"old line {n}" for n in range(LOG_LENGTH)]
    old = Table.from_record(record_of(table, json.dumps(state)))
    assert old.legacy_log == state["log"] and not old.recent
    old.recent.extend(presenter.narrated("koikoi", [{"type": "stop", "seat": 0}], NAMES))
    stored = json.loads(old.state_json())
    assert stored["log"] == state["log"][1:]  # the new line pushed the oldest one out
    assert len(stored["log"]) + len(stored["recent"]) == LOG_LENGTH
