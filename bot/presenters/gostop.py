"""Go-Stop on screen: Korean month numbers, pi counts with double pi, go/shake/bomb/ppeok badges,
the go/stop, shake, bomb, chongtong and sake-cup controls, and a line for every engine event.

Everything here reads the engine's JSON (see the :mod:`bot.games.gostop` docstring for the
phases, action texts, events and observation keys); a table view reads public fields only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.cards import DECK, MONTHS, PLANT_KOREAN, Kind, Role
from bot.games.base import Action
from bot.i18n import N_, NP_, Names, current, t, tp
from bot.words import plural
from rendering.view import PlayerView, SummaryView, TableView, YakuRow

from .base import Presenter, card_name, joined, match_line, seat_name

JOKER_PI = {"joker_1": 2, "joker_2": 2, "joker_3": 3}
_CARDS = {c.id: c for c in DECK}
_MONTH = {m.korean_number: m for m in MONTHS}

PENALTY_NAMES = Names("penalty", {"gwangbak": NP_("penalty", "gwang-bak"), "pibak": NP_("penalty", "pi-bak"),
                                  "meongbak": NP_("penalty", "meong-bak"), "gobak": NP_("penalty", "go-bak")})
"""Per-loser penalties (bak) of :func:`bot.games.gostop.settle`."""

STEAL_REASONS = Names("pi reason", {
    "jjok": NP_("pi reason", "jjok"), "ttadak": NP_("pi reason", "ttadak"), "sseul": NP_("pi reason", "sseul"),
    "bomb": NP_("pi reason", "a bomb"), "ppeok_capture": NP_("pi reason", "taking a ppeok"),
    "triplet_capture": NP_("pi reason", "taking a stack of three"), "joker": NP_("pi reason", "a joker"),
    "three_triplets": NP_("pi reason", "a third stack taken"),
    "first_turn_kinds": NP_("pi reason", "all four kinds in a first turn"),
    "four_of_month": NP_("pi reason", "a whole month"),
})
"""Why pi are handed over (``steal`` and ``final_turn`` events)."""

NAGARI_WHY = Names("nagari", {"exhausted": NP_("nagari", "the hands ran out with no stop"),
                              "field_four": NP_("nagari", "four of a month on the field"),
                              "chongtong_tie": NP_("nagari", "chongtong tie")})


def gs_card_name(cid: str) -> str:
    """A card's name as Go-Stop players say it: chaff are pi, the double pi and jokers say so."""
    if cid in JOKER_PI:
        return t("Joker ({pi} pi)", pi=JOKER_PI[cid])
    c = _CARDS.get(cid)
    if c is None or current() != "en":  # the Korean and Japanese names already say pi and double pi
        return card_name(cid)
    if c.role is Role.LIGHTNING:
        return "Lightning (double pi)"
    if c.role is Role.YELLOW_PAULOWNIA:
        return "Yellow Paulownia (double pi)"
    if c.kind is Kind.CHAFF:
        return f"{c.name} pi"
    return c.name


def target_name(cid: str) -> str:
    """A card named so that the two plain pi of a month differ (``Pine pi 1``, ``Pine pi 2``)."""
    name = gs_card_name(cid)
    return f"{name} {cid[-1]}" if "_chaff_" in cid and cid[-1] in "12" else name


def names_of(cards: Sequence[str]) -> str:
    return t(", ").join(gs_card_name(c) for c in cards)


def month_name(km: int | None) -> str:
    """A month by its Korean number: ``month 12 (willow)``, ``12월 (비)``, ``12月（柳）``."""
    month = _MONTH.get(km)
    if month is None:
        return t("a month")
    language = current()
    plant = (PLANT_KOREAN[month.number - 1] if language == "ko" else month.plant_kanji if language == "ja"
             else month.plant)
    return t("month {number} ({plant})", number=km, plant=plant)


def card_km(cid: str | None) -> int | None:
    c = _CARDS.get(cid or "")
    return c.korean_month if c else None


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


