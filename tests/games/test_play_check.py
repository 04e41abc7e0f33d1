"""A hand card played in a fishing game is checked against the rule that makes the legal plays
(``FishingRound._play_choice``) instead of being looked up in a list of them. The check must
accept exactly the legal plays, play them exactly as the general path does, and refuse every
other play with the round left as it was: in every game whose plays are the shared ones, with
wild cards and without, and in Go-Stop, whose plays are the month rule's beside moves of its own
(jokers, shakes, bombs, draw-only turns)."""

from __future__ import annotations

import pytest

from bot.cards import DECK, indices_in
from bot.games import ENGINES, game_module
from bot.games.base import Action, GameError, RoundState
from bot.games.capture import PLAY, FishingRound
from bot.games.rng import Rng


def _direct_games() -> list[str]:
    games = []
    for game in ENGINES:
        module = game_module(game)
        state = module.new_round(num_players=module.PLAYERS[0], seed=1)
        if isinstance(state, FishingRound) and type(state)._plays_checked_directly:
            games.append(game)
    return games


DIRECT = _direct_games()
EXTRA_RULES = {  # the wild lightning's plays too; Go-Stop's jokers in hand and its bombs
    "koikoi": [{"lightning_wild": "on"}],
    "gostop": [{"jokers": 3}, {"small_bomb": "bomb", "bomb_mode": "skip_turns", "bomb_turns": 3}],
}


def _candidates(state: FishingRound) -> list[Action]:
    """Every play of a hand card, with and without each field card as its target, and plays of
    a few cards that are not in the hand."""
    hand = state.hands[state.current] & (1 << 48) - 1  # a Go-Stop joker is no play of its own
    cards = indices_in(hand) + [c for c in range(48) if not hand >> c & 1][:3]
    out = []
    for c in cards:
        out.append(Action.parse(f"play:{DECK[c].id}"))  # parsed: equal, not the kept object
        out += [Action.parse(f"play:{DECK[c].id}>{DECK[t].id}") for t in indices_in(state.field)]
    return out + [Action.parse("play:no_such_card"), Action.parse("play:joker_1")]


def test_the_shared_plays_are_checked_directly_in_these_games():
    assert {"koikoi", "mushi", "hana_awase", "gostop"} <= set(DIRECT)


@pytest.mark.parametrize("game", DIRECT)
def test_a_play_is_accepted_exactly_when_it_is_legal(game):
    module = game_module(game)
    rule_sets = [module.Rules.preset(p, rounds=1, target_score=0) for p in module.Rules.PRESETS]
    rule_sets += [rule_sets[0].replace(**extra) for extra in EXTRA_RULES.get(game, [])]
    checked = refused = beside = 0
    for rules in rule_sets:
        for seed in range(3):
            state = module.new_round(num_players=module.PLAYERS[0], rules=rules, seed=seed)
            rng = Rng(seed)
            while not state.is_over:
                legal = state.legal_actions()
                if state.phase == PLAY and state.hands[state.current]:
                    kept = {str(a) for a in legal}
                    beside += any(a.kind != "play" for a in legal)  # a joker, shake, bomb, draw
                    for action in _candidates(state):
                        trial = type(state).from_dict(state.to_dict())
                        before = trial.to_dict()
                        if str(action) in kept:
                            general = type(state).from_dict(before)
                            assert trial.apply(action) == RoundState.apply(general, action)
                            assert trial.to_dict() == general.to_dict()
                            checked += 1
                        else:
                            with pytest.raises(GameError):
                                trial.apply(action)
                            assert trial.to_dict() == before
                            refused += 1
                    other = (state.current + 1) % state.num_players
                    with pytest.raises(GameError):  # another seat's play of a legal card
                        type(state).from_dict(state.to_dict()).apply(legal[0], other)
                state.apply(legal[rng.below(len(legal))])
    assert checked > 100 and refused > 1000
    if game == "gostop":  # the check met turns with Go-Stop's own moves beside the plays
        assert beside > 5



def test_rollouts_make_their_own_legal_actions_without_a_second_check():
    """The search's rollouts skip apply's check for an action the round itself listed; the
    direct check of a play must not cost the fishing games that shortcut."""
    from bot.ai.search.player import checks_only

    for game in ENGINES:
        module = game_module(game)
        assert checks_only(module.new_round(num_players=module.PLAYERS[0], seed=1)), game
