"""A second implementation of docs/fair-deals.md, written from that page alone, against the bot.

Nothing here imports the bot's generator, shuffle or checker: the commitment, the derivation, the
generator, the decks and the layouts are coded again from the page, and every deal the engine
makes (written down as /export writes it) must be what they compute, for 1,000 seeds of every
game, every round played. The engine itself is only played and watched.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.fairness import FairDeal, Input
from bot.games import GAMES, game_module
from bot.verify import recorded_deals

M = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
SEEDS = 1000
ROUNDS = 2  # rounds played of each match (every round dealt so far is compared)


# -- the page's commitment and derivation -----------------------------------------------------------
def commitment(server_seed: str) -> str:
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def match_seed(server_seed: str, ids: list[str]) -> int:
    text = ":".join(["hanafuda-deal-1", server_seed, *ids])
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big") >> 1


# -- the page's generator ---------------------------------------------------------------------------
def splitmix(x: int) -> tuple[int, int]:
    x = (x + GOLDEN) & M
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return x, z ^ (z >> 31)


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & M


class Gen:
    def __init__(self, seed: int) -> None:
        x, self.s = seed & M, []
        for _ in range(4):
            x, z = splitmix(x)
            self.s.append(z)

    def draw(self) -> int:
        s0, s1, s2, s3 = self.s
        out = (rotl((s1 * 5) & M, 7) * 9) & M
        t = (s1 << 17) & M
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self.s = [s0, s1, s2, rotl(s3, 45)]
        return out

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.draw()
            if r < limit:
                return r % n

    def fork(self, label: int) -> Gen:
        child = Gen(0)
        x, child.s = self.s[0] ^ ((label * GOLDEN) & M), []
        for w in self.s:
            x, z = splitmix(x ^ w)
            child.s.append(z)
        return child

    def shuffle(self, items: list, version: int) -> None:
        steps = list(range(len(items) - 1, 0, -1))
        if version == 1:
            for i in steps:
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        groups: list[list[int]] = []
        product = 1
        for i in steps:
            if groups and groups[-1] and product * (i + 1) > 1 << 56:
                groups.append([])
                product = 1
            if not groups:
                groups.append([])
            groups[-1].append(i)
            product *= i + 1
        for group in groups:
            p = 1
            for i in group:
                p *= i + 1
            limit = (1 << 64) - (1 << 64) % p
            while True:
                r = self.draw()
                if r < limit:
                    break
            r %= p
            for i in group:
                j = r % (i + 1)
                r //= i + 1
                items[i], items[j] = items[j], items[i]


def round_seed(seed: int, number: int) -> int:
    return Gen(seed).fork(number).draw()


# -- the page's decks and layouts --------------------------------------------------------------------
MONTHS = [
    "crane poetry_ribbon_jan pine_chaff_1 pine_chaff_2",
    "bush_warbler poetry_ribbon_feb plum_chaff_1 plum_chaff_2",
    "curtain poetry_ribbon_mar cherry_chaff_1 cherry_chaff_2",
    "cuckoo plain_ribbon_apr wisteria_chaff_1 wisteria_chaff_2",
    "bridge plain_ribbon_may iris_chaff_1 iris_chaff_2",
    "butterflies blue_ribbon_jun peony_chaff_1 peony_chaff_2",
    "boar plain_ribbon_jul clover_chaff_1 clover_chaff_2",
    "moon geese susuki_chaff_1 susuki_chaff_2",
    "sake_cup blue_ribbon_sep chrysanthemum_chaff_1 chrysanthemum_chaff_2",
    "deer blue_ribbon_oct maple_chaff_1 maple_chaff_2",
    "rainman swallow plain_ribbon_willow lightning",
    "phoenix paulownia_chaff_yellow paulownia_chaff_1 paulownia_chaff_2",
]
CARDS = [c for month in MONTHS for c in month.split()]


def deck_of(game: str, rules: dict) -> list[str]:
    if game == "mushi":
        return [c for m, month in enumerate(MONTHS, 1) if m not in (6, 7) for c in month.split()]
    if game == "gostop":
        return CARDS + [f"joker_{k}" for k in range(1, rules["jokers"] + 1)]
    if game == "seotda":
        return [c for month in MONTHS[:10] for c in month.split()[:2]]
    return list(CARDS)


def piles_of(game: str, rules: dict, n: int, dealer: int, seats: list[int]):
    """(piles in dealing order as (name, size), packet size, whether dealt from the end)."""
    left = [(dealer + k) % n for k in range(1, n)] + [dealer]
    other = 1 - dealer if n == 2 else None
    if game == "koikoi":
        h = rules["hand_size"]
        return [(other, h), ("field", 8), (dealer, h)], rules["deal_packet"], False
    if game == "gostop":
        hand, field = map(int, rules["deal_2p" if n == 2 else "deal_3p"].split("+"))
        return [("field", field)] + [(s, hand) for s in left], 4 if n == 2 else 3, False
    if game == "mushi":
        return [(other, 8), ("field", 8), (dealer, 8)], 4, False
    if game == "hana_awase":
        if n == 2:
            h = rules["two_player_hand"]
            return [(other, h), ("field", 8), (dealer, h)], 4, False
        hand, field = {3: (7, 6), 4: (5, 8)}[n]
        return [(s, hand) for s in left] + [("field", field)], 4, False
    if game == "sakura":
        hand, field = {2: (8, 8), 3: (7, 6), 4: (5, 8), 5: (4, 8), 6: (3, 12), 7: (3, 6)}[n]
        return [(s, hand) for s in left[:-1]] + [("field", field), (dealer, hand)], 2, False
    if game == "shedding":
        size = 5 if n <= 3 else 4
        return [(s, size) for s in left] + [("field", 4)], size, False
    assert game == "seotda"
    return [(s, 2) for s in left if s in seats], 1, True


def deal(game: str, rules: dict, n: int, dealer: int, seats: list[int], deck: list[str]):
    piles, packet, from_end = piles_of(game, rules, n, dealer, seats)
    cards = deck[::-1] if from_end else list(deck)
    got: dict = {name: [] for name, _ in piles}
    pos = 0
    while any(len(got[name]) < size for name, size in piles):
        for name, size in piles:
            take = min(packet, size - len(got[name]))
            got[name] += cards[pos:pos + take]
            pos += take
    hands = [got.get(s, []) for s in range(n)]
    return hands, got.get("field", []), cards[pos:]


def agrees(expected, recorded: dict) -> bool:
    """The page's comparison of a computed deal with a recorded one."""
    hands, field, stock = expected
    t = len(stock) - len(recorded["stock"])
    if t < 0 or stock[t:] != recorded["stock"]:
        return False
    extra = set(stock[:t])
    for want, got in zip(hands, recorded["hands"], strict=True):
        more = set(got) - set(want)
        if not set(want) <= set(got) or not more <= extra or len(set(got)) != len(got):
            return False
        extra -= more
    return set(recorded["table"]) == set(field) | extra


