"""Shards: which guilds a process serves, how it is told (settings, command line), and the log
lines that name a shard and a game."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from bot import logcontext
from bot.__main__ import _parser
from bot.config import ConfigError, load_settings
from bot.shards import ShardPlan, parse_shards, shard_of

URL = "postgresql://bot@db/hanafuda"


def guild_on(shard: int, count: int) -> int:
    """A guild id Discord's formula puts on ``shard`` of ``count`` (1, 2, 4 or 8 here)."""
    assert 8 % count == 0
    return ((8_000_000 + shard) << 22) | 12345


def test_discords_formula_puts_a_guild_on_a_shard():
    assert shard_of(81384788765712384, 1) == 0
    assert shard_of(81384788765712384, 8) == (81384788765712384 >> 22) % 8
    assert [shard_of(guild_on(s, 8), 8) for s in range(8)] == list(range(8))


@pytest.mark.parametrize(("text", "ids"), [("0-3", (0, 1, 2, 3)), ("5", (5,)),
                                           ("0-1, 4,6-7", (0, 1, 4, 6, 7)), ("3,1,1", (1, 3))])
def test_shard_ranges_are_read_as_people_write_them(text, ids):
    assert parse_shards(text) == ids


@pytest.mark.parametrize(("text", "why"), [("a", "not a shard number"), ("3-1", "backwards"),
                                           ("0-", "not a shard number"), ("5000", "beyond")])
def test_a_malformed_range_says_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why):
        parse_shards(text)


def test_a_process_owns_the_guilds_of_its_shards_and_shard_0_the_direct_messages():
    plan = ShardPlan((0, 1, 2, 3), 8)
    assert [plan.owns(guild_on(s, 8)) for s in range(8)] == [True] * 4 + [False] * 4
    assert plan.owns(None) and not ShardPlan((4, 5, 6, 7), 8).owns(None)
    assert not plan.whole and plan.describe() == "shards 0-3 of 8"
    assert ShardPlan((0, 2, 3, 5), 8).describe() == "shards 0,2-3,5 of 8"
    every = ShardPlan()
    assert every.whole and every.owns(guild_on(5, 8)) and every.shard_of(guild_on(5, 8)) == 0
    assert ShardPlan(tuple(range(4)), 4).whole


def test_each_process_takes_its_shards_share_of_the_bots_rest_limit():
    from bot.discord_ui.delivery import GLOBAL_RATE, RestBudget

    assert ShardPlan().share == 1.0 and ShardPlan((0, 1, 2, 3), 4).share == 1.0
    budgets = [RestBudget.share_of_the_bot(ShardPlan(ids, 8).share) for ids in ((0, 1, 2), (3, 4, 5, 6, 7))]
    assert sum(b.rate for b in budgets) == GLOBAL_RATE
    assert RestBudget.share_of_the_bot(1 / 64).burst == 1.0  # never below one request at a time


@pytest.mark.parametrize(("ids", "count", "why"), [((0,), None, "shard count"),
                                                    ((0, 8), 8, "shard 8 does not exist"),
                                                    ((), 8, "empty"), (None, 0, "from 1")])
def test_an_impossible_plan_is_refused(ids, count, why):
    with pytest.raises(ValueError, match=why):
        ShardPlan(ids, count)


def test_the_settings_name_the_shards_and_a_split_bot_needs_a_shared_database():
    settings = load_settings(env={"SHARDS": "4-7", "SHARD_COUNT": "8", "DATABASE_URL": URL},
                             dotenv=None, require_token=False)
    assert settings.shards == ShardPlan((4, 5, 6, 7), 8)
    assert load_settings(env={"SHARD_COUNT": "2"}, dotenv=None, require_token=False).shards.whole
    for env, why in (({"SHARDS": "0-3"}, "needs SHARD_COUNT"),
                     ({"SHARDS": "0-3", "SHARD_COUNT": "eight"}, "whole number"),
                     ({"SHARDS": "0-9", "SHARD_COUNT": "8", "DATABASE_URL": URL}, "does not exist"),
                     ({"SHARDS": "0-3", "SHARD_COUNT": "8"}, "DATABASE_URL")):
        with pytest.raises(ConfigError, match=why):
            load_settings(env=env, dotenv=None, require_token=False)


def test_the_command_line_names_the_shards_too():
    args = _parser().parse_args(["--shards", "0-3", "--shard-count", "8"])
    assert (args.shards, args.shard_count) == ("0-3", "8")
    args = _parser().parse_args(["run", "--shards", "2"])
    assert args.shards == "2" and not hasattr(args, "shard_count")  # SHARD_COUNT then


def test_log_lines_name_their_shard_and_game():
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logcontext.install(handler)
    logger = logging.getLogger("tests.shards")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logcontext.set_shard_of(lambda guild_id: ShardPlan((0, 1), 2).shard_of(guild_id))
    try:
        table = SimpleNamespace(game_id=42, guild_id=guild_on(1, 2), shard_key=guild_on(1, 2))
        logcontext.table_context(table).run(logger.info, "a table's line")
        # a guest place's game: kept under its channel's id, driven by its server's shard
        guest = SimpleNamespace(game_id=43, guild_id=guild_on(1, 2), shard_key=guild_on(0, 2))
        logcontext.table_context(guest).run(logger.info, "a guest table's line")
        private = SimpleNamespace(game_id=44, guild_id=guild_on(1, 2), shard_key=None)  # a DM's
        logcontext.table_context(private).run(logger.info, "a DM table's line")
        logger.info("a line of no game")
        interaction = SimpleNamespace(guild=SimpleNamespace(shard_id=3))

        def in_interaction():
            logcontext.at_interaction(interaction)
            logger.info("an interaction's line")

        import contextvars
        contextvars.copy_context().run(in_interaction)
    finally:
        logger.removeHandler(handler)
    assert [r.where for r in records] == ["[shard 1 game 42] ", "[shard 0 game 43] ", "[shard 0 game 44] ",
                                          "", "[shard 3] "]
