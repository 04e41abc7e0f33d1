"""Hana-Awase on screen: card points (20/10/5/1), the yaku ("bonus hands" in the leaflet), the
dealt teyaku with their chaff shown face up, totals against the par when zero-sum.

The yaku a seat has formed come from the engine's own scoring (:func:`table_yaku`, with the
exclusive groups, the point table and the willow-row option of the table's rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.cards import ids_in, mask
from bot.games.base import Action
from bot.games.hana_awase.game import HANDS
from bot.games.hana_awase.rules import Rules
from bot.games.hana_awase.scoring import SETS, card_points, table_yaku
from bot.i18n import NP_, t
from bot.words import plural
from rendering.view import YakuRow

from .base import Presenter, card_name, match_line, seat_name
from .mushi import (
    LIGHTNING,
    is_willow,
    lightning_line,
    names_of,
    near_yaku,
    playout_line,
    playout_prompt,
    signed,
    wild_playable,
)

SET_CARDS = {slug: tuple(ids_in(need)) for slug, need in SETS}


def teyaku_name(amount: int) -> str:
    return t("Teyaku (7+ chaff dealt)") if amount >= 30 else t("Teyaku (6 chaff dealt)")


class HanaAwasePresenter(Presenter):
    game = "hana_awase"
    yaku_names = {
        "goko": NP_("yaku", "Goko (five brights)"), "shiko": NP_("yaku", "Shiko (four brights)"),
        "omote_sugawara": NP_("yaku", "Omote-sugawara (crane, warbler, curtain)"),
        "matsu_kiri_bozu": NP_("yaku", "Matsu-kiri-bozu (crane, phoenix, moon)"),
        "nanatan": NP_("yaku", "Nanatan (seven ribbons)"), "rokutan": NP_("yaku", "Rokutan (six ribbons)"),
        "akatan": NP_("yaku", "Akatan (poetry ribbons)"), "aotan": NP_("yaku", "Aotan (blue ribbons)"),
        "kusatan": NP_("yaku", "Kusatan (grass ribbons)"), "inoshikacho": NP_("yaku", "Inoshikacho (boar, deer, butterflies)"),
        "nomi": NP_("yaku", "Nomi (sake cup, curtain, moon)"), "hanami": NP_("yaku", "Hanami (cherry viewing)"),
        "tsukimi": NP_("yaku", "Tsukimi (moon viewing)"), "yanagishima": NP_("yaku", "Yanagishima (four willow)"),
        "fujishima": NP_("yaku", "Fujishima (four wisteria)"), "kirishima": NP_("yaku", "Kirishima (four paulownia)"),
    }
    action_names = {"draw": NP_("move", "Turn the stock card")}

    # -- rules of the table ---------------------------------------------------------------------
    @staticmethod
    def rules(obs: dict[str, Any]) -> Rules:
        data = obs.get("rules")
        try:
            return Rules.from_dict(data) if data else Rules()
        except (ValueError, TypeError):  # pragma: no cover - an observation always has valid rules
            return Rules()

    @staticmethod
    def par(rules: Rules, players: int) -> int:
        return rules.deck_value() // players if rules.scoring == "zero_sum" else 0

    def seat_yaku(self, obs: dict[str, Any]) -> list[list[Any]]:
        captured = obs.get("captured") or []
        return table_yaku([mask(p) for p in captured], self.rules(obs)) if captured else []

    # -- names and buttons ----------------------------------------------------------------------
    def action_label(self, action: Action) -> str:
        if action.kind == "play" and action.card == LIGHTNING and action.target and not is_willow(action.target):
            return t("Lightning (wild) → {card}", card=card_name(action.target))
        return super().action_label(action)

    def action_style(self, action: Action) -> str:
        return "success" if action.kind == "choose" else "secondary"

    # -- events ---------------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        kind = event.get("type")
        who = seat_name(names, event)
        if (line := lightning_line(event, names)) or (line := playout_line(event, names)):
            return line
        if kind == "deal":
            hand, field = HANDS.get(len(names), (0, 0))
            dealer = seat_name(names, event, "dealer")
            if len(names) == 2:
                return t("{dealer} deals: {cards} on the field and a hand each", dealer=dealer,
                         cards=plural(field, "card"))
            return t("{dealer} deals: {cards} each and {field} on the field", dealer=dealer,
                     cards=plural(hand, "card"), field=field)
        if kind == "teyaku":
            cards = event.get("cards", ())
            return t("**{player} shows a teyaku**: {count} chaff dealt ({cards}), face up from now on; each other "
                     "player pays {points}", player=who, count=len(cards), cards=names_of(cards),
                     points=event.get("points", 0))
        if kind == "taken_from_hand":
            return t("{player} takes {cards} from {owner}'s shown hand", player=who,
                     cards=names_of(event.get("cards", ())), owner=seat_name(names, event, "from"))
        if kind == "drew":
            return t("{player} turned {card}: it matches two cards, choosing…", player=who,
                     card=card_name(event["card"]))
        return super().describe_event(event, names)

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        detail = event.get("detail", {})
        if detail.get("void"):
            return t("Round {round} is void (a player has 20 card points or fewer): nobody scores",
                     round=event["round"])
        zero_sum = bool(detail.get("par"))
        points = event.get("points", [])
        listed = t(", ").join(f"{n} {signed(p) if zero_sum else p}" for n, p in zip(names, points, strict=False))
        w = event.get("winner")
        if w is None:
            return t("Round {round} is a tie ({points})", round=event["round"], points=listed)
        return t("Round {round}: {player} wins ({points})", round=event["round"], player=names[w], points=listed)

    # -- the table ------------------------------------------------------------------------------
    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        rules = self.rules(obs)
        captured = obs.get("captured") or []
        out = []
        if seat < len(captured):
            out.append(plural(card_points(mask(captured[seat]), rules), "card pt"))
        yaku = self.seat_yaku(obs)
        if seat < len(yaku):
            out += [self.short_yaku_name(y.slug) for y in yaku[seat]]
        teyaku = obs.get("teyaku") or []
        if seat < len(teyaku) and teyaku[seat]:
            out.append(t("Teyaku +{points}", points=teyaku[seat]))
        return out

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None):
        exposed = obs.get("exposed") or []
        view = super().player_view(obs, seat, name, score)
        return replace(view, shown=tuple(exposed[seat]) if seat < len(exposed) else ())

    def progress(self, obs: dict[str, Any], seat: int) -> tuple[str, ...]:
        captured = obs.get("captured")
        if not captured:
            return ()
        rules = self.rules(obs)
        sets = {slug: cards for slug, cards in SET_CARDS.items() if rules.points(slug)}
        return near_yaku(captured, seat, sets, self.short_yaku_name)[:3]

    def footer(self, obs: dict[str, Any]) -> str:
        rules = self.rules(obs)
        n = obs.get("num_players") or len(obs.get("hand_sizes") or ()) or 3
        parts = [t("Cards 20/10/5/{chaff}", chaff=rules.chaff_value)]
        if rules.scoring == "zero_sum":
            parts.append(t("zero-sum: (card points − par {par}) + own yaku × {others} − the others' yaku",
                           par=self.par(rules, n), others=n - 1))
        else:
            parts.append(t("card points + yaku, the highest total wins"))
        if rules.wild_lightning:
            parts.append(t("the lightning is wild"))
        return " · ".join(parts)

    # -- the hand -------------------------------------------------------------------------------
    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        seat = obs.get("seat")
        field = list(obs.get("field", ()))
        shown = [c for s, cards in enumerate(obs.get("exposed") or []) if s != seat for c in cards]
        return wild_playable(obs.get("hand", ()), field, field + shown, wild=self.rules(obs).wild_lightning)

    def prompt(self, obs: dict[str, Any]) -> str:
        if (common := playout_prompt(obs, wild=self.rules(obs).wild_lightning)) is not None:
            return common
        seat = obs.get("seat")
        shown = [c for s, cards in enumerate(obs.get("exposed") or []) if s != seat for c in cards]
        if shown:
            return t("your turn: play a card (you may take the chaff shown in another hand)")
        return t("your turn: play a card")

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        seat = obs.get("seat")
        captured = obs.get("captured")
        if not isinstance(seat, int) or not captured:
            return []
        rules = self.rules(obs)
        pts = card_points(mask(captured[seat]), rules)
        n = len(captured)
        value = plural(pts, "card point")
        if rules.scoring == "zero_sum":
            value = t("{points} ({difference} against the par of {par})", points=value,
                      difference=signed(pts - self.par(rules, n)), par=self.par(rules, n))
        fields = [(t("Your pile"), value)]
        yaku = self.seat_yaku(obs)
        if yaku and yaku[seat]:
            fields.append((t("Your yaku"), t(", ").join(f"{self.yaku_name(y.slug)} {y.points}" for y in yaku[seat])))
        mine = (obs.get("exposed") or [[]] * (seat + 1))[seat]
        if mine:
            fields.append((t("Shown to all (teyaku)"), names_of(mine)))
        return fields

    # -- the end of a round ---------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        detail = event.get("detail", {})
        n = len(names)
        rows = []
        for seat, name in enumerate(names):
            for slug, points, *rest in detail.get("yaku_by_seat", {}).get(str(seat), []):
                rows.append(YakuRow(player=name, name=self.yaku_name(slug),
                                    cards=tuple(rest[0]) if rest else (), points=points))
            teyaku = detail.get("teyaku") or []
            if seat < len(teyaku) and teyaku[seat]:
                rows.append(YakuRow(player=name, name=teyaku_name(teyaku[seat]), cards=(),
                                    points=teyaku[seat] * (n - 1)))
            if seat in detail.get("compensated", ()):
                rows.append(YakuRow(player=name, name=t("Compensation (few cards)"), cards=(),
                                    points=30 * (n - 1)))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        detail = event.get("detail", {})
        lines = []
        if detail.get("void"):
            lines.append(t("Fuke: a player has 20 card points or fewer, the round is void and nobody scores"))
        else:
            n = len(names)
            cards = detail.get("card_points", [])
            par = detail.get("par", 0)
            yaku = detail.get("yaku_by_seat", {})
            own = [sum(y[1] for y in yaku.get(str(s), [])) for s in range(n)]
            points = event.get("points", [])
            for seat, name in enumerate(names):
                if seat >= len(cards) or seat >= len(points):
                    break
                if par:
                    others = sum(own) - own[seat]
                    base = cards[seat] - par + own[seat] * (n - 1) - others
                    text = t("{player}: ({points} − par {par}) + {own} yaku × {others} − {theirs} the others' yaku",
                             player=name, points=plural(cards[seat], "card point"), par=par, own=own[seat],
                             others=n - 1, theirs=others)
                else:
                    base = cards[seat] + own[seat]
                    text = t("{player}: {points} + {own} yaku", player=name, points=plural(cards[seat], "card point"),
                             own=own[seat])
                teyaku = detail.get("teyaku") or [0] * n
                comp = [30 if s in detail.get("compensated", ()) else 0 for s in range(n)]
                for label, due in ((t("teyaku"), teyaku), (t("compensation"), comp)):
                    if len(due) == n and (adj := due[seat] * (n - 1) - (sum(due) - due[seat])):
                        text += f" {'+' if adj > 0 else '−'} {abs(adj)} {label}"
                        base += adj
                if points[seat] != base:  # pragma: no cover - the lines above cover every payment
                    text += " " + t("{points} other", points=signed(points[seat] - base))
                total = signed(points[seat]) if par else str(points[seat])
                lines.append(f"{text} = {total}")
            w = event.get("winner")
            lines.append(t("A tie: the earliest in turn order deals next") if w is None
                         else t("{player} wins the round and deals next", player=names[w]))
        if detail.get("unclaimed"):
            lines.append(t("Left on the field, scored by nobody: {cards}", cards=names_of(detail["unclaimed"])))
        if event.get("scores"):
            lines.append(match_line(names, event["scores"]))
        return lines


PRESENTER = HanaAwasePresenter()
