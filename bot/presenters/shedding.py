"""First Bloom (the flower shedding game of seed 002) on screen.

Nothing is captured: the table shows the field, the discard pile (its top card and size), the
draw pile and, for every seat, how many cards it holds. The card a struggling player just drew is
private (``obs["drawn"]`` is only in that player's observation) and never reaches the table.
``obs["last_move"]`` is the list of events of the last action; the cards they moved are
highlighted. The race after a player goes out is posted by the bot; :meth:`race_prompt` says who
still has to slap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from bot.cards import BRIGHTS, DECK, MONTHS, card
from bot.games.base import Action
from bot.games.shedding import moves as mv
from bot.i18n import NP_
from bot.words import plural, shorten
from rendering.view import GAME_NAMES, HandView, SummaryView, TableView, YakuRow

from .base import LABEL_MAX, Presenter, card_name, seat_name

_IDS = {c.id for c in DECK}
_SHORT_WORDS = (("Chrysanthemum", "Chrys."), ("Eight-Plank ", ""), ("Bush Clover", "Clover"),
                ("Poetry Ribbon", "Poetry"), ("Blue Ribbon", "Blue"), (" and Sun", ""),
                ("Paulownia", "Paul."), ("Ribbon", "Rbn"))


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def flower(cid: str) -> str:
    """The plant of a card's month: 'Pine', 'Bush clover'."""
    return MONTHS[card(cid).month - 1].plant.capitalize()


def names_of(cards: Iterable[str]) -> str:
    return ", ".join(card_name(c) for c in cards)


def and_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def short_name(cid: str) -> str:
    name = card_name(cid)
    for long, short in _SHORT_WORDS:
        name = name.replace(long, short)
    return name


def fit_label(build) -> str:
    """``build(name)`` with full card names, else short ones, else shortened at a word."""
    label = build(card_name)
    if len(label) > LABEL_MAX:
        label = build(short_name)
    return shorten(label, LABEL_MAX)


