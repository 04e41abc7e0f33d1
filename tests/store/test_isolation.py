"""Per-server isolation: one guild never sees another's balances, boards, games or settings."""

from __future__ import annotations

import pytest

from bot.store import InsufficientFunds, SeatResult, UnknownAccount, UnknownGame

from .conftest import ALICE, BOB, GUILD, OTHER_GUILD


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
    with pytest.raises(InsufficientFunds, match="ryo"):
        await store.transfer(OTHER_GUILD, ALICE, BOB, 1500, key="x")

    game = await store.create_game(GUILD, 3, "koikoi", rules={}, players=[ALICE, BOB], seed=1,
                                   state_json="{}", state_version=1, stake=100)
    await store.finish_game(game.game_id, [SeatResult(0, 9, "won"), SeatResult(1, 0, "lost")])
    assert await store.list_running_games(OTHER_GUILD) == []
    with pytest.raises(UnknownGame):
        await store.load_game(game.game_id, guild_id=OTHER_GUILD)

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
