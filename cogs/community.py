"""Community commands: ``/leaderboard``, ``/stats`` and ``/chips`` (balance, daily, give, history).

Every query is scoped by the server of the interaction. Pagers are :class:`DynamicItem` buttons
whose custom id carries the whole request (``hf:lbd:<asker>:<game>:<order>:<period>:s<season>:
<page>``, ``hf:chh:<user>:<page>``), so they keep working after a restart; only the member who
asked may turn the pages. Boards and records are of the server's current season unless the
``season`` option asks for another or for all of them. Refusals are ephemeral, one sentence, and
say what to do.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import presenter
from bot.achievement_text import earned_by
from bot.achievement_text import name as achievement_name
from bot.discord_ui.answer import acknowledge, answers, send
from bot.discord_ui.boards import board_names, known_names
from bot.discord_ui.cog import (
    GAME_CHOICES,
    Pager,
    ServerCog,
    answer_command_error,
    anywhere,
    drawn,
    not_a_member,
    pager_buttons,
    pages_of,
    server_only,
    store_of,
)
from bot.discord_ui.command_links import links_for, mention
from bot.discord_ui.errors import sentence, told
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.places import place_of, scope_of
from bot.discord_ui.speaking import Speaks, in_public
from bot.discord_ui.text import (
    FIELD_VALUE,
    NO_PINGS,
    TITLE,
    BadOption,
    choice,
    day_text,
    fit_embed,
    refuse,
    season_label,
    shown,
)
from bot.games import GAMES
from bot.i18n import N_, NP_, current, number, t, tn, tp
from bot.rules_text import title
from bot.store import (
    ALL_SEASONS,
    CURRENT_SEASON,
    MAX_AMOUNT,
    InsufficientFunds,
    Season,
    Store,
    StoreError,
    TrendKey,
    UnknownAccount,
)
from bot.store.achievements import CODES
from bot.store.daily import DailyRecord
from bot.store.models import LeaderboardRow, SeasonChoice, former_member, is_pseudonym
from bot.store.records import GUEST_PLACES
from bot.words import RATING_NOTE, capitalized, currency_noun, plural, rating
from bot.words import amount as counted
from rendering import BoardRow, BoardView, CardGame, CardView, render_board, render_card

log = logging.getLogger(__name__)

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
CARD_IMAGE = "stats.png"
LEDGER_PAGE = 10
TREND_POINTS = 12  # ratings after a player's latest rated games, drawn beside their row
FORM_POINTS = 10  # latest results drawn beside a row of the other boards
HISTORY_POINTS = 40  # ratings after each of the latest rated games on a player's card
# A player's own record: their games wherever the app is a guest (bot.store.guests), together.
OWN_RECORD = N_("Your games in DMs, group DMs and servers without the bot")
ALL_GAMES_CHIPS = N_("Chips belong to the server, not to one game: this board counts them all.")
ALL_GAMES_ACHIEVEMENTS = N_("Achievements are earned over every game: this board counts them all.")


def yaku_label(game: str, slug: str) -> str:
    try:
        return presenter.yaku_name(game, slug)
    except Exception:  # an unknown slug still gets a readable name
        return slug.replace("_", " ").capitalize()


# -- seasons ---------------------------------------------------------------------------------------
_SEASON_OPTION = re.compile(r"^(?:current|all|[0-9]{1,6})$")
SEASON_OPTION_LENGTH = 16  # "current", "all" or a number; typed names find their number


def season_option(text: str | None) -> SeasonChoice:
    """The ``season`` option of /leaderboard and /stats: "current" (or none), "all" or a number."""
    text = (text or "current").strip().lower()
    if not _SEASON_OPTION.match(text):
        raise BadOption(t("Pick a season from the list offered."))
    return CURRENT_SEASON if text == "current" else ALL_SEASONS if text == "all" else int(text)


def season_number(choice: SeasonChoice, seasons: list[Season]) -> int | None:
    """The season a choice stands for now (None: all of them)."""
    if choice == CURRENT_SEASON:
        return seasons[0].season if seasons else 0
    return choice


async def season_autocomplete(interaction: discord.Interaction, current: str
                              ) -> list[app_commands.Choice[str]]:
    """The current season, all seasons, then each season of the server, newest first."""
    try:
        seasons = await store_of(interaction).seasons(interaction.guild_id)
    except StoreError:
        seasons = []
    now = season_number(CURRENT_SEASON, seasons)
    options = [(t("Current season ({label})", label=season_label(now, seasons, plain=True))
                if seasons else t("Current season"), "current"), (t("All seasons"), "all")]
    options += [(season_label(s.season, seasons, plain=True), str(s.season)) for s in seasons]
    if seasons:
        options.append((t("Before the first season"), "0"))
    typed = current.strip().lower()
    found = (choice(name, value) for name, value in options
             if typed in name.lower() or typed == value)
    return [c for c in found if c is not None][:25]


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
        await interaction.response.defer()  # the page is redrawn in the render workers
        files = await drawn(interaction.client, render_board, board, content["embed"],
                            BOARD_IMAGE)
        await interaction.edit_original_response(attachments=files, **content)


# -- chip history ----------------------------------------------------------------------------------
KIND_LABELS = {"open": NP_("ledger", "starting chips"), "daily": NP_("ledger", "daily chips"),
               "grant": NP_("ledger", "granted by staff"), "revoke": NP_("ledger", "taken back by staff"),
               "stake": NP_("ledger", "stake"), "payout": NP_("ledger", "winnings"),
               "refund": NP_("ledger", "stake refunded")}


def ledger_line(line) -> str:
    when = f"<t:{int(line.created_at.timestamp())}:d>"
    what = tp("ledger", KIND_LABELS[line.kind]) if line.kind in KIND_LABELS else line.kind
    if line.kind == "transfer":
        who = (former_member() if is_pseudonym(line.counterparty) else
               f"<@{line.counterparty}>" if line.counterparty else t("someone"))
        what = t("from {who}", who=who) if line.amount > 0 else t("to {who}", who=who)
    if line.game_id is not None:
        what += " · " + t("game #{id}", id=line.game_id)
    if line.kind in ("grant", "revoke") and line.reason:
        what += f" · {shown(line.reason, 60)}"
    return f"{when} **{number(line.amount, signed=True)}** {what} → {number(line.balance_after)}"


async def history_message(store: Store, guild_id: int, user_id: int, page: int
                          ) -> dict[str, Any]:
    settings = await store.get_settings(guild_id)
    total = await store.history_count(guild_id, user_id)
    pages = pages_of(total, LEDGER_PAGE)
    page = min(page, pages - 1)
    lines = await store.history(guild_id, user_id, offset=page * LEDGER_PAGE, limit=LEDGER_PAGE)
    currency = shown(settings.currency_name, 64)
    embed = discord.Embed(title=t("🪙 Your {currency} history", currency=currency_noun(currency)),
                          colour=ACCENT, description="\n".join(ledger_line(x) for x in lines)
                          or t("No {currency} have moved yet.", currency=currency_noun(currency)))
    embed.set_footer(text=t("Newest first · page {page} of {pages} · {entries}", page=page + 1,
                            pages=pages, entries=plural(total, "entry")))

    def make_id(target: int, tag: str) -> str:
        return f"hf:chh:{user_id}:{target}:{tag}"

    return {"embed": fit_embed(embed), "view": pager_buttons(make_id, page, pages),
            "allowed_mentions": NO_PINGS}


class HistoryPager(Speaks, Pager, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hf:chh:(?P<user>[0-9]+):(?P<page>[0-9]+)(?::(?P<tag>[a-z]))?"):
    """A page of someone's chip history: only they may turn it."""

    owner_group = "user"
    refusal = N_("This is someone else's history; run {command} for yours.")
    command = "chips history"

    async def turn(self, interaction: discord.Interaction, m: re.Match[str]) -> None:
        content = await history_message(store_of(interaction), interaction.guild_id,
                                        interaction.user.id, int(m["page"]))
        await interaction.response.edit_message(**content)


