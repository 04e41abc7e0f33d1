"""What ``/rules`` tells players: how each game is played, how chips settle, and a readable
summary of the house rules a server has chosen. Plain text (Discord Markdown), no Discord import.

The texts are a short digest of the rules pages in ``docs/rules/``; the exact numbers of the
table in force come from the game's ``Rules`` (the yaku sheet image and :func:`rules_summary`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from bot.games import game_module
from bot.games.shedding.text import RULES_PARAGRAPHS as SHEDDING_RULES
from bot.i18n import N_, NP_, t, tp
from bot.words import plural
from rendering.view import GAME_NAMES

__all__ = ["PRESET_LABELS", "preset_label", "TITLES", "HOW_TO_PLAY", "CHIPS", "title", "how_to_play", "chips_text", "editable_options", "option_help",
           "rules_summary", "format_value", "parse_value", "OptionRefused", "default_preset"]

PRESET_LABELS: dict[str, dict[str, str]] = {
    "koikoi": {"nintendo": NP_("rule set", "Nintendo"), "modern": NP_("rule set", "Modern (Fuda Wiki)"), "seed": NP_("rule set", "The rule-book seeds"),
               "koikoi_japan": NP_("rule set", "KoiKoi-Japan (the PC game)")},
    "gostop": {"korean": NP_("rule set", "Korean common rules"), "seed": NP_("rule set", "Seed 000")},
    "mushi": {"fudawiki": NP_("rule set", "Fuda Wiki"), "seed": NP_("rule set", "Seed 000")},
    "sakura": {"hawaiian": NP_("rule set", "Hawaiian (Fuda Wiki)"), "seed": NP_("rule set", "Seed 000")},
    "hana_awase": {"leaflet": NP_("rule set", "The Angel/Disney leaflet"), "fudawiki": NP_("rule set", "Fuda Wiki (against par)")},
    "shedding": {"seed002": NP_("rule set", "Seed 002"), "seed002_batsu": NP_("rule set", "Seed 002 with the batsu penalty")},
    "seotda": {"two_card": NP_("rule set", "Two-card Seotda"), "three_card": NP_("rule set", "Three-card Seotda (keep two)")},
}
"""Readable names of each game's rule presets (the keys stay the stored values)."""

def preset_label(game: str, preset: str | None) -> str:
    """A preset's readable name; an unknown key is shown as a plain "custom" rule set, never raw."""
    if preset is None:
        return t("the server's house rules")
    label = PRESET_LABELS.get(game, {}).get(preset)
    return tp("rule set", label) if label else t("Custom rules")


#: The games' names, read in the current language.
TITLES = GAME_NAMES


def title(game: str) -> str:
    """The game's name in the current language (an unknown slug as it is)."""
    return TITLES.get(game, game)


class Paragraphs(Mapping[str, str]):
    """Game -> a text of marked paragraphs, read in the current language (joined by blank
    lines): ``HOW_TO_PLAY["koikoi"]`` is the Koi-Koi page in whatever language is spoken."""

    def __init__(self, paragraphs: Mapping[str, tuple[str, ...]]) -> None:
        self._paragraphs = dict(paragraphs)

    def __getitem__(self, game: str) -> str:
        return "\n\n".join(t(paragraph) for paragraph in self._paragraphs[game])

    def __iter__(self) -> Iterator[str]:
        return iter(self._paragraphs)

    def __len__(self) -> int:
        return len(self._paragraphs)


_POT = N_("Each player puts the stake into the pot; the match winner takes the pot (a tie splits "
          "it; with Sakura teams the winning team shares it).")
_PER_POINT = N_("The stake is the chips per point. Each player escrows 30 × the stake, the most "
                "they can lose; at the end every player's net points times the stake are settled, "
                "nobody paying more than their escrow.")

