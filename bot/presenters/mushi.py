"""Mushi on screen: the wild lightning, card points against the par of 115, the four yaku.

The lightning lines (:func:`lightning_line`, :func:`handover_line`) are shared with Hana-Awase,
whose "Mushi-style wild lightning" option plays the same way. They read only the event: a
lightning that took a non-willow card (or a non-willow stock card that took the lightning) was
wild, since the plain lightning only ever pairs with a willow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.cards import DECK, card
from bot.games.base import Action
from bot.games.mushi.rules import YAKU_POINTS
from bot.i18n import NP_, Names, t
from bot.words import plural
from rendering.view import YakuRow

from .base import Presenter, card_month, card_name, match_line, seat_name

LIGHTNING = "lightning"
WILLOW = 11
_IDS = {c.id for c in DECK}

MUSHI_YAKU_CARDS: dict[str, tuple[str, ...]] = {
    "goko": ("crane", "curtain", "moon", "rainman", "phoenix"),
    "sanko_mushi": ("crane", "bush_warbler", "curtain"),
    "fujishima": ("cuckoo", "plain_ribbon_apr", "wisteria_chaff_1", "wisteria_chaff_2"),
    "kirishima": ("phoenix", "paulownia_chaff_yellow", "paulownia_chaff_1", "paulownia_chaff_2"),
}

MISDEAL_REASONS = Names("misdeal", {
    "four_of_a_month": NP_("misdeal", "four cards of a month on the field"),
    "three_willows": NP_("misdeal", "the three plain willows on the field"),
    "four_pairs": NP_("misdeal", "four pairs on the field"),
    "four_in_a_hand": NP_("misdeal", "four cards of a month in a hand"),
})


def signed(n: int) -> str:
    """``+5``, ``−3``, ``0`` (a real minus sign)."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def names_of(cards: Iterable[str]) -> str:
    return t(", ").join(card_name(c) for c in cards)


def pile_points(cards: Iterable[str], chaff_value: int = 1) -> int:
    """Card points of a pile: bright 20, animal 10, ribbon 5, chaff 1 (or ``chaff_value``)."""
    total = 0
    for c in cards:
        if c in _IDS:
            v = card(c).value
            total += chaff_value if v == 1 else v
    return total


def is_willow(cid: str) -> bool:
    return card_month(cid) == WILLOW


