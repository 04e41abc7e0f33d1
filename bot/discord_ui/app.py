"""What the extensions may reach on the bot, by name and type.

discord.py hands a cog a ``commands.Bot`` and an interaction a ``discord.Client``; the parts this
bot adds (its store, its table service, the table surface, the worker pools) are attributes of
:class:`bot.discord_ui.client.HanafudaBot`. :func:`app` gives them typed, so an extension reads
``app(interaction).store`` rather than an untyped attribute of the client.

The two Discord surfaces are typed by what the controls and commands ask of them
(:class:`ChannelShows`, :class:`GuestShows`), not by their classes: those build their messages
from the controls, so naming them here would tie the controls back to the code that shows them.
The Activity's server is typed by what the client asks of it (:class:`ActivityShows`): it is
another surface, made where the bot is put together, which the Discord side only starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    import discord

    from bot.discord_ui.command_links import CommandIds
    from bot.discord_ui.tokens import Token
    from bot.languages import Languages
    from bot.shards import ShardPlan
    from bot.store import Store
    from bot.tables import TableManager
    from bot.tables.surface import Surfaces, TableSurface
    from bot.tables.table import Table
    from bot.workers import WorkerPool

__all__ = ["ActivityShows", "App", "ChannelShows", "GuestShows", "PressHandle", "app"]


class PressHandle(Protocol):
    """A press on a hand, as the surface updates that hand through it once it is answered."""

    answered: asyncio.Event | None  # set by the control once its press is answered
    withdrawn: bool  # the control answered with a message of its own, which the token now edits
    unsettled: bool  # the answer was lost on its way: Discord is asked whether it took it


class ChannelShows(Protocol):
    """What controls and commands ask of the surface of channel tables
    (:class:`bot.discord_ui.publisher.TablePublisher`)."""

    def via_press(self, interaction: discord.Interaction) -> PressHandle:
        """The press as a way to update the presser's hand."""

    async def show_hand_via(self, table: Table, seat: int, interaction: discord.Interaction) -> None:
        """'My hand': the hand as the answer to a deferred, private interaction."""

    async def render(self, draw: Callable[..., bytes], *args: Any) -> bytes:
        """A picture drawn in the worker processes."""

    def where(self, game_id: int) -> tuple[int, int] | None:
        """The channel and message of a game's table, when this process shows it."""


class GuestShows(Protocol):
    """What controls ask of the surface of the tables where the app is a guest
    (:class:`bot.discord_ui.guest.GuestSurface`)."""

    def table_pressed(self, table: Table, interaction: discord.Interaction) -> Token:
        """A press on the table message, whose token shows the table from now on."""

    async def show_hand_privately(self, table: Table, seat: int, token: Token) -> None:
        """The hand as a private follow-up of the player's own press."""

    async def show_ended(self, interaction: discord.Interaction, game_id: int) -> bool:
        """A press on the table of a game that has ended: its final table, if it is one."""


class ActivityShows(Protocol):
    """What the client asks of the Activity's web server (:class:`bot.activity.server.ActivityServer`):
    the surface its pages show tables on, a start once the games have resumed, a close."""

    surface: TableSurface
    port: int  # the one it listens on, once started

    async def start(self) -> None:
        """Listen: pages may sign in and join their tables from now on."""

    async def close(self) -> None:
        """Stop listening and close every page's socket."""


class App(Protocol):
    """The running bot as its extensions see it (set up before any extension loads)."""

    store: Store
    tables: TableManager
    publisher: ChannelShows
    guest: GuestShows
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