#: How a staked game settles its chips, per game.
CHIPS = Paragraphs({
    "koikoi": (_POT,), "mushi": (_POT,), "hana_awase": (_POT,), "sakura": (_POT,),
    "gostop": (_PER_POINT,), "shedding": (_PER_POINT,),
    "seotda": (N_("Seotda is played for chips: your buy-in is held for the table when you sit "
                  "down, and every ante and bet comes out of that stack, never out of your balance; "
                  "at the showdown each pot is paid to the best hand that matched it (equal hands "
                  "share it) and a redeal keeps the pot. When the game ends you get your stack "
                  "back; a cancelled game also gives everyone back what they have in the pot."),),
})

_FISHING = N_(
    "**A turn.** Play one card from your hand. If a field card shows the same month "
    "(flower), you capture both; with two matches you choose which one to take; with three "
    "you take all four. A card that matches nothing stays on the field. Then the top card of "
    "the stock is turned over and resolved the same way.")

#: How each game is played: a few paragraphs (the goal, a turn, the end of a round, the
#: scoring), each its own text in the catalogs; :func:`how_to_play` joins them.
HOW_TO_PLAY_PARAGRAPHS: dict[str, tuple[str, ...]] = {
    "koikoi": (
        N_("**Koi-Koi** is the two-player Hanafuda classic: capture cards to form *yaku* (scoring "
           "sets) before your opponent does."),
        N_("**Deal.** Eight cards to each player and eight face up on the field; the rest is the "
           "stock. A player dealt four cards of a month, or four pairs, wins the round at once (a "
           "lucky hand)."),
        _FISHING,
        N_("**Koi-Koi or stop.** When your captures form a new yaku, or improve one, you choose: "
           "**stop** and score now, or call **Koi-Koi** and keep going for more, risking that your "
           "opponent scores first (their points are then doubled). Only the player who stops "
           "scores; if both hands run out first, nobody does."),
        N_("**Scoring.** Brights (three to five of the crane, curtain, moon, rain man and phoenix), "
           "the boar-deer-butterflies, the poetry and the blue ribbons, five animals, five ribbons, "
           "ten chaff and the sake-cup viewings are the yaku; a total of 7 or more is doubled. The "
           "winner of a round deals the next; the match lasts the agreed number of rounds."),
    ),
    "gostop": (
        N_("**Go-Stop** is the Korean fishing game for two (Matgo) or three players, played with "
           "Korean month numbers and a points system (*jokbo*) where every category adds up."),
        N_("**Deal.** Two players: ten cards each and eight on the field; three players: seven each "
           "and six on the field."),
        _FISHING,
        N_("Capturing a stack of three or sweeping the field steals a pi (chaff) card from every "
           "opponent. Holding three of a month you may *shake* (double your win) or *bomb* when the "
           "fourth lies on the field."),
        N_("**Go or stop.** Once your score reaches the minimum (7 with two players, 3 with three) "
           "and improves, call **Go** to continue (each go adds a point, from the third they "
           "double) or **Stop** to be paid. A player who called go and then loses pays extra."),
        N_("**Scoring.** Brights 3 to 15, five birds (*godori*) 5, the three ribbon sets 3 each, "
           "five or more animals, ribbons or ten pi count one point each above four or nine. Losers "
           "holding no bright or too few pi pay double. If nobody stops, the round is a draw and "
           "the next round counts double."),
    ),
    "mushi": (
        N_("**Mushi** is a two-player game from Osaka with a 40-card deck: the peony and the bush "
           "clover months are taken out."),
        N_("**Deal.** Eight cards to each player and eight to the field. There is no stopping: both "
           "players play out all eight turns."),
        _FISHING,
        N_("**The lightning is wild.** Played from the hand it captures any card but a willow; "
           "turned from the stock it must take a field card; lying on the field it is taken by the "
           "next card turned over."),
        N_("**Scoring.** Brights count 20, animals 10, ribbons 5 and chaff 1 (230 in all; par is "
           "115). Your score is your card points minus 115, plus your yaku minus your opponent's: "
           "five brights 30, three brights (crane, warbler, curtain) 25, all four wisteria "
           "(Fujishima) 10 and all four paulownia (Kirishima) 10."),
    ),
    "sakura": (
        N_("**Sakura** (Higo-Bana), the Hawaiian fishing game, seats two to seven players; at four "
           "or six you may play in teams of two."),
        N_("**Deal.** The hand and field sizes depend on the number of players (eight each with "
           "two, three each with six). The round goes on until every hand and the stock are empty."),
        _FISHING,
        N_("**Hiki:** when your hand and the field hold all four cards of a month you may take all "
           "four instead of playing. The lightning (*gaji*) is wild: from the hand it captures any "
           "field card."),
        N_("**Scoring.** Brights are worth 20, ribbons and the yellow paulownia 10, animals and the "
           "rain man 5, other chaff nothing. There are eight three-card yaku (for example curtain, "
           "moon and sake cup); every yaku you hold costs each opponent 50 points. The highest "
           "score deals next."),
    ),
    "hana_awase": (
        N_("**Hana-Awase** is the classic fishing game for two to four players (three is usual), as "
           "described in the Angel/Disney leaflet."),
        N_("**Deal.** Three players get seven cards each and six go to the field (two players eight "
           "and eight, four players five and eight). Everyone plays until all hands and the stock "
           "are empty."),
        _FISHING,
        N_("**Scoring.** Brights count 20, animals 10, ribbons 5 and chaff 1. Add your bonus hands: "
           "five brights, the crane-phoenix-moon trio, seven or six ribbons, the ribbon sets, the "
           "sake-cup viewings, boar-deer-butterflies and the four-card rows of the willow, wisteria "
           "and paulownia. The highest total wins the round and deals next; the Fuda Wiki preset "
           "scores against par instead."),
    ),
    "shedding": SHEDDING_RULES,
    "seotda": (
        N_("**Seotda** (섯다) is the Korean betting game for two to six players: with two cards (or "
           "three, keeping two) from the 20 cards of months 1 to 10 (the bright or animal card and "
           "the ribbon card of each month; the moon and the geese in August), bet that your hand is "
           "the best."),
        N_("**A hand.** Everyone puts the ante in the pot and gets two cards. The dealer bets "
           "first, then each player in turn: **check** (bet nothing while nobody has bet), **bbing** "
           "(open with one ante), **call** (match the bet), **half** (call, then raise by half the "
           "pot), **ddadang** (raise to twice the bet) or **die** (fold: what you bet stays in the "
           "pot). A player who has called may then only call or die; a round allows a limited "
           "number of raises. Who cannot cover a call may go **all in** and plays for the part of "
           "the pot they matched (a side pot)."),
        N_("**Three-card Seotda.** After the first betting round every player still in gets a third "
           "card, chooses the two to keep, and a second betting round follows."),
        N_("**Hands, best first.** 38 gwang-ttaeng (the March and August brights); 18 and 13 "
           "gwang-ttaeng (the January bright with the August or the March one); the pairs of one "
           "month (ttaeng), jang-ttaeng (10) down to pping-ttaeng (1); then ali (1-2), dok-sa (1-4), "
           "gu-bbing (1-9), jang-bbing (1-10), jang-sa (10-4), se-ryuk (4-6); then kkeut, the last "
           "digit of the sum, from gabo (9) down to mang-tong (0). Equal hands share the pot, or are "
           "dealt again where the table plays ties so."),
        N_("**Special hands.** Amhaeng-eosa (the April and July animals) catches 18 and 13 "
           "gwang-ttaeng; ttaeng-jabi (3 and 7) catches the ttaeng from 9 down; gusa (4 and 9) has "
           "the hand dealt again when the best hand is ali or lower, meongteongguri-gusa (the April "
           "and September animals) when it is jang-ttaeng or lower; the pot stays. Otherwise they "
           "count as their kkeut."),
        N_("**Ending.** One player left takes the pot without showing. A player who does not act "
           "in time dies. The match lasts the agreed number of hands or until a player has no chips "
           "left."),
        N_("**Sources:** Fuda Wiki (`fudawiki.org`), the Naegi Play tutorial (`naegiplay.com`), "
           "Harry's Hwatu how-to (`harryshwatuhowto.blogspot.com`) and the Korean terms of "
           "`sutdasite.net`; the full digest with every option is `docs/rules/seotda.md`."),
    ),
}


