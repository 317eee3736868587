"""Light and shadow (docs/rules-data.md#3-light-and-shadow).

A tree of size ``s`` casts shadow on the ``s`` spaces behind it, away from the sun. A tree of size
``t`` is shadowed when a tree of size ``>= t`` casts onto its space. Shadowed trees still cast.
Seeds neither cast nor collect.

The hot path works on bitmasks: ``shade[h]`` is the set of spaces covered by a shadow of height
``>= h``, and a seat's light is ``sum(size * |trees of that size outside shade[size]|)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .geometry import N_CELLS, RAY, SHADOW_DIRECTION, bits

#: ``SHADOW_MASK[sun][space][size]``: the spaces a tree of that size on that space shades.
SHADOW_MASK: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(sum(1 << j for j in RAY[i][SHADOW_DIRECTION[sun]][:size]) for size in range(4))
        for i in range(N_CELLS)
    )
    for sun in range(6)
)
#: ``FULL_RAY_MASK[sun][space]``: every space behind ``space`` to the board edge.
FULL_RAY_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << j for j in RAY[i][SHADOW_DIRECTION[sun]]) for i in range(N_CELLS))
    for sun in range(6)
)


def shade_masks(
    masks: Sequence[int], n_seats: int, sun: int, extra: Sequence[int] = (0, 0, 0, 0)
) -> tuple[int, int, int, int]:
    """``(shade[0], shade[1], shade[2], shade[3])`` for the trees in ``masks`` under ``sun``.

    ``shade[h]`` (h = 1..3) holds the spaces covered by a shadow of height ``>= h``: a tree of
    size ``h`` there is shadowed. ``shade[0]`` holds the spaces where a seed is shadowed (the
    advanced shadow rule): any tree's shadow. ``extra`` adds the shade of the expansion's
    obstacles per index: the Great Elder Tree's counts as a tree's (every height), a moonstone's
    only at height 1 (it affects only small trees, not seeds).
    """
    table = SHADOW_MASK[sun]
    s3 = extra[3]
    s2 = extra[2]
    s1 = 0
    for seat in range(n_seats):
        base = seat * 4
        for i in bits(masks[base + 3]):
            s3 |= table[i][3]
        for i in bits(masks[base + 2]):
            s2 |= table[i][2]
        for i in bits(masks[base + 1]):
            s1 |= table[i][1]
    s2 |= s3
    trees = s1 | s2
    return (trees | extra[0], trees | extra[1], s2, s3)


def light_from_masks(masks: Sequence[int], n_seats: int, shade: Sequence[int]) -> list[int]:
    """Light each seat collects: every unshadowed tree gives its size (no cap applied)."""
    s1, s2, s3 = shade[1], shade[2], shade[3]
    out = []
    for seat in range(n_seats):
        base = seat * 4
        out.append(
            (masks[base + 1] & ~s1).bit_count()
            + 2 * (masks[base + 2] & ~s2).bit_count()
            + 3 * (masks[base + 3] & ~s3).bit_count()
        )
    return out


def shadow_heights(shade: Sequence[int]) -> list[int]:
    """Per space, the height (0 none .. 3) of the tallest shadow covering it."""
    s1, s2, s3 = shade[1], shade[2], shade[3]
    return [
        3 if s3 >> i & 1 else 2 if s2 >> i & 1 else 1 if s1 >> i & 1 else 0 for i in range(N_CELLS)
    ]
