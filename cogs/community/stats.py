"""``/stats``: a player's record as an embed and as a card, and the words they share (the
record, the streak, the best yaku, the achievements, the deals of the day)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import presenter
from bot.achievement_text import earned_by
from bot.achievement_text import name as achievement_name
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.text import FIELD_VALUE, TITLE, day_text, shown
from bot.i18n import N_, NP_, current, number, t, tn, tp
from bot.rules_text import title
from bot.store import Store, TrendKey
from bot.store.achievements import CODES
from bot.store.daily import DailyRecord
from bot.store.records import GUEST_PLACES
from bot.words import RATING_NOTE, capitalized, currency_noun, plural, rating
from rendering import CardGame, CardView

CARD_IMAGE = "stats.png"
HISTORY_POINTS = 40  # ratings after each of the latest rated games on a player's card
# A player's own record: their games wherever the app is a guest (bot.store.guests), together.
OWN_RECORD = N_("Your games in DMs, group DMs and servers without the bot")


def yaku_label(game: str, slug: str) -> str:
    try:
        return presenter.yaku_name(game, slug)
    except Exception:  # an unknown slug still gets a readable name
        return slug.replace("_", " ").capitalize()



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
    of the day on the server, or in every guest place for their own record (every day's, as chips
    are not seasonal)."""
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
