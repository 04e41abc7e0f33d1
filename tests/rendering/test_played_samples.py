"""The sample pictures of the README and the docs are played, not made up: every last move they
name is one the rules engine allowed when the seed is replayed, every round summary adds up to
its match line, and a footer names a command that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import presenter
from bot.ai import make_player
from bot.cards import card
from bot.games import game_module
from bot.games.descriptor import descriptor
from bot.games.rng import Rng
from bot.i18n import speaking
from bot.rules_text import RULES_COMMAND, rules_command
from rendering.played import AI_LEVEL, in_round, play
from rendering.preview import (
    DOCS,
    SEOTDA_BUY_IN,
    SEOTDA_REDEAL_SEED,
    SEOTDA_SEED,
    side_pot_beside_a_fold,
)
from rendering.samples import PLAYER_COUNTS, sample_summary, sample_table
from rendering.view import GAMES

ONE_MONTH = {"koikoi", "hana_awase"}  # no wild card: a capture takes its own month


def _replayed(game: str, players: int, seed: int, moves: int, rules=None):
    """The seed replayed move by move: each action the AI took, the actions legal then, and the
    events it made."""
    match = game_module(game).new_match(players, rules, seed)
    ai, rng = make_player(AI_LEVEL, game), Rng(seed)
    steps = [(None, [], list(match.intro_events))]
    for _ in range(moves):
        seat, legal = match.current_player, match.legal_actions()
        action = ai.choose(match.observation(seat), legal, rng)
        steps.append((action, legal, match.apply(action, seat)))
    return steps


def _assert_last_move_was_legal(played, rules=None):
    game, players = played.game, len(played.names)
    view = played.table()
    assert view.last_move and not view.result
    steps = _replayed(game, players, played.seed, len(played.actions), rules)
    said = [(line, step) for step in steps for e in step[2]
            if (line := presenter.describe_event(game, e, played.names))]
    line, (action, legal, events) = said[-1]
    assert line == view.last_move
    assert action is None or action in legal  # a line of the deal itself has no action
    assert [a for _, a in played.actions] == [a for a, _, _ in steps[1:]]
    if game in ONE_MONTH:  # a capture took cards of the month it was made with
        for event in events:
            taken = [c for c in event.get("captured", ()) if c != event.get("card")]
            if event.get("type") in ("play", "draw") and taken:
                assert {card(c).month for c in taken} == {card(event["card"]).month}, event


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("share", [0.5, 0.8])
def test_the_last_move_shown_was_a_legal_move_of_the_replayed_seed(game, share):
    _assert_last_move_was_legal(in_round(game, PLAYER_COUNTS[game][0], share=share))


def test_the_readme_seotda_table_was_played_too():
    rules = game_module("seotda").Rules().replace(buy_in=SEOTDA_BUY_IN)
    played = play("seotda", 5, SEOTDA_SEED, rules=rules, until=side_pot_beside_a_fold)
    assert len(played.table().pots) > 1
    _assert_last_move_was_legal(played, rules)


def test_the_seotda_redeal_picture_is_a_played_showdown():
    """The redeal the docs show is the engine's own: a hand that calls it, shown face up, and the
    banner that says the pot stays."""
    with speaking("en"):
        played = play("seotda", 3, SEOTDA_REDEAL_SEED)
        event = next(e for e in played.summaries if e.get("redeal"))
        view = played.summary(played.summaries.index(event))
    caller = played.names[event["redeal"]["caller"]]
    assert view.banner and caller in view.banner
    assert {h.player for h in view.hands} == set(played.names)
    assert all(len(h.cards) == 2 for h in view.hands)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_summary_adds_up_to_its_match_line(seed):
    with speaking("en"):
        played = play("koikoi", 2, seed)
        views = [presenter.summary_view("koikoi", e, played.names) for e in played.summaries]
        chosen = played.summary()
    totals = dict.fromkeys(played.names, 0)
    for view in views:
        scored = re.fullmatch(r"(.+) scores (\d+)", view.result_lines[0])
        if scored:
            totals[scored[1]] += int(scored[2])
        else:
            assert view.result_lines[0] == "Draw: nobody scores this round"
        match = view.result_lines[-1].removeprefix("Match: ")
        assert match == ", ".join(f"{n} {totals[n]}" for n in played.names)
        assert sum(row.points for row in view.rows) <= (int(scored[2]) if scored else 0)
    assert list(totals.values()) == played.match.scores
    assert chosen in views and chosen.rows


def test_the_synthetic_summary_adds_up_too():
    with speaking("en"):
        view = sample_summary(6)
    gained = int(re.fullmatch(r"Hanako \+(\d+)", view.result_lines[0])[1])
    assert view.result_lines[-1] == f"Match: Hanako {gained} - Taro 0"


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_the_footer_names_the_real_rules_command(language):
    from cogs.records import RecordsCog

    command = RecordsCog.rules
    option = next(p for p in command.parameters if p.name == RULES_COMMAND[1])
    assert command.name == RULES_COMMAND[0]
    choices = {c.value: c.name for c in option.choices}
    with speaking(language):
        for game in GAMES:
            assert choices[game] == descriptor(game).name
            footer = sample_table(game, PLAYER_COUNTS[game][0]).footer
            if game == "seotda":  # a betting table is the presenter's own, with its limits
                continue
            assert rules_command(game) in footer and "/hanafuda" not in footer
            assert language == "en" or "Turn timer" not in footer
    with speaking("ja"):
        assert rules_command("koikoi") == "/ルール ゲーム:こいこい"
    with speaking("ko"):
        assert rules_command("gostop") == "/규칙 게임:고스톱"


def test_the_synthetic_tables_name_no_impossible_capture():
    with speaking("en"):
        for game in GAMES:
            for seed in range(1, 6):
                view = sample_table(game, PLAYER_COUNTS[game][0], seed=seed)
                if " took " in view.last_move:
                    first, second = view.highlight[:2]
                    assert card(first).month == card(second).month, view.last_move


def test_the_preview_writes_every_picture_the_docs_show():
    """Each docs/*.png is written by ``python -m rendering.preview --docs``, so it can be made
    again from the games played here rather than by hand."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    written = [name for language in DOCS.values() for name in language]
    assert sorted(written) == sorted(p.name for p in docs.glob("*.png"))
