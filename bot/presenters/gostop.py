"""Go-Stop on screen: Korean month numbers, pi counts with double pi, go/shake/bomb/ppeok badges,
the go/stop, shake, bomb, chongtong and sake-cup controls, and a line for every engine event.

Everything here reads the engine's JSON (see the :mod:`bot.games.gostop` docstring for the
phases, action texts, events and observation keys); a table view reads public fields only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.cards import DECK, MONTHS, Kind, Role
from bot.games.base import Action
from bot.i18n import NP_
from bot.words import plural
from rendering.view import PlayerView, SummaryView, TableView, YakuRow

from .base import Presenter, card_name, seat_name

JOKER_PI = {"joker_1": 2, "joker_2": 2, "joker_3": 3}
_CARDS = {c.id: c for c in DECK}
_PLANT = {m.korean_number: m.plant for m in MONTHS}

PENALTY_NAMES = {"gwangbak": "gwang-bak", "pibak": "pi-bak", "meongbak": "meong-bak",
                 "gobak": "go-bak"}
"""Per-loser penalties (bak) of :func:`bot.games.gostop.settle`."""

STEAL_REASONS = {
    "jjok": "jjok", "ttadak": "ttadak", "sseul": "sseul", "bomb": "a bomb",
    "ppeok_capture": "taking a ppeok", "triplet_capture": "taking a stack of three",
    "joker": "a joker", "three_triplets": "a third stack taken",
    "first_turn_kinds": "all four kinds in a first turn", "four_of_month": "a whole month",
}
"""Why pi are handed over (``steal`` and ``final_turn`` events)."""

NAGARI_WHY = {"exhausted": "the hands ran out with no stop", "field_four": "four of a month on the field",
              "chongtong_tie": "chongtong tie"}


def gs_card_name(cid: str) -> str:
    """A card's name as Go-Stop players say it: chaff are pi, the double pi and jokers say so."""
    if cid in JOKER_PI:
        return f"Joker ({JOKER_PI[cid]} pi)"
    c = _CARDS.get(cid)
    if c is None:
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
    return ", ".join(gs_card_name(c) for c in cards)


