"""What one viewer of a table sees, as the JSON pushed to their page: the public table for
everybody, and the hand and the moves for its player alone. Built in the viewer's language from
the same presenters as the pictures; the moves are the table service's own keys (``#i``: the
i-th move it offers), so a press from the page is the press of a button.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot import presenter
from bot.achievement_text import daily_line, earned_line, series_line
from bot.activity.lobby import replayable
from bot.cards import DECK, Kind, card
from bot.daily_words import share_message
from bot.i18n import number, speaking, t, tn
from bot.presenters.base import card_name, final_table, score_line
from bot.presenters.base import result_headline as ended
from bot.settlement import is_betting
from bot.tables import HOME_PRIVATE, is_ai
from bot.tables.starting import ai_names
from rendering.view import GAME_NAMES, PlayerView, SummaryView, TableView

if TYPE_CHECKING:
    from bot.tables import Table

KIND_ORDER = (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.CHAFF)
DECK_IDS = frozenset(c.id for c in DECK)


def words() -> dict[str, str]:
    """The page's own words in the language being spoken (the page holds none of its own)."""
    return {
        "field": t("Field"), "stock": t("Stock"), "hand": t("Your hand"),
        "captured": t("Captured"), "log": t("Last moves"),
        "your_turn": t("Your turn"), "watching": t("You are watching this game."),
        "choose": t("Choose the card to take"), "cancel": t("Cancel"), "close": t("Close"),
        "summary": t("Round summary"), "due": t("Time left: {seconds} s"),
        "dealer": t("Dealer"), "turn": t("To play"), "playable": t("can capture"),
        "slap": t("Slap!"), "moved": t("just played"), "hint": t("Hint"),
        "reconnecting": t("Connection lost; reconnecting…"),
        "idle": t("No game is running in this channel. Start one with a game's command, and "
                  "it shows here."),
        "moves": t("Your moves"),
        # the lobby (bot.activity.lobby)
        "lobby": t("Start a game here"), "game": t("Game"), "level": t("AI level"),
        "length": t("Length"), "one_round": t("One round"), "full_match": t("A full match"),
        "players": t("Players"), "play_ai": t("Play the AI"),
        "open_seats": t("Open seats for friends"), "take_seat": t("Take a seat"),
        "waiting": t("Waiting for the other players…"), "new_game": t("New game"),
        "again": t("Rematch"), "leave": t("Leave"), "invite": t("Invite friends"),
        "invite_failed": t("Discord could not open its window to invite; try again."),
        "how_to_play": t("How to play"), "rules": t("Rules"),
        # the deal of the day (bot.tables.daily)
        "daily": t("Deal of the day"), "play_daily": t("Play today's deal"),
        "daily_board": t("Today's board"), "against_ai": t("Against the AI"),
        "share": t("Share my result"), "shared": t("Shared."),
        "share_failed": t("Discord could not open its window to share; try again."),
        "daily_text": t("The same cards for everyone here today: one round against the AI "
                        "(hard), once a day, seen by you alone. The board ranks who came out "
                        "furthest ahead of the AI."),
    }


def result_headline(table: Table, names: Sequence[str]) -> str:
    """Who won a game that is over, or why it ended."""
    return ended(table.closing or {}, names)


def plain(line: str) -> str:
    """A narrated line without the bold marks written for Discord (the page sets its own)."""
    return line.replace("**", "")


def seat_names(table: Table) -> list[str]:
    """The seats' names, an AI's in the reader's language (a member's name is their own)."""
    levels = [str(p).split(":", 1)[1] for p in table.players if is_ai(p)]
    shown = iter(ai_names(levels))
    return [next(shown) if is_ai(player) else name
            for player, name in zip(table.players, table.names, strict=True)]


def _pile_order(cid: str) -> tuple[int, int, str]:
    """Captured cards by kind (brights first) then month, as the table picture groups them;
    Go-Stop's jokers count as chaff and come last."""
    if cid not in DECK_IDS:
        return (len(KIND_ORDER), 0, cid)
    found = card(cid)
    return (KIND_ORDER.index(found.kind), found.index, cid)


