"""The game RNG reproduces bit for bit and shuffles without bias."""

from collections import Counter
from itertools import permutations

import pytest

from bot.games.rng import SHUFFLES, Rng


def test_golden_values_never_change():
    # Recorded once: if these change, every stored game would replay differently.
    r = Rng(1)
    assert [r.below(48) for _ in range(5)] == [37, 10, 20, 23, 35]
    deck = list(range(10))
    Rng(42).shuffle(deck)
    assert deck == [7, 3, 8, 9, 5, 6, 4, 1, 0, 2]
    deck = list(range(10))
    Rng(42).shuffle(deck, 1)
    assert deck == [7, 3, 8, 9, 5, 6, 4, 1, 0, 2]
    deck = list(range(48))
    Rng(42).shuffle(deck, 2)  # recorded once, as above: every new game since deals this way
    assert deck[:12] == [26, 13, 1, 0, 11, 45, 39, 4, 28, 5, 24, 44]
    assert deck[-6:] == [15, 7, 40, 18, 31, 6]


def _splitmix64_words(seed):
    """SplitMix64 as its author defines it, one output at a time: the seeding's oracle."""
    mask = (1 << 64) - 1
    x, words = seed & mask, []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        words.append(z ^ (z >> 31))
    return words


def test_seeding_is_splitmix64():
    wide = [2**64 - 1, 2**64, 2**64 + 5, 2**63, 2**200 + 7, -1, -(2**70) - 3]
    for seed in [*range(-20, 2000), *wide, *(0x9E3779B97F4A7C15 * k for k in range(1, 40))]:
        assert Rng(seed).s == _splitmix64_words(seed)
    text = "é" * 40
    assert Rng(text).s == _splitmix64_words(int.from_bytes(text.encode()[:8], "little") ^ 40)


def test_state_round_trip_and_fork():
    a = Rng(99)
    a.next64()
    b = Rng.from_state(a.getstate())
    assert [a.next64() for _ in range(10)] == [b.next64() for _ in range(10)]
    assert Rng(5).fork(1).next64() != Rng(5).fork(2).next64()
    assert Rng(5).fork(1).next64() == Rng(5).fork(1).next64()


def test_below_is_roughly_uniform():
    r = Rng(3)
    counts = Counter(r.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(n - 10_000) < 500 for n in counts.values())


def test_shuffle_positions_uniform():
    r = Rng(4)
    firsts = Counter()
    for _ in range(20_000):
        deck = list(range(4))
        r.shuffle(deck)
        firsts[deck[0]] += 1
    assert all(abs(n - 5_000) < 400 for n in firsts.values())


class _Reference:
    """xoshiro256** as its authors define it, one plain step per draw: the oracle for the
    generator's faster code."""

    def __init__(self, state):
        self.s = list(state)

    def next64(self):
        mask = (1 << 64) - 1
        s = self.s
        result = (((s[1] * 5 & mask) << 7 | (s[1] * 5 & mask) >> 57) & mask) * 9 & mask
        t = s[1] << 17 & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = (s[3] << 45 | s[3] >> 19) & mask
        return result

    def below(self, n):
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffle_packed(self, items):
        """Shuffle 2 as defined: Fisher-Yates whose consecutive steps share one ``below`` draw
        under the product of their sizes (at most 2**56), read as mixed-radix digits, the
        highest step's first."""
        steps = list(range(len(items) - 1, 0, -1))
        while steps:
            pack, product = [], 1
            while steps and product * (steps[0] + 1) <= 2**56:
                pack.append(steps.pop(0))
                product *= pack[-1] + 1
            r = self.below(product)
            for i in pack:
                r, j = divmod(r, i + 1)
                items[i], items[j] = items[j], items[i]


def test_draws_and_shuffles_follow_the_reference_step_for_step():
    for seed in range(200):
        fast, ref = Rng(seed), _Reference(Rng(seed).getstate())
        assert [fast.next64() for _ in range(5)] == [ref.next64() for _ in range(5)]
        for n in (1, 2, 3, 7, 48, 255, 256, 1000, 2**63 + 1, 2**64 - 1):  # big n: rejections
            assert [fast.below(n) for _ in range(3)] == [ref.below(n) for _ in range(3)]
        for length in (0, 1, 2, 10, 48, 300):
            a, b = list(range(length)), list(range(length))
            fast.shuffle(a)
            ref.shuffle(b)
            assert a == b
            fast.shuffle(a, 2)
            ref.shuffle_packed(b)
            assert a == b
        assert fast.getstate() == ref.s


@pytest.mark.parametrize("shuffle", SHUFFLES)
def test_every_order_of_a_small_deck_is_equally_likely(shuffle):
    r = Rng(8)
    orders = Counter()
    for _ in range(48_000):
        deck = list(range(4))
        r.shuffle(deck, shuffle)
        orders[tuple(deck)] += 1
    assert set(orders) == set(permutations(range(4)))
    assert all(abs(n - 2_000) < 250 for n in orders.values())


def test_the_packed_shuffle_places_every_card_anywhere_evenly():
    r = Rng(9)
    top, bottom = Counter(), Counter()
    for _ in range(24_000):
        deck = list(range(48))
        r.shuffle(deck, 2)
        assert sorted(deck) == list(range(48))
        top[deck[-1]] += 1  # the first step's card (the highest digit of the first draw)
        bottom[deck[0]] += 1  # what the last draw's steps leave in place
    for seen in (top, bottom):
        assert set(seen) == set(range(48)) and all(abs(n - 500) < 120 for n in seen.values())


def test_an_unknown_shuffle_is_refused():
    with pytest.raises(ValueError, match="unknown shuffle"):
        Rng(1).shuffle([1, 2, 3], 3)