# -- the cog ---------------------------------------------------------------------------------------
OUTCOMES = {"won": NP_("outcome", "won"), "lost": NP_("outcome", "lost"), "draw": NP_("outcome", "draw")}


def stats_embed(target: discord.abc.User, stats, currency: str, balance: int | None,
                season: str | None = None, *, elsewhere=None, versus=None,
                asker: discord.abc.User | None = None,
                achieved: Sequence[str] | None = None, own_card: bool = False,
                daily: DailyRecord | None = None) -> discord.Embed:
    """A player's record on a server: games, win rate, points, best yaku, ratings, recent
    results and their balance of the server's ``currency`` (None: no account yet), of the
    ``season`` named (None: the server has no seasons). A player's own record of the guest
    places (``stats.guild_id`` GUEST_PLACES) says so and has no chips; ``elsewhere``: that own
    record, shown in one line below a server's record for the player who asked; ``versus``:
    the games of ``asker`` with this player (a :class:`~bot.store.HeadToHead` from the asker's
    side), shown when they played together; ``achieved``: the codes of their achievements
    there (every season's: an achievement is kept once earned); ``own_card``: the asker's own
    record, which lists every achievement still to earn, not only the next; ``daily``: their deals
    of the day on the server (every day's, as chips are not seasonal)."""
    embed = discord.Embed(title=f"📊 {shown(target.display_name, TITLE - 4)}", colour=ACCENT)
    footer = [season] if season else []
    own = stats.guild_id == GUEST_PLACES
    if own:
        embed.description = t(OWN_RECORD)
    if stats.games == 0:
        empty = t("No finished games there yet.") if own else t("No finished games on this server yet.")
        embed.description = f"{embed.description}\n{empty}" if own else empty
    else:
        embed.add_field(name=t("Games"), value=record_line(stats))
        embed.add_field(name=t("Win rate"), value=rate(stats.wins, stats.games))
        embed.add_field(name=t("Points"), value=number(stats.points, signed=True))
        fav = stats.favourite_game
        embed.add_field(name=t("Favourite game"), value=t(
            "{game} ({games})", game=title(fav), games=plural(stats.games_by_game[fav], "game")))
        if stats.best_streak >= 2:
            embed.add_field(name=t("Win streak"), value=streak_words(stats))
        best_lines = [t("{game}: {yaku}", game=title(game), yaku=best)
                      for game in games_played(stats) if (best := best_yaku_words(stats, game))]
        embed.add_field(name=t("Best yaku"), inline=False,
                        value="\n".join(best_lines[:6]) or t("None formed yet."))
    if achieved is not None and (achieved or stats.games):
        embed.add_field(name=t("Achievements ({held} of {all})", held=len(achieved), all=len(CODES)),
                        inline=False, value=achievements_text(achieved, every=own_card))
    if daily is not None and daily.days:
        embed.add_field(name=t("Deal of the day"), inline=False, value=daily_words(daily))
    if stats.ratings:
        embed.add_field(name=t("Rating per game"), inline=False, value="\n".join(
            t("{game}: **{rating}** · {games} ({wins} W, {draws} D, {losses} L)", game=title(r.game),
              rating=rating(r.rating, r.sigma), games=plural(r.games, "rated game"),
              wins=number(r.wins), draws=number(r.draws), losses=number(r.losses))
            for r in stats.ratings[:6]))
        footer.append(t(RATING_NOTE))
    if stats.recent:
        lines = []
        for r in stats.recent:
            outcome = tp("outcome", OUTCOMES[r.outcome]) if r.outcome in OUTCOMES else r.outcome
            line = f"`#{r.game_id}` {title(r.game)} · {outcome} · {plural(r.points, 'point', signed=True)}"
            if r.rating_change is not None:
                line += " · " + t("rating {change}", change=number(round(r.rating_change), signed=True))
            lines.append(f"{line} · <t:{int(r.finished_at.timestamp())}:R>")
        embed.add_field(name=t("Recent results"), inline=False, value="\n".join(lines))
    if elsewhere is not None and elsewhere.games:
        embed.add_field(name=t(OWN_RECORD), inline=False, value=record_line(elsewhere))
    if versus is not None and versus.games and asker is not None:  # posted for everyone: both are named
        name, player = shown(target.display_name, 60), shown(asker.display_name, 60)
        embed.add_field(name=t("{player} and {name}", player=player, name=name), inline=False,
                        value=t("{games} together · {player} finished ahead in {ahead} · {name} in "
                                "{behind}", games=plural(versus.games, "game"), player=player,
                                ahead=number(versus.ahead), name=name, behind=number(versus.behind)))
    if not own:  # chips belong to a server: the guest places have none
        embed.add_field(name=shown(capitalized(currency_noun(currency)), FIELD_VALUE), inline=False,
                        value=number(balance) if balance is not None else t("No account yet."))
    if footer:
        embed.set_footer(text="\n".join(footer))
    return embed


