"""``/games``: the games running on this server, with their players, round, whose turn it is, when
they started and a link to each table; staff can cancel a game from there.

The list is private (ephemeral): it names players and links tables, staff see controls others must
not, and nobody's channel fills with lists. Only this server's games are read (the store filters
by server), a page holds :data:`PAGE` games (far inside Discord's 25 fields and 6,000 characters),
and every control carries only a page number or a game id: a press is checked again, so a forged
cancel from a non-manager or from another server is refused.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.answer import acknowledge, press_defer, press_update
from bot.discord_ui.app import app
from bot.discord_ui.cog import server_only
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.speaking import Speaks
from bot.discord_ui.text import CHOICE, FIELD_VALUE, NO_PINGS, clip, fit_embed, refuse, shown
from bot.i18n import N_, t
from bot.settlement import is_betting, match_nouns
from bot.store import Scope, StoreError
from bot.store.models import GameRecord
from bot.tables import Table, TableError
from bot.words import plural
from rendering.view import GAME_NAMES

log = logging.getLogger(__name__)

PAGE = 8
"""Games per page."""
BUTTONS_UP_TO = 4
"""Up to this many games a page, staff get one Cancel button per game; more share a menu."""
NAME = 40
"""Characters of one player's name in the list."""
NOT_STAFF = N_("Only members with the Manage Server permission can cancel games from here.")
ONLY_IN_A_SERVER = N_("The list of running games belongs to a server; run /games there.")


def is_staff(interaction: discord.Interaction) -> bool:
    """Manage Server where the press happens: the check of the table's own Cancel button."""
    perms = interaction.permissions if interaction.guild_id is not None else None
    return bool(perms and perms.manage_guild)


def jump_link(record: GameRecord, shown_at: tuple[int, int] | None) -> str | None:
    """A link to the table's message: where this process shows it, else where older code
    noted it on the game."""
    channel_id, message_id = shown_at or (record.channel_id, record.message_id)
    if not message_id:
        return None
    return f"https://discord.com/channels/{record.guild_id}/{channel_id}/{message_id}"


def turn_text(table: Table | None) -> str:
    if table is None:
        return t("waiting to resume")
    if table.in_race:
        return t("slap race!")
    seat = table.match.current_player
    if seat is not None:
        return t("{name} to play", name=shown(table.names[seat], NAME))
    return t("between hands") if is_betting(table.game) else t("between rounds")


def round_text(table: Table | None) -> str:
    """Where a match is ("Round 3 of 8, first to 50 points"), in the words its table uses: a
    betting game counts hands and plays for chips."""
    if table is None:
        return ""
    rules, match = table.match.rules, table.match
    rounds, target = getattr(rules, "rounds", 0), getattr(rules, "target_score", 0)
    unit, score = match_nouns(table.game)
    if unit == "hand":
        text = (t("Hand {n} of {total}", n=match.round_number, total=rounds) if rounds
                else t("Hand {n}", n=match.round_number))
    else:
        text = (t("Round {n} of {total}", n=match.round_number, total=rounds) if rounds
                else t("Round {n}", n=match.round_number))
    return t("{round}, first to {target}", round=text, target=plural(target, score)) if target else text


def names_of(record: GameRecord, table: Table | None) -> list[str]:
    if table is not None:
        return list(table.names)
    try:
        return list(record.state["names"])
    except (KeyError, TypeError, ValueError):
        return [t("seat {n}", n=i + 1) for i in range(len(record.players))]


def game_field(record: GameRecord, table: Table | None,
               shown_at: tuple[int, int] | None = None) -> tuple[str, str]:
    players = ", ".join(shown(n, NAME) for n in names_of(record, table))
    where = round_text(table)
    lines = [players, " · ".join(part for part in (where, turn_text(table)) if part)]
    started = f"<t:{int(record.created_at.timestamp())}:R>"
    link = jump_link(record, shown_at)
    lines.append(t("Started {when} · [Jump to the table]({link})", when=started, link=link) if link
                 else t("Started {when} in {channel}", when=started, channel=f"<#{record.channel_id}>"))
    return f"#{record.game_id} · {GAME_NAMES.get(record.game, record.game)}", clip("\n".join(lines), FIELD_VALUE)


async def running_here(interaction: discord.Interaction) -> list[tuple[GameRecord, Table | None]]:
    """This server's running games, oldest first, with their live tables (the press's scope:
    never another server's)."""
    bot = interaction.client
    scope = Scope.press(interaction.guild_id, interaction.user.id)
    records = await app(bot).store.list_running_games(scope)
    live = app(bot).tables.tables
    out = []
    for record in records:
        table = live.get(record.game_id)
        if table is not None and (table.finished or table.guild_id != interaction.guild_id):
            continue
        out.append((record, table))
    return out


