"""How a committed deal is shown on Discord: the commitment on a lobby, challenge, rematch and
running table, the revealed server seed and its derivation on a final table and in /replay.

One field of an embed or of a laid-out card (:mod:`bot.discord_ui.layout`), written here for every
message that shows it (:mod:`bot.fairness` holds the data; docs/fair-deals.md the procedure the
words point to).
"""

from __future__ import annotations

import discord

from bot.discord_ui.layout import Card
from bot.discord_ui.text import FIELD_VALUE, clip
from bot.fairness import FairDeal, derivation_text
from bot.i18n import t

__all__ = ["add_commitment", "add_day_deal", "add_deal"]


def _name() -> str:
    return t("Fair deal")


def add_commitment(embed: discord.Embed | Card, commitment: str | None,
                   reveal_at: int | None = None) -> None:
    """The commitment of a game not dealt yet or still running (nothing for a lobby from before
    commitments): the seed behind it stays secret until the game ends, or until ``reveal_at``
    (ms) for a day's deal, which deals other members' games too."""
    if commitment is None:
        return
    if reveal_at is not None:
        embed.add_field(name=_name(), inline=False, value=clip(t(
            "Commitment (`SHA-256`): `{commitment}`\nThe secret seed behind it deals everyone's "
            "game of today's deal: it is revealed when the day ends, {when}; /verify then "
            "checks every deal.", commitment=commitment, when=f"<t:{reveal_at // 1000}:R>"),
            FIELD_VALUE))
        return
    embed.add_field(name=_name(), inline=False, value=clip(t(
        "Commitment (`SHA-256`): `{commitment}`\nThe secret seed behind it is revealed when the "
        "game ends; /verify then checks every deal.", commitment=commitment), FIELD_VALUE))


def add_deal(embed: discord.Embed | Card, deal: FairDeal | None, game_id: int, *, ended: bool,
             unknown: bool = False) -> None:
    """The deal of a game: its commitment while it runs, and once it has ended the server seed,
    what its SHA-256 is and how the match seed comes from it. ``unknown``: say "not committed"
    for a game without a commitment (a replay), rather than nothing (a table)."""
    if deal is None:
        if unknown:
            embed.add_field(name=_name(), inline=False, value=t(
                "Not committed: this game was dealt before deals were committed."))
        return
    if not ended or deal.server_seed is None:
        add_commitment(embed, deal.commitment, deal.reveal_at)
        return
    embed.add_field(name=_name(), inline=False, value=clip(t(
        "Server seed: `{seed}`\nIts `SHA-256`, `{commitment}`, was shown before the deal.\n"
        "Match seed: the first 8 bytes of the `SHA-256` of `{text}` as a number, halved: {match}.\n"
        "Check every deal with `/verify game_id:{game_id}`.",
        seed=deal.server_seed, commitment=deal.commitment,
        text=derivation_text(deal.server_seed, deal.ids), match=str(deal.seed),
        game_id=game_id), FIELD_VALUE))


def add_day_deal(embed: discord.Embed | Card, commitment: str, server_seed: str | None,
                 reveal_at: int, verify: str) -> None:
    """A day's deal on its board: its commitment while the day runs, its server seed once the
    day is over; ``verify`` names the command that checks its games."""
    if server_seed is None:
        add_commitment(embed, commitment, reveal_at)
        return
    embed.add_field(name=_name(), inline=False, value=clip(t(
        "Server seed: `{seed}`\nIts `SHA-256`, `{commitment}`, was shown all day. Every game "
        "of this deal was dealt from it with no other input: {verify} checks any of them.",
        seed=server_seed, commitment=commitment, verify=verify), FIELD_VALUE))
