"""Random play of every engine, preset and player count, fingerprinted: the actions taken, every
event, what the player to act sees, and the final state of a few seeded rounds, hashed, for each way
of shuffling (``SHUFFLES``: stored games keep the one they were dealt with). Speed work on the
engines must leave every fingerprint as it is; a change of rules changes one on purpose and updates
it here, in the same commit, saying why."""

from __future__ import annotations

import hashlib
import json

import pytest

from bot.games import ENGINES, game_module
from bot.games.rng import SHUFFLES, Rng

ROUNDS = 6


def fingerprint(game: str, preset: str, players: int, shuffle: int) -> str:
    module = game_module(game)
    digest = hashlib.sha256()
    for seed in range(ROUNDS):
        rules = module.Rules.preset(preset, rounds=1, target_score=0)
        state = module.new_round(num_players=players, rules=rules, seed=seed, shuffle=shuffle)
        rng = Rng(seed + 7)
        while not state.is_over:
            legal = state.legal_actions()
            digest.update(json.dumps(state.observation(state.current_player), sort_keys=True,
                                     default=repr).encode())
            action = legal[rng.below(len(legal))]
            events = state.apply(action)
            digest.update(repr(action).encode())
            digest.update(json.dumps(events, sort_keys=True, default=repr).encode())
        digest.update(json.dumps(state.to_dict(), sort_keys=True, default=repr).encode())
        digest.update(json.dumps(state.result(), sort_keys=True, default=repr).encode())
    return digest.hexdigest()[:16]


def cases():
    for game in ENGINES:
        module = game_module(game)
        low, high = module.PLAYERS
        for preset in module.Rules.PRESETS:
            for players in sorted({low, high}):
                yield game, preset, players


# Dealt with shuffle 1, as every game stored before shuffle 2 was.
FINGERPRINTS: dict[tuple[str, str, int], str] = {
    ('koikoi', 'nintendo', 2): '5f00630dc8f74f98',
    ('koikoi', 'modern', 2): '0373f813ecab313d',
    ('koikoi', 'seed', 2): '7dbafb466a872812',
    ('koikoi', 'koikoi_japan', 2): '36b102df6f88aeb0',
    ('gostop', 'korean', 2): 'e8f1ec08c19bec50',
    ('gostop', 'korean', 3): 'd30879e07c8533c1',
    ('gostop', 'seed', 2): 'bbb190c15a320ff9',
    ('gostop', 'seed', 3): 'b9d8641dc9b746ac',
    ('mushi', 'fudawiki', 2): '93382e8d5a7a7f62',
    ('mushi', 'seed', 2): 'eaf0985246cabef6',
    ('sakura', 'hawaiian', 2): '542c365a47f7b207',
    ('sakura', 'hawaiian', 7): 'af1a0e2fc43ed72c',
    ('sakura', 'seed', 2): '133a325b0240422c',
    ('sakura', 'seed', 7): '88cc59429f8b479b',
    ('hana_awase', 'leaflet', 2): '4dcba64ff3bf98be',
    ('hana_awase', 'leaflet', 4): '128e33c38936ff0f',
    ('hana_awase', 'fudawiki', 2): '000d8cffe3a63c7b',
    ('hana_awase', 'fudawiki', 4): '4ae85173e9ef50a4',
    ('shedding', 'seed002', 2): '2c534598efd047ab',
    ('shedding', 'seed002', 5): 'fdfcfec17074b84e',
    ('shedding', 'seed002_batsu', 2): '10a3f6b39cbf7f82',
    ('shedding', 'seed002_batsu', 5): '5e84d75b9d7b7fb1',
    ('seotda', 'two_card', 2): '42febbba5301c2d9',
    ('seotda', 'two_card', 6): 'dbe52edd9d01d127',
    ('seotda', 'three_card', 2): '1ea0a23d8342a17c',
    ('seotda', 'three_card', 6): 'fa185043d3e7df5b',
}


# Dealt with shuffle 2, as every new game is.
FINGERPRINTS_SHUFFLE_2: dict[tuple[str, str, int], str] = {
    ('koikoi', 'nintendo', 2): '27655e9833fe969f',
    ('koikoi', 'modern', 2): '3a26924cdae3ec54',
    ('koikoi', 'seed', 2): '679ecf0c0d006aa0',
    ('koikoi', 'koikoi_japan', 2): 'e3e730ffb3a316ae',
    ('gostop', 'korean', 2): 'e7b19b55b6aa605a',
    ('gostop', 'korean', 3): '30369a56d23305c7',
    ('gostop', 'seed', 2): '3e2eef8fb5920f6f',
    ('gostop', 'seed', 3): '8c2a3fc68fdc5a81',
    ('mushi', 'fudawiki', 2): '79f97fa710aae623',
    ('mushi', 'seed', 2): 'c3b8d8fe69d5acfe',
    ('sakura', 'hawaiian', 2): '8d31dfc08640b944',
    ('sakura', 'hawaiian', 7): '9c1a4245fef4dc56',
    ('sakura', 'seed', 2): 'ae9e227988415104',
    ('sakura', 'seed', 7): '008c1649de080d19',
    ('hana_awase', 'leaflet', 2): '9324278ad3024613',
    ('hana_awase', 'leaflet', 4): '67e8902a70abbaba',
    ('hana_awase', 'fudawiki', 2): 'b784f76ac70b065d',
    ('hana_awase', 'fudawiki', 4): '3beaeeb0799b1ce7',
    ('shedding', 'seed002', 2): '2d630c55a7409655',
    ('shedding', 'seed002', 5): 'c73fb57b48acde1c',
    ('shedding', 'seed002_batsu', 2): '3feb8f3517c7f030',
    ('shedding', 'seed002_batsu', 5): 'a15e78f707aa5017',
    ('seotda', 'two_card', 2): '5e40b81a29c31912',
    ('seotda', 'two_card', 6): 'ba56d9d88071e53d',
    ('seotda', 'three_card', 2): 'b91c457016fcc54b',
    ('seotda', 'three_card', 6): '9c80323b46e9080e',
}
BY_SHUFFLE = {1: FINGERPRINTS, 2: FINGERPRINTS_SHUFFLE_2}


def test_every_shuffle_is_pinned():
    assert set(BY_SHUFFLE) == set(SHUFFLES)


@pytest.mark.parametrize("shuffle", SHUFFLES)
@pytest.mark.parametrize(("game", "preset", "players"), list(cases()))
def test_random_play_is_unchanged(game, preset, players, shuffle):
    assert fingerprint(game, preset, players, shuffle) == BY_SHUFFLE[shuffle][game, preset, players]
