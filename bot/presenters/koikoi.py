"""Koi-Koi on screen: yaku names, koi-koi badges, the koi-koi/stop and swap prompts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Action
from bot.words import plural
from rendering.view import YakuRow

from .base import Presenter, card_name, seat_name


class KoiKoiPresenter(Presenter):
    game = "koikoi"
    yaku_names = {
        "goko": "Goko (five brights)", "shiko": "Shiko (four brights)", "ameshiko": "Ame-shiko (rainy four)",
        "sanko": "Sanko (three brights)", "inoshikacho": "Inoshikacho (boar-deer-butterflies)",
        "tane": "Tane (animals)", "akatan": "Akatan (poetry ribbons)", "aotan": "Aotan (blue ribbons)",
        "akatan_aotan": "Akatan + Aotan", "tanzaku": "Tanzaku (ribbons)", "hanami_zake": "Hanami-zake",
        "tsukimi_zake": "Tsukimi-zake", "kasu": "Kasu (chaff)", "tsukifuda": "Tsukifuda (month cards)",
        "teshi": "Teshi (four of a month dealt)", "kuttsuki": "Kuttsuki (four pairs dealt)",
        "field_four": "Four of a month on the field",
    }
    multiplier_names = {"seven_plus": "7 points or more", "koikoi": "koi-koi",
                        "field_brights": "brights on the field"}
    action_names = {"koikoi": "Koi-Koi!", "stop": "Stop (score now)", "keep": "Keep my hand",
                    "swap": "Swap hands"}

    def action_style(self, action: Action) -> str:
        if action.kind in ("koikoi", "choose"):
            return "success"
        return "danger" if action.kind == "stop" else "secondary"

    def describe_event(self, event: dict[str, Any], names: Sequence[str]) -> str | None:
        t = event.get("type")
        who = seat_name(names, event)
        if t == "drew":
            return f"{who} turned {card_name(event['card'])}: it matches two cards, choosing…"
        if t == "yaku":
            listed = ", ".join(f"{self.yaku_name(s)} {p}" for s, p in event["yaku"])
            return f"{who} has {listed} = {plural(event['points'], 'point')}"
        if t == "koikoi":
            return f"{who} calls **Koi-Koi!** (call {event['calls']})"
        if t == "stop":
            return f"{who} stops" + (" (no cards left to go on)" if event.get("forced") else "")
        if t == "swap":
            return f"{who} swaps hands with the dealer"
        return super().describe_event(event, names)

    def badges(self, obs: dict[str, Any], seat: int) -> list[str]:
        out = []
        calls = obs.get("koikoi_calls")
        if calls and calls[seat]:
            out.append(f"Koi-Koi x{calls[seat]}")
        yaku = obs.get("yaku")
        if yaku and yaku[seat]:
            out.append(f"{plural(sum(p for _, p in yaku[seat]), 'pt')} in yaku")
        return out

    def prompt(self, obs: dict[str, Any]) -> str:
        phase = obs.get("phase")
        if phase == "decide":
            return "you formed a yaku: Koi-Koi or Stop?"
        if phase == "choose_draw":
            return f"you turned {card_name(obs['drawn'])}: choose a card to take"
        if phase == "swap_offer":
            return "keep your hand or swap it with the dealer's?"
        return "your turn: play a card"

    def summary_rows(self, event: dict[str, Any], names: Sequence[str]) -> list[YakuRow]:
        rows = super().summary_rows(event, names)
        detail, w = event.get("detail", {}), event.get("winner")
        if w is not None and isinstance(detail.get("teyaku"), list):
            for slug in detail["teyaku"]:
                rows.append(YakuRow(player=names[w], name=self.yaku_name(slug),
                                    cards=tuple(detail.get("revealed", ())), points=detail.get("base", 0)))
        return rows


PRESENTER = KoiKoiPresenter()
