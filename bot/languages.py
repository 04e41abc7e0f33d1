"""Who is spoken to in which language.

- A player's own messages (ephemeral answers, their hand, its controls): the language they chose
  with ``/language``, else the one their Discord client shows (``interaction.locale``), else, in a
  DM that carries no locale, the last one their client showed.
- A server's public messages and images (tables, lobbies, summaries): the language its staff set
  with ``/settings language``, else the server's own Discord locale (``guild_locale``).

Kept in memory (read once at start, as the bot answers before it touches the database); a
language seen for the first time is saved in the background, after the interaction's answer.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.i18n import DEFAULT, language_of, set_language
from bot.store import Store, StoreError, UserLanguage

__all__ = ["Languages"]

log = logging.getLogger(__name__)


class Languages:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._users: dict[int, UserLanguage] = {}
        self._saving: set[asyncio.Task[None]] = set()

    async def load(self) -> None:
        self._users = {known.user_id: known for known in await self.store.user_languages()}

    def of_user(self, user_id: int) -> str:
        """The language to write to this user in when no interaction says (a DM)."""
        known = self._users.get(user_id)
        if known is None:
            return DEFAULT
        return known.chosen or known.seen or DEFAULT

    def chosen(self, user_id: int) -> str:
        """What the user chose with /language ('' : their client's language)."""
        known = self._users.get(user_id)
        return known.chosen if known else ""

    def of_interaction(self, interaction: Any) -> str:
        """The presser's language, remembered for the DMs to come."""
        user_id = interaction.user.id
        seen = language_of(interaction.locale)
        known = self._users.get(user_id)
        if known is None and seen == DEFAULT:  # the default needs no row: nothing to store
            self._users[user_id] = UserLanguage(user_id, seen)
        elif known is None or known.seen != seen:
            self._save(UserLanguage(user_id, seen, known.chosen if known else ""))
        return (known.chosen if known else "") or seen

    def enter(self, interaction: Any) -> str:
        """Speak the presser's language for the rest of this interaction's task."""
        return set_language(self.of_interaction(interaction))

    async def of_guild(self, guild_id: int | None, guild_locale: Any = None) -> str:
        """The language of a server's public messages."""
        if guild_id is None:
            return language_of(guild_locale)
        settings = await self.store.get_settings(guild_id)
        return settings.language or language_of(guild_locale)

    def of_guild_now(self, guild_id: int | None, guild_locale: Any = None) -> str:
        """:meth:`of_guild` without waiting: the server's Discord locale when its settings are
        not at hand (a database in trouble)."""
        settings = self.store.known_settings(guild_id) if guild_id is not None else None
        return (settings.language if settings else "") or language_of(guild_locale)

    async def choose(self, user_id: int, language: str) -> None:
        """The user's own choice ('' : follow their Discord client again); saved before it holds."""
        known = self._users.get(user_id) or UserLanguage(user_id)
        updated = UserLanguage(user_id, known.seen, language)
        await self.store.save_user_language(updated)
        self._users[user_id] = updated

    async def refresh(self, user_id: int) -> None:
        """Read again what another process of the bot stored for this user."""
        try:
            stored = await self.store.user_language(user_id)
        except StoreError:
            return  # the next change announced, or the next start, brings it
        if stored is not None and not any(task.get_name() == f"language {user_id}" for task in self._saving):
            self._users[user_id] = stored

    def _save(self, language: UserLanguage) -> None:
        self._users[language.user_id] = language
        task = asyncio.get_running_loop().create_task(self._write(language.user_id),
                                                      name=f"language {language.user_id}")
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    async def _write(self, user_id: int) -> None:
        try:  # whatever is newest when the write's turn comes (a choice made meanwhile included)
            await self.store.save_user_language(self._users[user_id])
        except StoreError:  # a language is a convenience: the interaction goes on without it
            log.warning("could not remember the language of user %s", user_id)

    async def flush(self) -> None:
        """Wait for the languages being saved (shutdown, tests)."""
        while self._saving:
            await asyncio.gather(*list(self._saving), return_exceptions=True)
