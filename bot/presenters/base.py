"""The presenter every game starts from: generic lines, table, hand and summary views.

A game's presenter (``bot.presenters.<game>``) subclasses :class:`Presenter` and overrides what
its game shows differently: its yaku names, badges, prompts, event lines and button labels. All
methods are pure (no Discord) and read only what they are given; a table view is built from
public fields only because it is posted in the channel.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from bot.cards import DECK, HANGUL_NAMES, card
from bot.games.base import Action
from bot.i18n import current, t, tn, tp
from bot.words import plural
from rendering.view import GAME_NAMES, HandView, PlayerView, SummaryView, TableView, YakuRow

_IDS = {c.id for c in DECK}
LABEL_MAX = 80
"""Discord's limit for a button's label: longer move texts are shortened at a word."""


def card_name(cid: str) -> str:
    """A card's name in the current language, as that language's players name it (Japanese:
    "松に鶴", Korean: "송학 광"); ids outside the 48-card deck (Go-Stop jokers) get a readable name."""
    if cid in _IDS:
        language = current()
        if language == "ja":
            return card(cid).kanji
        if language == "ko":
            return HANGUL_NAMES[cid]
        return card(cid).name
    if cid.startswith("joker"):
        return tp("card", "Joker {n}", n=cid.rsplit("_", 1)[-1]) if "_" in cid else tp("card", "Joker")
    return cid.replace("_", " ").capitalize()


def joined(items: Sequence[str]) -> str:
    """A list of names as the current language writes one ("a, b and c" -> "a、b、c")."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return t("{items} and {last}", items=t(", ").join(items[:-1]), last=items[-1])


def card_month(cid: str) -> int | None:
    return card(cid).month if cid in _IDS else None


def match_result(event: dict[str, Any], names: Sequence[str]) -> str:
    """Who won a match (a ``match_over`` event): one player, a team with its members, or a tie."""
    winners = event.get("winners", [])
    team = event.get("team")
    if team:
        return t("Team {members} wins the match!", members=" & ".join(names[s] for s in team))
    if len(winners) == 1:
        return t("{name} wins the match!", name=names[winners[0]])
    return t("The match ends in a tie between {players}", players=joined([names[s] for s in winners]))


PLAYED_OUT = ("match over", "game over")  # the tables' reason, and the store's default
_TIMED_OUT = re.compile(r"([0-9]+) turns timed out in a row")
_CANCELLED_BY = re.compile(r"cancelled by (?P<name>.*?)(?P<games> from /games)?")


def end_reason_words(reason: str, escape: Callable[[str], str] = str) -> str:
    """A game's stored end reason ("forfeited", "3 turns timed out in a row", "cancelled by Ann
    from /games": English data, kept so in the database and the export) in the current language;
    ``escape`` is applied to a member's name in it. An unknown reason is shown as stored."""
    if reason == "forfeited":
        return t("forfeited")
    if reason in PLAYED_OUT:
        return t("match over")
    if reason == "cancelled":
        return t("cancelled")
    if reason == "stuck":
        return t("cancelled: the game could not go on")
    if m := _TIMED_OUT.fullmatch(reason):
        return tn("{n} turn timed out in a row", "{n} turns timed out in a row", int(m[1]))
    if m := _CANCELLED_BY.fullmatch(reason):
        name = escape(m["name"])
        return t("cancelled by {name} from /games", name=name) if m["games"] else t("cancelled by {name}", name=name)
    return escape(reason)


STUCK = "stuck"
"""The end reason of a game cancelled because its next step kept being refused."""


def result_headline(closing: dict[str, Any], names: Sequence[str]) -> str:
    """Who won a game that is over, or why it ended: the same words on every surface."""
    if closing.get("cancelled") and closing.get("reason") == STUCK:
        return t("The game could not go on (a move kept being refused), so it was cancelled; "
                 "every stake was refunded")
    if closing.get("cancelled"):
        return t("The game was cancelled; every stake was refunded")
    if "forfeit" in closing:
        return forfeit_result(closing, names)
    return match_result({"winners": closing.get("winners", []), "team": closing.get("team")}, names)