def month_name(km: int | None) -> str:
    """A month by its Korean number: ``month 12 (willow)``."""
    return f"month {km} ({_PLANT[km]})" if km in _PLANT else "a month"


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
            return f"Take {target_name(action.target)} with {name}"
        if k == "shake":
            return f"Shake {month_name(card_km(action.card))}, play {name}{target}"
        if k == "bomb":
            return f"Bomb: all of {month_name(card_km(action.card))}"
        if k == "joker":
            return f"Take {name}, draw a new card"
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
        t = event.get("type")
        who = seat_name(names, event)
        km = month_name(event.get("korean_month"))
        if t == "dealer_draw":
            draws = event.get("draws") or [{}]
            shown = ", ".join(f"{names[int(s)]} {gs_card_name(c)}" for s, c in draws[-1].items()
                              if int(s) < len(names))
            return f"{seat_name(names, event, 'dealer')} deals first (card draw: {shown})"
        if t == "deal":
            line = f"{seat_name(names, event, 'dealer')} deals"
            if event.get("stacks"):
                line += " · stack of three on " + ", ".join(month_name(m) for m in event["stacks"])
            if (mult := event.get("multiplier", 1)) > 1:
                line += f" · this round counts **x{mult}** ({event.get('nagari')} nagari before)"
            if event.get("mission_month"):
                line += f" · mission: {month_name(event['mission_month'])}"
            return line
        if t == "misdeal":
            return "Four of a month on the field: the cards are dealt again"
        if t == "joker_to_dealer":
            return f"{names_of(event['cards'])} dealt to the field goes to {who}, the dealer"
        if t == "field_four":
            return (f"Four of {month_name(card_km(event['cards'][0]))} dealt to the field: "
                    "the round is a nagari")
        if t == "chongtong":
            return (f"{who} reveals **chongtong** (president): all four of "
                    f"{month_name(card_km(event['cards'][0]))}!")
        if t == "chongtong_pass":
            return f"{who} does not call chongtong and plays on"
        if t == "shake":
            return (f"{who} **shakes** {km}: shows {names_of(event['cards'])} "
                    f"(shake {event.get('shakes', 1)})")
        if t == "play":
            matches = event.get("matches", [])
            line = f"{who} played {gs_card_name(event['card'])}"
            if len(matches) == 1:
                line += f" on {gs_card_name(matches[0])}"
            elif len(matches) == 2:
                line += f" on one of the two of {km}"
            elif len(matches) == 3:
                line += f" on the stack of {km}"
            return line
        if t == "bomb":
            kind = "a small bomb" if event.get("small") else "a **bomb**"
            return (f"{who} drops {kind} on {km}: {names_of(event['cards'])} take "
                    f"{names_of(event['field'])}")
        if t == "bomb_turn":
            return f"{who} uses a bomb turn: only turns a stock card ({event.get('left', 0)} left)"
        if t == "joker":
            return (f"{who} takes {gs_card_name(event['card'])} from the hand"
                    + (" and draws a new card" if event.get("replacement") else ""))
        if t == "draw":
            card = gs_card_name(event["card"])
            if event.get("joker"):
                return f"{who} turned {card}: taken at once, the next card is turned"
            if event.get("choose"):
                a, b = event["choose"][:2]
                return f"{who} turned {card}: it matches {gs_card_name(a)} and {gs_card_name(b)}, choosing…"
            return f"{who} turned {card}"
        if t == "capture":
            if event.get("event") in ("joker", "bomb"):
                return None  # said by the joker / bomb line
            return f"{who} took {names_of(event['cards'])}"
        if t == "ppeok":
            return (f"**Ppeok!** {who}'s turned card is the third of {km}: the three stay on the "
                    f"field (ppeok {event.get('ppeoks', 1)})")
        if t == "ppeok_taken":
            maker = seat_name(names, event, "maker")
            whose = "their own" if event.get("maker") == event.get("player") else f"{maker}'s"
            return f"{who} takes {whose} ppeok of {km} back"
        if t == "jjok":
            return f"**Jjok!** {who}'s turned card takes back the card just played on {km}"
        if t == "ttadak":
            return f"**Ttadak!** {who} takes both pairs of {km}"
        if t == "sseul":
            return f"**Sseul!** {who} sweeps the field clean"
        if t == "final_turn":
            dropped = ", ".join(STEAL_REASONS.get(x, x) for x in event.get("not_counted", []))
            return f"Final turn: no pi for {dropped}"
        if t == "steal":
            giver = seat_name(names, event, "from")
            why = " and ".join(STEAL_REASONS.get(x, x) for x in event.get("reasons", []))
            cards = event.get("cards", [])
            if not cards:
                return f"{giver} has no pi to give {who} for {why}"
            short = " (all they had)" if len(cards) < event.get("owed", len(cards)) else ""
            return f"{giver} gives {who} {names_of(cards)}{short} for {why}"
        if t == "score":
            listed = ", ".join(f"{self.short_yaku_name(s)} {p}" for s, p in event.get("yaku", []))
            return f"{who} has **{plural(event['points'], 'point')}** ({listed})"
        if t == "go":
            return f"{who} calls **Go {event['goes']}!** ({plural(event.get('points', 0), 'point')})"
        if t == "stop":
            if event.get("forced"):
                return f"{who} has no turn left and **stops**"
            return f"{who} calls **Stop!**"
        if t == "reading_choice":
            return (f"{who} holds the {gs_card_name(event['card'])}: read it as an animal or as "
                    "double pi?")
        if t == "reading":
            as_what = "double pi" if event.get("reading") == "pi" else "an animal"
            return f"{who} reads the dual card as {as_what}"
        if t == "round_end":
            return None  # the match's round_over line says it all
        if t == "match_over":
            line = super().describe_event(event, names)
            if event.get("reason") == "nagari_limit":
                line = f"Too many nagari in a row: the match ends. {line}"
            return line
        return super().describe_event(event, names)

    def _payment_text(self, p: dict[str, Any], names: Sequence[str]) -> str:
        name = names[p["seat"]] if p["seat"] < len(names) else "?"
        notes = [f"x{f} {PENALTY_NAMES.get(n, n)}" for n, f in p.get("penalties", [])]
        notes += [f"+{v} {PENALTY_NAMES.get(n, n)}" for n, v in p.get("extra", [])]
        if p.get("exempt"):
            notes = ["captured nothing: exempt"]
        if p.get("immune"):
            notes.append("joker: no bak")
        if p.get("pays_for"):
            notes.append("go-bak: pays for " + ", ".join(names[s] for s in p["pays_for"]))
        if p.get("covered_by") is not None:
            notes.append(f"{names[p['covered_by']]} pays for them")
        if p.get("reading") == "pi":
            notes.append("dual card as double pi")
        return f"{name} pays {p['amount']}" + (f" ({', '.join(notes)})" if notes else "")

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        d = event.get("detail") or event
        rnd = event.get("round", "?")
        kind = d.get("kind")
        w = d.get("winner")
        if w is None:
            why = NAGARI_WHY.get(d.get("why"), "no winner")
            carry = d.get("carry", {}).get("nagari", 0)
            line = f"Round {rnd}: **nagari** ({why}), nobody scores; the next round is doubled"
            return line + (f" (nagari x{carry} in a row)" if carry > 1 else "")
        pays = "; ".join(self._payment_text(p, names) for p in d.get("payments", []))
        if kind == "chongtong":
            where = " dealt to the field" if d.get("from_field") else ""
            line = f"Round {rnd}: {names[w]} wins by **chongtong**{where}: {pays}"
        elif kind == "three_ppeok":
            line = f"Round {rnd}: {names[w]} wins with **three ppeok**: {pays}"
        else:
            line = f"Round {rnd}: {names[w]} stops with {plural(d.get('score', 0), 'point')}: {pays}"
        if pot := d.get("boar_pot"):
            line += f"; boar pot: {names[pot['seat']]} gets {pot['each']} from each"
        return line

    # -- the table ----------------------------------------------------------------------------
    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = []

        def count(key: str) -> int:
            values = obs.get(key) or []
            return values[seat] if seat < len(values) else 0

        if n := count("goes"):
            out.append(f"Go {n}")
        if n := count("shakes"):
            out.append(f"Shake x{n}")
        if n := count("bombs"):
            out.append(f"Bomb x{n}")
        if n := count("ppeoks"):
            out.append(f"Ppeok x{n}")
        if n := count("bomb_turns"):
            out.append(plural(n, "bomb turn"))
        if n := count("scores"):
            out.append(f"{plural(n, 'pt')} this round")
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
        return title + (f" · x{mult} after nagari" if mult and mult > 1 else "")

    def footer(self, obs: dict[str, Any], names: Sequence[str] = ()) -> str:
        parts = []
        if obs.get("stop_minimum"):
            parts.append(f"Go or Stop from {plural(obs['stop_minimum'], 'point')}")
        for stack in obs.get("stacks", []):
            maker = stack.get("maker")
            what = (f"{names[maker]}'s ppeok" if maker is not None and maker < len(names)
                    else "ppeok" if maker is not None else "dealt stack")
            parts.append(f"{what} on {month_name(stack.get('korean_month'))}")
        if obs.get("mission_month"):
            parts.append(f"mission {month_name(obs['mission_month'])}")
        target = obs.get("match", {}).get("target_score")
        if target:
            parts.append(f"target {plural(target, 'point')}")
        parts.append("Korean months: paulownia 11, willow 12")
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
                return f"you have {plural(pts, 'point')} and no turn left: Stop"
            return f"Go or Stop? you have {plural(pts, 'point')} (a go makes Go {goes + 1})"
        if phase == "choose_draw":
            return f"you turned {gs_card_name(obs['drawn'])}: choose the card it takes"
        if phase == "reading":
            return f"read the {gs_card_name(self._dual_card(obs))} as an animal or as double pi"
        if phase == "chongtong":
            rules = obs.get("rules", {})
            value = rules.get("chongtong_points") or obs.get("stop_minimum")
            return (f"you hold four of a month: call chongtong (win {value} from each) "
                    "or keep playing?")
        if phase == "play":
            if kinds == {"draw"}:
                return "bomb turn: turn a stock card"
            extras = [w for k, w in (("shake", "shake"), ("bomb", "bomb"), ("joker", "take a joker"),
                                     ("draw", "use a bomb turn")) if k in kinds]
            options = ["play a card", *extras]
            if len(options) == 1:
                return "your turn: play a card"
            return f"your turn: {', '.join(options[:-1])} or {options[-1]}"
        return ""

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        seat = obs.get("seat")
        if not isinstance(seat, int):
            return []
        out = []
        scores, pi = obs.get("scores"), obs.get("pi")
        if scores is not None:
            line = f"{plural(scores[seat], 'point')} (Go or Stop from {obs.get('stop_minimum', '?')})"
            yaku = (obs.get("yaku") or [[]] * (seat + 1))[seat]
            if yaku:
                line += ": " + ", ".join(f"{self.short_yaku_name(s)} {p}" for s, p, *_ in yaku)
            out.append(("Your score", line))
        if pi is not None:
            out.append(("Your pi", f"{pi[seat]} (double pi count 2)"))
        revealed = (obs.get("revealed") or [[]] * (seat + 1))[seat]
        if revealed:
            out.append(("Shown to everybody", names_of(revealed)))
        turns = (obs.get("bomb_turns") or [0] * (seat + 1))[seat]
        if turns:
            out.append(("Bomb turns", f"{plural(turns, 'turn')} of only turning a stock card"))
        options = obs.get("reading_options")
        if options:
            parts = []
            for reading, settlement in options.items():
                mine = settlement.get("points", [0] * (seat + 1))[seat]
                parts.append(f"as {'double pi' if reading == 'pi' else 'an animal'}: {_signed(mine)}")
            out.append(("Your points by reading", "; ".join(parts)))
        return out

    # -- the summary --------------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        d = event.get("detail", {})
        w = event.get("winner")
        if w is None:
            return []
        if d.get("kind") == "chongtong":
            return [YakuRow(player=names[w], name="Chongtong (president)",
                            cards=tuple(d.get("revealed", ())), points=d.get("points_each", 0))]
        if d.get("kind") == "three_ppeok":
            return [YakuRow(player=names[w], name="Three ppeok", cards=(),
                            points=d.get("points_each", 0))]
        rows = super().summary_rows(event, names)
        for slug, n in d.get("bonus", []):
            rows.append(YakuRow(player=names[w], name=f"{self.multiplier_name(slug).capitalize()} bonus",
                                cards=(), points=n))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        d = event.get("detail", {})
        w = event.get("winner")
        lines = []
        if w is None:
            why = NAGARI_WHY.get(d.get("why"), "no winner")
            lines.append(f"Nagari ({why}): nobody scores")
            lines.append("The next round is doubled")
        elif d.get("kind") in ("chongtong", "three_ppeok"):
            how = "chongtong" if d["kind"] == "chongtong" else "three ppeok"
            lines.append(f"{names[w]} wins by {how}: {d.get('points_each', 0)} from each")
        else:
            calc = f"{d.get('base', 0)} base"
            for slug, n in d.get("bonus", []):
                calc += f" + {n} {self.multiplier_name(slug)}"
            for slug, f in d.get("multipliers", []):
                calc += f" x{f} {self.multiplier_name(slug).split(' (')[0]}"
            lines.append(f"{names[w]} stops: {calc} = {plural(d.get('score', 0), 'point')}")
            if d.get("reading"):
                lines.append(f"{names[w]} reads the dual card as "
                             + ("double pi" if d["reading"] == "pi" else "an animal"))
        for p in d.get("payments", []):
            lines.append(self._payment_text(p, names))
        if pot := d.get("boar_pot"):
            lines.append(f"Boar pot: {names[pot['seat']]} gets {pot['each']} from each")
        if event.get("scores"):
            lines.append("Match: " + ", ".join(f"{n} {s}" for n, s in zip(names, event["scores"], strict=False)))
        return lines

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        d = event.get("detail", {})
        w = event.get("winner")
        chips = [f"+{n} {self.multiplier_name(s)}" for s, n in d.get("bonus", [])]
        chips += [f"x{f} {self.multiplier_name(s)}" for s, f in d.get("multipliers", [])]
        if w is None:
            head = "nagari"
        else:
            head = {"chongtong": f"{names[w]} wins by chongtong",
                    "three_ppeok": f"{names[w]} wins with three ppeok"}.get(d.get("kind"), f"{names[w]} stops")
        return SummaryView(title=f"Round {event['round']} · {head}",
                           rows=tuple(self.summary_rows(event, names)), multipliers=tuple(chips),
                           result_lines=tuple(self.result_lines(event, names)), korean_months=True)


PRESENTER = GoStopPresenter()
