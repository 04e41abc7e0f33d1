"""Per-server settings: defaults, validation, house rules per game, stake policy."""

from __future__ import annotations

import pytest

from bot.store import GuildSettings, InvalidSetting

from .conftest import GUILD


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
    dict(guild_id=5), dict(colour="red"),
])
async def test_bad_settings_are_refused_and_nothing_changes(store, changes):
    with pytest.raises(InvalidSetting) as info:
        await store.update_settings(GUILD, **changes)
    assert str(info.value)
    assert await store.get_settings(GUILD) == GuildSettings(guild_id=GUILD)
