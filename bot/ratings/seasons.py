"""Seasons (issue 58): each calendar quarter of UTC time is a season, rated on its own.

A season is named by its key, ``"2026Q4"`` (the year, ``Q`` and the quarter: Q1 is January to
March, Q2 April to June, Q3 July to September, Q4 October to December); keys sort as the seasons
do. A game belongs to the season its finish time (`GameResult.finished_at`, ISO 8601 UTC as the
storage writes it) falls in.

A season's ratings are openskill's, exactly as the all-time ones (`bot.ratings.core`), but from
fresh ratings at the season's first game: `rate_seasons` is `rate` of each season's games on
their own, in the same scopes (a server's, the global one) and rule families. The live updates
at each game's end (`bot.storage.sql.results`) give the same numbers, to the last bit.

Pure: no storage, no Discord.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Final, NamedTuple

from bot.ratings.core import Family, GameResult, Rating, Scopes, rate, scopes_of

#: The rated games a season rating needs to be ranked on its season's leaderboard (as on the
#: all-time boards: `bot.services.players.MIN_GAMES` is this).
RANKED_FROM: Final = 5
#: A season leaderboard's ratings are counted by bucket, a tenth of a point of the rating shown
#: wide (`bucket`): a rank is the counts of the buckets above and a count within one bucket.
BUCKETS_PER_POINT: Final = 10

#: A season's key: ``2026Q4``.
SEASON_KEY: Final = re.compile(r"[0-9]{4}Q[1-4]")
#: The months a quarter starts in.
QUARTER_STARTS: Final = (1, 4, 7, 10)


class SeasonKey(NamedTuple):
    """A season rating's key: the season, then the all-time key's scope, family, identity."""

    season: str
    scope: int
    family: Family
    identity: str


def bucket(ordinal: float) -> int:
    """The bucket of a rating shown (`BUCKETS_PER_POINT`): it never decreases as the rating
    rises, so the buckets keep the leaderboard's order."""
    return math.floor(ordinal * BUCKETS_PER_POINT)


def is_season(key: str) -> bool:
    """Whether ``key`` names a season (``2026Q4``)."""
    return SEASON_KEY.fullmatch(key) is not None


def season_of_time(when: datetime) -> str:
    """The season a moment falls in (a naive moment is taken as UTC)."""
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return f"{when.year:04d}Q{(when.month - 1) // 3 + 1}"


def season_of(finished_at: str) -> str:
    """The season of a stored finish time (ISO 8601, UTC)."""
    return season_of_time(datetime.fromisoformat(finished_at))


def season_at(unix: float) -> str:
    """The season a UNIX time falls in."""
    return season_of_time(datetime.fromtimestamp(unix, UTC))


def _parts(season: str) -> tuple[int, int]:
    if not is_season(season):
        raise ValueError(f"not a season: {season!r}")
    return int(season[:4]), int(season[5])


def start_of(season: str) -> datetime:
    """The first moment of a season (UTC)."""
    year, quarter = _parts(season)
    return datetime(year, QUARTER_STARTS[quarter - 1], 1, tzinfo=UTC)


def following(season: str) -> str:
    """The season after ``season``."""
    year, quarter = _parts(season)
    return f"{year + 1:04d}Q1" if quarter == 4 else f"{year:04d}Q{quarter + 1}"


def preceding(season: str) -> str:
    """The season before ``season``."""
    year, quarter = _parts(season)
    return f"{year - 1:04d}Q4" if quarter == 1 else f"{year:04d}Q{quarter - 1}"


def end_of(season: str) -> datetime:
    """The first moment after a season: the next one's start (UTC)."""
    return start_of(following(season))


def next_start(unix: float) -> float:
    """The UNIX time the season after the one of ``unix`` starts (when the current one ends)."""
    return end_of(season_at(unix)).timestamp()


def stored_time(when: datetime) -> str:
    """A moment as the storage writes finish times (ISO 8601, UTC, milliseconds)."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds")


def rate_seasons(
    results: Iterable[GameResult], scopes: Scopes = scopes_of
) -> dict[SeasonKey, Rating]:
    """Every season rating from the stored games: each season's games rated on their own from
    fresh ratings (`bot.ratings.rate`), in the games' order; by `SeasonKey`."""
    by_season: dict[str, list[GameResult]] = {}
    for result in results:
        by_season.setdefault(season_of(result.finished_at), []).append(result)
    table: dict[SeasonKey, Rating] = {}
    for season, games in by_season.items():
        for key, rating in rate(games, scopes).table.items():
            table[SeasonKey(season, key.scope, key.family, key.identity)] = rating
    return table
