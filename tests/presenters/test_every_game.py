"""Every game's presenter handles every observation and event of whole random matches."""

from __future__ import annotations

import pytest

from bot import presenter
from bot.games import GAMES, game_module
from bot.games.base import Action
from bot.games.rng import Rng
from rendering import render_hand, render_summary, render_table


def _play(game: str, players: int, seed: int):
    module = game_module(game)
    rules = module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=2)
    match = module.new_match(players, rules, seed)
    rng = Rng(seed)
    events = list(match.intro_events)
    yield match, events
    while not match.is_over:
        legal = match.legal_actions()
        events = match.apply(legal[rng.below(len(legal))])
        yield match, events


@pytest.mark.parametrize("game", GAMES)
def test_views_and_lines_for_a_whole_match(game):
    module = game_module(game)
    for players in sorted({module.PLAYERS[0], module.PLAYERS[1]}):
        names = [f"P{i}" for i in range(players)]
        seen_round_over = False
        for match, events in _play(game, players, seed=7 + players):
            for e in events:
                line = presenter.describe_event(game, e, names)
                assert line is None or (isinstance(line, str) and line)
                if e["type"] == "round_over":
                    seen_round_over = True
                    summary = presenter.summary_view(game, e, names)
                    assert summary.result_lines
            if match.is_over:
                break
            view = presenter.table_view(match.observation(0), names, last_move="x")
            assert len(view.players) == players and view.game == game
            seat = match.current_player
            obs = match.observation(seat)
            hand = presenter.hand_view(obs)
            assert tuple(hand.cards) == tuple(obs["hand"])
            labelled = presenter.hand_actions(obs)
            offered = [str(a) for _, a in labelled]
            assert set(offered) <= set(obs["legal_actions"]) and len(set(offered)) == len(offered)
            texts = [(pos, presenter.action_label(game, a)) for pos, a in labelled]
            assert len(set(texts)) == len(texts), "two controls read the same"
            shown = presenter.for_game(game).card_label  # cards of one name are one to the player
            offered_as = {(pos, a.kind, shown(a.card or ""), tuple(map(shown, (a.target or "").split("+"))))
                          for pos, a in labelled}
            for text in obs["legal_actions"]:  # every legal move is offered, itself or its twin
                a = Action.parse(text)
                pos = obs["hand"].index(a.card) + 1 if a.card in obs["hand"] else None
                assert (pos, presenter.action_label(game, a)) in texts or (
                    pos, a.kind, shown(a.card or ""), tuple(map(shown, (a.target or "").split("+")))
                ) in offered_as, text
            for pos, action in labelled:
                assert presenter.action_label(game, action)
                assert len(presenter.action_label(game, action)) <= 80
                assert presenter.action_style(game, action) in ("primary", "success", "danger", "secondary")
                if pos is not None:
                    assert obs["hand"][pos - 1] == action.card
            presenter.hand_fields(obs)
        assert seen_round_over


@pytest.mark.parametrize("game", GAMES)
def test_images_render_for_every_game(game):
    module = game_module(game)
    players = module.PLAYERS[1] if module.PLAYERS[1] <= 4 else 4
    names = [f"Player {i}" for i in range(players)]
    last_round = None
    for match, events in _play(game, players, seed=3):
        last_round = next((e for e in events if e["type"] == "round_over"), last_round)
        if match.is_over:
            break
    table = presenter.table_view(match.observation(0), names)
    assert render_table(table)[:8] == b"\x89PNG\r\n\x1a\n"
    assert last_round is not None
    assert render_summary(presenter.summary_view(game, last_round, names))[:4] == b"\x89PNG"


def test_hand_image_marks_playable_cards():
    match = game_module("koikoi").new_match(2, game_module("koikoi").Rules.preset("nintendo"), 5)
    obs = match.observation(match.current_player)
    view = presenter.hand_view(obs)
    assert view.title.startswith("Your hand · your turn")
    assert set(view.playable) <= set(obs["hand"])
    assert render_hand(view)[:4] == b"\x89PNG"


def test_unknown_action_kind_gets_a_readable_label():
    assert presenter.action_label("mushi", Action("race_end")) == "Race end"


@pytest.mark.parametrize("game, preset", [(g, p) for g in GAMES for p in game_module(g).Rules.PRESETS])
def test_every_preset_plays_through_its_views(game, preset):
    """A short match of each rule set: every event has a line, every round end a summary."""
    module = game_module(game)
    players = module.PLAYERS[0]
    names = [f"P{i}" for i in range(players)]
    match = module.new_match(players, module.Rules.preset(preset, rounds=2, target_score=0), 3)
    rng = Rng(3)
    events = list(match.intro_events)
    while True:
        for e in events:
            line = presenter.describe_event(game, e, names)
            assert line is None or (isinstance(line, str) and line)
            if e["type"] == "round_over":
                assert presenter.summary_view(game, e, names).result_lines
        if match.is_over:
            break
        presenter.table_view(match.observation(match.current_player), names, last_move="x")
        legal = match.legal_actions()
        events = match.apply(legal[rng.below(len(legal))])
