"""A server's settings and house rules, kept in the store's cache once read, and each user's
languages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from .. import relay
from ..db import Database
from ..errors import InvalidInput
from ..languages import UserLanguage, load_user_language, load_user_languages, save_user_language
from ..settings import LANGUAGE_CHOICES, GuildSettings, load_settings, save_settings, validate
from .checks import _id, _text


class Settings:
    """The settings and languages of :class:`~bot.store.store.Store`, one of its mixins."""

    # The core's own (bot.store.store), typed here: importing the core from here would be a cycle.
    _db: Database
    _settings: dict[int, GuildSettings]
    _settings_writes: int
    _settings_turn: asyncio.Lock
    _all_settings: bool
    origin: str
    dialect: str

    # -- settings --------------------------------------------------------------------------------
    def settings_now(self, guild_id: int) -> GuildSettings | None:
        """The server's settings if already read, without a database call (None: not read yet);
        for what is drawn synchronously, such as a hand's buttons."""
        known = self._settings.get(guild_id)
        if known is None and self._all_settings:
            return GuildSettings(guild_id=guild_id)
        return known

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults until changed)."""
        _id(guild_id, "The server id")
        if self._db.health.ok:
            known = self._settings.get(guild_id)
            if known is not None:
                return known
            if self._all_settings:
                return self._settings.setdefault(guild_id, GuildSettings(guild_id=guild_id))
        writes = self._settings_writes
        async with self._db.snapshot() as conn:
            settings = await load_settings(conn, guild_id)
        if writes == self._settings_writes:
            self._settings[guild_id] = settings
        return settings

    def known_settings(self, guild_id: int) -> GuildSettings | None:
        """The server's settings if known without asking the database (None: ask it with
        :meth:`get_settings`); for work that must not wait, such as choosing a language."""
        if not self._db.health.ok:
            return None
        known = self._settings.get(guild_id)
        if known is None and self._all_settings:
            return GuildSettings(guild_id=guild_id)
        return known

    def _remember_settings(self, settings: GuildSettings) -> None:
        self._settings_writes += 1
        self._settings[settings.guild_id] = settings

    async def update_settings(self, guild_id: int, /, **changes: Any) -> GuildSettings:
        """Change some settings (names as in :class:`GuildSettings`); returns the new settings."""
        _id(guild_id, "The server id")
        return await self._write_settings(guild_id, lambda current: validate(current, changes))

    async def set_house_rules(self, guild_id: int, game: str,
                              rules: Mapping[str, Any] | None) -> GuildSettings:
        """Set (or with ``None`` clear) the house rules of one game on this server."""
        _id(guild_id, "The server id")
        _text(game, "The game name", allow_empty=False)
        def change(current: GuildSettings) -> GuildSettings:
            house = dict(current.house_rules)
            if rules is None:
                house.pop(game, None)
            else:
                house[game] = rules
            return validate(current, {"house_rules": house})
        return await self._write_settings(guild_id, change)

    async def _write_settings(self, guild_id: int,
                              change: Callable[[GuildSettings], GuildSettings]) -> GuildSettings:
        """Store what ``change`` makes of the stored settings, one write at a time so that the
        cache takes each answer in the order it was committed; the new settings."""
        async def work(conn):
            new = change(await load_settings(conn, guild_id))
            await save_settings(conn, new, self._db.now_ms())
            return new
        async with self._settings_turn:
            new = await self._db.transact(work)
            self._remember_settings(new)
        return new

    # -- languages -------------------------------------------------------------------------------
    async def user_languages(self) -> list[UserLanguage]:
        """Every user's remembered and chosen language (read once when the bot starts)."""
        async with self._db.snapshot() as conn:
            return await load_user_languages(conn)

    async def save_user_language(self, language: UserLanguage) -> None:
        """Remember a user's language (seen in their client, or chosen)."""
        _id(language.user_id, "The user id")
        for value in (language.seen, language.chosen):
            if value not in LANGUAGE_CHOICES:
                raise InvalidInput("The language must be one of en, ja, ko.")
        async def work(conn):
            await save_user_language(conn, language, self._db.now_ms())
            await relay.announce(conn, self.dialect, {"kind": "language", "user": language.user_id,
                                                      "from": self.origin})
        await self._db.transact(work)

    async def user_language(self, user_id: int) -> UserLanguage | None:
        """One user's languages as stored (another process may have changed them)."""
        _id(user_id, "The user id")
        async with self._db.snapshot() as conn:
            return await load_user_language(conn, user_id)