def page_view(games: list[tuple[GameRecord, Table | None]], page: int, pages: int,
              staff: bool) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(GamesPage(max(page - 1, 0), "prev", page == 0))
        view.add_item(GamesPage(min(page + 1, pages - 1), "next", page >= pages - 1))
    if staff and games:
        if len(games) <= BUTTONS_UP_TO:
            for record, _ in games:
                view.add_item(CancelFromList(record.game_id, page, row=1))
        else:
            options = [discord.SelectOption(
                label=clip(f"#{r.game_id} {GAME_NAMES.get(r.game, r.game)}: "
                           + ", ".join(names_of(r, live)), CHOICE), value=str(r.game_id)) for r, live in games]
            view.add_item(CancelMenu(page, options))
    return view if view.children else None


async def games_page(interaction: discord.Interaction, page: int, note: str = ""
                     ) -> tuple[discord.Embed, discord.ui.View | None]:
    games = await running_here(interaction)
    pages = max(1, -(-len(games) // PAGE))
    page = min(max(page, 0), pages - 1)
    shown_games = games[page * PAGE:(page + 1) * PAGE]
    guild = interaction.guild.name if interaction.guild is not None else t("this server")
    embed = discord.Embed(title=t("Games running on {server}", server=shown(guild, 100)), colour=ACCENT)
    if not games:
        links = await links_for(interaction)
        embed.description = t("No game is running here right now. Start one with {koikoi}, {gostop} or "
                              "another game.", koikoi=mention("koikoi", links),
                              gostop=mention("gostop", links))
    else:
        embed.description = t("{games} running.", games=plural(len(games), "game"))
    if note:
        embed.description = f"{note}\n{embed.description}"
    publisher = app(interaction).publisher
    for record, table in shown_games:
        name, value = game_field(record, table, publisher.where(record.game_id))
        embed.add_field(name=name, value=value, inline=False)
    if pages > 1:
        embed.set_footer(text=t("Page {page} of {pages}", page=page + 1, pages=pages))
    return fit_embed(embed), page_view(shown_games, page, pages, is_staff(interaction))


async def cancel_from_list(interaction: discord.Interaction, game_id: int, page: int) -> None:
    """Cancel a game as its table's Cancel button would (stakes refunded), then show the list again."""
    manager = app(interaction).tables
    try:
        if not is_staff(interaction):
            raise TableError(t(NOT_STAFF))
        table = manager.tables.get(game_id)
        if table is None or table.finished or table.guild_id != interaction.guild_id:
            raise TableError(t("That game is not running on this server any more."))
        await press_defer(interaction)
        await manager.cancel(table, interaction.user.id,
                             f"cancelled by {interaction.user.display_name[:80]} from /games")
    except TableError as exc:
        await refuse(interaction, told(exc))
        return
    embed, view = await games_page(interaction, page, t("Game #{id} cancelled; every stake was refunded.", id=game_id))
    await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=NO_PINGS)


# -- controls ----------------------------------------------------------------------------------------
class GamesPage(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                template=r"hf:games:(?P<page>[0-9]{1,6}):(?P<dir>prev|next)"):
    """Previous / Next page of the list (the page number it leads to is in the custom id)."""

    def __init__(self, page: int, direction: str, disabled: bool = False) -> None:
        label = t("Next ▶") if direction == "next" else t("◀ Previous")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           disabled=disabled, row=0,
                                           custom_id=f"hf:games:{page}:{direction}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # the list is a server's: run /games there
            await refuse(interaction, t(ONLY_IN_A_SERVER))
            return
        try:
            embed, view = await games_page(interaction, self.page)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await press_update(interaction, embed=embed, view=view, allowed_mentions=NO_PINGS)


class CancelFromList(Speaks, discord.ui.DynamicItem[discord.ui.Button],
                     template=r"hf:gcancel:(?P<gid>[0-9]{1,19}):(?P<page>[0-9]{1,6})"):
    """Cancel one game of the list (staff)."""

    def __init__(self, game_id: int, page: int, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("Cancel #{id}", id=game_id), style=discord.ButtonStyle.danger,
                                           row=row, custom_id=f"hf:gcancel:{game_id}:{page}"))
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await cancel_from_list(interaction, self.game_id, self.page)


class CancelMenu(Speaks, discord.ui.DynamicItem[discord.ui.Select], template=r"hf:gcancelsel:(?P<page>[0-9]{1,6})"):
    """The games of the page as a menu, when there are too many for one button each (staff)."""

    def __init__(self, page: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"hf:gcancelsel:{page}", placeholder=t("Cancel a game…"), row=2,
            options=options or [discord.SelectOption(label=t("No game"), value="0")]))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or not str(values[0]).isdigit() or len(str(values[0])) > 19:
            await refuse(interaction, t("Choose one game from the menu."))
            return
        await cancel_from_list(interaction, int(values[0]), self.page)


class RunningCog(commands.Cog):
    """``/games``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @server_only
    @app_commands.command(name="games", description="The games running on this server, with a link to each table")
    async def games(self, interaction: discord.Interaction) -> None:
        # acknowledged before the store is read: a slow database costs the answer, not the ack
        await acknowledge(interaction, private=True)
        embed, view = await games_page(interaction, 0)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        await interaction.edit_original_response(embed=embed, allowed_mentions=NO_PINGS, **kwargs)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(GamesPage, CancelFromList, CancelMenu)
    await bot.add_cog(RunningCog(bot))
