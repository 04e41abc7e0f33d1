"""Deterministic sample view-models: leaderboards, player cards and tournaments for the preview,
and hand-made tables, hands and summaries of a fixed shape (so many cards, yaku rows or seats)
for the tests, the benchmark and the palette. The tables, hands and summaries the README and the
docs show are played instead (:mod:`rendering.played`), so every move in them is a legal one."""

from __future__ import annotations

import random
from datetime import date

from babel.dates import format_skeleton

from bot.cards import DECK, Kind, card
from bot.games.descriptor import descriptors
from bot.i18n import current, number, t, tn, tp
from bot.presenter import for_game
from bot.presenters.base import card_name
from bot.rules_text import rules_command
from bot.words import RATING_NOTE, plural, rating

from .view import (
    GAME_NAMES,
    BoardRow,
    BoardView,
    CardGame,
    CardView,
    HandView,
    PlayerView,
    SummaryView,
    TableView,
    YakuRow,
)

PLAYER_NAMES = ("Hanako", "Taro", "Min-jun", "Seo-yeon", "Keoni", "Leilani", "Aiko")
NAMES_BY_LANGUAGE = {  # the sample players as a server of that language would write them
    "en": PLAYER_NAMES,
    "ja": ("はなこ", "太郎", "ミンジュン", "서연", "Keoni", "さくら", "愛子"),
    "ko": ("하나코", "타로", "민준", "서연", "Keoni", "はなこ", "지우"),
}


def names() -> tuple[str, ...]:
    """The sample players' names in the current language."""
    return NAMES_BY_LANGUAGE.get(current(), PLAYER_NAMES)
PLAYER_COUNTS = {d.slug: tuple(range(d.seats[0], d.seats[1] + 1)) for d in descriptors()}
"""Player counts each game supports (the preview renders a table for each): its descriptor's seats."""

_MUSHI_OUT = (6, 7)  # Mushi plays without peony and bush clover


def _pi_value(cards: list[str]) -> int:
    doubles = {"lightning", "paulownia_chaff_yellow"}
    return sum(2 if c in doubles else 1 for c in cards if card(c).kind is Kind.CHAFF)


def _describe(moved: tuple[str, ...]) -> str:
    """The last move of a synthetic table: a capture only of two cards of one month (the rules
    allow no other), else the first card played."""
    if len(moved) < 2 or card(moved[0]).month != card(moved[1]).month:
        return t("{player} played {card}", player=names()[0], card=card_name(moved[0])) if moved else ""
    return t("{player} played {card} and took {taken}", player=names()[0], card=card_name(moved[0]),
             taken=card_name(moved[1]))


def sample_table(game: str = "koikoi", players: int = 2, seed: int = 1,
                 captured_per_player: int | None = None) -> TableView:
    """A plausible mid-round table for ``game`` with ``players`` seats."""
    if game == "seotda":
        return sample_betting_table(players)
    rng = random.Random(f"{game}-{players}-{seed}")
    deck = [c.id for c in DECK if not (game == "mushi" and c.month in _MUSHI_OUT)]
    rng.shuffle(deck)
    shedding = game == "shedding"
    field_n = 4 if shedding else min(10, 6 + players % 3)
    field, deck = deck[:field_n], deck[field_n:]
    take = captured_per_player if captured_per_player is not None else (
        0 if shedding else max(3, 14 - 2 * players))
    gostop = game == "gostop"
    seats = []
    for i in range(players):
        captured, deck = deck[:take], deck[take:]
        badges: tuple[str, ...] = ()
        if game == "koikoi" and i == 1:
            badges = (t("Koi-Koi x{calls}", calls=1),)
        elif gostop and i == 0:
            badges = (t("Go {goes}", goes=2), t("Shake x{times}", times=1))
        seats.append(PlayerView(
            name=names()[i],
            captured=tuple(captured),
            score=(12 - 3 * i) if not shedding else None,
            is_dealer=i == 0,
            is_turn=i == 1 % players,
            hand_size=(5 - i % 3) if shedding else (max(0, 8 - i) if players > 2 else 5),
            badges=badges,
            progress=(f"{tp('yaku', 'Akatan (poetry ribbons)').split(' (')[0]} 2/3",
                      f"{tp('yaku', 'Tane (animals)').split(' (')[0]} 4/5") if i == 0 and not shedding else (),
            pi_count=_pi_value(captured) if gostop else None,
            team=(i % 2 + 1) if game == "sakura" and players in (4, 6) else None,
        ))
    highlight = tuple(seats[0].captured[-2:]) if take >= 2 else tuple(field[:1])
    return TableView(
        game=game,
        title=t("{game} - round {round} of {rounds}", game=GAME_NAMES[game], round=3, rounds=12),
        field=tuple(field),
        stock_count=len(deck) - (0 if shedding else 8),
        players=tuple(seats),
        highlight=highlight,
        last_move=_describe(highlight),
        discard_top=deck[0] if shedding else None,
        discard_count=7 if shedding else None,
        drawn_card=None,
        korean_months=gostop,
        footer=t("Turn timer: {seconds} s · rules: {command}", seconds=60,
                 command=rules_command(game)),
        language=current(),
    )


