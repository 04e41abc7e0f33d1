"""Turns engine observations and events into what people see: view-models and one-line texts.

Pure functions, no Discord: the cogs send what this module builds. Only public information goes
into a table view (it is posted in the channel); a hand view is built for its owner only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.cards import card
from bot.games.base import Action
from rendering.view import GAME_NAMES, HandView, PlayerView, SummaryView, TableView, YakuRow

YAKU_NAMES: dict[str, str] = {
    "goko": "Goko (five brights)", "shiko": "Shiko (four brights)", "ameshiko": "Ame-shiko (rainy four)",
    "sanko": "Sanko (three brights)", "inoshikacho": "Inoshikacho (boar-deer-butterflies)",
    "tane": "Tane (animals)", "akatan": "Akatan (poetry ribbons)", "aotan": "Aotan (blue ribbons)",
    "akatan_aotan": "Akatan + Aotan", "tanzaku": "Tanzaku (ribbons)", "hanami_zake": "Hanami-zake",
    "tsukimi_zake": "Tsukimi-zake", "kasu": "Kasu (chaff)", "tsukifuda": "Tsukifuda (month cards)",
    "teshi": "Teshi (four of a month dealt)", "kuttsuki": "Kuttsuki (four pairs dealt)",
    "field_four": "Four of a month on the field",
}
MULTIPLIER_NAMES = {"seven_plus": "7 points or more", "koikoi": "koi-koi", "field_brights": "brights on the field"}


def yaku_name(slug: str) -> str:
    return YAKU_NAMES.get(slug, slug.replace("_", " ").capitalize())


def card_name(cid: str) -> str:
    return card(cid).name


def action_label(action: Action) -> str:
    """A short button label for an action (the hand position is added by the caller)."""
    if action.kind == "play":
        label = card_name(action.card)
        if action.target:
            label += f" → {card_name(action.target)}"
        return label
    if action.kind == "choose":
        return f"Take {card_name(action.target)}"
    return {"koikoi": "Koi-Koi!", "stop": "Stop (score now)", "keep": "Keep my hand",
            "swap": "Swap hands"}.get(action.kind, action.kind.capitalize())


def describe_event(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """One line of what happened, or None for events not worth a line."""
    t = event.get("type")
    who = names[event["player"]] if isinstance(event.get("player"), int) else ""
    if t == "play":
        took = event["captured"]
        others = [card_name(c) for c in took if c != event["card"]]
        return (f"{who} played {card_name(event['card'])}" +
                (f" and took {', '.join(others)}" if others else " to the field"))
    if t == "draw":
        others = [card_name(c) for c in event["captured"] if c != event["card"]]
        return (f"{who} turned {card_name(event['card'])}" +
                (f" and took {', '.join(others)}" if others else ""))
    if t == "drew":
        return f"{who} turned {card_name(event['card'])}: it matches two cards, choosing…"
    if t == "yaku":
        listed = ", ".join(f"{yaku_name(s)} {p}" for s, p in event["yaku"])
        return f"{who} has {listed} = {event['points']} points"
    if t == "koikoi":
        return f"{who} calls **Koi-Koi!** (call {event['calls']})"
    if t == "stop":
        return f"{who} stops" + (" (no cards left to go on)" if event.get("forced") else "")
    if t == "swap":
        return f"{who} swaps hands with the dealer"
    if t == "misdeal":
        return "Misdeal: the cards are dealt again"
    if t == "round_over":
        w = event.get("winner")
        if w is None:
            return f"Round {event['round']} is a draw"
        pts = event["points"][w]
        return f"Round {event['round']}: {names[w]} scores {pts}"
    if t == "match_over":
        win = event["winners"]
        if len(win) > 1:
            return "The match ends in a tie"
        return f"**{names[win[0]]} wins the match!**"
    return None


def table_view(obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
               title: str | None = None) -> TableView:
    """The public table from any seat's observation (only public fields are read)."""
    match = obs.get("match", {})
    scores = match.get("scores") or [None] * len(names)
    players = []
    for seat, name in enumerate(names):
        badges = []
        calls = obs.get("koikoi_calls")
        if calls and calls[seat]:
            badges.append(f"Koi-Koi x{calls[seat]}")
        yaku = obs.get("yaku", [[] for _ in names])[seat]
        if yaku:
            badges.append(f"{sum(p for _, p in yaku)} pts in yaku")
        progress = tuple(f"{yaku_name(s).split(' (')[0]} {h}/{n}" for s, h, n in obs.get("progress", [[]] * len(names))[seat])
        players.append(PlayerView(
            name=name, captured=tuple(obs["captured"][seat]), score=scores[seat],
            is_dealer=obs.get("dealer") == seat, is_turn=obs.get("current_player") == seat,
            hand_size=obs["hand_sizes"][seat], badges=tuple(badges), progress=progress,
        ))
    rounds = match.get("rounds") or 0
    rnd = match.get("round", obs.get("round_number", 1))
    game = obs["game"]
    head = title or f"{GAME_NAMES.get(game, game)} · round {rnd}" + (f"/{rounds}" if rounds else "")
    return TableView(
        game=game, title=head, players=tuple(players), field=tuple(obs["field"]),
        stock_count=obs.get("stock_count"), highlight=tuple(obs.get("last_move", ())),
        last_move=last_move, drawn_card=obs.get("drawn"),
        footer=f"Target {match['target_score']} points" if match.get("target_score") else "",
    )


