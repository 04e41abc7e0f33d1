"""What the extensions may reach on the bot, by name and type.

discord.py hands a cog a ``commands.Bot`` and an interaction a ``discord.Client``; the parts this
bot adds (its store, its table service, the table surface, the worker pools) are attributes of
:class:`bot.discord_ui.client.HanafudaBot`. :func:`app` gives them typed, so an extension reads
``app(interaction).store`` rather than an untyped attribute of the client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from bot.discord_ui.command_links import CommandIds
    from bot.discord_ui.guest import GuestSurface
    from bot.discord_ui.publisher import TablePublisher
    from bot.languages import Languages
    from bot.shards import ShardPlan
    from bot.store import Store
    from bot.surface import Surfaces
    from bot.tables import TableManager
    from bot.workers import WorkerPool

__all__ = ["App", "app"]


class App(Protocol):
    """The running bot as its extensions see it (set up before any extension loads)."""

    store: Store
    tables: TableManager
    publisher: TablePublisher
    guest: GuestSurface
    surfaces: Surfaces
    languages: Languages
    shard_plan: ShardPlan
    render_pool: WorkerPool
    relay: Any
    command_ids: CommandIds

    def get_cog(self, name: str) -> Any: ...


def app(source: Any) -> App:
    """The bot behind an interaction (its ``client``) or the bot a cog was given."""
    return cast(App, getattr(source, "client", source))