_BETS = ("bbing", "half", "die", "allin", "call", "call", "call")  # seat by seat, before the last
_BET_TO = {"bbing": 1, "half": 4, "die": 0, "allin": 3, "call": 4}


def _betting_observation(players: int) -> dict:
    """A Seotda hand in its first betting round: the dealer opened, the next seat raised half,
    then a seat died and one went all in short of the bet (a side pot); the last seat acts."""
    moves = [*_BETS[:players - 1], None]
    if players == 2:
        moves = ["bbing", "half"]
    round_bets = [_BET_TO.get(m, 0) if m else 0 for m in moves]
    stacks = [100 - 2 * seat - 1 - bet for seat, bet in enumerate(round_bets)]
    all_in = [m == "allin" for m in moves]
    stacks = [0 if a else s for s, a in zip(stacks, all_in, strict=True)]
    history = [{"player": s, "action": m, "amount": _BET_TO[m], "to": _BET_TO[m]}
               for s, m in enumerate(moves) if m]
    current = 0 if players == 2 else players - 1
    return {
        "game": "seotda", "seat": current, "dealer": 0, "current_player": current, "phase": "bet",
        "street": 1, "cards_per_hand": 2, "hand_sizes": [2] * players, "stacks": stacks,
        "in_pot": [1 + b for b in round_bets], "round_bets": round_bets, "current_bet": 4,
        "live": [m != "die" for m in moves], "all_in": all_in, "history": history, "shown": {},
        "redeals": 0, "ante": 1, "max_raises": 3, "match": {"round": 3, "rounds": 10},
    }


def sample_betting_table(players: int = 4) -> TableView:
    """A Seotda table in the middle of a betting round, drawn from the presenter's own view."""
    seats = [names()[i % len(names())] for i in range(players)]
    presenter = for_game("seotda")
    obs = _betting_observation(players)
    last = history[-1] if (history := obs["history"]) else None
    line = presenter.describe_event({"type": "bet", **last, "pot": sum(obs["in_pot"])}, seats) if last else ""
    view = presenter.table_view(obs, seats, last_move=line or "")
    return TableView(**{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "language": current()})


def sample_showdown(redeal: bool = False) -> SummaryView:
    """A Seotda showdown of three: an amhaeng-eosa catches an 18 gwang-ttaeng, a short stack
    all in plays for the main pot only; or (``redeal``) a gusa that calls a redeal."""
    presenter = for_game("seotda")
    seats = list(names()[:3])
    if redeal:
        event = {"type": "showdown", "winners": [0], "decided_by": "best",
                 "hands": {"0": {"cards": ["crane", "bush_warbler"], "hand": "ali", "plain": "ali"},
                           "1": {"cards": ["plain_ribbon_apr", "blue_ribbon_sep"], "hand": "gusa",
                                 "plain": "kkeut_3"},
                           "2": {"cards": ["bridge", "plain_ribbon_jul"], "hand": "kkeut_2", "plain": "kkeut_2"}},
                 "redeal": {"reason": "gusa", "caller": 1}}
        view = presenter.summary_view(event, seats)
    else:
        event = {"type": "round_over", "round": 3, "winner": 1, "reason": "amhaeng_eosa",
                 "points": [-21, 30, -9],
                 "detail": {"pots": [{"chips": 27, "winners": [1]}, {"chips": 24, "winners": [1]}],
                            "won": [0, 51, 0], "stacks": [79, 130, 0],
                            "hands": {"0": {"cards": ["crane", "moon"], "hand": "gwangttaeng_18"},
                                      "1": {"cards": ["cuckoo", "boar"], "hand": "amhaeng_eosa"},
                                      "2": {"cards": ["deer", "blue_ribbon_oct"], "hand": "ttaeng_10"}}}}
        view = presenter.summary_view(event, seats)
    return SummaryView(**{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "language": current()})


def sample_hand(n: int = 8, seed: int = 1, korean: bool = False) -> HandView:
    rng = random.Random(f"hand-{n}-{seed}")
    cards = tuple(rng.sample([c.id for c in DECK], n))
    return HandView(cards=cards, playable=cards[::3], title=t("Your hand - {name}", name=names()[0]),
                    korean_months=korean, language=current())


