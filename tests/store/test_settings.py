"""Per-server settings: defaults, validation, house rules per game, stake policy."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_ui.errors import sentence
from bot.store import GuildSettings, InvalidSetting, Store, StoreUnavailable

from .conftest import GUILD, OTHER_GUILD
from .faults import corrupt_table


async def test_defaults_until_changed(store):
    s = await store.get_settings(GUILD)
    assert s == GuildSettings(guild_id=GUILD)
    assert (s.turn_timeout_s, s.hand_delivery, s.starting_chips, s.daily_amount) == (
        120, "dm", 1000, 100)
    assert s.may_start_staked(is_manager=False)


async def test_update_and_house_rules(store):
    s = await store.update_settings(GUILD, turn_timeout_s=60, hand_delivery="ephemeral",
                                    currency_name="  mon  ", stake_policy="role",
                                    stake_role_id=555)
    assert (s.turn_timeout_s, s.hand_delivery, s.currency_name) == (60, "ephemeral", "mon")
    assert s.may_start_staked(is_manager=False, role_ids=[555])
    assert not s.may_start_staked(is_manager=False, role_ids=[1])
    await store.set_house_rules(GUILD, "koikoi", {"preset": "nintendo", "rounds": 12})
    await store.set_house_rules(GUILD, "mushi", {"wild_lightning": False})
    loaded = await store.get_settings(GUILD)
    assert loaded.rules_for("koikoi") == {"preset": "nintendo", "rounds": 12}
    assert loaded.rules_for("gostop") == {}
    assert loaded.turn_timeout_s == 60
    await store.set_house_rules(GUILD, "koikoi", None)
    assert set((await store.get_settings(GUILD)).house_rules) == {"mushi"}
    managers = await store.update_settings(GUILD, stake_policy="managers")
    assert managers.stake_role_id is None
    assert managers.may_start_staked(is_manager=True)
    assert not managers.may_start_staked(is_manager=False, role_ids=[555])
    nobody = await store.update_settings(GUILD, stake_policy="nobody")
    assert not nobody.may_start_staked(is_manager=True)


@pytest.mark.parametrize("changes", [
    dict(turn_timeout_s=5), dict(turn_timeout_s=120.0), dict(hand_delivery="email"),
    dict(starting_chips=-1), dict(daily_amount=10**13), dict(currency_name=""),
    dict(currency_name="x" * 33), dict(stake_policy="admins"), dict(stake_policy="role"),
    dict(stake_role_id=5), dict(house_rules={"koikoi": 3}), dict(house_rules={"k": {"x": {1}}}),
    dict(guild_id=5), dict(colour="red"), dict(hints="no"), dict(hints=0),
])
async def test_bad_settings_are_refused_and_nothing_changes(store, changes):
    with pytest.raises(InvalidSetting) as info:
        await store.update_settings(GUILD, **changes)
    assert sentence(info.value)
    assert await store.get_settings(GUILD) == GuildSettings(guild_id=GUILD)


async def test_hints_are_on_until_a_server_turns_them_off(tmp_path, clock):
    path = tmp_path / "hints.sqlite3"
    async with await Store.open(path, clock=clock) as first:
        assert (await first.get_settings(GUILD)).hints
        assert first.settings_now(GUILD).hints  # read at the start: known without a query
        assert not (await first.update_settings(GUILD, hints=False)).hints
        assert first.settings_now(GUILD).hints is False
    async with await Store.open(path, clock=clock) as again:
        assert again.settings_now(GUILD).hints is False
        assert again.settings_now(OTHER_GUILD).hints


async def test_settings_stored_before_are_known_from_the_start(tmp_path, clock):
    path = tmp_path / "kept.sqlite3"
    async with await Store.open(path, clock=clock) as first:
        await first.update_settings(GUILD, currency_name="ryo", turn_timeout_s=45)
    async with await Store.open(path, clock=clock) as again:
        assert (await again.get_settings(GUILD)).currency_name == "ryo"
        assert (await again.get_settings(GUILD)).turn_timeout_s == 45
        assert await again.get_settings(OTHER_GUILD) == GuildSettings(guild_id=OTHER_GUILD)


async def test_a_read_overtaken_by_a_write_keeps_the_write(store):
    # However the read and the write interleave, what the store answers afterwards is the write.
    await asyncio.gather(store.get_settings(GUILD), store.update_settings(GUILD, currency_name="mon"),
                         store.get_settings(GUILD), store.set_house_rules(GUILD, "koikoi", {"rounds": 6}))
    settings = await store.get_settings(GUILD)
    assert settings.currency_name == "mon" and settings.house_rules == {"koikoi": {"rounds": 6}}


async def test_a_damaged_settings_table_does_not_stop_the_store_opening(tmp_path, clock):
    path = tmp_path / "damaged.sqlite3"
    async with await Store.open(path, clock=clock) as first:
        await first.update_settings(GUILD, currency_name="ryo")
        await corrupt_table(first, "guild_settings")
    async with await Store.open(path, clock=clock) as again:
        with pytest.raises(StoreUnavailable):
            await again.get_settings(OTHER_GUILD)  # not even the defaults are assumed
        assert (await again.audit()).ok  # the rest of the database still answers


async def test_two_writes_whose_answers_come_back_in_reverse_leave_the_later_one(store, monkeypatch):
    # The database may answer the later of two writes first: what the store answers afterwards
    # must still be the write committed last, not the answer that came back last.
    transact = store._db.transact
    second_done = asyncio.Event()
    calls = []

    async def answered_late(work, **kwargs):
        calls.append(work)
        mine = len(calls)
        result = await transact(work, **kwargs)
        if mine == 1 and len(calls) == 2:  # the second write is under way: answer after it
            await second_done.wait()
        elif mine == 2:
            second_done.set()
        return result

    monkeypatch.setattr(store._db, "transact", answered_late)
    await asyncio.gather(store.update_settings(GUILD, currency_name="mon"),
                         store.set_house_rules(GUILD, "koikoi", {"rounds": 6}))
    settings = await store.get_settings(GUILD)
    assert settings.currency_name == "mon" and settings.house_rules == {"koikoi": {"rounds": 6}}
