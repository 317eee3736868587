"""Ratings of the players (issue 45): openskill's Plackett-Luce model over finished games.

Pure: `bot.ratings.identity` names whose rating it is, `bot.ratings.core` rates games
(`rate` rebuilds, `update` adds one game, `rate_game` is what a game's end needs). The storage
of the ratings and the commands that show them are the bot's (not imported here).
"""

from bot.ratings import identity
from bot.ratings.core import (
    FAMILIES,
    GLOBAL,
    PARTS,
    Change,
    Family,
    GameResult,
    HistoryPoint,
    OutOfOrder,
    Rating,
    RatingKey,
    Ratings,
    SeatResult,
    digest,
    family_of,
    game_result,
    keys_of,
    merged,
    places,
    places_of,
    rate,
    rate_game,
    rate_part,
    rated,
    update,
)

__all__ = [
    "FAMILIES",
    "GLOBAL",
    "Change",
    "Family",
    "GameResult",
    "HistoryPoint",
    "OutOfOrder",
    "PARTS",
    "Rating",
    "RatingKey",
    "Ratings",
    "SeatResult",
    "digest",
    "family_of",
    "rated",
    "game_result",
    "identity",
    "keys_of",
    "merged",
    "places",
    "places_of",
    "rate",
    "rate_part",
    "rate_game",
    "update",
]