def sample_summary(rows: int = 4) -> SummaryView:
    koikoi = for_game("koikoi")
    pool = [(koikoi.short_yaku_name(slug), cards, points) for slug, cards, points in (
        ("sanko", ("crane", "curtain", "moon"), 5),
        ("akatan", ("poetry_ribbon_jan", "poetry_ribbon_feb", "poetry_ribbon_mar"), 5),
        ("inoshikacho", ("boar", "deer", "butterflies"), 5),
        ("tsukimi_zake", ("moon", "sake_cup"), 5),
        ("kasu", tuple(c.id for c in DECK if c.kind is Kind.CHAFF)[:11], 2),
        ("tane", ("bush_warbler", "cuckoo", "bridge", "geese", "swallow"), 1),
        ("aotan", ("blue_ribbon_jun", "blue_ribbon_sep", "blue_ribbon_oct"), 5),
        ("hanami_zake", ("curtain", "sake_cup"), 5),
    )]
    chosen = [pool[i % len(pool)] for i in range(rows)]
    first, second = names()[:2]
    gained = 4 * sum(p for _, _, p in chosen)  # the two doublings below
    return SummaryView(
        title=t("Round {round} - {name} calls shobu", round=1, name=first),
        rows=tuple(YakuRow(first, name, cards, pts) for name, cards, pts in chosen),
        multipliers=(t("x2 opponent called koi-koi"), t("x2 seven points or more")),
        result_lines=(f"{first} +{gained}", f"{second} 0",  # the first round: the match is this round
                      t("Match: {first} {a} - {second} {b}", first=first, a=gained, second=second,
                        b=0)),
        language=current(),
    )


BOARD_NAMES = {  # a server's members, some with long or non-Latin names
    "en": ("Hanako", "Taro Yamada", "Min-jun", "Seo-yeon", "Keoni", "Leilani",
           "Aiko the Eternal Koi-Koi Caller of the Northern Server", "さくら", "Bao", "Ingrid"),
    "ja": ("はなこ", "山田太郎", "ミンジュン", "서연", "Keoni", "レイラニ",
           "北のサーバーで永遠にこいこいを宣言する愛子さん", "さくら", "Bao", "Ingrid"),
    "ko": ("하나코", "야마다 타로", "민준", "서연", "Keoni", "레일라니",
           "북쪽 서버의 영원한 고스톱 챔피언 지우", "さくら", "Bao", "Ingrid"),
}


def _rating_walk(rng: random.Random, games: int, skill: float) -> list[tuple[float, float]]:
    """(conservative rating, sigma) after each of ``games`` games of a player of ``skill``."""
    mu, sigma, out = 1500.0, 500.0, []
    for _ in range(games):
        sigma = max(120.0, sigma * 0.975)
        mu += (skill - mu) * 0.08 + rng.uniform(-60, 60)
        out.append((mu - 3 * sigma, sigma))
    return out


def sample_board(rated: bool = True, asker: int = 4) -> BoardView:
    """A page of a Koi-Koi rating board (or a wins board) of ten players; row ``asker`` is the
    asker's own."""
    rng = random.Random("board")
    board_names = BOARD_NAMES.get(current(), BOARD_NAMES["en"])
    players = []
    for i, name in enumerate(board_names):
        games = 60 - 5 * i if i != 6 else 4
        walk = _rating_walk(rng, games, 2300 - 60 * i)
        players.append((name, games, walk))
    if rated:
        players.sort(key=lambda p: -p[2][-1][0])
    rows = []
    for i, (name, games, walk) in enumerate(players):
        value, sigma = walk[-1]
        wins = games * (10 - i) // 14
        rows.append(BoardRow(
            rank=i + 1, name=name, games=number(games),
            value=rating(value, sigma) if rated else plural(wins, "win"),
            rating=value if rated else None, spread=sigma if rated else None,
            trend=tuple(v for v, _ in walk[-12:]) if rated else (),
            form=() if rated else tuple(rng.choice(("won", "won", "lost", "draw")) for _ in range(8)),
            highlight=i == asker))
    order = tp("order", "rating") if rated else tp("order", "wins")
    return BoardView(
        title=t("Leaderboard · {games} · by {order}", games=GAME_NAMES["koikoi"], order=order),
        subtitle=t("Season {number}: {name}", number=2, name="Spring") + " · " +
        t("page {page} of {pages}", page=1, pages=3),
        value_header=tp("order", "rating").capitalize() if rated else tp("order", "wins").capitalize(),
        rows=tuple(rows), note=t(RATING_NOTE) if rated else "", language=current())