def lightning_line(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """The line of a ``play``/``draw``/``drew`` event in which the wild lightning acts, else None."""
    kind, who = event.get("type"), seat_name(names, event)
    cid = event.get("card")
    taken = [c for c in event.get("captured", ()) if c != cid]
    if kind == "drew" and cid == LIGHTNING:
        choices = event.get("choose", ())
        if choices and not all(is_willow(c) for c in choices):
            return t("{player} turned the **wild lightning**: choosing which card it takes…", player=who)
        return None
    if kind not in ("play", "draw"):
        return None
    if cid == LIGHTNING:
        sweep = kind == "draw" and len(taken) > 1 and (len(taken) == 2 or not all(map(is_willow, taken)))
        if sweep:
            return t("{player} turned the **wild lightning** as the last stock card: it sweeps the field "
                     "and takes {cards}", player=who, cards=names_of(taken))
        if len(taken) == 1 and not is_willow(taken[0]):
            if kind == "play":
                return t("{player} plays the **lightning** as a wild card and takes {card}", player=who,
                         card=card_name(taken[0]))
            return t("{player} turned the **wild lightning**: it takes {card}", player=who, card=card_name(taken[0]))
        return None
    if kind == "draw" and taken == [LIGHTNING] and not is_willow(cid):
        return t("{player} turned {card}: it must take the **wild lightning** lying on the field", player=who,
                 card=card_name(cid))
    return None


def lightning_placed_line(event: dict[str, Any], names: Sequence[str], wild: bool) -> str | None:
    """The lightning put on the field with nothing it may take (only said when it is wild)."""
    if (wild and event.get("type") in ("play", "draw") and event.get("card") == LIGHTNING
            and not event.get("captured")):
        if event.get("type") == "play":
            return t("{player} plays the **wild lightning**: no card it may take, so it stays on the field "
                     "(the next non-willow stock card takes it)", player=seat_name(names, event))
        return t("{player} turned the **wild lightning**: no card it may take, so it stays on the field "
                 "(the next non-willow stock card takes it)", player=seat_name(names, event))
    return None


def handover_line(event: dict[str, Any], names: Sequence[str]) -> str:
    who = seat_name(names, event)
    cards = names_of(event.get("cards", ()))
    if event.get("reason") == "willow":
        return t("End of round: the leftover willow ({cards}) goes to {player}, who holds the other plain "
                 "willows", cards=cards, player=who)
    if event.get("reason") == "lightning_mate":
        return t("End of round: {cards}, the mate of the lightning's victim, goes to {player}, who used the "
                 "lightning", cards=cards, player=who)
    return t("End of round: {cards} goes to {player}", cards=cards, player=who)


def playout_line(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """Lines Mushi and Hana-Awase share: the draw for the deal, misdeals, handovers, new rounds."""
    kind = event.get("type")
    if kind == "dealer_draw":
        drawn = t(", ").join(f"{n} {card_name(c)}" for n, c in zip(names, event.get("cards", ()), strict=False))
        return t("Drawing for the deal: {draws}. {dealer} deals first", draws=drawn,
                 dealer=seat_name(names, event, "dealer"))
    if kind == "misdeal":
        reason = str(event.get("reason", ""))
        why = MISDEAL_REASONS[reason] if reason in MISDEAL_REASONS else reason.replace("_", " ")
        return t("Misdeal ({why}): the cards are dealt again", why=why)
    if kind == "handover":
        return handover_line(event, names)
    if kind == "draw" and not event.get("captured"):
        return t("{player} turned {card}: no match, it stays on the field", player=seat_name(names, event),
                 card=card_name(event["card"]))
    if kind == "round_start":
        return t("Round {round}: {dealer} deals", round=event["round"], dealer=seat_name(names, event, "dealer"))
    return None


def near_yaku(captured: Sequence[Sequence[str]], seat: int, sets: dict[str, tuple[str, ...]],
              name) -> tuple[str, ...]:
    """'Name held/needed' for the fixed-card yaku ``seat`` is building and can still complete."""
    mine = set(captured[seat])
    others = {c for s, pile in enumerate(captured) if s != seat for c in pile}
    out = []
    for slug, need in sets.items():
        held = sum(1 for c in need if c in mine)
        if 2 <= held < len(need) and not others & set(need):
            out.append(f"{name(slug)} {held}/{len(need)}")
    return tuple(out)


def wild_playable(hand: Iterable[str], field: Sequence[str], targets: Sequence[str], *,
                  wild: bool) -> tuple[str, ...]:
    """Hand cards that take something: a wild lightning any non-willow field card, the others a
    card of their month among ``targets`` (never a wild lightning lying there)."""
    out = []
    for c in hand:
        if wild and c == LIGHTNING:
            ok = any(not is_willow(f) for f in field)
        else:
            ok = any(card_month(f) == card_month(c) and not (wild and f == LIGHTNING) for f in targets)
        if ok:
            out.append(c)
    return tuple(out)


def playout_prompt(obs: dict[str, Any], *, wild: bool) -> str | None:
    """The prompt shared by the play-out games for a turned card, another phase or an empty
    hand; None when the game's own play prompt applies."""
    phase = obs.get("phase")
    if phase == "choose_draw":
        drawn = obs.get("drawn")
        if drawn == LIGHTNING and wild:
            return t("you turned the wild lightning: choose the card it takes")
        return t("you turned {card}: choose a card to take", card=card_name(drawn))
    if phase != "play":
        return ""
    if not obs.get("hand"):
        return t("your hand is empty: turn the stock card")
    return None


class MushiPresenter(Presenter):
    game = "mushi"
    yaku_names = {
        "goko": NP_("yaku", "Goko (five brights)"),
        "sanko_mushi": NP_("yaku", "Three brights (crane, warbler, curtain)"),
        "fujishima": NP_("yaku", "Fujishima (four wisteria)"),
        "kirishima": NP_("yaku", "Kirishima (four paulownia)"),
    }
    action_names = {"draw": NP_("move", "Turn the stock card")}

    # -- names and buttons ----------------------------------------------------------------------
    def action_label(self, action: Action) -> str:
        if action.kind == "play" and action.card == LIGHTNING and action.target:
            return t("Lightning (wild) → {card}", card=card_name(action.target))
        if action.kind == "choose" and action.card == LIGHTNING:
            return t("Lightning takes {card}", card=card_name(action.target))
        return super().action_label(action)

    def action_style(self, action: Action) -> str:
        if action.card == LIGHTNING:
            return "primary"
        return "success" if action.kind == "choose" else "secondary"

    # -- events ---------------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        kind = event.get("type")
        who = seat_name(names, event)
        if (line := lightning_line(event, names)) or (line := lightning_placed_line(event, names, True)):
            return line
        if (line := playout_line(event, names)) is not None:
            return line
        if kind == "deal":
            return t("{dealer} deals: 8 cards each and 8 on the field", dealer=seat_name(names, event, "dealer"))
        if kind == "drew":
            return t("{player} turned {card}: it matches two cards, choosing…", player=who,
                     card=card_name(event["card"]))
        return super().describe_event(event, names)

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        points = event.get("points", [])
        listed = t(", ").join(f"{n} {signed(p)}" for n, p in zip(names, points, strict=False))
        w = event.get("winner")
        if w is None:
            return t("Round {round} is a tie ({points})", round=event["round"], points=listed)
        return t("Round {round}: {player} wins ({points})", round=event["round"], player=names[w], points=listed)

    # -- the table ------------------------------------------------------------------------------
    def par(self, obs: dict[str, Any]) -> int:
        return obs.get("rules", {}).get("par", 115)

    def yaku_cards(self, obs: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        sets = dict(MUSHI_YAKU_CARDS)
        if obs.get("rules", {}).get("yaku_set") == "three":
            sets.pop("goko")
        return sets

    def formed_yaku(self, obs: dict[str, Any], seat: int) -> list[str]:
        pile = set((obs.get("captured") or [[]] * (seat + 1))[seat])
        return [slug for slug, need in self.yaku_cards(obs).items() if set(need) <= pile]

    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        pile = (obs.get("captured") or [[]] * (seat + 1))[seat]
        out = [plural(pile_points(pile), "card pt")]
        out += [self.short_yaku_name(s) for s in self.formed_yaku(obs, seat)]
        victim = obs.get("lightning_victim")
        if LIGHTNING in pile and victim:
            out.append(t("Lightning took {card}", card=card_name(victim)))
        return out

    def progress(self, obs: dict[str, Any], seat: int) -> tuple[str, ...]:
        captured = obs.get("captured")
        if not captured:
            return ()
        return near_yaku(captured, seat, self.yaku_cards(obs), self.short_yaku_name)

    def footer(self, obs: dict[str, Any]) -> str:
        return t("The lightning is wild · score = card points − {par} + own yaku − opponent's yaku",
                 par=self.par(obs))

    # -- the hand -------------------------------------------------------------------------------
    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        field = obs.get("field", ())
        return wild_playable(obs.get("hand", ()), field, field, wild=True)

    def prompt(self, obs: dict[str, Any]) -> str:
        if (common := playout_prompt(obs, wild=True)) is not None:
            return common
        if LIGHTNING in obs.get("hand", ()):
            return t("your turn: play a card (your lightning is wild: it takes any non-willow card)")
        if LIGHTNING in obs.get("field", ()):
            return t("your turn: play a card (the next non-willow stock card takes the lightning)")
        return t("your turn: play a card")

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        seat = obs.get("seat")
        captured = obs.get("captured")
        if not isinstance(seat, int) or not captured:
            return []
        pts = pile_points(captured[seat])
        value = t("{points} ({difference} against the par of {par})", points=plural(pts, "card point"),
                  difference=signed(pts - self.par(obs)), par=self.par(obs))
        formed = self.formed_yaku(obs, seat)
        if formed:
            value += " · " + t(", ").join(f"{self.yaku_name(s)} {YAKU_POINTS[s]}" for s in formed)
        return [(t("Your pile"), value)]

    # -- the end of a round ---------------------------------------------------------------------
    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        detail = event.get("detail", {})
        rows = []
        for seat, name in enumerate(names):
            for slug, points, *rest in detail.get("yaku_by_seat", {}).get(str(seat), []):
                rows.append(YakuRow(player=name, name=self.yaku_name(slug),
                                    cards=tuple(rest[0]) if rest else (), points=points))
        return rows

    def result_lines(self, event: dict[str, Any], names: Sequence[str]) -> list[str]:
        detail = event.get("detail", {})
        cards = detail.get("card_points", [])
        par = detail.get("par", 115)
        yaku = detail.get("yaku_by_seat", {})
        own = [sum(y[1] for y in yaku.get(str(s), [])) for s in range(len(names))]
        lines = []
        for seat, name in enumerate(names):
            if seat >= len(cards):
                break
            other = sum(own) - own[seat]
            lines.append(t("{player}: ({points} − {par}) + {own} own yaku − {other} opponent's yaku = {total}",
                           player=name, points=plural(cards[seat], "card point"), par=par, own=own[seat],
                           other=other, total=signed(event["points"][seat])))
        w = event.get("winner")
        lines.append(t("A tie: the dealer deals again") if w is None
                     else t("{player} wins the round and deals next", player=names[w]))
        if detail.get("unclaimed"):
            lines.append(t("Left on the field, scored by nobody: {cards}", cards=names_of(detail["unclaimed"])))
        if event.get("scores"):
            lines.append(match_line(names, event["scores"]))
        return lines


PRESENTER = MushiPresenter()
