"""Per-server settings: house rules per game, timers, hand delivery and the chip economy.

A server without a row has the defaults; the row appears on the first change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

import aiosqlite

from .errors import InvalidSetting, refuse_nul
from .models import MAX_AMOUNT

__all__ = ["GuildSettings", "STAKE_POLICIES", "HAND_DELIVERY", "load_all_settings", "load_settings", "save_settings"]

STAKE_POLICIES = ("everyone", "managers", "role", "nobody")
HAND_DELIVERY = ("dm", "ephemeral")
DEFAULT_CURRENCY = "chips"
LANGUAGE_CHOICES = ("", "en", "ja", "ko")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    house_rules: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> rules options
    turn_timeout_s: int = 120
    hand_delivery: str = "dm"
    starting_chips: int = 1000
    daily_amount: int = 100
    currency_name: str = DEFAULT_CURRENCY
    stake_policy: str = "everyone"  # who may start staked games
    stake_role_id: int | None = None  # with stake_policy 'role'
    language: str = ""  # public tables' language: en, ja, ko; empty: the server's Discord locale
    hints: bool = True  # casual games offer the Hint button (bot.discord_ui.hints)

    def rules_for(self, game: str) -> dict[str, Any]:
        """This server's house rules for ``game`` (empty: the game's default preset)."""
        return dict(self.house_rules.get(game, {}))

    def may_start_staked(self, *, is_manager: bool, role_ids: Iterable[int] = ()) -> bool:
        """Whether a member may start a game with a stake under this server's policy."""
        if self.stake_policy == "everyone":
            return True
        if self.stake_policy == "managers":
            return is_manager
        if self.stake_policy == "role":
            return is_manager or self.stake_role_id in set(role_ids)
        return False


_COLUMNS = tuple(f.name for f in fields(GuildSettings))
_EDITABLE = frozenset(_COLUMNS) - {"guild_id"}


def _int_in(value: Any, low: int, high: int, code: str) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else refused with ``code``
    (the setting's range refusal, carrying ``low`` and ``high``)."""
    if type(value) is not int or not low <= value <= high:
        raise InvalidSetting(code=code, value=value, low=low, high=high)
    return value


def validate(current: GuildSettings, changes: Mapping[str, Any]) -> GuildSettings:
    """Apply ``changes`` to ``current``; refuse unknown names and out-of-range values."""
    unknown = set(changes) - _EDITABLE
    if unknown:
        raise InvalidSetting(code="unknown_settings", names=tuple(sorted(unknown)))
    out = dict(changes)
    if "house_rules" in out:
        rules = out["house_rules"]
        if not isinstance(rules, Mapping) or not all(
            isinstance(k, str) and isinstance(v, Mapping) for k, v in rules.items()
        ):
            raise InvalidSetting(code="house_rules_shape")
        try:
            text = json.dumps({k: dict(v) for k, v in rules.items()})
            out["house_rules"] = json.loads(refuse_nul(text, "House rules", InvalidSetting))
        except (TypeError, ValueError) as exc:
            raise InvalidSetting(code="house_rules_json", problem=str(exc)) from None
    if "turn_timeout_s" in out:
        _int_in(out["turn_timeout_s"], 10, 86400, "turn_timeout_range")
    if "hand_delivery" in out and out["hand_delivery"] not in HAND_DELIVERY:
        raise InvalidSetting(code="hand_delivery")
    for name, code in (("starting_chips", "starting_chips_range"), ("daily_amount", "daily_amount_range")):
        if name in out:
            _int_in(out[name], 0, MAX_AMOUNT, code)
    if "currency_name" in out:
        name = out["currency_name"]
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 32:
            raise InvalidSetting(code="currency_name_length")
        out["currency_name"] = refuse_nul(name.strip(), "The currency name", InvalidSetting)
    if "language" in out and out["language"] not in LANGUAGE_CHOICES:
        raise InvalidSetting(code="language_choice")
    if "hints" in out and not isinstance(out["hints"], bool):
        raise InvalidSetting(code="hints_choice")
    new = replace(current, **out)
    if new.stake_policy not in STAKE_POLICIES:
        raise InvalidSetting(code="stake_policy", policies=tuple(STAKE_POLICIES))
    if new.stake_policy == "role":
        if type(new.stake_role_id) is not int or new.stake_role_id <= 0:
            raise InvalidSetting(code="stake_role_missing")
    elif "stake_role_id" in changes and changes["stake_role_id"] is not None:
        raise InvalidSetting(code="stake_role_unused")
    else:
        new = replace(new, stake_role_id=None)
    return new


def _from_row(row: Any) -> GuildSettings:
    values = {name: row[name] for name in _COLUMNS}
    values["house_rules"] = json.loads(values["house_rules"])
    values["hints"] = bool(values["hints"])
    return GuildSettings(**values)


async def load_settings(conn: aiosqlite.Connection, guild_id: int) -> GuildSettings:
    rows = list(await conn.execute_fetchall(
        f"SELECT {', '.join(_COLUMNS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ))
    return _from_row(rows[0]) if rows else GuildSettings(guild_id=guild_id)


async def load_all_settings(conn: aiosqlite.Connection) -> list[GuildSettings]:
    """Every server's stored settings (servers never changed keep the defaults: no row)."""
    rows = await conn.execute_fetchall(f"SELECT {', '.join(_COLUMNS)} FROM guild_settings")
    return [_from_row(row) for row in rows]


async def save_settings(conn: aiosqlite.Connection, settings: GuildSettings, now_ms: int) -> None:
    values = [getattr(settings, name) for name in _COLUMNS]
    values[_COLUMNS.index("house_rules")] = json.dumps(settings.house_rules, sort_keys=True)
    values[_COLUMNS.index("hints")] = int(settings.hints)
    names = ", ".join(_COLUMNS)
    updates = ", ".join(f"{n} = excluded.{n}" for n in _COLUMNS if n != "guild_id")
    await conn.execute(
        f"INSERT INTO guild_settings ({names}, updated_at) VALUES ({', '.join('?' * len(values))}, ?) "
        f"ON CONFLICT (guild_id) DO UPDATE SET {updates}, updated_at = excluded.updated_at",
        (*values, now_ms),
    )


async def currency(conn: aiosqlite.Connection, guild_id: int) -> str:
    """The server's currency name, for error messages."""
    rows = list(await conn.execute_fetchall(
        "SELECT currency_name FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ))
    return rows[0][0] if rows else DEFAULT_CURRENCY
