"""The AI never sees what its seat may not see.

At decision points of real matches, every card the deciding seat cannot see (the other hands,
the stock or draw pile; cards a rule has shown, like a Go-Stop shake or Hana-Awase's exposed
chaff, stay where they are) is shuffled among those places, and every AI level of every game is
asked again, with the same random stream, the way the table manager asks it
(:func:`bot.tables.choose_action` on the seat's observation and the legal moves). The seat's
observation, its legal moves and the decision must all be the same: a difference is a leak.
"""

from __future__ import annotations

import random

import pytest

from bot.ai.search import LEVELS as SEARCH_BUDGETS
from bot.cards import MONTH_MASKS
from bot.games import GAMES, game_module
from bot.games.capture import FishingRound
from bot.tables import AI_LEVELS, choose_action

# Decision points asked per game and level: the searching levels take up to seconds a decision.
POINTS = {"random": 30, "greedy": 30, "hard": 4, "expert": 2}


def _cards(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _shown_in_hand(state, seat: int) -> int:
    """The cards of ``seat``'s hand that a rule has shown to everyone."""
    shown = 0
    for month in getattr(state, "shaken", [[]] * (seat + 1))[seat]:  # Go-Stop's shakes
        shown |= state.hands[seat] & MONTH_MASKS[month]
    exposed = getattr(state, "exposed", None)  # Hana-Awase's teyaku chaff
    if exposed:
        shown |= exposed[seat]
    return shown


def hidden_shuffled(state, seat: int, rng: random.Random):
    """A copy of the round in which the cards ``seat`` cannot see have changed places."""
    copy = state.clone()
    if state.GAME == "seotda":
        hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
        moved = list(hidden)
        rng.shuffle(moved)
        new = dict(zip(hidden, moved, strict=True))
        for s, hand in enumerate(state.hands):
            if s != seat:
                copy.hands[s] = [new[c] for c in hand]
                if state.kept[s]:
                    copy.kept[s] = [new[c] for c in state.kept[s]]
        copy.stock = [new[c] for c in state.stock]
        return copy
    pile = "stock" if isinstance(state, FishingRound) else "draw"
    others = [s for s in range(len(state.hands)) if s != seat]
    pool = [c for s in others for c in _cards(state.hands[s] & ~_shown_in_hand(state, s))]
    pool += list(getattr(state, pile))
    rng.shuffle(pool)
    for s in others:
        shown = state.hands[s] & _shown_in_hand(state, s)
        size = state.hands[s].bit_count() - shown.bit_count()
        copy.hands[s] = shown | sum(1 << c for c in pool[:size])
        pool = pool[size:]
    setattr(copy, pile, pool)
    return copy


def _points(game: str, wanted: int, rng: random.Random):
    """(match, seat) at decision points spread over a few matches of every preset, played at
    random."""
    module = game_module(game)
    low, high = module.PLAYERS
    presets = sorted(module.Rules.PRESETS)
    found = 0
    for number in range(200):
        rules = module.Rules.preset(presets[number % len(presets)])
        try:
            match = module.new_match(low + number % (high - low + 1), rules, 7919 * number + 11)
        except ValueError:  # a preset that seats other numbers of players (Sakura's teams)
            continue
        moves = 0
        while not match.is_over and moves < 400:
            seat = match.current_player
            legal = match.legal_actions()
            if seat is not None and len(legal) > 1 and rng.random() < 0.15:
                yield match, seat
                found += 1
                if found == wanted:
                    return
            match.apply(legal[rng.randrange(len(legal))])
            moves += 1


@pytest.fixture
def steady_search(monkeypatch):
    """The searching levels with their rollout budgets but no wall-clock cap, so that a busy
    machine cannot cut two identical searches at different points."""
    for budget in SEARCH_BUDGETS.values():
        monkeypatch.setitem(budget, "seconds", None)


@pytest.mark.parametrize("level", sorted(set(AI_LEVELS.values())))
@pytest.mark.parametrize("game", GAMES)
def test_the_ai_decides_the_same_whatever_the_hidden_cards(game, level, steady_search):
    rng = random.Random(f"{game} {level}")
    asked = moved = 0
    for match, seat in _points(game, POINTS[level], rng):
        real = match.round
        obs = match.observation(seat)
        legal = [str(a) for a in match.legal_actions()]
        match.round = hidden_shuffled(real, seat, rng)
        try:
            moved += match.round.to_dict() != real.to_dict()
            shuffled_obs = match.observation(seat)
            shuffled_legal = [str(a) for a in match.legal_actions()]
        finally:
            match.round = real
        assert shuffled_legal == legal, f"{game}: the legal moves depend on hidden cards"
        leaked = sorted(k for k in obs if obs[k] != shuffled_obs.get(k))
        assert not leaked, f"{game}: the observation shows hidden cards in {leaked}"
        seed = rng.getrandbits(63)
        decided = choose_action(level, game, obs, legal, seed)
        assert choose_action(level, game, shuffled_obs, shuffled_legal, seed) == decided
        asked += 1
    assert asked == POINTS[level]
    assert moved, "the hidden cards changed places at some decision point"
