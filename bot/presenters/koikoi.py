"""Koi-Koi on screen: yaku names, koi-koi badges, the koi-koi/stop and swap prompts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Action
from bot.i18n import NP_, t
from bot.words import plural
from rendering.view import YakuRow

from .base import Presenter, card_name, seat_name


class KoiKoiPresenter(Presenter):
    game = "koikoi"
    yaku_names = {
        "goko": NP_("yaku", "Goko (five brights)"), "shiko": NP_("yaku", "Shiko (four brights)"), "ameshiko": NP_("yaku", "Ame-shiko (rainy four)"),
        "sanko": NP_("yaku", "Sanko (three brights)"), "inoshikacho": NP_("yaku", "Inoshikacho (boar-deer-butterflies)"),
        "tane": NP_("yaku", "Tane (animals)"), "akatan": NP_("yaku", "Akatan (poetry ribbons)"), "aotan": NP_("yaku", "Aotan (blue ribbons)"),
        "akatan_aotan": NP_("yaku", "Akatan + Aotan"), "tanzaku": NP_("yaku", "Tanzaku (ribbons)"), "hanami_zake": NP_("yaku", "Hanami-zake"),
        "tsukimi_zake": NP_("yaku", "Tsukimi-zake"), "kasu": NP_("yaku", "Kasu (chaff)"), "tsukifuda": NP_("yaku", "Tsukifuda (month cards)"),
        "teshi": NP_("yaku", "Teshi (four of a month dealt)"), "kuttsuki": NP_("yaku", "Kuttsuki (four pairs dealt)"),
        "field_four": NP_("yaku", "Four of a month on the field"),
    }
    multiplier_names = {"seven_plus": NP_("multiplier", "7 points or more"), "koikoi": NP_("multiplier", "koi-koi"),
                        "field_brights": NP_("multiplier", "brights on the field"),
                        "koikoi_calls": NP_("multiplier", "for own koi-koi calls")}
    action_names = {"koikoi": NP_("move", "Koi-Koi!"), "stop": NP_("move", "Stop (score now)"), "keep": NP_("move", "Keep my hand"),
                    "swap": NP_("move", "Swap hands")}

    def action_style(self, action: Action) -> str:
        if action.kind in ("koikoi", "choose"):
            return "success"
        return "danger" if action.kind == "stop" else "secondary"

    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        kind = event.get("type")
        who = seat_name(names, event)
        if kind == "drew":
            return t("{player} turned {card}: it matches two cards, choosing…", player=who,
                     card=card_name(event["card"]))
        if kind == "yaku":
            listed = t(", ").join(f"{self.yaku_name(s)} {p}" for s, p in event["yaku"])
            return t("{player} has {yaku} = {points}", player=who, yaku=listed,
                     points=plural(event["points"], "point"))
        if kind == "koikoi":
            return t("{player} calls **Koi-Koi!** (call {calls})", player=who, calls=event["calls"])
        if kind == "stop":
            if event.get("forced"):
                return t("{player} stops (no cards left to go on)", player=who)
            return t("{player} stops", player=who)
        if kind == "swap":
            return t("{player} swaps hands with the dealer", player=who)
        return super().describe_event(event, names)

    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = []
        calls = obs.get("koikoi_calls")
        if calls and calls[seat]:
            out.append(t("Koi-Koi x{calls}", calls=calls[seat]))
        yaku = obs.get("yaku")
        if yaku and yaku[seat]:
            out.append(t("{points} in yaku", points=plural(sum(p for _, p in yaku[seat]), "pt")))
        return out

    def prompt(self, obs: dict[str, Any]) -> str:
        phase = obs.get("phase")
        if phase == "decide":
            return t("you formed a yaku: Koi-Koi or Stop?")
        if phase == "choose_draw":
            return t("you turned {card}: choose a card to take", card=card_name(obs["drawn"]))
        if phase == "swap_offer":
            return t("keep your hand or swap it with the dealer's?")
        return t("your turn: play a card")

    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        rows = super().summary_rows(event, names)
        detail, w = event.get("detail", {}), event.get("winner")
        if w is not None and isinstance(detail.get("teyaku"), list):
            for slug in detail["teyaku"]:
                rows.append(YakuRow(player=names[w], name=self.yaku_name(slug),
                                    cards=tuple(detail.get("revealed", ())), points=detail.get("base", 0)))
        return rows


PRESENTER = KoiKoiPresenter()