#: How each game is played, in the current language.
HOW_TO_PLAY = Paragraphs(HOW_TO_PLAY_PARAGRAPHS)


def how_to_play(game: str) -> str:
    return HOW_TO_PLAY[game] if game in HOW_TO_PLAY else t("{game}: see the yaku sheet below.", game=title(game))


def chips_text(game: str) -> str:
    return CHIPS[game] if game in CHIPS else t(_POT)


def default_preset(game: str) -> str:
    return next(iter(game_module(game).Rules.PRESETS))


_HIDDEN = {"preset_name", "custom_points"}


def editable_options(game: str) -> dict[str, type]:
    """Option name -> value type (bool, int or str) of the options a server may change."""
    rules = game_module(game).Rules.preset(default_preset(game))
    out: dict[str, type] = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name in _HIDDEN or type(value) not in (bool, int, str):
            continue
        out[f.name] = type(value)
    return out


def option_help(game: str, name: str) -> str:
    """The description of one option (from the game's ``OPTIONS``)."""
    module = game_module(game)
    entry = getattr(module, "OPTIONS", {}).get(name)
    if entry and len(entry) >= 3 and isinstance(entry[2], str):
        return t(entry[2])
    common = _COMMON_OPTIONS.get(name)
    return t(common) if common else ""


