"""A small deterministic random number generator owned by each game.

The shuffle must reproduce bit for bit from a seed on any machine and any Python version, so the
games never use the global ``random`` module nor ``random.Random`` (whose ``shuffle`` algorithm is
not promised to stay the same). This is xoshiro256** seeded through SplitMix64, with an unbiased
bounded integer by rejection and a Fisher-Yates shuffle. Its whole state is four integers, so it
round-trips through JSON with the game state.

A deck can be shuffled two ways (``SHUFFLES``), both unbiased Fisher-Yates over the same generator:
version 1 spends one 64-bit draw on each step, version 2 reads each draw as several steps' indices
at once (a mixed-radix number), about four times cheaper. A game keeps the version it was dealt
with for its whole life (``new_match(..., shuffle=...)``, stored in its state), so a game stored
before version 2 existed replays with version 1, card for card.
"""

from __future__ import annotations

import functools
from collections.abc import MutableSequence

_M64 = (1 << 64) - 1
# below(n) keeps a draw under the largest multiple of n that fits 64 bits; for the small n the
# games draw (cards, seats, choices) that bound is read here instead of computed every call.
_LIMITS = tuple((1 << 64) - (1 << 64) % n if n else 0 for n in range(256))


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & _M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return x, z ^ (z >> 31)


# A seed's four state words are SplitMix64's first four outputs, and the k-th SplitMix64 state
# is simply seed + k * 0x9E3779B97F4A7C15: the four are worked out side by side, each in its own
# 128-bit lane of one integer, where a 64-bit word times a 64-bit constant fits. A right shift
# carries a lane's lowest bits into the high half of the lane below, so every lane is masked
# back to its low 64 bits before a product. One wide operation costs about what a 64-bit one
# does, and a round builds its generator from its seed every deal.
_LANE_LOW = sum(_M64 << 128 * k for k in range(4))  # the low 64 bits of every lane
_LANE_ONE = sum(1 << 128 * k for k in range(4))  # a 1 in every lane
_LANE_STEP = sum((k + 1) * 0x9E3779B97F4A7C15 << 128 * k for k in range(4))  # lane k: k+1 steps


SHUFFLES = (1, 2)
"""The ways :meth:`Rng.shuffle` can shuffle; a game is dealt with one of them all its life."""
NEWEST_SHUFFLE = 2
"""What a new game is dealt with."""


# A draw of shuffle 2 serves Fisher-Yates steps whose sizes multiply to at most this, so a draw is
# rejected (redrawn, to keep every index uniform) with a chance under 2**-8.
_PACK_LIMIT = 1 << 56


@functools.cache
def _shuffle_plan(length: int, version: int) -> tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]:
    """Per 64-bit draw of a shuffle of ``length`` items: the product of the sizes of the
    Fisher-Yates steps it serves, its rejection limit, and those steps as (index, size) in
    Fisher-Yates order. Shuffle 1 serves one step a draw, shuffle 2 as many as fit
    ``_PACK_LIMIT``. Worked out once per length."""
    packs = []
    steps: list[tuple[int, int]] = []
    product = 1
    for i in range(length - 1, 0, -1):
        if steps and (version == 1 or product * (i + 1) > _PACK_LIMIT):
            packs.append((product, (1 << 64) - (1 << 64) % product, tuple(steps)))
            steps, product = [], 1
        steps.append((i, i + 1))
        product *= i + 1
    if steps:
        packs.append((product, (1 << 64) - (1 << 64) % product, tuple(steps)))
    return tuple(packs)


class Rng:
    """xoshiro256** with a JSON-friendly state."""

    __slots__ = ("s",)

    def __init__(self, seed: int | str = 0) -> None:
        if isinstance(seed, str):
            # Derive an integer from text without hash(), which is salted per process.
            seed = int.from_bytes(seed.encode("utf-8")[:64].ljust(8, b"\0")[:8], "little") ^ len(seed)
        # SplitMix64 from the seed, its four steps in the four lanes at once (see _LANE_LOW).
        x = (seed & _M64) * _LANE_ONE + _LANE_STEP & _LANE_LOW
        z = ((x ^ x >> 30) & _LANE_LOW) * 0xBF58476D1CE4E5B9 & _LANE_LOW
        z = ((z ^ z >> 27) & _LANE_LOW) * 0x94D049BB133111EB & _LANE_LOW
        z ^= z >> 31
        self.s = [z & _M64, z >> 128 & _M64, z >> 256 & _M64, z >> 384 & _M64]

    def next64(self) -> int:
        s0, s1, s2, s3 = self.s
        x = s1 * 5 & _M64
        s2 ^= s0
        s3 ^= s1
        self.s = [s0 ^ s3, s1 ^ s2, s2 ^ (s1 << 17 & _M64), (s3 << 45 | s3 >> 19) & _M64]
        return ((x << 7 | x >> 57) & _M64) * 9 & _M64

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _LIMITS[n] if n < 256 else (1 << 64) - (1 << 64) % n
        # next64 written out on local words (a draw per action of every random or greedy
        # move): the state list is read and written once, however many draws are rejected.
        s0, s1, s2, s3 = self.s
        while True:
            x = s1 * 5 & _M64
            r = (x << 7 | x >> 57) * 9 & _M64  # as in shuffle: no mask needed before the product
            t = s1 << 17 & _M64
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = (s3 << 45 | s3 >> 19) & _M64
            if r < limit:
                self.s = [s0, s1, s2, s3]
                return r % n

    def shuffle(self, items: MutableSequence, version: int = 1) -> None:
        """Fisher-Yates shuffle in place the way ``version`` (one of ``SHUFFLES``) does it.

        Shuffle 1 draws each index as ``below(i + 1)`` draws it. Shuffle 2 draws a uniform number
        under the product of several steps' sizes (by rejection, as ``below`` does) and reads the
        steps' indices off it as its mixed-radix digits, which are independent and uniform.
        """
        if version not in SHUFFLES:
            raise ValueError(f"unknown shuffle version {version!r}")
        # below's rejection and next64's step written out on local words: the calls and the
        # state list's traffic per draw were most of a deal's cost.
        s0, s1, s2, s3 = self.s
        m64 = _M64
        for product, limit, steps in _shuffle_plan(len(items), version):
            while True:
                x = s1 * 5 & m64
                # bits the rotation carries past 64 vanish in the product's mask anyway
                r = (x << 7 | x >> 57) * 9 & m64
                t = s1 << 17 & m64
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = (s3 << 45 | s3 >> 19) & m64
                if r < limit:
                    break
            r %= product
            for i, n in steps:
                j = r % n
                r //= n
                items[i], items[j] = items[j], items[i]
        self.s = [s0, s1, s2, s3]

    def fork(self, label: int) -> Rng:
        """An independent generator derived from this one's state and a label (e.g. a round)."""
        child = Rng(0)
        x = (self.s[0] ^ (label * 0x9E3779B97F4A7C15)) & _M64
        state = []
        for word in self.s:
            x, z = _splitmix64(x ^ word)
            state.append(z)
        child.s = state
        return child

    def getstate(self) -> list[int]:
        return list(self.s)

    @classmethod
    def from_state(cls, state: list[int]) -> Rng:
        rng = cls(0)
        rng.s = [int(v) & _M64 for v in state]
        return rng
