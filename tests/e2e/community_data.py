"""Test data for the community commands: games stored exactly as the bot stores them.

``play_game`` plays a whole match with the greedy AI on every seat and writes it through the
store the way :mod:`bot.tables` does (create with the names in the state, one ``record_action``
per move, ``finish_game`` with the match verdict), so replays, exports and statistics read real
records without clicking through every move.
"""

from __future__ import annotations

import json

from bot.ai import make_player
from bot.games import game_module
from bot.games.rng import Rng
from bot.store import SeatResult
from tests.e2e.test_koikoi_bot import make_bot


async def start_hbot(start_bot, standin, world, tmp_path):
    """The real bot connected to the stand-in, with quick AI turns."""
    bot = await start_bot(make_bot(standin, tmp_path / "bot.sqlite3", world.guild.id))
    bot.tables.ai_delay = 0.01
    return bot


def embed(message) -> dict:
    return message.embeds[0]


def field(message, name) -> str:
    return next(f["value"] for f in embed(message)["fields"] if f["name"] == name)


def pager_ids(message) -> dict[str, str]:
    """Custom ids of a message's buttons by their last part (p, n, m, f, l)."""
    return {c.rsplit(":", 1)[1]: c for c in message.custom_ids()}


def only_private(record) -> bool:
    """The bot answered, and only privately (ephemeral) to the user who asked."""
    return bool(record.messages) and all(
        m.ephemeral and m.ephemeral_for.id == record.user.id for m in record.messages)


def assert_guild_only(command: dict) -> None:
    assert command.get("contexts") == [0] and command.get("integration_types") == [0], command


def assert_anywhere(command: dict) -> None:
    """A player's command, offered through a user's install in DMs and group DMs too."""
    assert sorted(command.get("contexts")) == [0, 1, 2], command
    assert sorted(command.get("integration_types")) == [0, 1], command


async def play_game(store, guild_id, game, players, names, *, seed=7, rounds=1, stake=0,
                    finish=True, channel_id=5):
    module = game_module(game)
    rules = module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=rounds)
    match = module.new_match(len(players), rules, seed)

    def state() -> str:
        return json.dumps({"match": match.to_dict(), "names": names, "host_id": 0,
                           "hand_messages": {}, "dm_failed": [], "timeouts": [0] * len(players),
                           "log": []})

    record = await store.create_game(guild_id, channel_id, game, rules=rules.to_dict(),
                                     players=players, seed=seed, state_json=state(),
                                     state_version=1, stake=stake)
    bots = [make_player("greedy", game) for _ in players]
    rng = Rng(seed)
    seq = 0
    while not match.is_over:
        seat = match.current_player
        action = bots[seat].choose(match.observation(seat), match.legal_actions(), rng)
        events = match.apply(action, seat)
        seq += 1
        actor = players[seat]
        await store.record_action(record.game_id, seq, actor, str(action), events, state(), 1)
        if not finish and seq >= 6:
            break
    if finish:
        best = max(match.scores)
        top = [s for s, v in enumerate(match.scores) if v == best]
        results = [SeatResult(s, v, ("draw" if len(top) > 1 else "won") if s in top else "lost")
                   for s, v in enumerate(match.scores)]
        await store.finish_game(record.game_id, results, state_json=state(), state_version=1)
    return record.game_id, match


async def finish_quick(store, guild_id, game, players, outcomes, points=None):
    """A finished game without moves (enough for boards and ratings)."""
    record = await store.create_game(guild_id, 5, game, rules={}, players=players, seed=1,
                                     state_json="{}", state_version=1)
    points = points or [10 if o == "won" else 0 for o in outcomes]
    await store.finish_game(record.game_id, [SeatResult(s, p, o) for s, (o, p)
                                             in enumerate(zip(outcomes, points, strict=True))])
    return record.game_id


async def turn_page(standin, user, message, custom_id, shows):
    """Press a board's page button and return the message once it ``shows(message)``: the
    bot acknowledges the press first and redraws the page's image in its workers."""
    await user.click(message, custom_id)

    def shown():
        now = standin.message(message)
        return now if shows(now) else None

    return await standin.wait_for(shown, f"the page after {custom_id}",
                                  channels=[message.channel])


def footer_has(text):
    """A message whose embed's footer contains ``text``."""
    return lambda message: text in embed(message)["footer"]["text"]
