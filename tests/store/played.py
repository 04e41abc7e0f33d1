"""Real games for tests of whole databases: played by the engine from a seed with random legal
moves, so that a checkup replays and resumes them as it would the bot's own."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.games import game_module
from bot.store import SeatResult, Store
from bot.tables import STATE_VERSION, Table


@dataclass(frozen=True)
class Played:
    game: str
    players: list[int | str]
    rules: dict[str, Any]
    seed: int
    actions: list[tuple[int | str, str, list[dict]]]  # (actor, action, events) in order
    state_json: str  # the table's state after the last action, as the bot stores it
    scores: list[int]
    over: bool

    def results(self) -> list[SeatResult]:
        best = max(self.scores)
        return [SeatResult(seat, points, "won" if points == best else "lost")
                for seat, points in enumerate(self.scores)]


def play(players: list[int | str], seed: int, *, moves: int | None = None,
         game: str = "koikoi", rules: dict[str, Any] | None = None) -> Played:
    """A match of ``game`` played to its end (or ``moves`` actions) with random legal moves."""
    module = game_module(game)
    rules_obj = module.Rules.from_dict(rules or {"rounds": 1})
    match = module.new_match(len(players), rules_obj, seed)
    table = Table(game_id=0, guild_id=1, channel_id=1, game=game, players=list(players),
                  names=[f"Player {i + 1}" for i in range(len(players))], host_id=1, stake=0,
                  match=match, timeouts=[0] * len(players))
    rng = random.Random(seed)
    actions = []
    while not match.is_over and (moves is None or len(actions) < moves):
        seat = match.current_player
        action = rng.choice(match.legal_actions())
        events = match.apply(action, seat)
        actions.append((players[seat], str(action), events))
    return Played(game, list(players), rules_obj.to_dict(), seed, actions, table.state_json(),
                  list(match.scores), match.is_over)


async def store_played(store: Store, guild_id: int, played: Played, *, stake: int = 0) -> int:
    """``played`` stored through the store as the bot stores a game (finished if it is over);
    its game id."""
    start = play(played.players, played.seed, moves=0, game=played.game, rules=played.rules)
    record = await store.create_game(guild_id, 55, played.game, rules=played.rules,
                                     players=played.players, seed=played.seed,
                                     state_json=start.state_json, state_version=STATE_VERSION,
                                     stake=stake)
    for seq, (actor, action, events) in enumerate(played.actions, 1):
        state = (played.state_json if seq == len(played.actions) else
                 play(played.players, played.seed, moves=seq, game=played.game,
                      rules=played.rules).state_json)
        await store.record_action(record.game_id, seq, actor, action, events, state, STATE_VERSION)
    if played.over:
        await store.finish_game(record.game_id, played.results())
    return record.game_id