def check_record(game: str, rules: dict, n: int, seed: int, shuffle: int, deals: list[dict]) -> None:
    for entry in deals:
        gen = Gen(round_seed(seed, entry["round"]))
        for _ in range(entry["deal"]):
            deck = deck_of(game, rules)
            gen.shuffle(deck, shuffle)
        expected = deal(game, rules, n, entry["dealer"], entry["seats"], deck)
        assert agrees(expected, entry), (game, seed, entry["round"], entry["deal"])
    rounds = sorted({e["round"] for e in deals})
    assert rounds == list(range(1, len(rounds) + 1))


# -- the tests ----------------------------------------------------------------------------------------
def test_the_pages_worked_example():
    server_seed = "00112233445566778899aabbccddeeff" * 2
    ids = ["1234567890123456789", "1234567890123456790"]
    assert commitment(server_seed) == "2a8abfa8cb9906290437854193ca6bca41d4d4e26d1d454bd66a35158095e737"
    seed = match_seed(server_seed, ids)
    assert seed == 2941177456034225765
    assert Gen(seed).draw() == 4998237544558017861
    assert round_seed(seed, 1) == 10632397842578580331
    deck = list(CARDS)
    Gen(round_seed(seed, 1)).shuffle(deck, 2)
    assert deck[:5] == ["susuki_chaff_1", "poetry_ribbon_jan", "pine_chaff_2", "swallow",
                        "chrysanthemum_chaff_2"]
    # and the bot agrees with the page
    bot = FairDeal.of(server_seed, [Input("join", ids[0]), Input("start", ids[1])])
    assert (bot.commitment, bot.seed) == (commitment(server_seed), seed)


@pytest.mark.parametrize("game", GAMES)
def test_every_deal_of_a_thousand_seeds_is_what_the_page_computes(game):
    module = game_module(game)
    low, high = module.PLAYERS
    presets = sorted(module.Rules.PRESETS)
    play = random.Random(game)
    redealt = 0
    for i in range(SEEDS):
        server_seed = hashlib.sha256(f"{game} {i}".encode()).hexdigest()
        ids = [str(10**18 + i), str(2 * 10**18 + i)]
        bot = FairDeal.of(server_seed, [Input("join", ids[0]), Input("start", ids[1])])
        seed = match_seed(server_seed, ids)
        assert bot.commitment == commitment(server_seed) and bot.seed == seed
        rules = module.Rules.preset(presets[i % len(presets)])
        n = low + i % (high - low + 1)
        try:
            match = module.new_match(n, rules, seed)
        except ValueError:  # a preset that seats other numbers of players (Sakura's teams)
            n = low if n != low else high
            match = module.new_match(n, rules, seed)
        actions = []
        while not match.is_over and match.round_number <= ROUNDS and len(actions) < 2000:
            legal = match.legal_actions()
            action = str(legal[play.randrange(len(legal))])
            match.apply(action)
            actions.append(action)
        deals = recorded_deals(lambda n=n, rules=rules, seed=seed: module.new_match(n, rules, seed), actions)
        redealt += sum(1 for d in deals if d["deal"] > 1)
        check_record(game, rules.to_dict(), n, seed, match.shuffle, deals)
    if game in ("koikoi", "gostop", "mushi", "hana_awase", "shedding"):
        assert redealt, "some of a thousand matches were dealt again after a misdeal"
