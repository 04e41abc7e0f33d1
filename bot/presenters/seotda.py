"""Seotda on screen: hand names, the betting buttons with their chips, the pot, each seat's bet
and stack, and the showdown naming every hand shown.

Not yet offered as a Discord command (see docs/rules/seotda.md): the table manager does not start
Seotda games, so this presenter is reached only through :mod:`bot.presenter` by its tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import Action
from bot.games.seotda import best_two, evaluate
from bot.i18n import NP_, t, tp
from bot.words import plural
from rendering.view import SummaryView, YakuRow

from .base import Presenter, joined, seat_name

NAME = NP_("game", "Seotda")


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
        "kkeut_9": NP_("yaku", "Gabo (9 kkeut)"), "kkeut_8": NP_("yaku", "8 Kkeut"), "kkeut_7": NP_("yaku", "7 Kkeut"),
        "kkeut_6": NP_("yaku", "6 Kkeut"), "kkeut_5": NP_("yaku", "5 Kkeut"), "kkeut_4": NP_("yaku", "4 Kkeut"),
        "kkeut_3": NP_("yaku", "3 Kkeut"), "kkeut_2": NP_("yaku", "2 Kkeut"), "kkeut_1": NP_("yaku", "1 Kkeut"),
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

    def hand_fields(self, obs: dict[str, Any]) -> list[tuple[str, str]]:
        cards = obs.get("kept") or obs.get("hand") or []
        if len(cards) < 2:
            return []
        specials = obs.get("special_hands", True)
        hand = evaluate(cards, specials) if len(cards) == 2 else best_two(cards, specials)
        return [(t("Your hand"), self.yaku_name(hand.slug))]

    # -- the table ----------------------------------------------------------------------------
    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = [t("Stack {chips}", chips=obs["stacks"][seat])]
        if obs["round_bets"][seat]:
            out.append(t("Bet {chips}", chips=obs["round_bets"][seat]))
        if not obs["live"][seat] and obs["hand_sizes"][seat]:
            out.append(t("Died"))
        elif obs["all_in"][seat]:
            out.append(t("All in"))
        return out

    def player_view(self, obs: dict[str, Any], seat: int, name: str, score: int | None):
        view = super().player_view(obs, seat, name, score)
        shown = obs.get("shown", {}).get(str(seat))
        if shown:
            view = replace(view, shown=tuple(shown["cards"]))
        return view

    def title(self, obs: dict[str, Any]) -> str:
        match = obs.get("match", {})
        rounds = match.get("rounds") or 0
        game = tp("game", NAME)
        number = match.get("round", 1)
        if rounds:
            return t("{game} · hand {round}/{rounds}", game=game, round=number, rounds=rounds)
        return t("{game} · hand {round}", game=game, round=number)

    def footer(self, obs: dict[str, Any]) -> str:
        pot = t("Pot {chips}", chips=plural(obs.get("pot", 0), "chip"))
        if obs.get("current_bet"):
            return t("{pot} · bet to call {chips}", pot=pot, chips=obs["current_bet"])
        return pot

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
            return t("{players} won {chips}", players=joined([names[s] for s in winners]),
                     chips=plural(sum(event["won"]), "chip"))
        return super().describe_event(event, names)

    def round_line(self, event: dict[str, Any], names: Sequence[str]) -> str:
        w = event.get("winner")
        if w is None:
            return t("Hand {round}: the pot is shared", round=event["round"])
        return t("Hand {round}: {name} wins {chips}", round=event["round"], name=names[w],
                 chips=plural(event["points"][w], "chip"))

    # -- the showdown ----------------------------------------------------------------------------
    def summary_view(self, event: dict[str, Any], names: Sequence[str]) -> SummaryView:
        """The showdown picture: every hand shown, named, with each seat's chips won or lost."""
        detail = event.get("detail", {})
        points = event.get("points", [])
        rows = tuple(YakuRow(player=names[int(s)], name=self.yaku_name(h["hand"]), cards=tuple(h["cards"]),
                             points=points[int(s)]) for s, h in detail.get("hands", {}).items())
        lines = [self.round_line(event, names)]
        if detail.get("stacks"):
            lines.append(t("Stacks: {stacks}", stacks=", ".join(
                f"{n} {s}" for n, s in zip(names, detail["stacks"], strict=False))))
        return SummaryView(title=t("Hand {round}", round=event["round"]), rows=rows,
                           result_lines=tuple(lines))


PRESENTER = SeotdaPresenter()