class GoStopPresenter(Presenter):
    game = "gostop"
    korean_months = True
    yaku_names = {
        "ogwang": NP_("yaku", "Ogwang (5 brights)"), "sagwang": NP_("yaku", "Sagwang (4 brights)"),
        "samgwang": NP_("yaku", "Samgwang (3 brights)"), "bi_samgwang": NP_("yaku", "Bi-samgwang (3 with rain)"),
        "godori": NP_("yaku", "Godori (3 birds)"), "yeol": NP_("yaku", "Yeol (animals)"), "hongdan": NP_("yaku", "Hong-dan (red)"),
        "cheongdan": NP_("yaku", "Cheong-dan (blue)"), "chodan": NP_("yaku", "Cho-dan (grass)"), "tti": NP_("yaku", "Tti (ribbons)"),
        "pi": NP_("yaku", "Pi (junk)"), "inoshikacho": NP_("yaku", "Boar-deer-butterflies"),
    }
    multiplier_names = {"go": NP_("multiplier", "go"), "shake": NP_("multiplier", "shake"), "bomb": NP_("multiplier", "bomb"),
                        "meongtta": NP_("multiplier", "meong-tta (7+ animals)"), "nagari": NP_("multiplier", "nagari"),
                        "mission": NP_("multiplier", "mission month"), "joker": NP_("multiplier", "joker")}
    action_names = {"go": NP_("move", "Go!"), "stop": NP_("move", "Stop (score now)"), "draw": NP_("move", "Turn a stock card (bomb turn)"),
                    "chongtong": NP_("move", "Chongtong! Reveal and win"), "pass": NP_("move", "Keep playing (no chongtong)"),
                    "sake_animal": NP_("move", "Read as an animal"), "sake_pi": NP_("move", "Read as double pi")}

    # -- buttons ------------------------------------------------------------------------------
    def action_label(self, action: Action) -> str:
        k = action.kind
        name = gs_card_name(action.card) if action.card else ""
        target = f" → {target_name(action.target)}" if action.target else ""
        if k == "play":
            return name + target
        if k == "choose":
            return t("Take {card} with {with_card}", card=target_name(action.target), with_card=name)
        if k == "shake":
            return t("Shake {month}, play {card}", month=month_name(card_km(action.card)), card=name + target)
        if k == "bomb":
            return t("Bomb: all of {month}", month=month_name(card_km(action.card)))
        if k == "joker":
            return t("Take {card}, draw a new card", card=name)
        return super().action_label(action)

    def action_style(self, action: Action) -> str:
        k = action.kind
        if k in ("go", "chongtong", "choose"):
            return "success"
        if k == "stop":
            return "danger"
        if k in ("shake", "bomb", "joker", "draw", "sake_animal", "sake_pi"):
            return "primary"
        return "secondary"

    # -- event lines --------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        kind = event.get("type")
        who = seat_name(names, event)
        km = month_name(event.get("korean_month"))
        if kind == "dealer_draw":
            draws = event.get("draws") or [{}]
            shown = t(", ").join(f"{names[int(s)]} {gs_card_name(c)}" for s, c in draws[-1].items()
                                 if int(s) < len(names))
            return t("{dealer} deals first (card draw: {draws})", dealer=seat_name(names, event, "dealer"),
                     draws=shown)
        if kind == "deal":
            parts = [t("{dealer} deals", dealer=seat_name(names, event, "dealer"))]
            if event.get("stacks"):
                parts.append(t("stack of three on {months}", months=t(", ").join(
                    month_name(m) for m in event["stacks"])))
            if (mult := event.get("multiplier", 1)) > 1:
                parts.append(t("this round counts **x{times}** ({nagari} nagari before)", times=mult,
                               nagari=event.get("nagari")))
            if event.get("mission_month"):
                parts.append(t("mission: {month}", month=month_name(event["mission_month"])))
            return " · ".join(parts)
        if kind == "misdeal":
            return t("Four of a month on the field: the cards are dealt again")
        if kind == "joker_to_dealer":
            return t("{cards} dealt to the field goes to {player}, the dealer", cards=names_of(event["cards"]),
                     player=who)
        if kind == "field_four":
            return t("Four of {month} dealt to the field: the round is a nagari",
                     month=month_name(card_km(event["cards"][0])))
        if kind == "chongtong":
            return t("{player} reveals **chongtong** (president): all four of {month}!", player=who,
                     month=month_name(card_km(event["cards"][0])))
        if kind == "chongtong_pass":
            return t("{player} does not call chongtong and plays on", player=who)
        if kind == "shake":
            return t("{player} **shakes** {month}: shows {cards} (shake {times})", player=who, month=km,
                     cards=names_of(event["cards"]), times=event.get("shakes", 1))
        if kind == "play":
            matches = event.get("matches", [])
            card = gs_card_name(event["card"])
            if len(matches) == 1:
                return t("{player} played {card} on {target}", player=who, card=card,
                         target=gs_card_name(matches[0]))
            if len(matches) == 2:
                return t("{player} played {card} on one of the two of {month}", player=who, card=card, month=km)
            if len(matches) == 3:
                return t("{player} played {card} on the stack of {month}", player=who, card=card, month=km)
            return t("{player} played {card}", player=who, card=card)
        if kind == "bomb":
            line = (t("{player} drops a small bomb on {month}: {cards} take {taken}") if event.get("small")
                    else t("{player} drops a **bomb** on {month}: {cards} take {taken}"))
            return line.format(player=who, month=km, cards=names_of(event["cards"]),
                               taken=names_of(event["field"]))
        if kind == "bomb_turn":
            return t("{player} uses a bomb turn: only turns a stock card ({left} left)", player=who,
                     left=event.get("left", 0))
        if kind == "joker":
            if event.get("replacement"):
                return t("{player} takes {card} from the hand and draws a new card", player=who,
                         card=gs_card_name(event["card"]))
            return t("{player} takes {card} from the hand", player=who, card=gs_card_name(event["card"]))
        if kind == "draw":
            card = gs_card_name(event["card"])
            if event.get("joker"):
                return t("{player} turned {card}: taken at once, the next card is turned", player=who, card=card)
            if event.get("choose"):
                a, b = event["choose"][:2]
                return t("{player} turned {card}: it matches {first} and {second}, choosing…", player=who,
                         card=card, first=gs_card_name(a), second=gs_card_name(b))
            return t("{player} turned {card}", player=who, card=card)
        if kind == "capture":
            if event.get("event") in ("joker", "bomb"):
                return None  # said by the joker / bomb line
            return t("{player} took {cards}", player=who, cards=names_of(event["cards"]))
        if kind == "ppeok":
            return t("**Ppeok!** {player}'s turned card is the third of {month}: the three stay on the field "
                     "(ppeok {times})", player=who, month=km, times=event.get("ppeoks", 1))
        if kind == "ppeok_taken":
            if event.get("maker") == event.get("player"):
                return t("{player} takes their own ppeok of {month} back", player=who, month=km)
            return t("{player} takes {maker}'s ppeok of {month} back", player=who, month=km,
                     maker=seat_name(names, event, "maker"))
        if kind == "jjok":
            return t("**Jjok!** {player}'s turned card takes back the card just played on {month}",
                     player=who, month=km)
        if kind == "ttadak":
            return t("**Ttadak!** {player} takes both pairs of {month}", player=who, month=km)
        if kind == "sseul":
            return t("**Sseul!** {player} sweeps the field clean", player=who)
        if kind == "final_turn":
            dropped = t(", ").join(STEAL_REASONS.get(x, x) for x in event.get("not_counted", []))
            return t("Final turn: no pi for {reasons}", reasons=dropped)
        if kind == "steal":
            giver = seat_name(names, event, "from")
            why = joined([STEAL_REASONS.get(x, x) for x in event.get("reasons", [])])
            cards = event.get("cards", [])
            if not cards:
                return t("{giver} has no pi to give {player} for {reasons}", giver=giver, player=who, reasons=why)
            if len(cards) < event.get("owed", len(cards)):
                return t("{giver} gives {player} {cards} (all they had) for {reasons}", giver=giver, player=who,
                         cards=names_of(cards), reasons=why)
            return t("{giver} gives {player} {cards} for {reasons}", giver=giver, player=who,
                     cards=names_of(cards), reasons=why)
        if kind == "score":
            listed = t(", ").join(f"{self.short_yaku_name(s)} {p}" for s, p in event.get("yaku", []))
            return t("{player} has **{points}** ({yaku})", player=who, points=plural(event["points"], "point"),
                     yaku=listed)
        if kind == "go":
            return t("{player} calls **Go {goes}!** ({points})", player=who, goes=event["goes"],
                     points=plural(event.get("points", 0), "point"))
        if kind == "stop":
            if event.get("forced"):
                return t("{player} has no turn left and **stops**", player=who)
            return t("{player} calls **Stop!**", player=who)
        if kind == "reading_choice":
            return t("{player} holds the {card}: read it as an animal or as double pi?", player=who,
                     card=gs_card_name(event["card"]))
        if kind == "reading":
            if event.get("reading") == "pi":
                return t("{player} reads the dual card as double pi", player=who)
            return t("{player} reads the dual card as an animal", player=who)
        if kind == "round_end":
            return None  # the match's round_over line says it all
        if kind == "match_over":
            line = super().describe_event(event, names)
            if event.get("reason") == "nagari_limit":
                line = t("Too many nagari in a row: the match ends. {result}", result=line)
            return line
        return super().describe_event(event, names)

    def _payment_text(self, p: dict[str, Any], names: Sequence[str]) -> str:
        name = names[p["seat"]] if p["seat"] < len(names) else "?"
        notes = [f"x{f} {PENALTY_NAMES.get(n, n)}" for n, f in p.get("penalties", [])]
        notes += [f"+{v} {PENALTY_NAMES.get(n, n)}" for n, v in p.get("extra", [])]
        if p.get("exempt"):
            notes = [t("captured nothing: exempt")]
        if p.get("immune"):
            notes.append(t("joker: no bak"))
        if p.get("pays_for"):
            notes.append(t("go-bak: pays for {players}", players=t(", ").join(names[s] for s in p["pays_for"])))
        if p.get("covered_by") is not None:
            notes.append(t("{player} pays for them", player=names[p["covered_by"]]))
        if p.get("reading") == "pi":
            notes.append(t("dual card as double pi"))
        if notes:
            return t("{player} pays {amount} ({notes})", player=name, amount=p["amount"], notes=t(", ").join(notes))
        return t("{player} pays {amount}", player=name, amount=p["amount"])

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        d = event.get("detail") or event
        rnd = event.get("round", "?")
        kind = d.get("kind")
        w = d.get("winner")
        if w is None:
            why = NAGARI_WHY.get(d.get("why")) if d.get("why") in NAGARI_WHY else t("no winner")
            carry = d.get("carry", {}).get("nagari", 0)
            line = t("Round {round}: **nagari** ({why}), nobody scores; the next round is doubled", round=rnd,
                     why=why)
            return line + (" " + t("(nagari x{times} in a row)", times=carry) if carry > 1 else "")
        pays = "; ".join(self._payment_text(p, names) for p in d.get("payments", []))
        if kind == "chongtong":
            line = (t("Round {round}: {player} wins by **chongtong** dealt to the field: {payments}")
                    if d.get("from_field") else t("Round {round}: {player} wins by **chongtong**: {payments}"))
            line = line.format(round=rnd, player=names[w], payments=pays)
        elif kind == "three_ppeok":
            line = t("Round {round}: {player} wins with **three ppeok**: {payments}", round=rnd, player=names[w],
                     payments=pays)
        else:
            line = t("Round {round}: {player} stops with {points}: {payments}", round=rnd, player=names[w],
                     points=plural(d.get("score", 0), "point"), payments=pays)
        if pot := d.get("boar_pot"):
            line += "; " + t("boar pot: {player} gets {each} from each", player=names[pot["seat"]], each=pot["each"])
        return line

    # -- the table ----------------------------------------------------------------------------
    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = []

        def count(key: str) -> int:
            values = obs.get(key) or []
            return values[seat] if seat < len(values) else 0

        if n := count("goes"):
            out.append(t("Go {goes}", goes=n))
        if n := count("shakes"):
            out.append(t("Shake x{times}", times=n))
        if n := count("bombs"):
            out.append(t("Bomb x{times}", times=n))
        if n := count("ppeoks"):
            out.append(t("Ppeok x{times}", times=n))
        if n := count("bomb_turns"):
            out.append(plural(n, "bomb turn"))
        if n := count("scores"):
            out.append(t("{points} this round", points=plural(n, "pt")))
        return out

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None) -> PlayerView:
        view = super().player_view(obs, seat, name, score)
        pi = obs.get("pi")
        if pi is not None:
            view = replace(view, pi_count=pi[seat])
        revealed = obs.get("revealed") or []
        if seat < len(revealed) and revealed[seat] and hasattr(view, "shown"):
            view = replace(view, shown=tuple(revealed[seat]))  # shaken cards still in hand
        return view

    def title(self, obs: dict[str, Any]) -> str:
        title = super().title(obs)
        mult = obs.get("nagari_multiplier", 1)
        return title + (" · " + t("x{times} after nagari", times=mult) if mult and mult > 1 else "")

    def footer(self, obs: dict[str, Any], names: Sequence[str] = ()) -> str:
        parts = []
        if obs.get("stop_minimum"):
            parts.append(t("Go or Stop from {points}", points=plural(obs["stop_minimum"], "point")))
        for stack in obs.get("stacks", []):
            maker = stack.get("maker")
            month = month_name(stack.get("korean_month"))
            if maker is not None and maker < len(names):
                parts.append(t("{player}'s ppeok on {month}", player=names[maker], month=month))
            elif maker is not None:
                parts.append(t("ppeok on {month}", month=month))
            else:
                parts.append(t("dealt stack on {month}", month=month))
        if obs.get("mission_month"):
            parts.append(t("mission {month}", month=month_name(obs["mission_month"])))
        target = obs.get("match", {}).get("target_score")
        if target:
            parts.append(t("target {points}", points=plural(target, "point")))
        parts.append(t("Korean months: paulownia 11, willow 12"))
        return " · ".join(parts)

    def table_view(self, obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
                   title: str | None = None) -> TableView:
        view = super().table_view(obs, names, last_move=last_move, title=title)
        return replace(view, footer=self.footer(obs, names))

    # -- the hand -----------------------------------------------------------------------------
    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        """Cards matching a field month, and jokers (taken at once for a new card)."""
        months = {card_km(c) for c in obs.get("field", ())} - {None}
        return tuple(c for c in obs.get("hand", ()) if c in JOKER_PI or card_km(c) in months)

    def _dual_card(self, obs: dict[str, Any]) -> str:
        return "bridge" if obs.get("rules", {}).get("sake_cup") == "bridge" else "sake_cup"

    def prompt(self, obs: dict[str, Any]) -> str:
        phase = obs.get("phase")
        seat = obs.get("seat", 0)
        kinds = {Action.parse(a).kind for a in obs.get("legal_actions", [])}
        if phase == "decide":
            pts = (obs.get("scores") or [0] * (seat + 1))[seat]
            goes = (obs.get("goes") or [0] * (seat + 1))[seat]
            if "go" not in kinds:
                return t("you have {points} and no turn left: Stop", points=plural(pts, "point"))
            return t("Go or Stop? you have {points} (a go makes Go {goes})", points=plural(pts, "point"),
                     goes=goes + 1)
        if phase == "choose_draw":
            return t("you turned {card}: choose the card it takes", card=gs_card_name(obs["drawn"]))
        if phase == "reading":
            return t("read the {card} as an animal or as double pi", card=gs_card_name(self._dual_card(obs)))
        if phase == "chongtong":
            rules = obs.get("rules", {})
            value = rules.get("chongtong_points") or obs.get("stop_minimum")
            return t("you hold four of a month: call chongtong (win {points} from each) or keep playing?",
                     points=value)
        if phase == "play":
            if kinds == {"draw"}:
                return t("bomb turn: turn a stock card")
            extras = [w for k, w in (("shake", N_("shake")), ("bomb", N_("bomb")), ("joker", N_("take a joker")),
                                     ("draw", N_("use a bomb turn"))) if k in kinds]
            if not extras:
                return t("your turn: play a card")
            options = [t("play a card"), *map(t, extras)]
            return t("your turn: {choices} or {last}", choices=t(", ").join(options[:-1]), last=options[-1])
        return ""

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        seat = obs.get("seat")
        if not isinstance(seat, int):
            return []
        out = []
        scores, pi = obs.get("scores"), obs.get("pi")
        if scores is not None:
            line = t("{points} (Go or Stop from {least})", points=plural(scores[seat], "point"),
                     least=obs.get("stop_minimum", "?"))
            yaku = (obs.get("yaku") or [[]] * (seat + 1))[seat]
            if yaku:
                line += ": " + t(", ").join(f"{self.short_yaku_name(s)} {p}" for s, p, *_ in yaku)
            out.append((t("Your score"), line))
        if pi is not None:
            out.append((t("Your pi"), t("{pi} (a double pi counts as two)", pi=pi[seat])))
        revealed = (obs.get("revealed") or [[]] * (seat + 1))[seat]
        if revealed:
            out.append((t("Shown to everybody"), names_of(revealed)))
        turns = (obs.get("bomb_turns") or [0] * (seat + 1))[seat]
        if turns:
            out.append((t("Bomb turns"), t("{turns} of only turning a stock card", turns=plural(turns, "turn"))))
        options = obs.get("reading_options")
        if options:
            parts = []
            for reading, settlement in options.items():
                mine = _signed(settlement.get("points", [0] * (seat + 1))[seat])
                parts.append(t("as double pi: {points}", points=mine) if reading == "pi"
                             else t("as an animal: {points}", points=mine))
            out.append((t("Your points by reading"), "; ".join(parts)))
        return out

    # -- the summary --------------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        d = event.get("detail", {})
        w = event.get("winner")
        if w is None:
            return []
        if d.get("kind") == "chongtong":
            return [YakuRow(player=names[w], name=t("Chongtong (president)"),
                            cards=tuple(d.get("revealed", ())), points=d.get("points_each", 0))]
        if d.get("kind") == "three_ppeok":
            return [YakuRow(player=names[w], name=t("Three ppeok"), cards=(),
                            points=d.get("points_each", 0))]
        rows = super().summary_rows(event, names)
        for slug, n in d.get("bonus", []):
            rows.append(YakuRow(player=names[w], name=t("{name} bonus", name=self.multiplier_name(slug).capitalize()),
                                cards=(), points=n))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        d = event.get("detail", {})
        w = event.get("winner")
        lines = []
        if w is None:
            why = NAGARI_WHY.get(d.get("why")) if d.get("why") in NAGARI_WHY else t("no winner")
            lines.append(t("Nagari ({why}): nobody scores", why=why))
            lines.append(t("The next round is doubled"))
        elif d.get("kind") == "chongtong":
            lines.append(t("{player} wins by chongtong: {each} from each", player=names[w],
                           each=d.get("points_each", 0)))
        elif d.get("kind") == "three_ppeok":
            lines.append(t("{player} wins by three ppeok: {each} from each", player=names[w],
                           each=d.get("points_each", 0)))
        else:
            calc = t("{points} base", points=d.get("base", 0))
            for slug, n in d.get("bonus", []):
                calc += f" + {n} {self.multiplier_name(slug)}"
            for slug, f in d.get("multipliers", []):
                calc += f" x{f} {self.multiplier_name(slug).split(' (')[0]}"
            lines.append(t("{player} stops: {calculation} = {points}", player=names[w], calculation=calc,
                           points=plural(d.get("score", 0), "point")))
            if d.get("reading"):
                lines.append(t("{player} reads the dual card as double pi", player=names[w]) if d["reading"] == "pi"
                             else t("{player} reads the dual card as an animal", player=names[w]))
        for p in d.get("payments", []):
            lines.append(self._payment_text(p, names))
        if pot := d.get("boar_pot"):
            lines.append(t("Boar pot: {player} gets {each} from each", player=names[pot["seat"]], each=pot["each"]))
        if event.get("scores"):
            lines.append(match_line(names, event["scores"]))
        return lines

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        d = event.get("detail", {})
        w = event.get("winner")
        chips = [f"+{n} {self.multiplier_name(s)}" for s, n in d.get("bonus", [])]
        chips += [f"x{f} {self.multiplier_name(s)}" for s, f in d.get("multipliers", [])]
        if w is None:
            head = tp("multiplier", "nagari")
        elif d.get("kind") == "chongtong":
            head = t("{player} wins by chongtong", player=names[w])
        elif d.get("kind") == "three_ppeok":
            head = t("{player} wins with three ppeok", player=names[w])
        else:
            head = t("{player} stops", player=names[w])
        return SummaryView(title=t("Round {round} · {outcome}", round=event["round"], outcome=head),
                           rows=tuple(self.summary_rows(event, names)), multipliers=tuple(chips),
                           result_lines=tuple(self.result_lines(event, names)), korean_months=True)


PRESENTER = GoStopPresenter()