_COMMON_OPTIONS = {"rounds": N_("rounds in a match (0 = no limit)"),
                   "target_score": N_("a match ends when a seat reaches this score (0 = none)")}


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


class OptionRefused(ValueError):
    """A typed option value the game does not allow; the message names only the option and the
    allowed values (never what was typed), so it is shown as it is."""


def parse_value(game: str, name: str, raw: str) -> Any:
    """The typed value of option ``name`` typed as ``raw``; ValueError names what is allowed."""
    kinds = editable_options(game)
    if name not in kinds:
        raise ValueError(t("{game} has no option {name}; pick one from the list", game=title(game), name=repr(name)))
    choices = game_module(game).Rules.CHOICES.get(name)
    kind, text = kinds[name], raw.strip()
    if kind is bool:
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionRefused(t("{name} must be on or off", name=name))
    value: Any = text
    if kind is int:
        try:
            value = int(text)
        except ValueError:
            if not choices:
                raise OptionRefused(t("{name} must be a whole number", name=name)) from None
    if choices and value not in choices:
        raise OptionRefused(t("{name} must be one of {values}", name=name,
                              values=", ".join(map(str, choices))))
    return value


def rules_summary(game: str, house: dict[str, Any]) -> str:
    """The house rules of ``game`` on a server, readable: the preset and every changed option."""
    preset = house.get("preset_name") or default_preset(game)
    changes = {k: v for k, v in house.items() if k != "preset_name"}
    module = game_module(game)
    base = module.Rules.preset(preset)
    label = preset_label(game, preset)
    lines = [t("Preset **{label}** (`{preset}`, the default)", label=label, preset=preset) if not house
             else t("Preset **{label}** (`{preset}`)", label=label, preset=preset)]
    for name in sorted(changes):
        lines.append(t("`{name}` = {value} (preset: {preset})", name=name,
                       value=format_value(changes[name]), preset=format_value(getattr(base, name, "?"))))
    rules = module.Rules.preset(preset, **changes)
    length = []
    if getattr(rules, "rounds", 0):
        length.append(plural(rules.rounds, "round"))
    if getattr(rules, "target_score", 0):
        length.append(t("first to {points}", points=plural(rules.target_score, "point")))
    if length and not {"rounds", "target_score"} & set(changes):
        lines.append(t("Match: {length}", length=", ".join(length)))
    return "\n".join(lines)