def _player(seat: int, view: PlayerView, unit: tuple[str, str]) -> dict[str, Any]:
    return {"seat": seat, "name": view.name, "score": view.score, "turn": view.is_turn,
            "dealer": view.is_dealer, "hand": view.hand_size, "badges": list(view.badges),
            "progress": list(view.progress), "captured": sorted(view.captured, key=_pile_order),
            "team": view.team,
            "shown": list(view.shown), "stack": view.stack, "bet": view.bet,
            "status": view.status, "out": view.out, "hand_name": view.hand_name,
            "pi": view.pi_count,
            "score_text": "" if view.score is None else tn(*unit, view.score),
            "hand_text": "" if view.hand_size is None else
            tn("{n} card in hand", "{n} cards in hand", view.hand_size)}


def _summary(table: Table) -> dict[str, Any] | None:
    """The latest round's summary while the table's recent moves still hold it."""
    event = next((e for e in reversed(table.recent) if presenter.posts_summary(table.game, e)), None)
    if event is None:
        return None
    view: SummaryView = presenter.summary_view(table.game, event, seat_names(table))
    key = hashlib.blake2b(json.dumps(event, sort_keys=True, default=str).encode(), digest_size=8)
    return {"key": f"{table.game_id}:{key.hexdigest()}", "title": view.title,
            "rows": [{"player": r.player, "name": r.name, "cards": list(r.cards), "points": r.points}
                     for r in view.rows],
            "multipliers": list(view.multipliers), "lines": [plain(line) for line in view.result_lines],
            "hands": [{"player": h.player, "name": h.name, "cards": list(h.cards), "detail": h.detail,
                       "won": h.won, "net": h.net, "winner": h.winner, "note": h.note}
                      for h in view.hands],
            "pots": list(view.pots), "banner": view.banner}


