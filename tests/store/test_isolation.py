"""Per-server isolation: one guild never sees another's balances, boards, games or settings."""

from __future__ import annotations

import pytest

from bot.store import (
    EVERY_SERVER,
    InsufficientFunds,
    InvalidInput,
    Scope,
    SeatResult,
    UnknownAccount,
    UnknownGame,
)
from bot.store.tournaments import TournamentError

from .conftest import ALICE, BOB, GUILD, OTHER_GUILD
from .refusals import refused


async def test_guilds_are_separate_worlds(store):
    for guild in (GUILD, OTHER_GUILD):
        for user in (ALICE, BOB):
            await store.open_account(guild, user)
    await store.update_settings(OTHER_GUILD, currency_name="ryo", daily_amount=5)
    await store.grant(GUILD, ALICE, 500, key="same-key", actor=1, reason="prize")
    # the same caller key in another server is another request, not a replay
    other = await store.grant(OTHER_GUILD, ALICE, 7, key="same-key", actor=1, reason="prize")
    assert not other.replayed
    assert await store.balance(GUILD, ALICE) == 1500
    assert await store.balance(OTHER_GUILD, ALICE) == 1007
    assert (await store.claim_daily(OTHER_GUILD, BOB)).amount == 5
    assert (await store.claim_daily(GUILD, BOB)).amount == 100  # the same day, another server

    with pytest.raises(UnknownAccount):
        await store.balance(OTHER_GUILD + 1, ALICE)
    with refused(InsufficientFunds, "ryo"):
        await store.transfer(OTHER_GUILD, ALICE, BOB, 1500, key="x")

    game = await store.create_game(GUILD, 3, "koikoi", rules={}, players=[ALICE, BOB], seed=1,
                                   state_json="{}", state_version=1, stake=100)
    await store.finish_game(game.game_id, [SeatResult(0, 9, "won"), SeatResult(1, 0, "lost")])
    assert await store.list_running_games(OTHER_GUILD) == []
    with pytest.raises(UnknownGame):
        await store.load_game(game.game_id, scope=OTHER_GUILD)

    assert (await store.leaderboard(OTHER_GUILD, "wins")).rows == []
    assert (await store.leaderboard(OTHER_GUILD, "rating", game="koikoi")).total == 0
    chips = await store.leaderboard(OTHER_GUILD, "chips")
    assert {r.user_id: r.value for r in chips.rows} == {ALICE: 1007, BOB: 1005}
    assert await store.user_rank(OTHER_GUILD, ALICE, "wins") is None
    assert (await store.user_rank(GUILD, ALICE, "wins")).value == 1
    assert all(line.game_id is None for line in await store.history(OTHER_GUILD, ALICE))
    assert (await store.get_settings(GUILD)).currency_name == "chips"
    report = await store.audit()
    assert report.ok and report.issued == 2 * 1000 + 500 + 100 + 2 * 1000 + 7 + 5


async def test_every_record_read_names_whose_records_it_may_see(store):
    """A read without a scope is refused, never widened to every server; a press from a
    server reads that server's records, one from a direct message only the presser's own."""
    played = await store.create_game(GUILD, 3, "koikoi", rules={}, players=[ALICE, "ai:easy"],
                                     seed=1, state_json="{}", state_version=1)
    elsewhere = await store.create_game(OTHER_GUILD, 4, "koikoi", rules={}, players=[BOB, ALICE],
                                        seed=1, state_json="{}", state_version=1)
    for read in (lambda: store.load_game(played.game_id, scope=None),
                 lambda: store.list_running_games(None),
                 lambda: store.load_game(played.game_id)):
        with pytest.raises((InvalidInput, TypeError)):
            await read()

    here, dm_alice, dm_bob = (Scope.press(GUILD, BOB), Scope.press(None, ALICE),
                              Scope.press(None, BOB))
    assert (await store.load_game(played.game_id, scope=here)).guild_id == GUILD
    with pytest.raises(UnknownGame):  # a server's press never reads another server's game
        await store.load_game(elsewhere.game_id, scope=here)
    assert (await store.load_game(elsewhere.game_id, scope=dm_alice)).players == [BOB, ALICE]
    with pytest.raises(UnknownGame):  # from a DM, only a game the presser sat at
        await store.load_game(played.game_id, scope=dm_bob)
    assert [g.game_id for g in await store.list_running_games(here)] == [played.game_id]
    assert [g.game_id for g in await store.list_running_games(dm_bob)] == [elsewhere.game_id]
    assert [g.game_id for g in await store.list_running_games(dm_alice)] == \
        [played.game_id, elsewhere.game_id]
    assert len(await store.list_running_games(EVERY_SERVER)) == 2

    cup = await store.create_tournament(GUILD, 3, created_by=ALICE, game="koikoi", format="swiss",
                                        rules={"rounds": 1}, fee=0, key="cup")
    await store.join_tournament(cup.tournament_id, GUILD, ALICE, "alice")
    assert (await store.tournament(cup.tournament_id, scope=dm_alice)).guild_id == GUILD
    for outsider in (dm_bob, Scope.press(OTHER_GUILD, ALICE)):
        with pytest.raises(TournamentError):
            await store.tournament(cup.tournament_id, scope=outsider)
    with pytest.raises(InvalidInput):
        await store.tournament(cup.tournament_id, scope=None)
    assert await store.signed_up_tournaments(dm_alice) == [(cup.tournament_id, GUILD, "koikoi",
                                                            "open")]
    assert await store.signed_up_tournaments(Scope.press(OTHER_GUILD, ALICE)) == []