def sample_deal_board(asker: int = 3) -> BoardView:
    """The board of a server's Koi-Koi deal of the day: eight who finished it of eleven who
    started, by how far they came out ahead of the AI (ties share a place); row ``asker`` is the
    asker's own."""
    margins = (12, 9, 9, 6, 2, 0, -3, -8)
    names = BOARD_NAMES.get(current(), BOARD_NAMES["en"])
    rows, place = [], 0
    for i, margin in enumerate(margins):
        if i == 0 or margin != margins[i - 1]:
            place = i + 1
        rows.append(BoardRow(rank=place, name=names[i], value=plural(margin, "point", signed=True),
                             highlight=i == asker))
    day = format_skeleton("yMMMd", date(2026, 11, 30), locale=current())
    return BoardView(
        title=t("Deal of the day · {game}", game=GAME_NAMES["koikoi"]),
        subtitle=f"{day} · " + t("{finished} of {started} finished.",
                                 finished=plural(len(margins), "player"), started=number(11)),
        value_header=t("Against the AI"), rows=tuple(rows), language=current())


def sample_card() -> CardView:
    """A player's card: three games, with their rating histories."""
    rng = random.Random("card")
    games = []
    for game, count, skill, yaku in (("koikoi", 38, 2100, "sanko"), ("gostop", 12, 1700, None),
                                     ("mushi", 3, 1500, None)):
        walk = _rating_walk(rng, count, skill)
        wins = count * 6 // 10
        best = ""
        if yaku:
            best = t("{yaku}, {points} ({times})", yaku=for_game(game).short_yaku_name(yaku),
                     points=plural(5, "point"), times=tn("once", "{n} times", 4))
        games.append(CardGame(
            title=GAME_NAMES[game],
            record=t("{games} · {won} won · {drawn} drawn · {lost} lost",
                     games=plural(count, "game"), won=wins, drawn=1, lost=count - wins - 1),
            best_yaku=best, rating=rating(*walk[-1]), history=tuple(v for v, _ in walk)))
    return CardView(
        name=names()[0], subtitle=t("Season {number}: {name}", number=2, name="Spring"),
        totals=((t("Games"), "53"), (t("Win rate"), "60%"), (t("Points"), "+412"),
                (t("Chips"), "1,250"), (t("Win streak"), t("{now} (best {best})", now=3, best=7)),
                (t("Achievements"), t("{held} of {all}", held=3, all=13)),
                (t("Deal of the day"), t("{days}, {run} in a row", days=plural(12, "day"), run=4))),
        games=tuple(games), note=t(RATING_NOTE), language=current())


TOURNAMENT_NAMES = ("Hanako", "Taro", "Min-jun", "Seo-yeon", "Keoni", "Leilani", "Aiko", "Kenji")


def sample_standings(format: str = "swiss", entrants: int = 8, seed: int = 3):
    """A finished tournament of ``entrants`` (the sample players and AI levels) with results
    drawn from a seeded generator, paired by the bot's own pairing module."""
    from bot.tournaments import pairing as fmt
    from bot.tournaments.prizes import prize_shares

    from .tournament import standings_view

    rng = random.Random(seed)
    pool = (*names(), *TOURNAMENT_NAMES)
    players = list(range(1, entrants + 1))
    levels = {entrants - 1: "hard", entrants: "expert"}  # the last two seeds are AI entrants
    shown = {p: t("AI ({level})", level=tp("choice", levels[p])) if p in levels
             else pool[(p - 1) % len(pool)] for p in players}
    games: list[fmt.Game] = []
    rounds = fmt.swiss_rounds(entrants) if format == "swiss" else fmt.elimination_rounds(entrants)
    for r in range(1, rounds + 1):
        pairing = (fmt.pair_swiss(players, games) if format == "swiss"
                   else fmt.pair_elimination(entrants, games, players, r))
        games += [fmt.Game(r, b, None, b) for b in pairing.byes]
        for a, b in pairing.pairs:  # the better seed wins two games in three; a draw now and then
            roll = rng.random()
            games.append(fmt.Game(r, a, b, None if roll > 0.9 else a if roll < 0.6 else b))
    table = (fmt.standings(players, games) if format == "swiss"
             else fmt.elimination_standings(players, games))
    shares = prize_shares(entrants * 100, format, entrants)
    prizes = {s.entrant: shares[s.rank - 1] for s in table if s.rank <= len(shares)}
    kind = t("Swiss") if format == "swiss" else t("single elimination")
    return standings_view(
        format=format, title=t("{game} tournament #{number}", game=GAME_NAMES["koikoi"], number=7),
        subtitle=t("{format}, {players}: final standings", format=kind,
                   players=tn("{n} player", "{n} players", entrants)),
        names=shown, entrants=entrants, games=games, dropped=[], prizes=prizes,
        footer=t("Winner: {name}", name=shown[table[0].entrant]))
