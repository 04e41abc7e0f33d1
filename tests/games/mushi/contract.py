"""Engine-contract properties shared by the play-out games (Mushi, Hana-Awase).

Each check plays a random legal game from a seed and asserts one promise of the engine
contract of bot/games/base.py; the test modules run them under hypothesis.
"""

from __future__ import annotations

import json

import pytest

from bot.cards import DECK, indices_in
from bot.games.base import Action, GameError, IllegalAction, NotYourTurn
from bot.games.rng import Rng


def cards_in_play(state) -> int:
    total = sum(h.bit_count() for h in state.hands) + state.field.bit_count() + len(state.stock)
    total += sum(c.bit_count() for c in state.captured)
    return total + (state.pending is not None)


def random_playout(state, rng: Rng, on_step=None) -> list:
    """Play random legal actions to the end; returns every event."""
    events = []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "a seat to act always has a legal action"
        action = legal[rng.below(len(legal))]
        if on_step:
            on_step(state, action)
        events.extend(state.apply(action, state.current_player))
    return events


def check_cards_accounted(state, seed: int, deck_size: int) -> None:
    def step(s, _a):
        assert cards_in_play(s) == deck_size
    random_playout(state, Rng(seed), step)
    assert cards_in_play(state) == deck_size


def check_illegal_rejected(state, seed: int) -> None:
    rng = Rng(seed)
    while not state.is_over:
        before = json.dumps(state.to_dict(), sort_keys=True)
        legal = state.legal_actions()
        other = (state.current_player + 1) % state.num_players
        with pytest.raises(NotYourTurn):
            state.apply(legal[0], other)
        for bogus in (Action("play", "lightning", "crane"), Action("choose", "crane", "moon"),
                      Action("koikoi"), Action("draw"), Action("play", "pine_chaff_1")):
            if bogus not in legal:
                with pytest.raises(IllegalAction):
                    state.apply(bogus)
        assert json.dumps(state.to_dict(), sort_keys=True) == before
        state.apply(legal[rng.below(len(legal))])
    with pytest.raises(GameError):
        state.apply(Action("draw"))


def check_observations_hide_cards(state, seed: int) -> None:
    def step(s, _a):
        for seat in range(s.num_players):
            text = json.dumps(s.observation(seat))
            hidden = [i for p, h in enumerate(s.hands) if p != seat for i in indices_in(h)]
            hidden += s.stock
            shown_face_up = set(getattr(s, "face_up_ids", lambda: [])())
            for i in hidden:
                if DECK[i].id not in shown_face_up:
                    assert f'"{DECK[i].id}"' not in text, (seat, DECK[i].id)
    random_playout(state, Rng(seed), step)


def check_json_round_trip(state, seed: int, cut: int, round_cls) -> None:
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    copy = round_cls.from_dict(json.loads(json.dumps(state.to_dict())))
    rng_a, rng_b = Rng(seed + 1), Rng(seed + 1)
    events_a = random_playout(state, rng_a)
    events_b = random_playout(copy, rng_b)
    assert events_a == events_b
    assert state.to_dict() == copy.to_dict()


def check_reproducible(make, seed: int) -> None:
    a, b = make(seed), make(seed)
    assert a.to_dict() == b.to_dict()
    assert random_playout(a, Rng(seed)) == random_playout(b, Rng(seed))


def play_match(match, seed: int) -> list:
    rng = Rng(seed)
    events = []
    while not match.is_over:
        legal = match.legal_actions()
        events.extend(match.apply(legal[rng.below(len(legal))]))
    return events


def play_with(state, players: dict, rng: Rng) -> list[int]:
    """Play a round with AI players (seat -> player), checking each choice is legal."""
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        action = players[seat].choose(state.observation(seat), legal, rng)
        assert action in legal
        state.apply(action, seat)
    return state.result().points