def hand_actions(obs: dict[str, Any]) -> list[tuple[int | None, Action]]:
    """The seat's legal actions with the 1-based hand position of the card they play."""
    hand = obs["hand"]
    out = []
    for text in obs.get("legal_actions", []):
        a = Action.parse(text)
        pos = hand.index(a.card) + 1 if a.kind == "play" and a.card in hand else None
        out.append((pos, a))
    return out


def hand_view(obs: dict[str, Any]) -> HandView:
    playable = []
    field_months = {card(c).month for c in obs["field"]}
    for cid in obs["hand"]:
        if card(cid).month in field_months:
            playable.append(cid)
    turn = obs.get("current_player") == obs.get("seat")
    phase = obs.get("phase")
    title = "Your hand"
    if turn and phase == "decide":
        title += " · you formed a yaku: Koi-Koi or Stop?"
    elif turn and phase == "choose_draw":
        title += f" · you turned {card_name(obs['drawn'])}: choose a card to take"
    elif turn:
        title += " · your turn: play a card"
    return HandView(cards=tuple(obs["hand"]), playable=tuple(playable), title=title)


def summary_view(event: dict[str, Any], names: Sequence[str]) -> SummaryView:
    """The end-of-round picture from a ``round_over`` event."""
    detail = event.get("detail", {})
    w = event.get("winner")
    rows = []
    if w is not None:
        for entry in detail.get("yaku", []):
            slug, pts = entry[0], entry[1]
            cards = tuple(entry[2]) if len(entry) > 2 else ()
            rows.append(YakuRow(player=names[w], name=yaku_name(slug), cards=cards, points=pts))
        for name in detail.get("teyaku", []) if isinstance(detail.get("teyaku"), list) else []:
            rows.append(YakuRow(player=names[w], name=yaku_name(name), cards=tuple(detail.get("revealed", ())),
                                points=detail.get("base", 0)))
    mults = tuple(f"x{f} {MULTIPLIER_NAMES.get(n, n)}" for n, f in detail.get("multipliers", []))
    lines = []
    if w is None:
        lines.append("Draw: nobody scores this round")
    else:
        lines.append(f"{names[w]} scores {event['points'][w]}")
    lines.append("Match: " + ", ".join(f"{n} {s}" for n, s in zip(names, event.get("scores", []), strict=False)))
    return SummaryView(title=f"Round {event['round']}", rows=tuple(rows), multipliers=mults,
                       result_lines=tuple(lines))
