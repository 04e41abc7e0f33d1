"""Seotda on screen: hand names, the betting buttons with their chips, the table (each seat's
stack, bet and state, the pot and side pots; drawn by :mod:`rendering.betting`) and the showdown
naming every hand shown (:mod:`rendering.showdown`).

The public table carries no card before the showdown, and never the cards of a hand that died
or the card a three-card player set aside: the engine's observation does not hold them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.games.base import Action
from bot.games.seotda import KEEP, OVER, best_two, evaluate
from bot.i18n import NP_, t, tp
from bot.words import plural
from rendering.view import PlayerView, ShownHand, SummaryView, TableView

from .base import Presenter, joined, seat_name

NAME = NP_("game", "Seotda")
_MEANING = re.compile(r"(?P<name>.+?)\s*[(（](?P<detail>.+)[)）]\s*")  # "Ali (1 and 2)", "アリ(1と2)"


class SeotdaPresenter(Presenter):
    game = "seotda"
    korean_months = False
    yaku_names = {
        "gwangttaeng_38": NP_("yaku", "38 Gwang-ttaeng (the March and August brights)"),
        "gwangttaeng_18": NP_("yaku", "18 Gwang-ttaeng (the January and August brights)"),
        "gwangttaeng_13": NP_("yaku", "13 Gwang-ttaeng (the January and March brights)"),
        "ttaeng_10": NP_("yaku", "Jang-ttaeng (a pair of 10)"),
        "ttaeng_9": NP_("yaku", "9 Ttaeng (a pair of 9)"), "ttaeng_8": NP_("yaku", "8 Ttaeng (a pair of 8)"),
        "ttaeng_7": NP_("yaku", "7 Ttaeng (a pair of 7)"), "ttaeng_6": NP_("yaku", "6 Ttaeng (a pair of 6)"),
        "ttaeng_5": NP_("yaku", "5 Ttaeng (a pair of 5)"), "ttaeng_4": NP_("yaku", "4 Ttaeng (a pair of 4)"),
        "ttaeng_3": NP_("yaku", "3 Ttaeng (a pair of 3)"), "ttaeng_2": NP_("yaku", "2 Ttaeng (a pair of 2)"),
        "ttaeng_1": NP_("yaku", "Pping-ttaeng (a pair of 1)"),
        "ali": NP_("yaku", "Ali (1 and 2)"), "doksa": NP_("yaku", "Dok-sa (1 and 4)"),
        "gubbing": NP_("yaku", "Gu-bbing (1 and 9)"), "jangbbing": NP_("yaku", "Jang-bbing (1 and 10)"),
        "jangsa": NP_("yaku", "Jang-sa (10 and 4)"), "seryuk": NP_("yaku", "Se-ryuk (4 and 6)"),
        "kkeut_9": NP_("yaku", "Gabo (9 kkeut)"), "kkeut_8": NP_("yaku", "8 kkeut"), "kkeut_7": NP_("yaku", "7 kkeut"),
        "kkeut_6": NP_("yaku", "6 kkeut"), "kkeut_5": NP_("yaku", "5 kkeut"), "kkeut_4": NP_("yaku", "4 kkeut"),
        "kkeut_3": NP_("yaku", "3 kkeut"), "kkeut_2": NP_("yaku", "2 kkeut"), "kkeut_1": NP_("yaku", "1 kkeut"),
        "mangtong": NP_("yaku", "Mang-tong (0 kkeut)"),
        "amhaeng_eosa": NP_("yaku", "Amhaeng-eosa (the secret inspector: 4 and 7 animals)"),
        "ttaengjabi": NP_("yaku", "Ttaeng-jabi (the pair catcher: 3 and 7)"),
        "gusa": NP_("yaku", "Gusa (4 and 9)"),
        "meongteongguri_gusa": NP_("yaku", "Meongteongguri-gusa (4 and 9 animals)"),
    }
    action_names = {"check": NP_("move", "Check"), "bbing": NP_("move", "Bbing"), "call": NP_("move", "Call"),
                    "half": NP_("move", "Half"), "ddadang": NP_("move", "Ddadang"), "allin": NP_("move", "All in"),
                    "die": NP_("move", "Die")}

    # -- buttons ------------------------------------------------------------------------------
    def action_label(self, action: Action) -> str:
        if action.kind == "keep":
            return t("Keep {first} and {second}", first=self.card_label(action.card),
                     second=self.card_label(action.target))
        return tp("move", self.action_names.get(action.kind, action.kind))

    def priced_label(self, action: Action, costs: dict[str, int]) -> str:
        """A betting button with the chips it puts in: "Half (7 chips)"."""
        label = self.action_label(action)
        chips = costs.get(action.kind)
        if chips:
            return t("{move} ({chips})", move=label, chips=plural(chips, "chip"))
        return label

    def action_style(self, action: Action) -> str:
        if action.kind == "die":
            return "danger"
        if action.kind in ("half", "ddadang", "bbing", "allin"):
            return "success"
        return "primary" if action.kind in ("call", "check", "keep") else "secondary"

    def hand_actions(self, obs: dict[str, Any]) -> list[tuple[int | None, Action]]:
        return [(None, Action.parse(a)) for a in obs.get("legal_actions", [])]

    def prompt(self, obs: dict[str, Any]) -> str:
        if obs.get("phase") == "keep":
            return t("your turn: keep two of your three cards")
        to_call = obs.get("to_call", 0)
        if to_call:
            return t("your turn: {chips} to call", chips=plural(to_call, "chip"))
        return t("your turn: bet or check")

    def decision(self, obs: dict[str, Any]) -> tuple[str, ...]:
        if obs.get("current_player") != obs.get("seat"):
            return ()
        costs = obs.get("costs", {})
        return tuple(self.priced_label(a, costs) for _, a in self.hand_actions(obs))

    def playable(self, obs: dict[str, Any]) -> tuple[str, ...]:
        return ()

    def caption(self, obs: dict[str, Any]) -> str:
        """The rank of the hand the seat plays: the two it kept, else its best two ('' before
        it holds two cards)."""
        cards = obs.get("kept") or obs.get("hand") or []
        if len(cards) < 2:
            return ""
        specials = obs.get("special_hands", True)
        hand = evaluate(cards, specials) if len(cards) == 2 else best_two(cards, specials)
        return self.yaku_name(hand.slug)

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        rank = self.caption(obs)
        return [(t("Your hand"), rank)] if rank else []

    # -- the table ----------------------------------------------------------------------------
    def status(self, obs: dict[str, Any], seat: int) -> str:
        """A seat's state in a word or two: to act, died, all in, or its bet of this round."""
        if not obs["live"][seat]:
            return t("Died") if obs["hand_sizes"][seat] else t("Out")
        if obs.get("phase") == OVER:
            return ""
        if obs["all_in"][seat]:
            return t("All in")
        if obs.get("current_player") == seat:
            return t("Choosing") if obs.get("phase") == KEEP else t("To act")
        if obs["round_bets"][seat]:  # it bet in this round: its latest bet says how
            last = next((b for b in reversed(obs.get("history", ())) if b["player"] == seat), None)
            if last and last["action"] == "call":
                return t("Called")
            if last and last["action"] in ("bbing", "half", "ddadang"):
                return self.action_label(Action(last["action"]))
        return ""

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None):
        shown = obs.get("shown", {}).get(str(seat))
        return PlayerView(
            name=name, is_dealer=obs.get("dealer") == seat, is_turn=obs.get("current_player") == seat,
            hand_size=obs["hand_sizes"][seat], stack=obs["stacks"][seat],
            bet=None if obs.get("phase") == OVER else obs["round_bets"][seat], status=self.status(obs, seat),
            out=not obs["live"][seat] and not shown,
            shown=tuple(shown["cards"]) if shown else (),
            hand_name=self._hand_name(shown["hand"])["name"] if shown else "",
        )

    def pots(self, obs: dict[str, Any]) -> tuple[tuple[str, int], ...]:
        """The pot, split into the main pot and side pots once a seat still in is all in: each
        capped pot is what the all-in seats can win (docs/rules/seotda.md, "allin")."""
        if obs.get("phase") == OVER:  # paid out: the stacks show who took it
            return ((t("Paid out"), sum(obs["in_pot"])),)
        in_pot, live, all_in = obs["in_pot"], obs["live"], obs["all_in"]
        caps = sorted({in_pot[s] for s in range(len(in_pot)) if live[s] and all_in[s]})
        amounts, below = [], 0
        for cap in caps:
            amounts.append(sum(min(c, cap) - min(c, below) for c in in_pot))
            below = cap
        rest = sum(max(0, c - below) for c in in_pot)
        if rest or not amounts:
            amounts.append(rest)
        if len(amounts) == 1:
            return ((t("Pot"), amounts[0]),)
        return ((t("Main pot"), amounts[0]),
                *((t("Side pot {number}", number=i), chips) for i, chips in enumerate(amounts[1:], 1)))

    def stage(self, obs: dict[str, Any]) -> str:
        """Where the hand is: which betting round, the keep, the showdown, and a redeal."""
        phase = obs.get("phase")
        if phase == OVER:
            where = t("Showdown") if obs.get("shown") else t("Hand over")
        elif phase == KEEP:
            where = t("Third card: keep two")
        elif obs.get("cards_per_hand") == 3:
            where = t("Betting round {number} of 2", number=obs.get("street", 1))
        else:
            where = t("Betting")
        redeals = obs.get("redeals", 0)
        return t("{stage} · redeal {number}", stage=where, number=redeals) if redeals else where

    def table_view(self, obs: dict[str, Any], names: Sequence[str], *, last_move: str = "",
                   title: str | None = None) -> TableView:
        """The public table: no seat's cards but those shown at the showdown (never a hand that
        died, never a card set aside)."""
        players = tuple(self.player_view(obs, seat, name, None) for seat, name in enumerate(names))
        over = obs.get("phase") == OVER
        return TableView(game=self.game, title=title or self.title(obs), players=players,
                         last_move=last_move, footer=self.footer(obs), pots=self.pots(obs),
                         to_call=None if over else obs.get("current_bet") or None, stage=self.stage(obs))

    def title(self, obs: dict[str, Any]) -> str:
        match = obs.get("match", {})
        rounds = match.get("rounds") or 0
        game = tp("game", NAME)
        number = match.get("round", 1)
        if rounds:
            return t("{game} · hand {round}/{rounds}", game=game, round=number, rounds=rounds)
        return t("{game} · hand {round}", game=game, round=number)

    def footer(self, obs: dict[str, Any]) -> str:
        """The table's limits: the ante and the raises a betting round allows."""
        return t("Ante {chips} · up to {raises} raises a betting round", chips=plural(obs.get("ante", 1), "chip"),
                 raises=obs.get("max_raises", 0))

    # -- events -------------------------------------------------------------------------------
    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        kind = event.get("type")
        who = seat_name(names, event)
        if kind == "bet":
            move = event["action"]
            if move == "die":
                return t("{player} dies", player=who)
            if move == "check":
                return t("{player} checks", player=who)
            return t("{player}: {move}, {chips} in (pot {pot})", player=who,
                     move=self.action_label(Action(move)), chips=plural(event["amount"], "chip"),
                     pot=event["pot"])
        if kind == "ante":
            return t("Everyone antes; the pot is {chips}", chips=plural(event["pot"], "chip"))
        if kind == "third_card":
            return t("Each player still in gets a third card and keeps two")
        if kind == "keep":
            return t("{player} has chosen two cards", player=who)
        if kind == "redeal":
            if event["reason"] == "tie":
                return t("A tie: {players} are dealt again for the pot",
                         players=joined([names[s] for s in event["players"]]))
            return t("{hand} shown: the hand is dealt again for the pot",
                     hand=self.yaku_name(event["reason"]))
        if kind == "showdown":
            shown = [t("{player}: {hand}", player=names[int(s)], hand=self.yaku_name(h["hand"]))
                     for s, h in event["hands"].items()]
            return t("Showdown: {hands}", hands=t("; ").join(shown))
        if kind == "pot":
            winners = sorted({s for pot in event["pots"] for s in pot["winners"]})
            # what they gained, net of their own bets, as the hand's line says it
            gained = sum(max(0, event["net"][s]) for s in winners)
            return t("{players} won {chips}", players=joined([names[s] for s in winners]),
                     chips=plural(gained, "chip"))
        return super().describe_event(event, names)

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        w = event.get("winner")
        if w is None:
            return t("Hand {round}: the pot is shared", round=event["round"])
        return t("Hand {round}: {name} wins {chips}", round=event["round"], name=names[w],
                 chips=plural(event["points"][w], "chip"))

    # -- the showdown ----------------------------------------------------------------------------
    def posts_summary(self, event: dict[str, Any]) -> bool:
        """A hand's end, and a showdown that calls a redeal: the hands shown are pictured even
        though nothing is paid yet, so the table sees why the cards are dealt again."""
        return event["type"] == "round_over" or (event["type"] == "showdown" and bool(event.get("redeal")))

    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        """The showdown picture: every hand shown, named, with the chips each won and its net,
        who took which pot. From a ``round_over`` event (the hand paid out) or from a
        ``showdown`` event that calls a redeal (gusa, a replayed tie: nothing is paid yet)."""
        if event.get("type") == "showdown":
            return self._redeal_view(event, names)
        detail = event.get("detail", {})
        points = event.get("points", [])
        won = detail.get("won", [0] * len(points))
        paid = {s for pot in detail.get("pots", ()) for s in pot["winners"]}
        reason = event.get("reason")
        hands = tuple(ShownHand(
            player=names[int(s)], **self._hand_name(h["hand"]), cards=tuple(h["cards"]), won=won[int(s)],
            net=points[int(s)], winner=int(s) in paid, note=self._catch_note(reason) if int(s) in paid else "",
        ) for s, h in detail.get("hands", {}).items())
        lines = [self.round_line(event, names)]
        if reason == "others_died":
            lines.append(t("Everyone else died: no hand is shown"))
        elif reason == "split":
            lines.append(t("No redeal is left: everyone shown shares the pot"))
        if detail.get("stacks"):
            lines.append(t("Stacks: {stacks}", stacks=", ".join(
                f"{n} {s}" for n, s in zip(names, detail["stacks"], strict=False))))
        return SummaryView(title=t("Hand {round}", round=event["round"]), hands=hands,
                           pots=self._pot_lines(detail.get("pots", ()), names), result_lines=tuple(lines))

    def _hand_name(self, slug: str) -> dict[str, str]:
        """A hand's name and, apart, what it means: "Jang-ttaeng" and "a pair of 10"."""
        full = self.yaku_name(slug)
        found = _MEANING.fullmatch(full)
        return {"name": found["name"], "detail": found["detail"]} if found else {"name": full, "detail": ""}

    @staticmethod
    def _catch_note(reason: str | None) -> str:
        if reason == "amhaeng_eosa":
            return t("catches the gwang-ttaeng")
        if reason == "ttaengjabi":
            return t("catches the ttaeng")
        return ""

    def _pot_lines(self, pots: Sequence[dict[str, Any]], names: Sequence[str]) -> tuple[str, ...]:
        out = []
        for i, pot in enumerate(pots):
            label = t("Pot") if len(pots) == 1 else t("Main pot") if i == 0 else t("Side pot {number}", number=i)
            takers = [names[s] for s in pot["winners"]]
            if len(takers) == 1:
                out.append(t("{pot}: {chips} to {player}", pot=label, chips=plural(pot["chips"], "chip"),
                             player=takers[0]))
            else:
                out.append(t("{pot}: {chips} shared by {players}", pot=label,
                             chips=plural(pot["chips"], "chip"), players=joined(takers)))
        return tuple(out)

    def _redeal_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        """A ``showdown`` event: its hands, and the redeal it calls (a showdown that is paid out
        is pictured from the hand's ``round_over``, which has the chips)."""
        redeal = event.get("redeal") or {}
        caller = redeal.get("caller")
        hands = tuple(ShownHand(
            player=names[int(s)], **self._hand_name(h["hand"]), cards=tuple(h["cards"]),
            winner=not redeal and int(s) in event.get("winners", ()),
            note=t("calls a redeal") if caller == int(s) else "",
        ) for s, h in event["hands"].items())
        if redeal.get("reason") == "tie":
            tied = joined([names[s] for s in event.get("winners", ())])
            banner = t("A tie: {players} are dealt again; the pot stays", players=tied)
        elif redeal:
            banner = t("{player} shows {hand}: the hand is dealt again; the pot stays",
                       player=names[caller] if caller is not None else "",
                       hand=self._hand_name(redeal["reason"])["name"])
        else:
            banner = ""
        return SummaryView(title=t("Showdown: dealt again") if redeal else t("Showdown"), hands=hands,
                           banner=banner)


PRESENTER = SeotdaPresenter()