def achievements_text(achieved: Sequence[str], *, every: bool = False) -> str:
    """The achievements held, and the next one of the list to earn with what earns it (``every``:
    each one still to earn, for the player's own record)."""
    lines = [" · ".join(achievement_name(code) for code in achieved)] if achieved else []
    missing = [code for code in CODES if code not in achieved]
    if missing and every:
        lines.append(t("To earn:"))
        lines += [t("{achievement}: {how}", achievement=achievement_name(code), how=earned_by(code))
                  for code in missing]
    elif missing:
        lines.append(t("Next: {achievement} ({how})", achievement=achievement_name(missing[0]),
                       how=earned_by(missing[0])))
    return "\n".join(lines)


def daily_words(record: DailyRecord) -> str:
    """A member's deals of the day: the days and deals they played, their best place, their runs
    of days."""
    played = tn("{n} day played", "{n} days played", record.days)
    if record.deals > record.days:  # several games' deals on a day
        played += " · " + plural(record.deals, "deal")
    if record.firsts:
        played += " · " + tn("first on the day's board once", "first on the day's board {n} times",
                             record.firsts)
    lines = [played]
    if (best := record.best) is not None:
        lines.append(t("Best place: {place} of {count} ({game}, {day})", place=number(best.place),
                       count=number(best.finished), game=title(best.game), day=day_text(best.day)))
    if record.run >= 2:
        now = tn("{n} day in a row now", "{n} days in a row now", record.run)
        lines.append(now if record.best_run == record.run else
                     t("{now} (best {best})", now=now, best=number(record.best_run)))
    elif record.best_run >= 2:
        lines.append(t("Best run: {days} in a row", days=plural(record.best_run, "day")))
    return "\n".join(lines)


