"""What a tournament's messages say: the sign-up message's embed, the texts of its options and
prizes, what a member who withdrew is told, and the standings (the picture's view and the same
as text)."""

from __future__ import annotations

import discord

from bot.discord_ui.game_settings import match_length, rules_text
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.text import fit_embed, safe_name
from bot.games import game_module
from bot.i18n import N_, number, t, tn
from bot.store.tournaments import MAX_ENTRANTS, Entrant, Tournament
from bot.tournaments.prizes import prize_shares, prize_split
from rendering.tournament import StandingsView, standings_view
from rendering.view import GAME_NAMES

FORMAT_NAMES = {"swiss": N_("Swiss"), "single_elimination": N_("single elimination"),
                "round_robin": N_("round robin")}


def signup_text(minutes: int) -> str:
    """A sign-up's length as the weekly tournament's answer says it ("1 hour")."""
    if minutes % 1440 == 0:
        return tn("{n} day", "{n} days", minutes // 1440)
    if minutes % 60 == 0:
        return tn("{n} hour", "{n} hours", minutes // 60)
    return tn("{n} minute", "{n} minutes", minutes)


def format_name(code: str) -> str:
    return t(FORMAT_NAMES[code])


def prizes_text(tour: Tournament) -> str:
    split = prize_split(tour.format, max(2, len(tour.seeded) or len(tour.signed_up)))
    places = " · ".join(t("{place}: {percent}%", place=number(i + 1), percent=pct)
                        for i, pct in enumerate(split))
    return t("{places} of the pot ({pot})", places=places, pot=number(tour.pot))


# -- what the tournament message shows -------------------------------------------------------------

def tournament_embed(tour: Tournament, currency: str) -> discord.Embed:
    game = GAME_NAMES.get(tour.game, tour.game)
    title = t("🏆 {game} tournament #{number}", game=game, number=tour.tournament_id)
    rules = game_module(tour.game).Rules.from_dict(tour.rules)
    if tour.status == "open" and tour.starts_at is not None:
        state = t("Sign-up is open: press Join. It starts by itself <t:{when}:R> with two "
                  "entrants or more (staff may add AI entrants, or press Start sooner).",
                  when=tour.starts_at // 1000)
    elif tour.status == "open":
        state = t("Sign-up is open: press Join. Staff add AI entrants and press Start.")
    elif tour.status == "running":
        state = t("Round {round} of {rounds} is being played; the tables are below.",
                  round=tour.round, rounds=tour.rounds)
    elif tour.status == "finished":
        winner = next((e for e in tour.entrants if e.place == 1), None)
        state = t("Over: {name} won.", name=safe_name(winner.name) if winner else "?")
    else:
        state = t("Cancelled; every entry fee was refunded.")
    embed = discord.Embed(title=title, colour=ACCENT, description=state)
    embed.add_field(name=t("Format"), value=format_name(tour.format))
    embed.add_field(name=t("Match"), value=match_length(rules, tour.game))
    embed.add_field(name=t("Rules"), value=rules_text(tour.game, rules, True))
    embed.add_field(name=t("Entry fee"), value=number(tour.fee) + " " + safe_name(currency)[:32]
                    if tour.fee else t("free"))
    embed.add_field(name=t("Prizes"), value=prizes_text(tour) if tour.fee else t("none (no fee)"))
    shown = tour.signed_up if tour.status == "open" else tour.seeded
    names = []
    for e in shown:
        name = safe_name(e.name)
        if e.status == "dropped":
            name = t("{name} (dropped)", name=name)
        names.append(name)
    count = t("{count} of at most {most}", count=len(tour.signed_up),
              most=MAX_ENTRANTS[tour.format]) if tour.status == "open" else number(len(shown))
    embed.add_field(name=t("Entrants: {count}", count=count),
                    value=", ".join(names)[:1000] or t("nobody yet"), inline=False)
    return fit_embed(embed)


def standings_nonce(tour: Tournament) -> str | None:
    """The nonce of the standings after the tournament's current round (None past the 25
    characters Discord takes, which no tournament's id and round come near)."""
    nonce = f"hft{tour.tournament_id}.{tour.round}"
    return nonce if len(nonce) <= 25 else None


def standings_lines(tour: Tournament, view: StandingsView) -> list[str]:
    """The standings as text (what a screen reader reads beside the picture)."""
    heads = view.headers
    lines = []
    for row in view.rows:
        cells = ", ".join(f"{h} {c}" for h, c in zip(heads, row.cells, strict=True))
        lines.append(f"{row.rank}. {safe_name(row.name)}: {cells}")
    return lines


def build_view(tour: Tournament, ranking: list[int] | None = None) -> StandingsView:
    """The standings after the latest round; with the final ``ranking`` (seeds, first place
    first), the prizes it pays and the winner."""
    names = {e.seed: e.name for e in tour.seeded}
    done = max((r for r, (status, _) in tour.round_status.items() if status == "done"), default=0)
    players = tn("{n} player", "{n} players", len(names))
    prizes: dict[int, int] = {}
    footer = ""
    if ranking is not None:
        shares = prize_shares(tour.pot, tour.format, len(ranking))
        prizes = {seed: shares[i] for i, seed in enumerate(ranking[:len(shares)]) if shares[i]}
        footer = t("Winner: {name}", name=names[ranking[0]])
        subtitle = t("{format}, {players}: final standings", format=format_name(tour.format),
                     players=players)
    else:
        subtitle = t("{format}, {players}: standings after round {round} of {rounds}",
                     format=format_name(tour.format), players=players, round=done,
                     rounds=tour.rounds)
    return standings_view(
        format=tour.format,
        title=t("{game} tournament #{number}", game=GAME_NAMES.get(tour.game, tour.game),
                number=tour.tournament_id),
        subtitle=subtitle, names=names, entrants=len(names), games=tour.games(),
        dropped=tour.dropped_seeds, prizes=prizes, footer=footer)


def withdrawn_text(tour: Tournament, gone: Entrant) -> str:
    """What a member who withdrew is told: the fee refunded before the start, kept in the pot
    (and no further games) once it runs."""
    if tour.status == "open":
        if gone.paid:
            return t("You left tournament #{number}; your entry fee of {fee} was refunded.",
                     number=tour.tournament_id, fee=number(gone.paid))
        return t("You left tournament #{number}.", number=tour.tournament_id)
    if gone.paid:
        return t("You withdrew from tournament #{number}: you get no further games and a game of "
                 "yours still being played is forfeited. Your entry fee of {fee} stays in the "
                 "prize pot (a fee comes back only before the start).",
                 number=tour.tournament_id, fee=number(gone.paid))
    return t("You withdrew from tournament #{number}: you get no further games and a game of "
             "yours still being played is forfeited.", number=tour.tournament_id)