class SheddingPresenter(Presenter):
    game = "shedding"
    action_names = {mv.STRUGGLE: NP_("move", "Struggle: draw"), mv.PASS: NP_("move", "Pass (no move possible)"),
                    mv.RACE_END: NP_("move", "End the race")}

    # -- buttons --------------------------------------------------------------------------------
    def action_label(self, action: Action) -> str:
        k, c, t = action.kind, action.card, action.target
        if k == mv.MATCH:
            return fit_label(lambda n: f"Play {n(c)} on {n(t)} (field)")
        if k == mv.FIELD_HIKI:
            return fit_label(lambda n: f"Field hiki: 3 {flower(c)} + field, {n(c)} on top")
        if k == mv.PAIR:
            return fit_label(lambda n: f"Pair: {n(t)}, then {n(c)} on top")
        if k == mv.HAND_HIKI:
            return fit_label(lambda n: f"Hand hiki: 4 {flower(c)}, {n(c)} on top")
        if k == mv.FIELD_PAIR:
            a, _, b = (t or "").partition("+")
            return fit_label(lambda n: f"Field pair {n(a)} + {n(b)}, {n(c)} to the field")
        if k == mv.STRUGGLE_MATCH:
            return fit_label(lambda n: f"Discard {n(c)} with {n(t)}")
        if k == mv.KEEP:
            return fit_label(lambda n: f"Keep {n(c)}")
        if k == mv.SLAP:
            return f"Slap! (seat {int(c) + 1})" if c and c.isdigit() else "Slap!"
        return super().action_label(action)

    def action_style(self, action: Action) -> str:
        if action.kind in (mv.MATCH, mv.FIELD_HIKI, mv.PAIR, mv.HAND_HIKI):
            return "primary"
        if action.kind in (mv.STRUGGLE_MATCH, mv.KEEP):
            return "success"
        if action.kind == mv.SLAP:
            return "danger"
        return "secondary"

    # -- events ---------------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        t = event.get("type")
        who = seat_name(names, event)
        cards = event.get("cards")
        cards = list(cards) if isinstance(cards, list) else []
        top = event.get("top")
        if t == "first_dealer":
            return f"{seat_name(names, event, 'dealer')} is drawn to deal first"
        if t == "redeal":
            return (f"Three cards of a month on the field ({names_of(event.get('field', ()))}): "
                    "the cards are dealt again")
        if t == "deal":
            return (f"{seat_name(names, event, 'dealer')} deals {plural(event.get('hand_size') or 0, 'card')} each; "
                    f"the field: {names_of(event.get('field', ()))}")
        if t == "round_start":
            return f"Round {event['round']}: {seat_name(names, event, 'dealer')} deals"
        if t == mv.MATCH:
            return f"{who} plays {card_name(top)} on {card_name(cards[0])} (hand-field)"
        if t == mv.FIELD_HIKI:
            hand = cards[1:]
            return (f"{who} plays a **field hiki**: {names_of(hand)} on {card_name(cards[0])}, "
                    f"{card_name(top)} on top")
        if t == mv.PAIR:
            return f"{who} discards a pair: {card_name(cards[0])}, then {card_name(top)} on top (hand-hand)"
        if t == mv.HAND_HIKI:
            return f"{who} plays a **hand hiki**: all four {flower(top)} cards, {card_name(top)} on top"
        if t == mv.FIELD_PAIR:
            return f"{who} discards {card_name(cards[0])} + {card_name(cards[1])} from the field (field-field)"
        if t == "to_field":
            return f"{who} puts {card_name(event['card'])} on the field"
        if t == mv.STRUGGLE:
            return f"{who} struggles: draws a card"
        if t == mv.KEEP:
            if event.get("forced"):
                return f"{who} keeps the drawn card: it matches nothing on the field"
            return f"{who} keeps the drawn card"
        if t == mv.STRUGGLE_MATCH:
            return f"{who} discards the drawn {card_name(cards[1])} with {card_name(cards[0])}"
        if t == mv.PASS:
            return f"{who} cannot move and passes"
        if t == "effect":
            return self.effect_line(event, names)
        if t == "reshuffle":
            return (f"The draw pile is empty: the discard pile ({plural(event.get('cards', 0), 'card')}) "
                    "is shuffled into a new draw pile")
        if t == "first":
            return f"**{who} plays their last card: First!**"
        if t == "race":
            return f"**{seat_name(names, event, 'winner')} is out!** Slap their hand: press **Slap!**"
        if t == mv.SLAP:
            return f"{who} slaps {ordinal(event.get('position', 0))}!"
        if t == mv.RACE_END:
            missing = [names[s] for s in event.get("missing", ()) if 0 <= s < len(names)]
            if missing:
                return f"The race is over: {and_list(missing)} never slapped"
            return "The race is over"
        if t == "turn_limit":
            return f"The turn limit is reached ({plural(event.get('turns', 0), 'turn')}): no winner, nobody pays"
        if t in ("field", "turn", "round_end"):
            return None  # the field refill is highlighted on the table; whose turn is shown there
        return super().describe_event(event, names)

    def effect_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        who = seat_name(names, event)
        top = card_name(event.get("card", ""))
        effect = event.get("effect")
        if effect == mv.BRIGHT:
            drew = "draws a card" if event.get("drew", True) else "has no card to draw"
            return f"{top} on top: {who} {drew} and loses the turn"
        if effect == mv.POETRY:
            drew = "draws a card, then plays" if event.get("drew", True) else "has no card to draw and plays"
            return f"{top} on top: {who} {drew}"
        if effect == mv.SKIP:
            return f"{top} on top: {who} loses the turn"
        return f"{top} on top: {who} is hit"

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        detail = event.get("detail", {})
        w = event.get("winner")
        if w is None:
            return f"Round {event['round']}: no winner, nobody pays"
        paid = detail.get("paid") or [max(0, -p) for p in event.get("points", [])]
        payers = [f"{names[s]} {paid[s]}" for s in range(len(names)) if s != w and s < len(paid) and paid[s]]
        total = event.get("points", [0] * len(names))[w]
        line = f"Round {event['round']}: {names[w]} went out first and collects {total}"
        return line + (f" ({', '.join(payers)})" if payers else "")

    # -- the table ------------------------------------------------------------------------------
    def highlight(self, obs: dict[str, Any]) -> tuple[str, ...]:
        out: list[str] = []
        for e in obs.get("last_move") or ():
            if not isinstance(e, dict) or e.get("type") == "effect":
                continue
            moved = e.get("cards")
            refs = [*(moved if isinstance(moved, list) else ()), e.get("card")]
            out += [c for c in refs if isinstance(c, str) and c in _IDS and c not in out]
        return tuple(out)

    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = []
        sizes = obs.get("hand_sizes") or []
        winner = obs.get("winner")
        slaps = list(obs.get("slaps") or ())
        outcome = obs.get("outcome") or {}
        phase = obs.get("phase")
        if winner == seat:
            out.append("Out!")
        elif seat < len(sizes) and sizes[seat] == 1 and winner is None:
            out.append("Last card!")
        if seat in slaps:
            out.append(f"Slapped {ordinal(slaps.index(seat) + 1)}")
        elif phase == "race" and seat in (obs.get("race_seats") or ()):
            out.append("To slap!")
        if outcome.get("exempt") == seat:
            out.append("Exempt")
        if seat in (outcome.get("batsu") or ()):
            out.append("Batsu")
        if phase == "struggle" and obs.get("current_player") == seat:
            out.append("Struggling")
        return out

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None):
        view = super().player_view(obs, seat, name, score)
        playing = obs.get("phase") in ("play", "struggle")
        return replace(view, captured=(), progress=(), is_turn=playing and view.is_turn)

    def footer(self, obs: dict[str, Any]) -> str:
        purple = (obs.get("rules") or {}).get("purple_ribbon", "blue")
        parts = ["Bright on top: the next player draws 1 and loses the turn",
                 "poetry ribbon: draws 1, then plays"]
        if purple == "blue":
            parts.append("blue ribbon: loses the turn")
        elif purple == "non_poetry":
            parts.append("blue or plain ribbon: loses the turn")
        return " · ".join(parts)

    def title(self, obs: dict[str, Any]) -> str:
        match = obs.get("match", {})
        rounds = match.get("rounds") or 0
        rnd = match.get("round", obs.get("round_number", 1))
        return f"{GAME_NAMES['shedding']} · round {rnd}" + (f"/{rounds}" if rounds else "")

    def table_view(self, obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
                   title: str | None = None) -> TableView:
        """Public fields only: never ``hand``, ``drawn`` (the struggle card) or ``legal_actions``."""
        scores = obs.get("match", {}).get("scores") or [None] * len(names)
        players = tuple(self.player_view(obs, seat, name, scores[seat]) for seat, name in enumerate(names))
        discard = obs.get("discard")
        return TableView(
            game=self.game, title=title or self.title(obs), players=players,
            field=tuple(obs.get("field", ())), stock_count=obs.get("draw_count"),
            highlight=self.highlight(obs), last_move=last_move,
            discard_top=obs.get("discard_top"),
            discard_count=len(discard) if discard is not None else None,
            drawn_card=None, footer=self.footer(obs),
        )

    # -- the race -------------------------------------------------------------------------------
    def race_prompt(self, obs: dict[str, Any], names: Sequence[str]) -> str:
        """Who went out, who slapped in which place and who still has to slap."""
        winner = obs.get("winner")
        if winner is None:
            return ""
        out = names[winner]
        slaps = [f"{names[s]} {ordinal(i + 1)}" for i, s in enumerate(obs.get("slaps") or ())]
        waiting = [names[s] for s in obs.get("race_seats") or ()]
        parts = [f"**{out} is out!**"]
        if slaps:
            parts.append("Slapped: " + ", ".join(slaps) + ".")
        if obs.get("phase") == "race" and waiting:
            first = not slaps and (obs.get("rules") or {}).get("race_exempt_first", True)
            parts.append(f"Still to slap: {and_list(waiting)}"
                         + (" (the first to slap pays nothing)." if first else "."))
        else:
            parts.append("The race is over.")
        return " ".join(parts)

    # -- the hand -------------------------------------------------------------------------------
    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        """Hand cards some shedding move (1-5) can use now."""
        hand = set(obs.get("hand", ()))
        used = set()
        for text in obs.get("legal_actions", ()):
            a = Action.parse(text)
            if a.kind in (mv.MATCH, mv.FIELD_HIKI, mv.PAIR, mv.HAND_HIKI) and a.card in hand:
                used.add(a.card)
                if a.kind == mv.PAIR:
                    used.add(a.target)
                if a.kind in (mv.FIELD_HIKI, mv.HAND_HIKI):
                    used |= {c for c in hand if card(c).month == card(a.card).month}
        return tuple(c for c in obs.get("hand", ()) if c in used)

    def prompt(self, obs: dict[str, Any]) -> str:
        phase = obs.get("phase")
        legal = [Action.parse(a) for a in obs.get("legal_actions", ())]
        if phase == "struggle":
            drawn = obs.get("drawn")
            if drawn and any(a.kind == mv.STRUGGLE_MATCH for a in legal):
                keep = " or keep it" if any(a.kind == mv.KEEP for a in legal) else ""
                return f"you drew {card_name(drawn)}: discard it with a field card of its month{keep}"
            return f"you drew {card_name(drawn)}: keep it" if drawn else "you drew a card"
        if phase != "play":
            return ""
        kinds = {a.kind for a in legal}
        if kinds == {mv.PASS}:
            return "no move is possible and nothing to draw: pass"
        if kinds == {mv.STRUGGLE}:
            return "no card can be shed: struggle (draw a card)"
        draw = " or struggle (draw)" if mv.STRUGGLE in kinds else ""
        if len(obs.get("hand", ())) == 1:
            return f"your turn: shed your last card to win{draw}"
        return f"your turn: shed cards (the last one you place is on top){draw}"

    def legend(self, obs: dict[str, Any], playable: tuple[str, ...]) -> str:
        """Nothing is captured in this game: the marked cards are those that can be shed."""
        if obs.get("phase") == "race":
            return "A player is out: no card is played during the slap race."
        if playable:
            return "Raised with a green frame and green number: you can shed it now."
        return "No card can be shed now."

    def hand_view(self, obs: dict[str, Any]) -> HandView:
        view = super().hand_view(obs)
        seat = obs.get("seat")
        if obs.get("phase") == "race":
            if obs.get("winner") == seat:
                title = "Your hand · you are out! The others race to slap"
            elif seat in (obs.get("race_seats") or ()):
                title = "Your hand · someone is out: press Slap! now"
            else:
                title = "Your hand · you slapped; waiting for the others"
            return replace(view, playable=(), decision=(), title=title)
        return view

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        hand = obs.get("hand", ())
        fields = []
        if obs.get("phase") == "struggle" and obs.get("drawn"):
            fields.append(("You drew", card_name(obs["drawn"])))
        if hand:
            brights = sum(1 for c in hand if (BRIGHTS >> card(c).index) & 1)
            owed = brights * 5 + (len(hand) - brights)
            fields.append(("If someone goes out now", f"you pay {owed} ({self.bill(hand)})"))
        top = obs.get("discard_top")
        if top:
            fields.append(("Top of the discard pile", card_name(top)))
        return fields

    @staticmethod
    def bill(cards: Sequence[str]) -> str:
        """'1 bright × 5 + 3 × 1': what a hand pays the winner, spelled out."""
        brights = sum(1 for c in cards if (BRIGHTS >> card(c).index) & 1)
        parts = [f"{plural(brights, 'bright')} × 5"] if brights else []
        if len(cards) - brights or not brights:
            parts.append(f"{len(cards) - brights} × 1")
        return " + ".join(parts)

    # -- the end of a round ---------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        detail = event.get("detail", {})
        w = event.get("winner")
        if w is None or detail.get("kind") != "shed":
            return []
        hands = detail.get("hands") or [[] for _ in names]
        paid = detail.get("paid") or [0] * len(names)
        rows = []
        for s, name in enumerate(names):
            if s == w or s >= len(hands):
                continue
            label = plural(len(hands[s]), "card") + " left"
            if detail.get("exempt") == s:
                label = "Exempt: slapped 1st"
            elif s in (detail.get("batsu") or ()):
                label += " + batsu"
            rows.append(YakuRow(player=name, name=label, cards=tuple(hands[s]), points=paid[s]))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        detail = event.get("detail", {})
        w = event.get("winner")
        lines: list[str] = []
        if w is None:
            lines.append("No winner: the turn limit ended the round and nobody pays")
        else:
            hands = detail.get("hands") or [[] for _ in names]
            paid = detail.get("paid") or [0] * len(names)
            hand_points = detail.get("hand_points") or [0] * len(names)
            batsu = detail.get("batsu") or ()
            slaps = detail.get("slap_order") or []
            lines.append(f"{names[w]} went out first and collects {event['points'][w]}")
            for s, name in enumerate(names):
                if s == w or s >= len(hands):
                    continue
                left = hands[s]
                bill = f"{plural(len(left), 'card')} left ({self.bill(left)} = {hand_points[s]})"
                if detail.get("exempt") == s:
                    lines.append(f"{name} slapped 1st and pays nothing: {bill}")
                    continue
                text = f"{name} pays {paid[s]}: {bill}"
                if s in batsu:
                    why = "last to slap" if s in slaps else "never slapped"
                    text += f" + {paid[s] - hand_points[s]} batsu ({why})"
                lines.append(text)
        if event.get("scores"):
            lines.append("Match: " + ", ".join(f"{n} {s}" for n, s in zip(names, event["scores"], strict=False)))
        return lines

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        return SummaryView(title=f"{GAME_NAMES['shedding']} · round {event['round']}",
                           rows=tuple(self.summary_rows(event, names)),
                           result_lines=tuple(self.result_lines(event, names)))


PRESENTER = SheddingPresenter()