def record_line(stats) -> str:
    """How many games a record holds and how they went."""
    return t("{played} played\n{won} won · {drawn} drawn · {lost} lost", played=number(stats.games),
             won=number(stats.wins), drawn=number(stats.draws), lost=number(stats.losses))


def streak_words(stats) -> str:
    """The games a player won in a row up to their latest (when two or more), and at most."""
    now = tn("{n} win in a row now", "{n} wins in a row now", stats.streak) if stats.streak >= 2 else ""
    return "\n".join(filter(None, [now, t("Best: {n}", n=number(stats.best_streak))]))


def games_played(stats) -> list[str]:
    """The games a player played, the most played first (at most six: a card's panels)."""
    return sorted(stats.games_by_game, key=lambda g: (-stats.games_by_game[g], g))[:6]


def best_yaku_words(stats, game: str) -> str:
    """The best yaku a player formed in ``game``, in words ("" when none)."""
    best = stats.best_yaku(game)
    if best is None:
        return ""
    return t("{yaku}, {points} ({times})", yaku=yaku_label(game, best.slug),
             points=plural(best.best_points, "point"), times=tn("once", "{n} times", best.times))


async def stats_card(store: Store, guild_id: int, name: str, stats, currency: str,
                     balance: int | None, season: str | None, *, versus=None,
                     asker: str = "", achieved: Sequence[str] | None = None,
                     daily: DailyRecord | None = None) -> CardView:
    """A player's card as the image draws it: their totals, then per game (the most played
    first) the record, best yaku, rating and its history (one query for every game).
    ``versus``: the games of ``asker`` (a name) with this player, from the asker's side; its
    tile reads from this player's ("2–1": this player finished ahead twice, the asker once);
    ``achieved``: the codes of their achievements there, a tile of how many of them; ``daily``:
    their deals of the day, a tile of the days played (and the run alive)."""
    ratings = {r.game: r for r in stats.ratings}
    games = games_played(stats)
    keys = {g: TrendKey(stats.user_id, g, ratings[g].season) for g in games if g in ratings}
    history = await store.recent_results(guild_id, list(keys.values()), limit=HISTORY_POINTS,
                                         rated_only=True) if keys else {}
    panels = []
    for game in games:
        line = ratings.get(game)
        played = stats.games_by_game[game]
        won, drew, lost = stats.record_by_game.get(game, (0, 0, 0))  # every game, not only rated
        record = t("{games} · {won} won · {drawn} drawn · {lost} lost", games=plural(played, "game"),
                   won=number(won), drawn=number(drew), lost=number(lost))
        panels.append(CardGame(
            title=title(game), record=record, best_yaku=best_yaku_words(stats, game),
            rating=rating(line.rating, line.sigma) if line is not None else "",
            history=tuple(p.rating_after for p in history.get(keys.get(game), [])
                          if p.rating_after is not None)))
    totals: tuple[tuple[str, str], ...] = ()
    if stats.games:
        totals = ((t("Games"), number(stats.games)), (t("Win rate"), rate(stats.wins, stats.games)),
                  (t("Points"), number(stats.points, signed=True)))
    if balance is not None:
        totals += ((capitalized(currency_noun(currency)), number(balance)),)
    if stats.best_streak >= 2:
        totals += ((t("Win streak"), t("{now} (best {best})", now=number(stats.streak),
                                       best=number(stats.best_streak))),)
    if versus is not None and versus.games:
        totals += ((t("vs {name}", name=asker), f"{number(versus.behind)}–{number(versus.ahead)}"),)
    if achieved is not None and (achieved or stats.games):
        totals += ((t("Achievements"), t("{held} of {all}", held=number(len(achieved)),
                                         all=number(len(CODES)))),)
    if daily is not None and daily.days:
        days = plural(daily.days, "day")
        totals += ((t("Deal of the day"), t("{days}, {run} in a row", days=days, run=number(daily.run))
                    if daily.run >= 2 else days),)
    note = t(RATING_NOTE) if stats.ratings else "" if stats.games else (
        t("No finished games there yet.") if stats.guild_id == GUEST_PLACES
        else t("No finished games on this server yet."))
    return CardView(name=name, subtitle=season or "", totals=totals, games=tuple(panels),
                    note=note, language=current())