def forfeit_result(closing: dict[str, Any], names: Sequence[str]) -> str:
    """Who gave up and who wins by it: "Alice forfeited; Bob wins". ``closing`` holds the seat
    that forfeited, the winning seats and, when they are one team, that team."""
    who = names[closing["forfeit"]]
    reason = closing.get("reason") or "forfeited"
    gave_up = (t("{name} forfeited", name=who) if reason == "forfeited"
               else t("{name} forfeited ({reason})", name=who, reason=end_reason_words(reason)))
    winners = closing.get("winners", [])
    if closing.get("team"):
        return t("{forfeit}; Team {members} wins", forfeit=gave_up,
                 members=" & ".join(names[s] for s in closing["team"]))
    together = joined([names[s] for s in winners])
    if len(winners) == 1:
        return t("{forfeit}; {winner} wins", forfeit=gave_up, winner=together)
    return t("{forfeit}; {winners} win", forfeit=gave_up, winners=together)


def score_line(scores: Sequence[int], names: Sequence[str]) -> str:
    """The final score in a few words: "7 to 3" between two, else every seat, best first."""
    if len(scores) == 2:
        high, low = max(scores), min(scores)
        return t("{high} to {low}", high=high, low=low)
    order = sorted(range(len(scores)), key=lambda s: -scores[s])
    return ", ".join(f"{names[s]} {scores[s]}" for s in order)