def _moves(table: Table, obs: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's moves as the table service offers them, each under its ``#i`` key."""
    game = presenter.for_game(table.game)
    costs = obs.get("costs")
    out = []
    for index, (position, action) in enumerate(presenter.hand_actions(obs)):
        label = (game.priced_label(action, costs) if costs and hasattr(game, "priced_label")
                 else presenter.action_label(table.game, action))
        out.append({"key": f"#{index}", "label": label, "kind": action.kind,
                    "card": action.card if position is not None else None,
                    "target": action.target, "style": presenter.action_style(table.game, action)})
    return out


def table_state(table: Table, seat: int | None, language: str, now: float, *,
                hints: bool = False) -> dict[str, Any]:
    """The state message for a viewer at ``seat`` (None: a spectator) reading ``language``;
    ``now`` (Unix seconds) lets the page count the deadline down on its own clock. ``hints``:
    the table offers hints (:func:`bot.tables.hints.offers_hints`), so the player's turn does."""
    with speaking(language):
        return _state(table, seat, language, now, hints)


def _state(table: Table, seat: int | None, language: str, now: float, hints: bool) -> dict[str, Any]:
    obs = table.match.observation(0)
    names = seat_names(table)
    lines = [plain(line) for line in
             [*table.legacy_log, *presenter.log_lines(table.game, table.recent, names)][-6:]]
    view: TableView = presenter.table_view(obs, names, last_move=lines[-1] if lines else "")
    result = None
    if table.closing is not None:
        headline = result_headline(table, names)
        line = headline if table.closing.get("cancelled") else \
            f"{headline} · {score_line(table.match.scores, names)}"
        view = final_table(view, line, table.closing.get("winners", ()))
        outcome = table.closing.get("outcome")
        daily = getattr(outcome, "daily", None)
        earned = getattr(outcome, "achievements", None) or {}
        members = {p: names[s] for s, p in enumerate(table.players) if not is_ai(p)}
        result = {"text": line, "achievements": earned_line(earned, members),
                  "series": series_line(getattr(outcome, "series", None), table.players, names),
                  "daily": daily_line(daily), "share": share_message(daily) if daily else ""}
    # a betting game's score is its chips
    unit = ("{n} chip", "{n} chips") if is_betting(table.game) else ("{n} point", "{n} points")
    current = table.match.current_player
    finished = table.finished or table.closing is not None
    # Between the last move and its stored result nobody plays, though the game is not yet over.
    playing = not finished and not table.match.is_over
    turn_text = ""
    if playing and current is not None:
        turn_text = (t("Slap race!") if table.in_race else t("Your turn") if current == seat
                     else t("{name} to play", name=names[current]))
    state: dict[str, Any] = {
        "type": "state", "language": language,
        "game": {"id": table.game_id, "kind": table.game, "name": GAME_NAMES.get(table.game, table.game),
                 "title": view.title, "seq": table.seq, "over": finished,
                 "footer": view.footer, "daily": table.home == HOME_PRIVATE},
        "you": {"seat": seat},
        "players": [_player(s, p, unit) for s, p in enumerate(view.players)],
        "field": list(view.field), "stock": view.stock_count, "drawn": view.drawn_card,
        "highlight": list(view.highlight), "korean": view.korean_months,
        "discard": {"top": view.discard_top, "count": view.discard_count} if view.discard_count else None,
        "pots": [[label, chips, number(chips)] for label, chips in view.pots],
        "to_call": view.to_call, "stage": view.stage,
        "log": lines, "last": view.last_move,
        "turn": {"seat": current if playing else None, "text": turn_text,
                 "deadline": table.deadline if table.turn_seat is not None and playing else None,
                 "now": now},
        "result": result, "summary": _summary(table),
        "race": None, "hand": None, "moves": [], "prompt": "", "fields": [], "hint": False,
        "again": seat is not None and replayable(table, table.players[seat]),
    }
    race = getattr(presenter.for_game(table.game), "race_prompt", None)
    if race is not None and table.in_race and not finished:
        state["race"] = {"text": plain(race(obs, names)),
                         "can_slap": seat is not None and seat in obs.get("race_seats", [])}
    if seat is not None and not is_ai(table.players[seat]):
        mine = table.match.observation(seat)
        hand = presenter.hand_view(mine)
        if not playing:
            hand = replace(hand, playable=(), decision=(), legend="")
        state["hand"] = {"cards": list(hand.cards), "playable": list(hand.playable),
                         "legend": hand.legend, "caption": hand.caption}
        if playing and not table.in_race and current == seat:
            state["moves"] = _moves(table, mine)
            state["prompt"] = presenter.for_game(table.game).prompt(mine)
            state["hint"] = hints and bool(state["moves"])
        state["fields"] = [] if finished else [list(f) for f in presenter.hand_fields(mine)]
    state["cards"] = {cid: card_name(cid) for cid in _cards(state)}
    return state


def _cards(state: dict[str, Any]) -> set[str]:
    """Every card the state names, for their accessible names."""
    found = set(state["field"]) | set(state["highlight"])
    if state["drawn"]:
        found.add(state["drawn"])
    if state["discard"] and state["discard"]["top"]:
        found.add(state["discard"]["top"])
    for player in state["players"]:
        found |= set(player["captured"]) | set(player["shown"])
    if state["hand"]:
        found |= set(state["hand"]["cards"])
    for move in state["moves"]:
        found |= {c for c in (move["card"], *(move["target"] or "").split("+")) if c}
    summary = state["summary"]
    if summary:
        for row in (*summary["rows"], *summary["hands"]):
            found |= set(row["cards"])
    return {c for c in found if isinstance(c, str)}


def idle_state(language: str, lobby: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a page shows in a channel with no game: the lobby, where games can start there."""
    return {"type": "idle", "language": language, "lobby": lobby}


def welcome(user_id: int, name: str, language: str) -> dict[str, Any]:
    """The first message of a joined socket: who signed in, and the page's words."""
    with speaking(language):
        return {"type": "welcome", "user": {"id": str(user_id), "name": name},
                "language": language, "words": words()}