def rate(wins: int, games: int) -> str:
    return f"{wins / games:.0%}" if games else "—"


class CommunityCog(ServerCog):
    """Leaderboards, player statistics and the chip ledger of a server."""

    chips = server_only(app_commands.Group(name="chips", description="Your chips on this server",
                                           guild_only=True))

    # -- /leaderboard ------------------------------------------------------------------------------
    @answers(private=False)
    @anywhere
    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.describe(game="Only this game (ratings are per game)",
                           order="Rank by rating, wins, points, win streak, chips, achievements or "
                                 "days on the deal of the day",
                           period="All time or the last 30 days",
                           season="Which season (default: the current one)")
    @app_commands.choices(
        game=GAME_CHOICES,
        order=[app_commands.Choice(name=n.capitalize(), value=v) for v, n in ORDERS.items()],
        period=[app_commands.Choice(name=n.capitalize(), value=v) for v, n in PERIODS.items()],
    )
    @app_commands.autocomplete(season=season_autocomplete)
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None,
                          order: str | None = None, period: str = "all",
                          season: app_commands.Range[str, 1, SEASON_OPTION_LENGTH] | None = None
                          ) -> None:
        order = order or ("rating" if game else "wins")
        try:
            chosen = season_option(season)
        except BadOption as exc:
            await refuse(interaction, str(exc))
            return
        if order == "rating" and chosen is ALL_SEASONS:
            await refuse(interaction, t("Ratings start afresh each season: choose one season."))
            return
        if order not in ORDERS or period not in PERIODS or (game and game not in GAMES):
            await refuse(interaction, t("Pick the game, order and period from the lists offered."))
            return
        if order == "rating" and game is None:
            await refuse(interaction, t("Ratings are kept per game: choose a game, or order by "
                                        "wins, points or chips."))
            return
        every_game = order in SERVER_WIDE and game is not None
        if order in SERVER_WIDE:
            game = None  # chips and achievements belong to the server, not to a game
        try:
            with in_public(interaction):  # the board is posted in the channel
                content, board = await leaderboard_message(
                    self.store, scope_of(interaction), interaction.user.id, game, order, period, 0,
                    chosen, known_names(interaction), await links_for(interaction))
                if every_game:  # the game asked for is not dropped without a word
                    said = t(ALL_GAMES_CHIPS) if order == "chips" else t(ALL_GAMES_ACHIEVEMENTS)
                    embed = content["embed"]
                    embed.description = f"{embed.description}\n{said}" if embed.description else said
                    board = replace(board, note=f"{said} {board.note}".strip())
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await acknowledge(interaction)  # the page is drawn in the render workers
        files = await drawn(self.bot, render_board, board, content["embed"], BOARD_IMAGE)
        await send(interaction, files=files, **content)

    # -- /stats ------------------------------------------------------------------------------------
    @answers(private=False)
    @anywhere
    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.describe(user="Whose record (default: yours)",
                           season="Which season (default: the current one)")
    @app_commands.autocomplete(season=season_autocomplete)
    async def stats(self, interaction: discord.Interaction,
                    user: discord.Member | discord.User | None = None,
                    season: app_commands.Range[str, 1, SEASON_OPTION_LENGTH] | None = None
                    ) -> None:
        target = user or interaction.user  # a former member keeps their record
        if target.bot:
            await refuse(interaction, t("Bots keep no record here; pick a member."))
            return
        guild = scope_of(interaction)
        mine = target.id == interaction.user.id
        try:
            chosen = season_option(season)
            if mine and place_of(interaction).guest:  # where the app is a guest: your own record
                embed, card = await self._own_stats(interaction, target, chosen)
            else:
                embed, card = await self._place_stats(interaction, guild, target, chosen, mine)
        except (StoreError, BadOption) as exc:
            await refuse(interaction, told(exc))
            return
        await acknowledge(interaction)  # the card is drawn in the render workers
        files = await drawn(self.bot, render_card, card, embed, CARD_IMAGE)
        await send(interaction, embed=embed, files=files, allowed_mentions=NO_PINGS)

    async def _place_stats(self, interaction: discord.Interaction, guild: int,
                           target: discord.abc.User, chosen: SeasonChoice, mine: bool
                           ) -> tuple[discord.Embed, CardView]:
        """A player's record in the place asked from (a server, or one guest place), and below it
        for the player who asked for their own, one line of their record in the guest places."""
        seasons = await self.store.seasons(guild)
        number_ = season_number(chosen, seasons)
        stats = await self.store.user_stats(guild, target.id, recent=5, season=number_)
        settings = await self.store.get_settings(guild)
        try:
            balance: int | None = await self.store.balance(guild, target.id)
        except UnknownAccount:
            balance = None
        elsewhere = await self.store.guest_record(target.id, recent=0, yaku=False) if mine else None
        versus = None if mine else await self.store.head_to_head(guild, interaction.user.id,
                                                                 target.id, season=number_)
        achieved = [e.code for e in await self.store.achievements(guild, target.id)]
        daily = await self.store.daily_record(guild, target.id)  # the place's own days
        with in_public(interaction):  # the record is posted in the channel
            embed = fit_embed(stats_embed(target, stats, settings.currency_name, balance,
                                          season_label(number_, seasons), elsewhere=elsewhere,
                                          versus=versus, asker=interaction.user, achieved=achieved,
                                          own_card=mine, daily=daily))
            card = await stats_card(self.store, guild, target.display_name, stats,
                                    settings.currency_name, balance,
                                    season_label(number_, seasons, plain=True), versus=versus,
                                    asker=interaction.user.display_name, achieved=achieved,
                                    daily=daily)
        return embed, card

    async def _own_stats(self, interaction: discord.Interaction, target: discord.abc.User,
                         chosen: SeasonChoice) -> tuple[discord.Embed, CardView]:
        """The asker's own record of every place where the app is a guest: seasons belong to
        servers, so it counts every game."""
        if chosen not in (CURRENT_SEASON, ALL_SEASONS):
            raise BadOption(t("Only a server has seasons: your own record counts every game."))
        stats = await self.store.guest_record(target.id, recent=5)
        achieved = [e.code for e in await self.store.achievements(GUEST_PLACES, target.id)]
        with in_public(interaction):  # the record is posted in the channel
            embed = fit_embed(stats_embed(target, stats, "", None, achieved=achieved, own_card=True))
            card = await stats_card(self.store, GUEST_PLACES, target.display_name, stats, "", None,
                                    t(OWN_RECORD), achieved=achieved)
        return embed, card

    # -- /chips ------------------------------------------------------------------------------------
    @answers(private=False)
    @chips.command(name="balance", description="How many chips you (or another member) hold")
    @app_commands.describe(user="Whose balance (default: yours)")
    async def balance(self, interaction: discord.Interaction,
                      user: discord.Member | discord.User | None = None) -> None:
        target = user or interaction.user
        guild = interaction.guild_id
        mine = target.id == interaction.user.id
        if not mine and (why := not_a_member(target)):
            await refuse(interaction, why)
            return
        name = shown(target.display_name, 100)
        try:
            settings = await self.store.get_settings(guild)
            currency = shown(settings.currency_name, 64)
            try:  # a read first: a balance still shows while the database cannot be written
                amount = await self.store.balance(guild, target.id)
            except UnknownAccount:
                if not mine:
                    await refuse(interaction, t("{name} has no {currency} here yet; their account "
                                                "opens with their first /chips command.",
                                                name=name, currency=currency_noun(currency)))
                    return
                amount, _ = await self.store.open_account(guild, target.id)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        with in_public(interaction):  # the answer is posted in the channel
            held = counted(amount, currency, bold=True)
            text = (t("💰 You have {amount}.", amount=held) if mine
                    else t("💰 {name} has {amount}.", name=name, amount=held))
        await send(interaction, text, allowed_mentions=NO_PINGS)

    @answers(private=False)
    @chips.command(name="daily", description="Claim your daily chips (once per UTC day)")
    async def daily(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id, interaction.user.id
        try:
            settings = await self.store.get_settings(guild)
            await self.store.open_account(guild, user)
            done = await self.store.claim_daily(guild, user)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        currency = shown(settings.currency_name, 64)
        with in_public(interaction):  # the answer is posted in the channel
            text = t("🎁 You claimed {amount}; you now have {balance}. Come back tomorrow (UTC) "
                     "for more.", amount=counted(done.amount, currency, bold=True),
                     balance=f"**{number(done.to_balance)}**")
        await send(interaction, text, allowed_mentions=NO_PINGS)

    @answers(private=False)
    @chips.command(name="give", description="Give some of your chips to another member")
    @app_commands.describe(user="Who receives them", amount="How many chips")
    async def give(self, interaction: discord.Interaction, user: discord.Member | discord.User,
                   amount: app_commands.Range[int, 1, MAX_AMOUNT]) -> None:
        guild, sender = interaction.guild_id, interaction.user.id
        if why := not_a_member(user):
            await refuse(interaction, why)
            return
        if user.id == sender:
            await refuse(interaction, t("You can't give chips to yourself; pick another member."))
            return
        try:
            settings = await self.store.get_settings(guild)
            currency = shown(settings.currency_name, 64)
            done = await self.store.transfer(
                guild, sender, user.id, amount, key=f"give:{interaction.id}",
                reason=f"gift from {interaction.user.display_name}"[:200], open_accounts=True)
        except InsufficientFunds as exc:
            await refuse(interaction, t("You have {balance}, not {amount}; give less, or claim "
                                        "/chips daily first.", balance=counted(exc.balance, currency),
                                        amount=number(amount)))
            return
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        with in_public(interaction):  # the answer is posted in the channel
            text = t("🤝 {giver} gave {amount} to {receiver} (now {giver_balance} and "
                     "{receiver_balance}).", giver=f"<@{sender}>",
                     amount=counted(amount, currency, bold=True), receiver=f"<@{user.id}>",
                     giver_balance=number(done.from_balance), receiver_balance=number(done.to_balance))
        await send(interaction, text, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[user], replied_user=False))

    @answers(private=True)
    @chips.command(name="history", description="Your chip history on this server, newest first")
    async def history(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id, interaction.user.id
        try:
            try:  # reads first: the history still shows while the database cannot be written
                await self.store.balance(guild, user)
            except UnknownAccount:
                await self.store.open_account(guild, user)
            content = await history_message(self.store, guild, user, 0)
        except StoreError as exc:
            await refuse(interaction, sentence(exc))
            return
        await send(interaction, ephemeral=True, **content)


async def setup(bot: commands.Bot) -> None:
    bot.tree.error(answer_command_error)
    bot.add_dynamic_items(LeaderboardPager, HistoryPager)
    await bot.add_cog(CommunityCog(bot))
