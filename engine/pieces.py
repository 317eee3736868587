"""Pieces, the player board and the scoring piles.

The rules: docs/rules-data.md#4-pieces-player-board-and-scoring-piles.
"""

from __future__ import annotations

SEED, SMALL, MEDIUM, LARGE = 0, 1, 2, 3
SIZES = (SEED, SMALL, MEDIUM, LARGE)
SIZE_NAMES = ("seed", "small", "medium", "large")
#: Words a player may type for a piece, mapped to its size.
SIZE_WORDS = {
    "seed": SEED, "s": SEED, "0": SEED,
    "small": SMALL, "sm": SMALL, "1": SMALL,
    "medium": MEDIUM, "med": MEDIUM, "m": MEDIUM, "2": MEDIUM,
    "large": LARGE, "l": LARGE, "lg": LARGE, "big": LARGE, "tall": LARGE, "3": LARGE,
}  # fmt: skip
#: The same in the rulebooks' other languages (Dutch, French, Hebrew): ``koop zaad``,
#: ``acheter graine``, ``קנה זרע`` all read as ``buy seed``.
LANGUAGE_SIZE_WORDS = {
    "nl": {"zaad": SEED, "zaadje": SEED, "klein": SMALL, "kleine": SMALL,
           "middelgroot": MEDIUM, "middelgrote": MEDIUM, "groot": LARGE, "grote": LARGE},
    "fr": {"graine": SEED, "petit": SMALL, "moyen": MEDIUM, "grand": LARGE},
    "he": {"זרע": SEED, "קטן": SMALL, "בינוני": MEDIUM, "גדול": LARGE},
}  # fmt: skip
for _words in LANGUAGE_SIZE_WORDS.values():
    SIZE_WORDS.update(_words)

#: A human seat's pieces: 6 seeds, 8 small, 4 medium, 2 large.
HUMAN_TOTAL = (6, 8, 4, 2)
#: Store (player board) at the start, which is also each column's capacity.
STORE_CAPACITY = (4, 4, 3, 2)
#: Available area at the start (before the two setup placements of small trees).
START_AVAILABLE = (2, 4, 1, 0)
#: Buy prices per column in purchase order; with n pieces left of capacity k, the price is
#: ``PRICES[size][k - n]``.
PRICES = ((1, 1, 2, 2), (2, 2, 3, 3), (3, 3, 4), (4, 5))

#: A Cynthia seat's pieces: 3 seeds, 3 small, 3 medium, 2 large, all available
#: (docs/rules-data.md#81-her-pieces-costs-and-deck).
CYNTHIA_TOTAL = (3, 3, 3, 2)

#: Light points to plant, to collect; growing costs the target size (1, 2, 3) for humans.
PLANT_COST = 1
COLLECT_COST = 4
#: Planting range by the size of the tree of origin (seeds plant nothing).
PLANT_RANGE = (0, 1, 2, 3)
LIGHT_CAP = 20
LUNAR_CAP = 14

#: Scoring piles by leaves, top first.
PILES = {
    4: (22, 21, 20),
    3: (19, 18, 18, 17, 17),
    2: (17, 16, 16, 14, 14, 13, 13),
    1: (14, 14, 13, 13, 13, 12, 12, 12, 12),
}


def buy_price(store_left: int, size: int) -> int | None:
    """The price of the next piece of a column holding ``store_left`` pieces (None: empty)."""
    if store_left <= 0:
        return None
    return PRICES[size][STORE_CAPACITY[size] - store_left]
