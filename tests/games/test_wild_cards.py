"""A fishing game asks its capture hooks only about its ``wild_cards``; every other card is
captured by the month rule without a hook being called. So in every position a game reaches, a
card outside that set must capture exactly as the month rule says, from the hand and from the
stock: the hooks, asked anyway, agree. And a class that changes the hooks without naming its
wild cards is asked about every card."""

from __future__ import annotations

from bot.cards import MONTH_OF
from bot.games import ENGINES, game_module
from bot.games.capture import BY_MONTH, EVERY_CARD, FishingRound
from bot.games.mushi.lightning import LIGHTNING_BIT, WildLightning
from bot.games.rng import Rng

EXTRA_RULES = {  # the options that make more cards wild
    "koikoi": [{"lightning_wild": "on"}],
    "hana_awase": [{"wild_lightning": True, "teyaku": True}, {"teyaku": True}],
    "sakura": [{"gaji": "off"}],
}


def _agrees_with_the_month_rule(state: FishingRound, c: int) -> bool:
    field = state.field
    month = field & MONTH_OF[c]
    for from_hand in (True, False):
        if state._matches(field, c, from_hand) != month or state._capture_rule(c, from_hand) != BY_MONTH:
            return False
        if state._needs_choice(c, month, from_hand) != (month.bit_count() == 2):
            return False
    return True


def _fishing_games() -> list[str]:
    return [g for g in ENGINES if isinstance(game_module(g).new_round(seed=1), FishingRound)]


def test_every_card_outside_the_wild_set_captures_by_the_month_rule():
    seen = {"lightning on the field, wild": 0, "hand cards shown": 0}
    for game in _fishing_games():
        module = game_module(game)
        base = [module.Rules.preset(p, rounds=1, target_score=0) for p in module.Rules.PRESETS]
        rule_sets = base + [base[0].replace(**extra) for extra in EXTRA_RULES.get(game, [])]
        for rules in rule_sets:
            for players in range(module.PLAYERS[0], module.PLAYERS[1] + 1):
                for seed in range(12):
                    state = module.new_round(num_players=players, rules=rules, seed=seed)
                    rng = Rng(seed)
                    while not state.is_over:
                        wild = state.wild_cards
                        for c in range(48):
                            if not wild >> c & 1:
                                assert _agrees_with_the_month_rule(state, c), (game, rules, seed, c)
                        if isinstance(state, WildLightning) and state.field & LIGHTNING_BIT \
                                and state._lightning_wild():
                            seen["lightning on the field, wild"] += 1
                        if any(getattr(state, "exposed", ())):
                            seen["hand cards shown"] += 1
                        legal = state.legal_actions()
                        state.apply(legal[rng.below(len(legal))])
    assert all(seen.values()), seen  # the positions where the sets widen were reached


class _Named(FishingRound):
    wild_cards = LIGHTNING_BIT

    def _matches(self, field: int, card: int, from_hand: bool) -> int:
        return field


class _MoreHooks(_Named):
    def _capture_rule(self, card: int, from_hand: bool) -> str:
        return BY_MONTH


class _NoNewHooks(_Named):
    pass


class _Mixin:
    wild_cards = 1

    def _matches(self, field: int, card: int, from_hand: bool) -> int:
        return field


class _WithMixin(_Mixin, FishingRound):
    pass


class _HooksUnnamed(FishingRound):
    def _is_wild_choice(self, card: int) -> bool:
        return True


def test_hooks_changed_below_the_class_that_named_the_wild_cards_are_asked_about_every_card():
    assert _Named.wild_cards == LIGHTNING_BIT
    assert _MoreHooks.wild_cards == EVERY_CARD  # its own hook: the base's set does not cover it
    assert _NoNewHooks.wild_cards == LIGHTNING_BIT
    assert _WithMixin.wild_cards == 1  # a mixin it adds names the cards of the hooks it brings
    assert _HooksUnnamed.wild_cards == EVERY_CARD
    assert FishingRound.wild_cards == 0
