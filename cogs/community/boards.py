"""``/leaderboard``: one page of a board as an embed and as a picture, and its pager."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import discord

from bot.discord_ui.answer import press_defer
from bot.discord_ui.boards import known_names
from bot.discord_ui.cog import Pager, drawn, pager_buttons, pages_of, store_of
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.text import NO_PINGS, fit_embed, refuse, season_label, shown
from bot.games import GAMES
from bot.i18n import N_, NP_, current, number, t, tn, tp
from bot.names import board_names
from bot.rules_text import title
from bot.store import ALL_SEASONS, CURRENT_SEASON, Store, TrendKey
from bot.store.models import LeaderboardRow, SeasonChoice
from bot.words import RATING_NOTE, capitalized, plural, rating
from bot.words import amount as counted
from rendering import BoardRow, BoardView, render_board

from .seasons import season_number

# What a board ranks by and over which period, as the command's choices and the board's title.
ORDERS = {"rating": NP_("order", "rating"), "wins": NP_("order", "wins"),
          "points": NP_("order", "points"), "streak": NP_("order", "win streak"),
          "chips": NP_("order", "chips"), "achievements": NP_("order", "achievements"),
          "days": NP_("order", "days on the deal")}
# Boards of what belongs to the server, not to a game or a season: chips carry over seasons, and
# an achievement is kept once earned.
SERVER_WIDE = frozenset({"chips", "achievements"})
# Boards that count every season: the server's, and the days on the deal of the day (a game's
# or every game's), which no season starts afresh.
UNSEASONAL = SERVER_WIDE | {"days"}
PERIODS = {"all": NP_("period", "all time"), "30d": NP_("period", "last 30 days")}
BOARD_PAGE = 10
BOARD_IMAGE = "leaderboard.png"
TREND_POINTS = 12  # ratings after a player's latest rated games, drawn beside their row
FORM_POINTS = 10  # latest results drawn beside a row of the other boards
ALL_GAMES_CHIPS = N_("Chips belong to the server, not to one game: this board counts them all.")
ALL_GAMES_ACHIEVEMENTS = N_("Achievements are earned over every game: this board counts them all.")


def _value(order: str, row: LeaderboardRow, currency: str, period: str) -> str:
    value = row.value
    if order == "rating":
        return rating(value, row.spread)
    if order == "wins":
        return plural(int(value), "win")
    if order == "points":
        return plural(int(value), "point", signed=True)
    if order == "streak":
        return tn("{n} win in a row", "{n} wins in a row", int(value))
    if order == "achievements":
        return tn("{n} achievement", "{n} achievements", int(value))
    if order == "days":
        return plural(int(value), "day")
    return counted(int(value), currency, signed=period == "30d")


async def _page_of(store: Store, guild_id: int, asker: int, game: str | None, order: str,
                   period: str, season: int | None, rank: int) -> int:
    """The page holding the asker's row (tied ranks are ordered by user id, so look ahead)."""
    start = (rank - 1) // BOARD_PAGE
    for page in range(start, start + 5):
        found = await store.leaderboard(guild_id, order, game=game, period=period, season=season,
                                        offset=page * BOARD_PAGE, limit=BOARD_PAGE)
        if any(r.user_id == asker for r in found.rows) or not found.rows:
            return page
    return start


