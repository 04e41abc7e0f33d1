"""Each game's feat of play (its descriptor's ``feat``, an achievement) is read from the events
the game's own engine emits: matches of random legal moves are played until one shows the
feat, and the feat's reader names the seat that the engine's state says did it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import game_module
from bot.games.descriptor import descriptor, descriptors
from bot.games.rng import Rng
from bot.presenter import for_game

SEEDS = 400  # random matches tried at most per game; each feat comes within a few dozen


def _events_of_matches(game: str, players: int):
    """(seat who moved, events it caused) of every move of random matches, seed after seed."""
    module = game_module(game)
    for seed in range(SEEDS):
        match = module.new_match(players, None, seed)
        rng = Rng(seed)
        yield None, list(match.intro_events)
        while not match.is_over:
            seat = match.current_player
            legal = match.legal_actions()
            yield seat, match.apply(legal[rng.below(len(legal))], seat)


def _first_feat(game: str, players: int) -> tuple[int | None, dict[str, Any], set[int]]:
    feat = descriptor(game).feat
    for seat, events in _events_of_matches(game, players):
        for event in events:
            if event.get("type") == feat.event:
                seats = set(feat.seats(event))
                if seats:
                    return seat, event, seats
    raise AssertionError(f"no {feat.code} in {SEEDS} random matches of {game}")


def test_every_game_has_a_feat_and_games_sharing_one_share_its_words():
    feats = {d.slug: d.feat for d in descriptors()}
    assert all(feats.values()), [g for g, f in feats.items() if f is None]
    by_code: dict[str, list] = {}
    for feat in feats.values():
        by_code.setdefault(feat.code, []).append(feat)
    assert sorted(by_code) == ["basa", "five_brights", "gwangttaeng_38", "hand_hiki"]
    for same in by_code.values():
        assert len({(f.mark, f.name, f.earned_by, f.event) for f in same}) == 1


@pytest.mark.parametrize("game, slug", [("koikoi", "goko"), ("gostop", "ogwang"),
                                        ("mushi", "goko"), ("hana_awase", "goko")])
def test_five_brights_is_the_games_own_yaku_of_them(game, slug):
    assert slug in for_game(game).yaku_names
    entry = [slug, 10, "crane", "curtain", "moon", "rainman", "phoenix"]
    won = {"type": "round_over", "winner": 1, "detail": {"yaku": [entry]}}
    assert set(descriptor(game).feat.seats(won)) == {1}
    other = {"type": "round_over", "winner": 1, "detail": {"yaku": [["tane", 1, "boar"]]}}
    assert not set(descriptor(game).feat.seats(other))


def test_a_hand_hiki_is_the_seat_that_played_it():
    seat, event, seats = _first_feat("shedding", 2)
    assert seats == {seat} and event["player"] == seat and len(event["cards"]) == 4


def test_a_basa_is_the_side_that_won_the_round_by_a_hundred():
    _, event, seats = _first_feat("sakura", 2)
    assert seats == {event["winner"]} and event["detail"]["margin"] >= 100
    scores = event["detail"]["scores"]
    assert all(scores[event["winner"]] - s >= 100 for i, s in enumerate(scores) if i not in seats)


def test_a_basa_in_teams_is_the_whole_winning_team():
    module = game_module("sakura")
    rules = module.Rules(teams="pairs")
    for seed in range(SEEDS):
        match = module.new_match(4, rules, seed)
        rng = Rng(seed)
        while not match.is_over:
            seat = match.current_player
            legal = match.legal_actions()
            for event in match.apply(legal[rng.below(len(legal))], seat):
                if event.get("type") == "round_over":
                    seats = set(descriptor("sakura").feat.seats(event))
                    if seats:
                        side = next(s for s in event["detail"]["sides"] if event["winner"] in s)
                        assert seats == set(side) and len(seats) == 2
                        return
    raise AssertionError("no basa in teams")


def test_38_gwang_ttaeng_is_the_seat_showing_the_march_and_august_brights():
    _, event, seats = _first_feat("seotda", 4)
    for seat in seats:
        assert sorted(event["hands"][str(seat)]["cards"]) == ["curtain", "moon"]
    assert all(h["hand"] != "gwangttaeng_38" for s, h in event["hands"].items() if int(s) not in seats)
