"""Names of members on the boards every surface shows (the leaderboard, the deal of the day's
board, a season's honours), found without a request to Discord: a picture or a web page cannot
show a mention, so each row needs a name.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.store import Store
from bot.store.models import former_member, is_pseudonym

__all__ = ["Known", "board_names"]

Known = Callable[[int], "str | None"]
"""The names a surface already has of some members (None for one it has not)."""


async def board_names(store: Store, guild_id: int, user_ids: list[int], known: Known) -> dict[int, str]:
    """A name for each player of a page, with no request to Discord: "a former member" for one
    who asked to be forgotten, the name the surface has (``known``), else the one they had at
    their latest table on this server (one query for the page), else "Player 1234"."""
    names = {u: former_member() for u in user_ids if is_pseudonym(u)}
    names |= {u: n for u in user_ids if u not in names and (n := known(u))}
    missing = [u for u in user_ids if u not in names]
    stored = await store.latest_names(guild_id, missing) if missing else {}
    return {u: names.get(u) or stored.get(u) or t("Player {number}", number=u % 10000)
            for u in user_ids}