async def leaderboard_message(store: Store, guild_id: int, asker: int, game: str | None,
                              order: str, period: str, page: int | None,
                              season: SeasonChoice = CURRENT_SEASON, known=lambda _: None,
                              links: Mapping[str, int] = MappingProxyType({})
                              ) -> tuple[dict[str, Any], BoardView]:
    """The embed and pager of one page of a board (``None``: the asker's page), with the
    asker's own rank, and the page as an image shows it (names from ``known`` or the store).
    The pager keeps the season the board showed, even when a new one starts; ``links`` link
    the commands it names (:func:`links_for`)."""
    settings = await store.get_settings(guild_id)
    seasons = await store.seasons(guild_id)
    season = season_number(season, seasons)
    mine = await store.user_rank(guild_id, asker, order, game=game, period=period, season=season)
    if page is None:
        page = 0 if mine is None else await _page_of(store, guild_id, asker, game, order,
                                                      period, season, mine.rank)
    result = await store.leaderboard(guild_id, order, game=game, period=period, season=season,
                                     offset=page * BOARD_PAGE, limit=BOARD_PAGE)
    pages = pages_of(result.total, BOARD_PAGE)
    if page >= pages:  # the board shrank since the button was made
        page = pages - 1
        result = await store.leaderboard(guild_id, order, game=game, period=period,
                                         season=season, offset=page * BOARD_PAGE,
                                         limit=BOARD_PAGE)
    currency = shown(settings.currency_name, 64)
    where = title(game) if game else t("all games")
    heading = t("Leaderboard · {games} · by {order}", games=where, order=tp("order", ORDERS[order]))
    embed = discord.Embed(title=f"🏆 {heading}", colour=ACCENT)
    lines = []
    for row in result.rows:
        games = f" · {plural(row.games, 'deal' if order == 'days' else 'game')}" if row.games else ""
        text = f"**#{row.rank}** <@{row.user_id}> — {_value(order, row, currency, period)}{games}"
        lines.append(f"➤ {text}" if row.user_id == asker else text)
    empty = "" if lines else (
        t("Nobody has chips here yet: try {daily}.", daily=mention("chips daily", links))
        if order == "chips" else t("Nobody has earned an achievement here yet: win a game to earn "
                                   "the first.") if order == "achievements"
        else t("Nobody has finished a deal of the day here yet: {play} deals today's.",
               play=mention("deal play", links)) if order == "days"
        else t("Nobody is on this board yet: finish a game to get on it."))
    embed.description = "\n".join(lines) or empty
    if mine is not None:
        embed.add_field(name=t("Your rank"), inline=False, value=t(
            "#{rank} of {total} — {value}", rank=mine.rank, total=number(result.total),
            value=_value(order, mine, currency, period)))
    else:
        embed.add_field(name=t("Your rank"), inline=False,
                        value=t("You are not on this board yet."))
    when = capitalized(tp("period", PERIODS[period]))  # outside t(): nested, the extractor skips it
    footer = t("{period} · page {page} of {pages} · {players}", period=when, page=page + 1,
               pages=pages, players=plural(result.total, "player"))
    label = None if order in UNSEASONAL else season_label(season, seasons)  # carried over seasons
    note = t(RATING_NOTE) if order == "rating" else ""
    embed.set_footer(text="\n".join(x for x in (f"{label} · {footer}" if label else footer, note)
                                     if x))
    plain = None if order in UNSEASONAL else season_label(season, seasons, plain=True)  # drawn
    board = BoardView(title=heading, subtitle=f"{plain} · {footer}" if plain else footer,
                      value_header=capitalized(tp("order", ORDERS[order])),
                      count_header=t("Deals") if order == "days" else "",
                      rows=await _board_rows(store, guild_id, asker, game, order, period,
                                             season, result.rows, settings.currency_name, known),
                      note=note or empty, language=current())
    game_key = game or "all"
    season_key = "a" if season is None else season

    def make_id(target: int, tag: str) -> str:
        return f"hf:lbd:{asker}:{game_key}:{order}:{period}:s{season_key}:{target}:{tag}"

    extra = []
    if mine is not None and result.total > BOARD_PAGE:
        on_page = any(r.user_id == asker for r in result.rows)
        extra.append(discord.ui.Button(label=t("My rank"), style=discord.ButtonStyle.primary,
                                       custom_id=make_id(0, "m"), disabled=on_page))
    return {"embed": fit_embed(embed), "view": pager_buttons(make_id, page, pages, extra=extra),
            "allowed_mentions": NO_PINGS}, board


async def _board_rows(store: Store, guild_id: int, asker: int, game: str | None, order: str,
                      period: str, season: int | None, rows: list[LeaderboardRow],
                      currency: str, known) -> tuple[BoardRow, ...]:
    """The page's rows as the image draws them, with each player's name and trend (two
    queries for the page): on rating boards their ratings after their latest rated games,
    on the others their latest results (chips and achievements: of every game and season),
    none on the days' board."""
    users = [r.user_id for r in rows]
    if not users:
        return ()
    names = await board_names(store, guild_id, users, known)
    rated = order == "rating"
    keys = {u: TrendKey(u, game, None if order in UNSEASONAL else season) for u in users}
    # the days' board ranks the deals of the day, whose form the games' results do not tell
    trends = {} if order == "days" else await store.recent_results(
        guild_id, list(keys.values()), limit=TREND_POINTS if rated else FORM_POINTS,
        rated_only=rated)
    out = []
    for row in rows:
        points = trends.get(keys[row.user_id], ())
        out.append(BoardRow(
            rank=row.rank, name=names[row.user_id], value=_value(order, row, currency, period),
            games=number(row.games) if row.games else "",  # under the "Games" heading
            rating=float(row.value) if rated else None, spread=row.spread if rated else None,
            trend=tuple(p.rating_after for p in points if p.rating_after is not None) if rated else (),
            form=() if rated else tuple(p.outcome for p in points),
            highlight=row.user_id == asker))
    return tuple(out)


class LeaderboardPager(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                       template=r"hf:lbd:(?P<asker>[0-9]+):(?P<game>[a-z_]+):"
                                r"(?P<order>rating|wins|points|streak|chips|achievements|days):"
                                r"(?P<period>all|30d):"
                                r"(?:s(?P<season>a|[0-9]{1,6}):)?"
                                r"(?P<page>[0-9]+)(?::(?P<tag>[a-z]))?"):
    """A page button of a leaderboard: only its asker may press it."""

    refusal = N_("Only the member who asked can turn these pages; run {command} for your own view.")
    command = "leaderboard"

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        game = None if m["game"] == "all" else m["game"]
        if game is not None and game not in GAMES:
            await refuse(interaction, t("That leaderboard is out of date; run {leaderboard} again.",
                                        leaderboard=mention("leaderboard", await links_for(interaction))))
            return
        # A button from before seasons shows the current one; "a": all seasons.
        season = (CURRENT_SEASON if m["season"] is None else
                  ALL_SEASONS if m["season"] == "a" else int(m["season"]))
        with in_public(interaction):  # the board is in the channel, for everyone
            content, board = await leaderboard_message(
                store_of(interaction), interaction.guild_id, interaction.user.id, game,
                m["order"], m["period"], None if m["tag"] == "m" else int(m["page"]), season,
                known_names(interaction), await links_for(interaction))
        await press_defer(interaction)  # the page is redrawn in the render workers
        files = await drawn(interaction.client, render_board, board, content["embed"],
                            BOARD_IMAGE)
        await interaction.edit_original_response(attachments=files, **content)
