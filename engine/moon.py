"""Under the Moonlight geometry: the moon's gaps and beams, its move, the Dam
(docs/rules-data.md#71-the-moon).

Everything here is a pure function of gap numbers and board spaces, precomputed at import.
A *gap* ``m`` (0..17) lies outside the board between border spaces ``m`` and ``m + 1`` (border
indices, A4 = 0 clockwise, mod 18).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from translation import _p

from .geometry import (
    ADJACENT_MASK,
    LABEL_INDEX,
    LEAVES,
    NEIGHBOUR,
    RING_ORDER,
)

N_GAPS = 18
MOON_START = 10
MOON_STEP = 5
HALF, FULL = False, True
PHASE_NAMES = {HALF: "half", FULL: "full"}
#: The phases as words of a sentence ("Full Moon").
PHASE_TITLES = {HALF: _p("moon", "Half"), FULL: _p("moon", "Full")}

BORDER = RING_ORDER[1]


def _beam(start: int, direction: int) -> tuple[int, ...]:
    out = [start]
    i = NEIGHBOUR[start][direction]
    while i >= 0:
        out.append(i)
        i = NEIGHBOUR[i][direction]
    return tuple(out)


def _beams(gap: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    walk = (gap // 3 + 1) % 6
    a, b = BORDER[gap], BORDER[(gap + 1) % N_GAPS]
    return (_beam(a, (walk + 2) % 6), _beam(b, (walk + 1) % 6))


#: ``BEAMS[gap]``: the two beams of the moon at that gap, each from its border space inward.
BEAMS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(_beams(m) for m in range(N_GAPS))
#: ``BEAM_MASK[gap]``: every space on either beam.
BEAM_MASK: tuple[int, ...] = tuple(sum(1 << i for beam in b for i in beam) for b in BEAMS)


def lit_by_beams(gap: int, elder: int) -> int:
    """Spaces the moon at ``gap`` lights directly: each beam up to (not including) the Elder Tree."""
    lit = 0
    for beam in BEAMS[gap]:
        for i in beam:
            if i == elder:
                break
            lit |= 1 << i
    return lit


#: The centre D4: a moonstone (or the Great Elder Tree) there is never in the moonlight.
CENTRE_MASK = 1 << LABEL_INDEX["D4"]


def shining(lit: int, stones: int) -> int:
    """The moonstones that shine: lit directly, or next to a shining moonstone (chains).

    A moonstone on the centre D4 never shines, not even in a chain (the expansion's note,
    docs/rules-data.md#71-the-moon), so it lights nothing and passes no light on.
    """
    stones &= ~CENTRE_MASK
    on = stones & lit
    while True:
        more = on
        for i in _bits(on):
            more |= ADJACENT_MASK[i] & stones
        if more == on:
            return on
        on = more


@lru_cache(maxsize=4096)
def moonlit(gap: int, elder: int, stones: int) -> int:
    """Spaces where an animal gets lunar points with the moon at ``gap``."""
    lit = lit_by_beams(gap, elder)
    for i in _bits(shining(lit, stones)):
        lit |= ADJACENT_MASK[i]
    return lit


def crosses_sun(gap: int, sun: int) -> bool:
    """Whether the moon at ``gap`` crosses the sun's centre while both move (positions before)."""
    return ((2 * gap + 1) - 6 * sun) % (2 * N_GAPS) < 16  # ((m + 0.5) - 3p) mod 18 < 8, doubled


def next_moon(gap: int, full: bool, sun: int) -> tuple[int, bool]:
    """Where the moon goes at the start of the next round, and its phase there."""
    return (gap - MOON_STEP) % N_GAPS, full ^ crosses_sun(gap, sun)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# -- the Dam --------------------------------------------------------------------------------

RIVER = tuple(LABEL_INDEX[x] for x in ("G3", "G2", "G1", "F1", "E1", "D1"))
RIVER_MASK = sum(1 << i for i in RIVER)
BEACHES = tuple(LABEL_INDEX[x] for x in ("A4", "D7", "G4", "G1", "D1", "A1"))


def _dam(gap: int) -> tuple[int, int, int]:
    a, b = BORDER[gap], BORDER[(gap + 1) % N_GAPS]
    common = [i for i in range(37) if ADJACENT_MASK[a] >> i & 1 and ADJACENT_MASK[b] >> i & 1]
    inner = [i for i in common if LEAVES[i] == 2]
    assert len(inner) == 1, (gap, common)
    return (a, b, inner[0])


#: ``DAM[gap]``: the Dam's three spaces at that gap (two border spaces, the 2-leaf space).
DAM: tuple[tuple[int, int, int], ...] = tuple(_dam(m) for m in range(N_GAPS))
DAM_MASK: tuple[int, ...] = tuple(sum(1 << i for i in d) for d in DAM)
#: Gaps where the Dam may stand: it covers at least one river space.
DAM_GAPS: tuple[int, ...] = tuple(m for m in range(N_GAPS) if DAM_MASK[m] & RIVER_MASK)
