"""Sakura (Higo-Bana) on screen: sides and teams sharing a capture pile, each side's card points
and yaku, the gaji (wild lightning), hiki, dead cards, and the round's card totals and victories.

Everything here reads the engine's JSON (:mod:`bot.games.sakura`); a table view reads public
fields only. A yaku never scores for its owner (unless ``own_yaku_scores``): it costs every other
side 50.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.cards import DECK, MONTHS, PLANT_KOREAN
from bot.games.base import Action
from bot.games.sakura.scoring import YAKU
from bot.i18n import N_, NP_, Names, current, t
from bot.words import plural
from rendering.view import PlayerView, SummaryView, TableView, YakuRow

from .base import Presenter, card_name, match_line, seat_name

GAJI = "lightning"
YAKU_CARDS: dict[str, tuple[str, ...]] = {
    slug: tuple(c.id for c in DECK if need >> c.index & 1) for slug, need in YAKU.items()
}
MONTH_NAMES = (N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"), N_("July"),
               N_("August"), N_("September"), N_("October"), N_("November"), N_("December"))
_CARDS = {c.id: c for c in DECK}
VICTORY_NAMES = Names("victory", {"win": NP_("victory", "a plain win"), "chu": NP_("victory", "chu, 50+ ahead"),
                                  "basa": NP_("victory", "basa, 100+ ahead")})


def sk_card_name(cid: str) -> str:
    return t("Gaji (Lightning)") if cid == GAJI else card_name(cid)


def names_of(cards: Sequence[str]) -> str:
    return t(", ").join(sk_card_name(c) for c in cards)


def month_label(month: int | None) -> str:
    """``March (cherry)`` for a Japanese month number."""
    if not month or not 1 <= month <= 12:
        return t("a month")
    language = current()
    plant = (PLANT_KOREAN[month - 1] if language == "ko" else MONTHS[month - 1].plant_kanji if language == "ja"
             else MONTHS[month - 1].plant)
    return t("{month} ({plant})", month=t(MONTH_NAMES[month - 1]), plant=plant)


def card_month(cid: str | None) -> int | None:
    c = _CARDS.get(cid or "")
    return c.month if c else None


class SakuraPresenter(Presenter):
    game = "sakura"
    yaku_names = {
        "drinking": NP_("yaku", "Drinking (curtain-moon-sake)"),
        "crane_warbler_curtain": NP_("yaku", "Crane-Warbler-Curtain"),
        "poetry_ribbons": NP_("yaku", "Poetry ribbons"),
        "blue_ribbons": NP_("yaku", "Blue ribbons"),
        "grass_ribbons": NP_("yaku", "Grass ribbons"),
        "butterflies_sake_deer": NP_("yaku", "Butterflies-Sake-Deer"),
        "cuckoo_bridge_boar": NP_("yaku", "Cuckoo-Bridge-Boar"),
        "boar_geese_deer": NP_("yaku", "Boar-Geese-Deer"),
    }
    action_names = {"draw": NP_("move", "Turn a stock card (hand empty)")}

    # -- sides --------------------------------------------------------------------------------
    @staticmethod
    def sides(data: dict[str, Any], n: int) -> list[list[int]]:
        return [list(s) for s in data.get("sides") or [[seat] for seat in range(n)]]

    @staticmethod
    def is_team_game(sides: Sequence[Sequence[int]]) -> bool:
        return any(len(s) > 1 for s in sides)

    def side_label(self, seats: Sequence[int], names: Sequence[str]) -> str:
        return " & ".join(names[s] for s in seats if s < len(names))

    # -- buttons ------------------------------------------------------------------------------
    def action_label(self, action: Action) -> str:
        k = action.kind
        if k == "play" and action.card == GAJI:
            if action.target:
                return t("Gaji (Lightning) → {card}", card=sk_card_name(action.target))
            return t("Gaji (Lightning) to the field")
        if k == "play":
            return card_name(action.card) + (f" → {sk_card_name(action.target)}" if action.target else "")
        if k == "choose":
            return t("Take {card} with {with_card}", card=sk_card_name(action.target), with_card=card_name(action.card))
        if k == "hiki":
            return t("Hiki: take all of {month}", month=month_label(card_month(action.card)))
        return super().action_label(action)

    def action_style(self, action: Action) -> str:
        if action.kind in ("hiki", "choose"):
            return "success"
        if action.kind == "draw" or (action.kind == "play" and action.card == GAJI):
            return "primary"
        return "secondary"

    # -- event lines --------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        kind = event.get("type")
        who = seat_name(names, event)
        if kind == "dealer_draw":
            return t("{dealer} drew the earliest month and deals first", dealer=seat_name(names, event, "dealer"))
        if kind == "deal":
            line = t("{dealer} deals", dealer=seat_name(names, event, "dealer"))
            sides = event.get("sides") or []
            if self.is_team_game(sides):
                line += " · " + t("teams: {teams}", teams=" vs ".join(self.side_label(s, names) for s in sides))
            return line
        if kind == "field_four":
            return t("Four of {month} dealt to the field: {player}, the dealer, takes them",
                     month=month_label(card_month(event["cards"][0])), player=who)
        if kind == "gaji_discarded":
            return t("The Gaji (Lightning) dealt to the field is discarded: it is dead")
        if kind == "play" and event.get("card") == GAJI:
            taken = [c for c in event.get("captured", ()) if c != GAJI]
            if not taken:
                return t("{player} plays the Gaji (Lightning) to the field", player=who)
            if card_month(taken[0]) != card_month(GAJI):
                return t("{player} plays the **gaji** and takes {cards}", player=who, cards=names_of(taken))
            return t("{player} played the Gaji (Lightning) and took {cards}", player=who, cards=names_of(taken))
        if kind == "drew":
            a, b = (event.get("choose") or ["?", "?"])[:2]
            return t("{player} turned {card}: it matches {first} and {second}, choosing…", player=who,
                     card=sk_card_name(event["card"]), first=sk_card_name(a), second=sk_card_name(b))
        if kind == "stacked":
            return t("{player}'s turned card matches the pair just taken: {cards} go back to the field, stacked",
                     player=who, cards=names_of(event["cards"]))
        if kind == "gaji_blocked":
            return t("{player} aims the gaji at {card}, but {holder} holds a hiki there", player=who,
                     card=sk_card_name(event["target"]), holder=seat_name(names, event, "by"))
        if kind == "hiki":
            month = month_label(event.get("month"))
            if event.get("from_hand"):
                return t("{player} declares **hiki**: takes all four of {month} (from the hand: {cards})",
                         player=who, month=month, cards=names_of(event["from_hand"]))
            return t("{player} declares **hiki**: takes all four of {month}", player=who, month=month)
        if kind == "gaji_leftovers":
            return t("Leftovers {cards} go to {player}, who used the gaji", cards=names_of(event["cards"]), player=who)
        if kind == "dead":
            return t("Dead cards, nobody scores them: {cards}", cards=names_of(event["cards"]))
        if kind == "round_end":
            return None  # the match's round_over line says it all
        return super().describe_event(event, names)

    def side_text(self, score: dict[str, Any], seats: Sequence[int], names: Sequence[str]) -> str:
        parts = [t("{points} in cards", points=score.get("card_points", 0))]
        if score.get("yaku"):
            parts.append(t("yaku {names}", names=t(", ").join(self.short_yaku_name(y[0]) for y in score["yaku"])))
        if score.get("yaku_bonus"):
            parts.append(t("+{points} own yaku", points=score["yaku_bonus"]))
        if score.get("penalty"):
            parts.append(t("-{points} for the others' yaku", points=score["penalty"]))
        return t("{side} {total} ({parts})", side=self.side_label(seats, names), total=score.get("total", 0),
                 parts=t(", ").join(parts))

    def _victory(self, d: dict[str, Any]) -> str:
        label = d.get("victory")
        if not label:
            return ""
        text = VICTORY_NAMES.get(label, label)
        if d.get("shira_basa"):
            text = t("shira basa, 100+ ahead with no yaku at all")
        w, points = d.get("winner"), d.get("points") or []
        if isinstance(w, int) and w < len(points):
            text = t("{victory}: {count}", victory=text, count=plural(points[w], "victory", "victories"))
        return text

    def _win_head(self, win_side: Sequence[int], names: Sequence[str], d: dict[str, Any]) -> str:
        side = self.side_label(win_side, names)
        if d.get("margin") is not None:
            if len(win_side) == 1:
                return t("{side} wins by {margin}", side=side, margin=d["margin"])
            return t("{side} win by {margin}", side=side, margin=d["margin"])
        return t("{side} wins", side=side) if len(win_side) == 1 else t("{side} win", side=side)

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        d = event.get("detail") or event
        sides = self.sides(d, len(names))
        w = d.get("winner")
        win_side = next((s for s in sides if w in s), [w] if w is not None else [])
        head = t("Round {round}: {result}", round=event.get("round", "?"),
                 result=self._win_head(win_side, names, d).replace(self.side_label(win_side, names),
                                                                   f"**{self.side_label(win_side, names)}**", 1))
        if v := self._victory(d):
            head += f" ({v})"
        scores = d.get("side_scores") or []
        return head + ": " + "; ".join(self.side_text(sc, seats, names)
                                       for sc, seats in zip(scores, sides, strict=False))

    # -- the table ----------------------------------------------------------------------------
    def side_of(self, obs: dict[str, Any], seat: int) -> int:
        for i, seats in enumerate(self.sides(obs, len(obs.get("hand_sizes") or []) or seat + 1)):
            if seat in seats:
                return i
        return seat

    def side_pile(self, obs: dict[str, Any], side: int) -> set[str]:
        captured = obs.get("captured") or []
        seats = self.sides(obs, len(captured))[side]
        return {c for s in seats if s < len(captured) for c in captured[s]}

    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = []
        side = self.side_of(obs, seat)
        points = obs.get("side_card_points") or []
        if side < len(points):
            out.append(t("{points} in cards", points=points[side]))
        for slug in (obs.get("side_yaku") or [[]] * (side + 1))[side]:
            out.append(self.short_yaku_name(slug))
        if obs.get("gaji_user") == seat:
            victim = obs.get("gaji_victim")
            out.append(t("Gaji took {card}", card=sk_card_name(victim)) if victim else t("Gaji used"))
        sizes = obs.get("hand_sizes") or []
        if seat < len(sizes) and sizes[seat] == 0 and obs.get("stock_count"):
            out.append(t("Hand empty: turns only"))
        return out

    def progress(self, obs: dict[str, Any], seat: int) -> tuple[str, ...]:
        """Yaku the seat's side holds two cards of, whose third card is still in play."""
        side = self.side_of(obs, seat)
        mine = self.side_pile(obs, side)
        gone = set(obs.get("dead") or ())
        for other in range(len(self.sides(obs, len(obs.get("captured") or [])))):
            if other != side:
                gone |= self.side_pile(obs, other)
        out = []
        for slug, cards in YAKU_CARDS.items():
            have = sum(c in mine for c in cards)
            if have == 2 and not any(c in gone for c in cards if c not in mine):
                out.append(f"{self.short_yaku_name(slug)} 2/3")
        return tuple(out)

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None) -> PlayerView:
        view = super().player_view(obs, seat, name, score)
        sides = self.sides(obs, len(obs.get("hand_sizes") or []) or seat + 1)
        if self.is_team_game(sides):
            view = replace(view, team=self.side_of(obs, seat) + 1)
        return view

    def footer_text(self, obs: dict[str, Any], names: Sequence[str]) -> str:
        parts = []
        sides = self.sides(obs, len(names))
        if self.is_team_game(sides):
            parts.append(t("Teams: {teams}", teams=" vs ".join(self.side_label(s, names) for s in sides)))
        rules = obs.get("rules", {})
        parts.append(t("each yaku costs every other side 50 and scores 50 for its owner")
                     if rules.get("own_yaku_scores") else t("each yaku costs every other side 50"))
        if obs.get("dead"):
            parts.append(t("{count} dead cards", count=len(obs["dead"])))
        if rules.get("gaji") == "wild":
            parts.append(t("the Lightning is wild (gaji)"))
        target = obs.get("match", {}).get("target_score")
        if target:
            parts.append(t("target {points}", points=plural(target, "point")))
        return " · ".join(parts)

    def table_view(self, obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
                   title: str | None = None) -> TableView:
        view = super().table_view(obs, names, last_move=last_move, title=title)
        return replace(view, footer=self.footer_text(obs, names))

    # -- the hand -----------------------------------------------------------------------------
    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        field = obs.get("field", ())
        months = {card_month(c) for c in field}
        wild = obs.get("rules", {}).get("gaji", "wild") == "wild" and bool(field)
        return tuple(c for c in obs.get("hand", ())
                     if card_month(c) in months or (c == GAJI and wild))

    def prompt(self, obs: dict[str, Any]) -> str:
        phase = obs.get("phase")
        kinds = {Action.parse(a).kind for a in obs.get("legal_actions", [])}
        if phase == "choose_draw":
            return t("you turned {card}: choose the card it takes", card=sk_card_name(obs["drawn"]))
        if phase == "gaji_again":
            return t("your gaji hit a hiki: aim it at another card or leave it on the field")
        if kinds == {"draw"}:
            return t("your hand is empty: turn a stock card")
        if "hiki" in kinds:
            return t("your turn: play a card or declare hiki")
        return t("your turn: play a card")

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        seat = obs.get("seat")
        if not isinstance(seat, int):
            return []
        side = obs.get("side", self.side_of(obs, seat))
        out = []
        points = obs.get("side_card_points") or []
        if side < len(points):
            yaku = (obs.get("side_yaku") or [[]] * (side + 1))[side]
            team = self.is_team_game(self.sides(obs, len(obs.get("hand_sizes") or [])))
            label = t("Your team") if team else t("You")
            text = t("{points} in cards", points=points[side])
            if yaku:
                text += "; " + t("yaku {names} (50 from every other side)",
                                 names=t(", ").join(self.short_yaku_name(s) for s in yaku))
            out.append((label, text))
        if GAJI in obs.get("hand", ()) and obs.get("rules", {}).get("gaji") == "wild":
            out.append((t("Gaji"), t("your Lightning takes any one field card")))
        return out

    # -- the summary --------------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        d = event.get("detail", {})
        sides = self.sides(d, len(names))
        rows = []
        for score, seats in zip(d.get("side_scores") or [], sides, strict=False):
            for slug, pts, *rest in score.get("yaku", []):
                rows.append(YakuRow(player=self.side_label(seats, names), name=self.yaku_name(slug),
                                    cards=tuple(rest[0]) if rest else YAKU_CARDS.get(slug, ()),
                                    points=pts))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        d = event.get("detail", {})
        sides = self.sides(d, len(names))
        lines = []
        for score, seats in zip(d.get("side_scores") or [], sides, strict=False):
            line = self.side_label(seats, names) + ": " + t("{points} in cards", points=score.get("card_points", 0))
            if score.get("yaku_bonus"):
                line += " " + t("+ {points} own yaku", points=score["yaku_bonus"])
            if score.get("penalty"):
                line += " " + t("- {points} for the others' yaku", points=score["penalty"])
            lines.append(line + f" = {score.get('total', 0)}")
        w = d.get("winner")
        if w is not None:
            win_side = next((s for s in sides if w in s), [w])
            line = self._win_head(win_side, names, d)
            if v := self._victory(d):
                line += f": {v}"
            lines.append(line)
        if event.get("scores"):
            lines.append(match_line(names, event["scores"]))
        return lines

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        d = event.get("detail", {})
        sides = self.sides(d, len(names))
        w = event.get("winner")
        win_side = next((s for s in sides if w in s), [w] if w is not None else [])
        side = self.side_label(win_side, names)
        head = (t("{side} wins", side=side) if len(win_side) == 1 else t("{side} win", side=side)) \
            if win_side else t("no winner")
        chips = []
        if any(sc.get("yaku") for sc in d.get("side_scores") or []):
            chips.append(t("each yaku: -50 to every other side"))
        if d.get("victory"):
            chips.append(self._victory(d))
        return SummaryView(title=t("Round {round} · {result}", round=event["round"], result=head),
                           rows=tuple(self.summary_rows(event, names)), multipliers=tuple(chips),
                           result_lines=tuple(self.result_lines(event, names)))


PRESENTER = SakuraPresenter()