def match_line(names: Sequence[str], scores: Sequence[int]) -> str:
    """The match's running score under a round's result, every seat by name."""
    return t("Match: {scores}", scores=", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False)))


def final_table(view: TableView, result: str, winners: Sequence[int] = ()) -> TableView:
    """The table as it stays once the game is over: nobody's turn any more, the winners marked
    and ``result`` (who won, the score) drawn where the last move was."""
    players = tuple(replace(p, is_turn=False, badges=((t("Winner"),) if seat in winners else ()) + p.badges)
                    for seat, p in enumerate(view.players))
    return replace(view, players=players, result=result, last_move="", drawn_card=None,
                   highlight=(), title=t("{title} · final", title=view.title),
                   stock_count=view.stock_count or None)  # a stock run out is no pile to show


def seat_name(names: Sequence[str], event: dict[str, Any], key: str = "player") -> str:
    seat = event.get(key)
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


class Presenter:
    """Turns one game's observations and events into views and one-line texts."""

    game: ClassVar[str] = ""
    yaku_names: ClassVar[dict[str, str]] = {}
    multiplier_names: ClassVar[dict[str, str]] = {}
    action_names: ClassVar[dict[str, str]] = {}
    korean_months: ClassVar[bool] = False

    # -- names --------------------------------------------------------------------------------
    def yaku_name(self, slug: str) -> str:
        return tp("yaku", self.yaku_names.get(slug, slug.replace("_", " ").capitalize()))

    def multiplier_name(self, slug: str) -> str:
        return tp("multiplier", self.multiplier_names.get(slug, slug))

    def short_yaku_name(self, slug: str) -> str:
        return self.yaku_name(slug).split(" (")[0]

    def action_label(self, action: Action) -> str:
        """A short button label for an action (the caller prefixes the hand position)."""
        if action.kind == "play":
            label = card_name(action.card)
            if action.target:
                label += f" → {card_name(action.target)}"
            return label
        if action.kind == "choose":
            return t("Take {card}", card=card_name(action.target))
        return tp("move", self.action_names.get(action.kind, action.kind.replace("_", " ").capitalize()))

    def action_style(self, action: Action) -> str:
        """Button colour: ``primary``, ``success``, ``danger`` or ``secondary``."""
        return "secondary"

    # -- events -------------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        """One line of what happened, or None for events not worth a line."""
        kind = event.get("type")
        who = seat_name(names, event)
        if kind == "play":
            took = [card_name(c) for c in event.get("captured", ()) if c != event["card"]]
            if took:
                return t("{player} played {card} and took {taken}", player=who, card=card_name(event["card"]),
                         taken=joined(took))
            return t("{player} played {card} to the field", player=who, card=card_name(event["card"]))
        if kind == "draw":
            took = [card_name(c) for c in event.get("captured", ()) if c != event["card"]]
            if took:
                return t("{player} turned {card} and took {taken}", player=who, card=card_name(event["card"]),
                         taken=joined(took))
            return t("{player} turned {card}", player=who, card=card_name(event["card"]))
        if kind == "misdeal":
            return t("Misdeal: the cards are dealt again")
        if kind == "round_over":
            return self.round_line(event, names)
        if kind == "match_over":
            return f"**{match_result(event, names)}**"
        return None

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        w = event.get("winner")
        if w is None:
            return t("Round {round} is a draw", round=event["round"])
        return t("Round {round}: {name} scores {points}", round=event["round"], name=names[w],
                 points=event["points"][w])

    # -- the table ----------------------------------------------------------------------------
    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        """Short public states of a seat shown under its name."""
        return []

    def progress(self, obs: dict[str, Any], seat: int) -> tuple[str, ...]:
        rows = obs.get("progress")
        if not rows:
            return ()
        return tuple(f"{self.short_yaku_name(s)} {h}/{n}" for s, h, n in rows[seat])

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None) -> PlayerView:
        sizes = obs.get("hand_sizes")
        captured = obs.get("captured")
        return PlayerView(
            name=name, captured=tuple(captured[seat]) if captured else (), score=score,
            is_dealer=obs.get("dealer") == seat, is_turn=obs.get("current_player") == seat,
            hand_size=sizes[seat] if sizes else None, badges=tuple(self.badges(obs, seat)),
            progress=self.progress(obs, seat),
        )

    def title(self, obs: dict[str, Any]) -> str:
        match = obs.get("match", {})
        rounds = match.get("rounds") or 0
        rnd = match.get("round", obs.get("round_number", 1))
        game = GAME_NAMES.get(self.game, self.game)
        if rounds:
            return t("{game} · round {round}/{rounds}", game=game, round=rnd, rounds=rounds)
        return t("{game} · round {round}", game=game, round=rnd)

    def footer(self, obs: dict[str, Any]) -> str:
        target = obs.get("match", {}).get("target_score")
        return t("Target {points}", points=plural(target, "point")) if target else ""

    def table_view(self, obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
                   title: str | None = None) -> TableView:
        """The public table from any seat's observation (only public fields are read)."""
        scores = obs.get("match", {}).get("scores") or [None] * len(names)
        moved = obs.get("last_move")
        players = tuple(self.player_view(obs, seat, name, scores[seat]) for seat, name in enumerate(names))
        return TableView(
            game=self.game, title=title or self.title(obs), players=players,
            field=tuple(obs.get("field", ())), stock_count=obs.get("stock_count"),
            highlight=tuple(c for c in moved or () if isinstance(c, str)), last_move=last_move, drawn_card=obs.get("drawn"),
            korean_months=self.korean_months, footer=self.footer(obs),
        )

    # -- the hand -----------------------------------------------------------------------------
    def hand_actions(self, obs: dict[str, Any]) -> list[tuple[int | None, Action]]:
        """The seat's distinct moves with the 1-based hand position of the card they play.

        Legal actions that differ only in which of two cards of the same name they use (taking
        either of two chaff of one month, say) are one move to the player: only the first of
        them in the engine's order is offered, so every button or option stands for a different
        move and a press maps to one legal action.
        """
        hand = obs.get("hand", [])
        out, seen = [], set()
        for text in obs.get("legal_actions", []):
            a = Action.parse(text)
            pos = hand.index(a.card) + 1 if a.card in hand else None
            reads = (pos, a.kind, self.card_label(a.card or ""),
                     tuple(self.card_label(t) for t in (a.target or "").split("+")))
            if reads not in seen:
                seen.add(reads)
                out.append((pos, a))
        return out

    def card_label(self, cid: str) -> str:
        """A card as this game names it (cards of one name are interchangeable in a move)."""
        return card_name(cid) if cid else ""

    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        """Hand cards that capture something now (marked on the hand image)."""
        months = {card_month(c) for c in obs.get("field", ())}
        return tuple(c for c in obs.get("hand", ()) if card_month(c) in months)

    def prompt(self, obs: dict[str, Any]) -> str:
        """What the seat is asked to do now ('' when it is not their turn)."""
        return t("your turn: play a card")

    def decision(self, obs: dict[str, Any]) -> tuple[str, ...]:
        """The choices of a turn on which no hand card is played (Koi-Koi or Stop, which field
        card to take...), as their buttons read; () on a turn that plays from the hand."""
        if obs.get("current_player") != obs.get("seat"):
            return ()
        hand = set(obs.get("hand", ()))
        moves = [a for _, a in self.hand_actions(obs)]
        if not moves or any(a.card in hand for a in moves):
            return ()
        return tuple(self.action_label(a) for a in moves)

    def legend(self, obs: dict[str, Any], playable: tuple[str, ...]) -> str:
        """What the marked hand cards mean ('' for the capture wording of the fishing games)."""
        return ""

    def caption(self, obs: dict[str, Any]) -> str:
        """What the seat's hand is worth as a whole, for a game that ranks hands ('' for the
        fishing games, whose hand is worth what it captures)."""
        return ""

    def hand_view(self, obs: dict[str, Any]) -> HandView:
        title = t("Your hand")
        if obs.get("current_player") == obs.get("seat") and (ask := self.prompt(obs)):
            title = t("Your hand · {question}", question=ask)
        decision = self.decision(obs)
        playable = () if decision else self.playable(obs)
        return HandView(cards=tuple(obs.get("hand", ())), playable=playable, title=title,
                        korean_months=self.korean_months, decision=decision,
                        legend=self.legend(obs, playable), caption=self.caption(obs))

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        """Extra (name, value) lines for the private hand message, e.g. the seat's yaku so far."""
        yaku = obs.get("yaku")
        seat = obs.get("seat")
        if yaku and isinstance(seat, int) and yaku[seat]:
            return [(t("Your yaku"), ", ".join(f"{self.yaku_name(s)} {p}" for s, p, *_ in yaku[seat]))]
        return []

    # -- the end of a round -------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        w = event.get("winner")
        rows = []
        if w is not None:
            for entry in event.get("detail", {}).get("yaku", []):
                cards = tuple(entry[2]) if len(entry) > 2 else ()
                rows.append(YakuRow(player=names[w], name=self.yaku_name(entry[0]), cards=cards, points=entry[1]))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        w = event.get("winner")
        lines = [t("Draw: nobody scores this round") if w is None
                 else t("{name} scores {points}", name=names[w], points=event["points"][w])]
        if event.get("scores") and event.get("bankroll"):
            bankroll = event["bankroll"]
            lines.append(t("Match: {scores} (points left of the {bankroll} each began with)",
                           bankroll=bankroll, scores=", ".join(
                               f"{n} {bankroll + s}" for n, s in zip(names, event["scores"], strict=False))))
        elif event.get("scores"):
            lines.append(match_line(names, event["scores"]))
        return lines

    def posts_summary(self, event: dict[str, Any]) -> bool:
        """Whether ``event`` gets a picture of its own in the channel: a round's end."""
        return event["type"] == "round_over"

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        """The end-of-round picture from a ``round_over`` event."""
        detail = event.get("detail", {})
        mults = tuple([f"+{p} {self.multiplier_name(n)}" for n, p in detail.get("bonus", [])]
                      + [f"x{f} {self.multiplier_name(n)}" for n, f in detail.get("multipliers", [])])
        return SummaryView(title=t("Round {round}", round=event["round"]), rows=tuple(self.summary_rows(event, names)),
                           multipliers=mults, result_lines=tuple(self.result_lines(event, names)),
                           korean_months=self.korean_months)
