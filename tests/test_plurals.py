"""Counts read right in every message: "1 point", "2 points", "0 games", through one helper."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import presenter
from bot.discord_ui.game_settings import match_length
from bot.games import game_module
from bot.store import LeaderboardRow
from cogs.community import _value

ROOT = Path(__file__).resolve().parent.parent
NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight")
USER_FACING = ("cogs", "bot/presenters", "bot/presenter.py", "bot/rules_text.py", "bot/replay.py",
               "bot/settlement.py", "rendering")
COUNTED = ("point", "pt", "game", "round", "chip", "card", "move", "turn", "entry", "entries", "time",
           "victory", "victories", "player", "loss", "losses", "bomb")  # nouns, never verbs


def hard_coded_counts(path: Path) -> list[str]:
    """f-strings that put a number straight before a counted noun ("{n} points") instead of
    asking :func:`bot.words.plural`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.JoinedStr):
            continue
        parts = node.values
        for i, (before, after) in enumerate(zip(parts, parts[1:], strict=False)):
            if not (isinstance(before, ast.FormattedValue) and isinstance(after, ast.Constant)):
                continue
            lead = parts[i - 1] if i else None  # "all four {plant} cards": the count is a word
            if isinstance(lead, ast.Constant) and str(lead.value).rstrip().endswith(NUMBER_WORDS):
                continue
            word = str(after.value).lstrip("* ").split(" ")[0].rstrip(".,:;)!*")
            if word.lower().rstrip("s") in COUNTED or word.lower() in COUNTED:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {{...}}{after.value!r}")
    return found


def test_no_count_is_spelled_by_hand():
    files = []
    for part in USER_FACING:
        path = ROOT / part
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    bad = [hit for f in files for hit in hard_coded_counts(f)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("n, words", [(0, "0 points"), (1, "1 point"), (2, "2 points")])
def test_presenter_lines_count_points(n, words):
    koikoi = presenter.describe_event("koikoi", {"type": "yaku", "player": 0, "yaku": [["tane", n]],
                                                 "points": n}, ["Ana", "Bo"])
    assert koikoi.endswith(f"= {words}")
    gostop = presenter.describe_event("gostop", {"type": "go", "player": 0, "goes": 1, "points": n},
                                      ["Ana", "Bo"])
    assert f"({words})" in gostop
    assert presenter.for_game("koikoi").footer({"match": {"target_score": n}}) == (f"Target {words}" if n else "")


@pytest.mark.parametrize("n, wins, points, games", [
    (0, "0 wins", "0 points", "0 rounds"), (1, "1 win", "+1 point", "1 round"), (2, "2 wins", "+2 points", "2 rounds")])
def test_boards_and_lobbies_count(n, wins, points, games):
    row = LeaderboardRow(rank=1, user_id=1, value=n, games=n)
    assert _value("wins", row, "chips", "all") == wins
    assert _value("points", row, "chips", "all") == points
    assert match_length(type("Rules", (), {"target_score": 0, "rounds": n})()) == games
    if n:
        assert match_length(type("Rules", (), {"target_score": n, "rounds": 2})()) == \
            f"first to {points.lstrip('+')}, at most 2 rounds"


def test_first_bloom_counts_cards_left():
    shed = presenter.for_game("shedding")
    assert shed.bill(["crane"]) == "1 bright × 5"
    rows = shed.summary_rows({"winner": 0, "detail": {"kind": "shed", "hands": [[], ["pine_chaff_1"],
                                                                          ["pine_chaff_1", "deer"]],
                                                      "paid": [0, 1, 2]}}, ["A", "B", "C"])
    assert [r.name for r in rows] == ["1 card left", "2 cards left"]


def test_rules_text_counts_rounds():
    from bot.rules_text import rules_summary

    rounds = game_module("koikoi").Rules.preset("nintendo").rounds
    assert f"Match: {rounds} rounds" in rules_summary("koikoi", {})
