"""The series line of a rematch's final table: each member's wins in seat order, the AI's under
its seat's name (or "the AI" for several), then the draws, in the language spoken."""

from __future__ import annotations

from bot.achievement_text import series_line
from bot.i18n import speaking
from bot.store import Series


def test_no_series_no_line():
    assert series_line(None, [1, 2], ["alice", "bob"]) == ""


def test_members_then_the_ai_then_the_draws():
    series = Series(games=4, wins={1: 2, "ai": 1}, draws=1)
    assert series_line(series, [1, "ai:hard"], ["alice", "AI (hard)"]) == \
        "Series of 4 games: alice 2 · AI (hard) 1 · 1 drawn"
    several = series_line(series, ["ai:easy", 1, "ai:hard"], ["AI (easy)", "alice", "AI (hard)"])
    assert several == "Series of 4 games: alice 2 · the AI 1 · 1 drawn"
    members = Series(games=2, wins={2: 2})
    assert series_line(members, [1, 2], ["alice", "bob"]) == "Series of 2 games: alice 0 · bob 2"


def test_in_japanese_and_korean():
    series = Series(games=3, wins={1: 1, 2: 1}, draws=1)
    with speaking("ja"):
        assert series_line(series, [1, 2], ["alice", "bob"]) == "3戦のシリーズ：alice 1 · bob 1 · 引き分け1"
    with speaking("ko"):
        assert series_line(series, [1, 2], ["alice", "bob"]) == "3판 시리즈: alice 1 · bob 1 · 무승부 1"
