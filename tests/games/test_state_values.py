"""A stored state is a value: what ``to_dict`` returns shares nothing mutable with the live match.

The table keeps ``match.to_dict()`` as its snapshot before a move and restores it when the move
cannot be stored. A snapshot that shared a list with the live match (the match's history did)
took the failed move along, and the restored game held a round nobody stored. These tests play
every game, preset and seat count at random and hold every snapshot to what it said when taken,
both while the live match plays on and while a match restored from it plays on.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import types

import pytest

from bot.games import GAMES, game_module
from bot.games.rng import Rng


def frozen(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def cases():
    for game in GAMES:
        module = game_module(game)
        seats = sorted(set(module.PLAYERS))
        for preset in module.Rules.PRESETS:
            for count in {seats[0], seats[-1]}:
                yield game, preset, count


@pytest.mark.parametrize(("game", "preset", "seats"), list(cases()))
def test_snapshots_stay_what_they_were_while_the_match_plays_on(game, preset, seats):
    module = game_module(game)
    short = {"rounds": 2} if "rounds" in {f.name for f in dataclasses.fields(module.Rules)} else {}
    rules = module.Rules.preset(preset, **short)
    for seed in range(3):
        match = module.new_match(seats, rules, seed)
        rng = Rng(seed + 77)
        snapshots: list[tuple[dict, str]] = []
        moves = 0
        while not match.is_over and moves < 400:
            if rng.below(3) == 0:  # a snapshot now and then, as a table takes one before a move
                state = match.to_dict()
                snapshots.append((state, frozen(state)))
            legal = match.legal_actions()
            match.apply(legal[rng.below(len(legal))], match.current_player)
            moves += 1
        for state, text in snapshots:
            assert frozen(state) == text, "a snapshot changed with the live match"
        # A match restored from a snapshot shares nothing with it either.
        for state, text in snapshots[::4]:
            restored = module.match_from_dict(state)
            steps = 0
            while not restored.is_over and steps < 60:
                legal = restored.legal_actions()
                restored.apply(legal[rng.below(len(legal))], restored.current_player)
                steps += 1
            assert frozen(state) == text, "a snapshot changed with the match restored from it"


def test_a_failed_round_end_leaves_no_round_behind_in_the_snapshot():
    """The fault itself: a snapshot taken before a round-ending move names no more rounds after
    that move than before it."""
    module = game_module("koikoi")
    match = module.new_match(2, module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=3), 5)
    rng = Rng(5)
    while True:
        state = match.to_dict()
        rounds_before = len(state["history"])
        legal = match.legal_actions()
        match.apply(legal[rng.below(len(legal))], match.current_player)
        if len(match.history) > rounds_before:
            break
    assert len(state["history"]) == rounds_before
    assert len(module.match_from_dict(state).history) == rounds_before


def typed(value):
    """``value`` with the type of every part beside it."""
    if isinstance(value, dict):
        return ("dict", sorted((repr(k), typed(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(v) for v in value])
    return (type(value).__name__, value)


def test_a_round_result_is_copied_as_asdict_copies_it(monkeypatch):
    """``RoundResult.to_dict`` copies by shape instead of through ``dataclasses.asdict``: every
    round ended in every game, preset and seat count gives what asdict gives, sharing nothing."""
    from bot.games.base import RoundResult

    fast = RoundResult.to_dict
    seen: list[str] = []

    def checked(result: RoundResult) -> dict:
        copied = fast(result)
        expected = dataclasses.asdict(result)
        assert copied == expected and list(copied) == list(expected)
        assert typed(copied) == typed(expected)  # the same types too (a tuple stays a tuple)
        assert copied["detail"] is not result.detail or not result.detail
        seen.append(result.reason)
        return copied

    monkeypatch.setattr(RoundResult, "to_dict", checked)
    for game, preset, seats in cases():
        module = game_module(game)
        rules = module.Rules.preset(preset)
        match = module.new_match(seats, rules, 11)
        rng = Rng(11)
        moves = 0
        while not match.is_over and moves < 400:
            legal = match.legal_actions()
            match.apply(legal[rng.below(len(legal))], match.current_player)
            moves += 1
    assert len(seen) > 50


def tracked_from(root) -> int:
    """The objects the garbage collector walks that ``root`` reaches (classes, modules and
    functions left out: they are the program's, not the match's)."""
    seen, stack = set(), [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or not gc.is_tracked(obj) or isinstance(
                obj, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
            continue
        seen.add(id(obj))
        stack.extend(gc.get_referents(obj))
    return len(seen)


@pytest.mark.parametrize("game", list(GAMES))
def test_finished_rounds_add_nothing_for_the_collector_to_walk(game):
    """A match in play is walked by every full pass of the collector, for every table: its
    finished rounds are kept as text, so a long match is walked no longer than a short one."""
    module = game_module(game)
    match = module.new_match(min(module.PLAYERS), module.Rules(), 5)
    rng = Rng(5)
    walked = []
    while not match.is_over and len(match.history) < 4:
        rounds = len(match.history)
        actions = match.legal_actions()
        match.apply(actions[rng.below(len(actions))], match.current_player)
        if len(match.history) > rounds:
            walked.append(tracked_from(match) - tracked_from(match.round))
    assert len(walked) >= 2, "the match ended before two rounds were played"
    assert max(walked) == min(walked), walked


def test_the_history_read_is_a_copy_and_survives_a_restore():
    module = game_module("koikoi")
    match = module.new_match(2, module.Rules(rounds=6), 7)
    rng = Rng(7)
    while len(match.history) < 2:
        actions = match.legal_actions()
        match.apply(actions[rng.below(len(actions))], match.current_player)
    read = match.history
    read[0]["points"] = [99, 99]
    read.append({"round": 99})
    assert match.history[0]["points"] != [99, 99] and len(match.history) == 2
    again = module.match_from_dict(json.loads(match.to_json()))
    assert again.history == match.history == json.loads(match.to_json())["history"]
