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

from bot.cards import BRIGHTS, DECK, MONTHS, PLANT_KOREAN, card
from bot.games.base import Action
from bot.games.shedding import moves as mv
from bot.i18n import NP_, current, t
from bot.words import plural, shorten
from rendering.view import GAME_NAMES, HandView, SummaryView, TableView, YakuRow

from .base import LABEL_MAX, Presenter, card_name, joined, match_line, seat_name

_IDS = {c.id for c in DECK}
_SHORT_WORDS = (("Chrysanthemum", "Chrys."), ("Eight-Plank ", ""), ("Bush Clover", "Clover"),
                ("Poetry Ribbon", "Poetry"), ("Blue Ribbon", "Blue"), (" and Sun", ""),
                ("Paulownia", "Paul."), ("Ribbon", "Rbn"))


def ordinal(n: int) -> str:
    """1st, 2nd... (1番目, 1번째: the catalogs' "{n}th" where the language has one form)."""
    if current() != "en":
        return t("{n}th", n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def flower(cid: str) -> str:
    """The plant of a card's month: 'Pine', 'Bush clover' (松, 송학 in Japanese and Korean)."""
    month = card(cid).month
    language = current()
    if language == "ja":
        return MONTHS[month - 1].plant_kanji
    if language == "ko":
        return PLANT_KOREAN[month - 1]
    return MONTHS[month - 1].plant.capitalize()


def names_of(cards: Iterable[str]) -> str:
    return t(", ").join(card_name(c) for c in cards)


def and_list(items: Sequence[str]) -> str:
    return joined(items)


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
        k, c, target = action.kind, action.card, action.target
        if k == mv.MATCH:
            return fit_label(lambda n: t("Play {card} on {target} (field)", card=n(c), target=n(target)))
        if k == mv.FIELD_HIKI:
            return fit_label(lambda n: t("Field hiki: 3 {flower} + field, {card} on top", flower=flower(c), card=n(c)))
        if k == mv.PAIR:
            return fit_label(lambda n: t("Pair: {target}, then {card} on top", target=n(target), card=n(c)))
        if k == mv.HAND_HIKI:
            return fit_label(lambda n: t("Hand hiki: 4 {flower}, {card} on top", flower=flower(c), card=n(c)))
        if k == mv.FIELD_PAIR:
            a, _, b = (target or "").partition("+")
            return fit_label(lambda n: t("Field pair {first} + {second}, {card} to the field", first=n(a),
                                         second=n(b), card=n(c)))
        if k == mv.STRUGGLE_MATCH:
            return fit_label(lambda n: t("Discard {card} with {target}", card=n(c), target=n(target)))
        if k == mv.KEEP:
            return fit_label(lambda n: t("Keep {card}", card=n(c)))
        if k == mv.SLAP:
            return t("Slap! (seat {seat})", seat=int(c) + 1) if c and c.isdigit() else t("Slap!")
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
        kind = event.get("type")
        who = seat_name(names, event)
        cards = event.get("cards")
        cards = list(cards) if isinstance(cards, list) else []
        top = event.get("top")
        if kind == "first_dealer":
            return t("{dealer} is drawn to deal first", dealer=seat_name(names, event, "dealer"))
        if kind == "redeal":
            return t("Three cards of a month on the field ({cards}): the cards are dealt again",
                     cards=names_of(event.get("field", ())))
        if kind == "deal":
            return t("{dealer} deals {cards} each; the field: {field}", dealer=seat_name(names, event, "dealer"),
                     cards=plural(event.get("hand_size") or 0, "card"), field=names_of(event.get("field", ())))
        if kind == "round_start":
            return t("Round {round}: {dealer} deals", round=event["round"], dealer=seat_name(names, event, "dealer"))
        if kind == mv.MATCH:
            return t("{player} plays {card} on {target} (hand-field)", player=who, card=card_name(top),
                     target=card_name(cards[0]))
        if kind == mv.FIELD_HIKI:
            return t("{player} plays a **field hiki**: {cards} on {target}, {card} on top", player=who,
                     cards=names_of(cards[1:]), target=card_name(cards[0]), card=card_name(top))
        if kind == mv.PAIR:
            return t("{player} discards a pair: {first}, then {card} on top (hand-hand)", player=who,
                     first=card_name(cards[0]), card=card_name(top))
        if kind == mv.HAND_HIKI:
            return t("{player} plays a **hand hiki**: all four {flower} cards, {card} on top", player=who,
                     flower=flower(top), card=card_name(top))
        if kind == mv.FIELD_PAIR:
            return t("{player} discards {first} + {second} from the field (field-field)", player=who,
                     first=card_name(cards[0]), second=card_name(cards[1]))
        if kind == "to_field":
            return t("{player} puts {card} on the field", player=who, card=card_name(event["card"]))
        if kind == mv.STRUGGLE:
            return t("{player} struggles: draws a card", player=who)
        if kind == mv.KEEP:
            if event.get("forced"):
                return t("{player} keeps the drawn card: it matches nothing on the field", player=who)
            return t("{player} keeps the drawn card", player=who)
        if kind == mv.STRUGGLE_MATCH:
            return t("{player} discards the drawn {card} with {target}", player=who, card=card_name(cards[1]),
                     target=card_name(cards[0]))
        if kind == mv.PASS:
            return t("{player} cannot move and passes", player=who)
        if kind == "effect":
            return self.effect_line(event, names)
        if kind == "reshuffle":
            return t("The draw pile is empty: the discard pile ({cards}) is shuffled into a new draw pile",
                     cards=plural(event.get("cards", 0), "card"))
        if kind == "first":
            return t("**{player} plays their last card: First!**", player=who)
        if kind == "race":
            return t("**{player} is out!** Slap their hand: press **Slap!**", player=seat_name(names, event, "winner"))
        if kind == mv.SLAP:
            return t("{player} slaps {place}!", player=who, place=ordinal(event.get("position", 0)))
        if kind == mv.RACE_END:
            missing = [names[s] for s in event.get("missing", ()) if 0 <= s < len(names)]
            if missing:
                return t("The race is over: {players} never slapped", players=and_list(missing))
            return t("The race is over")
        if kind == "turn_limit":
            return t("The turn limit is reached ({turns}): no winner, nobody pays",
                     turns=plural(event.get("turns", 0), "turn"))
        if kind in ("field", "turn", "round_end"):
            return None  # the field refill is highlighted on the table; whose turn is shown there
        return super().describe_event(event, names)

    def effect_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        who = seat_name(names, event)
        top = card_name(event.get("card", ""))
        effect = event.get("effect")
        drew = event.get("drew", True)
        if effect == mv.BRIGHT:
            if drew:
                return t("{card} on top: {player} draws a card and loses the turn", card=top, player=who)
            return t("{card} on top: {player} has no card to draw and loses the turn", card=top, player=who)
        if effect == mv.POETRY:
            if drew:
                return t("{card} on top: {player} draws a card, then plays", card=top, player=who)
            return t("{card} on top: {player} has no card to draw and plays", card=top, player=who)
        if effect == mv.SKIP:
            return t("{card} on top: {player} loses the turn", card=top, player=who)
        return t("{card} on top: {player} is hit", card=top, player=who)

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        detail = event.get("detail", {})
        w = event.get("winner")
        if w is None:
            return t("Round {round}: no winner, nobody pays", round=event["round"])
        paid = detail.get("paid") or [max(0, -p) for p in event.get("points", [])]
        payers = [f"{names[s]} {paid[s]}" for s in range(len(names)) if s != w and s < len(paid) and paid[s]]
        total = event.get("points", [0] * len(names))[w]
        line = t("Round {round}: {player} went out first and collects {points}", round=event["round"],
                 player=names[w], points=total)
        return line + (f" ({t(', ').join(payers)})" if payers else "")

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
            out.append(t("Out!"))
        elif seat < len(sizes) and sizes[seat] == 1 and winner is None:
            out.append(t("Last card!"))
        if seat in slaps:
            out.append(t("Slapped {place}", place=ordinal(slaps.index(seat) + 1)))
        elif phase == "race" and seat in (obs.get("race_seats") or ()):
            out.append(t("To slap!"))
        if outcome.get("exempt") == seat:
            out.append(t("Exempt"))
        if seat in (outcome.get("batsu") or ()):
            out.append(t("Batsu"))
        if phase == "struggle" and obs.get("current_player") == seat:
            out.append(t("Struggling"))
        return out

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None):
        view = super().player_view(obs, seat, name, score)
        playing = obs.get("phase") in ("play", "struggle")
        return replace(view, captured=(), progress=(), is_turn=playing and view.is_turn)

    def footer(self, obs: dict[str, Any]) -> str:
        purple = (obs.get("rules") or {}).get("purple_ribbon", "blue")
        parts = [t("Bright on top: the next player draws 1 and loses the turn"),
                 t("poetry ribbon: draws 1, then plays")]
        if purple == "blue":
            parts.append(t("blue ribbon: loses the turn"))
        elif purple == "non_poetry":
            parts.append(t("blue or plain ribbon: loses the turn"))
        return " · ".join(parts)

    def title(self, obs: dict[str, Any]) -> str:
        match = obs.get("match", {})
        rounds = match.get("rounds") or 0
        rnd = match.get("round", obs.get("round_number", 1))
        if rounds:
            return t("{game} · round {round}/{rounds}", game=GAME_NAMES["shedding"], round=rnd, rounds=rounds)
        return t("{game} · round {round}", game=GAME_NAMES["shedding"], round=rnd)

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
        parts = [t("**{player} is out!**", player=out)]
        if slaps:
            parts.append(t("Slapped: {players}.", players=t(", ").join(slaps)))
        if obs.get("phase") == "race" and waiting:
            first = not slaps and (obs.get("rules") or {}).get("race_exempt_first", True)
            parts.append(t("Still to slap: {players} (the first to slap pays nothing).", players=and_list(waiting))
                         if first else t("Still to slap: {players}.", players=and_list(waiting)))
        else:
            parts.append(t("The race is over."))
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
                if any(a.kind == mv.KEEP for a in legal):
                    return t("you drew {card}: discard it with a field card of its month or keep it",
                             card=card_name(drawn))
                return t("you drew {card}: discard it with a field card of its month", card=card_name(drawn))
            return t("you drew {card}: keep it", card=card_name(drawn)) if drawn else t("you drew a card")
        if phase != "play":
            return ""
        kinds = {a.kind for a in legal}
        if kinds == {mv.PASS}:
            return t("no move is possible and nothing to draw: pass")
        if kinds == {mv.STRUGGLE}:
            return t("no card can be shed: struggle (draw a card)")
        struggle = mv.STRUGGLE in kinds
        if len(obs.get("hand", ())) == 1:
            return (t("your turn: shed your last card to win or struggle (draw)") if struggle
                    else t("your turn: shed your last card to win"))
        return (t("your turn: shed cards (the last one you place is on top) or struggle (draw)") if struggle
                else t("your turn: shed cards (the last one you place is on top)"))

    def legend(self, obs: dict[str, Any], playable: tuple[str, ...]) -> str:
        """Nothing is captured in this game: the marked cards are those that can be shed."""
        if obs.get("phase") == "race":
            return t("A player is out: no card is played during the slap race.")
        if playable:
            return t("Raised with a green frame and green number: you can shed it now.")
        return t("No card can be shed now.")

    def hand_view(self, obs: dict[str, Any]) -> HandView:
        view = super().hand_view(obs)
        seat = obs.get("seat")
        if obs.get("phase") == "race":
            if obs.get("winner") == seat:
                title = t("Your hand · you are out! The others race to slap")
            elif seat in (obs.get("race_seats") or ()):
                title = t("Your hand · someone is out: press Slap! now")
            else:
                title = t("Your hand · you slapped; waiting for the others")
            return replace(view, playable=(), decision=(), title=title)
        return view

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        hand = obs.get("hand", ())
        fields = []
        if obs.get("phase") == "struggle" and obs.get("drawn"):
            fields.append((t("You drew"), card_name(obs["drawn"])))
        if hand:
            brights = sum(1 for c in hand if (BRIGHTS >> card(c).index) & 1)
            owed = brights * 5 + (len(hand) - brights)
            fields.append((t("If someone goes out now"), t("you pay {points} ({bill})", points=owed,
                                                                 bill=self.bill(hand))))
        top = obs.get("discard_top")
        if top:
            fields.append((t("Top of the discard pile"), card_name(top)))
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
            label = t("{cards} left", cards=plural(len(hands[s]), "card"))
            if detail.get("exempt") == s:
                label = t("Exempt: slapped 1st")
            elif s in (detail.get("batsu") or ()):
                label = t("{cards} left + batsu", cards=plural(len(hands[s]), "card"))
            rows.append(YakuRow(player=name, name=label, cards=tuple(hands[s]), points=paid[s]))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        detail = event.get("detail", {})
        w = event.get("winner")
        lines: list[str] = []
        if w is None:
            lines.append(t("No winner: the turn limit ended the round and nobody pays"))
        else:
            hands = detail.get("hands") or [[] for _ in names]
            paid = detail.get("paid") or [0] * len(names)
            hand_points = detail.get("hand_points") or [0] * len(names)
            batsu = detail.get("batsu") or ()
            slaps = detail.get("slap_order") or []
            lines.append(t("{player} went out first and collects {points}", player=names[w], points=event["points"][w]))
            for s, name in enumerate(names):
                if s == w or s >= len(hands):
                    continue
                left = hands[s]
                bill = t("{cards} left ({bill} = {points})", cards=plural(len(left), "card"), bill=self.bill(left),
                         points=hand_points[s])
                if detail.get("exempt") == s:
                    lines.append(t("{player} slapped 1st and pays nothing: {bill}", player=name, bill=bill))
                    continue
                text = t("{player} pays {points}: {bill}", player=name, points=paid[s], bill=bill)
                if s in batsu:
                    extra = paid[s] - hand_points[s]
                    text += " " + (t("+ {points} batsu (last to slap)", points=extra) if s in slaps
                                   else t("+ {points} batsu (never slapped)", points=extra))
                lines.append(text)
        if event.get("scores"):
            lines.append(match_line(names, event["scores"]))
        return lines

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        return SummaryView(title=t("{game} · round {round}", game=GAME_NAMES["shedding"], round=event["round"]),
                           rows=tuple(self.summary_rows(event, names)),
                           result_lines=tuple(self.result_lines(event, names)))


PRESENTER = SheddingPresenter()
