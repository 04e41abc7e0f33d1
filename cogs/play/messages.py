"""What a lobby's or a challenge's message says in each state: its members and every setting of
the table it would start (the buttons are the presses' own, :mod:`.presses`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.fair import add_commitment
from bot.discord_ui.game_settings import add_settings
from bot.discord_ui.parts import ACCENT
from bot.discord_ui.starting import expired_embed
from bot.games.base import InvalidRules
from bot.i18n import t
from bot.store.lobbies import Lobby
from bot.tables.rules import build_rules
from bot.tables.starting import ai_names
from rendering.view import GAME_NAMES


def lobby_text(humans: list[int] | tuple[int, ...], ais: list[str] | tuple[str, ...]) -> str:
    """Members as user mentions (they ping nobody: every message here allows no mentions)."""
    return "\n".join([*(f"<@{h}>" for h in humans), *ai_names(list(ais))])


def lobby_rules(lobby: Lobby, settings: Any):
    """The rules the lobby's table would play now (its options over the server's house rules)."""
    try:
        return build_rules(lobby.game, settings.rules_for(lobby.game), lobby.preset, lobby.rounds,
                           lobby.target, lobby.teams, lobby.stake, lobby.options)
    except InvalidRules:  # house rules changed since: show the lobby's own options on the default
        return build_rules(lobby.game, {}, lobby.preset, lobby.rounds, lobby.target, lobby.teams,
                           lobby.stake, lobby.options)


def lobby_embed(lobby: Lobby, settings: Any, title: str | None = None, *, open_: bool = True
                ) -> discord.Embed:
    """The members and every setting of the lobby or challenge: game, match length, rule set,
    stake in the server's currency, teams and the seats taken of those the rules allow; an open
    lobby says how to join (``open_``: not once it started)."""
    embed = discord.Embed(title=title or t("{game} lobby", game=GAME_NAMES[lobby.game]), colour=ACCENT,
                          description=lobby_text(lobby.humans, lobby.ais))
    add_settings(embed, lobby.game, lobby_rules(lobby, settings), lobby.stake, settings.currency_name,
                 chosen_preset=lobby.preset is not None,
                 seated=lobby.seats if lobby.kind == "lobby" else None,
                 seats=lobby.kind == "lobby")
    if open_:
        add_commitment(embed, lobby.commitment)
    if lobby.kind == "lobby" and open_:
        embed.set_footer(text=t("Join to take a seat; the host adds AI players and presses Start."))
    return embed


def is_open(lobby: Lobby) -> bool:
    """Whether the message still offers its controls (one being started still shows open: its
    message changes once the game is on)."""
    over = ("expired", "closed", "started") if lobby.kind == "challenge" else ("closed", "started")
    return lobby.status not in over


def lobby_card(lobby: Lobby, settings: Any) -> discord.Embed:
    """The embed of a lobby's or challenge's message in its state."""
    game = GAME_NAMES[lobby.game]
    if lobby.kind == "challenge":
        if lobby.status == "expired":
            return expired_embed(lobby)
        if lobby.status == "closed":
            return discord.Embed(title=t("Challenge declined"), colour=ACCENT,
                                 description=t("{user} declined.", user=f"<@{lobby.opponent_id}>"))
        if lobby.status == "started":
            return discord.Embed(title=t("Challenge accepted"), colour=ACCENT,
                                 description=f"<@{lobby.host_id}> vs <@{lobby.opponent_id}>")
        embed = lobby_embed(lobby, settings, title=t("{game} challenge", game=game))
        lines = [t("{host} challenges {opponent}.", host=f"<@{lobby.host_id}>", opponent=f"<@{lobby.opponent_id}>")]
        if lobby.expires_at is not None:
            lines.append(t("The challenge expires {when}.", when=f"<t:{int(lobby.expires_at)}:R>"))
        embed.description = "\n".join(lines)
        return embed
    if lobby.status == "closed":
        return discord.Embed(title=t("Lobby closed"), description=t("The host cancelled it."), colour=ACCENT)
    if lobby.status == "started":
        return lobby_embed(lobby, settings, title=t("{game} lobby: started", game=game), open_=False)
    return lobby_embed(lobby, settings)
