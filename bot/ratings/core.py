"""Ratings: openskill's Plackett-Luce model applied to finished games, deterministically.

A finished game rates its seats by their finishing order (``SeatResult.place``: 1 is first,
equal places are a tie, several seats may share the first place). The order comes from the rules
(`places`): the higher score is ahead, and between equal scores the rules' tie-break, the most
seeds and trees on the board (`engine.winners`); seats equal on both are tied.

Each game is rated in two scopes: its server's (``scope`` = the server's id) and the global one
(``GLOBAL``, every server of the bot), each within its rule family (``base``, or ``moonlight``
when any Under the Moonlight mode is on: `engine.Config.expansion`). A rating belongs to one
identity (`bot.ratings.identity`) in one scope and family: a `RatingKey`.

What counts: only games that finished (status ``over``); an abandoned or expired game is not
rated. A person who left is rated as their seat finished (the autopilot played it). When one
identity holds several seats of a game (two Cynthias at the same difficulty, say), only its best
placed seat is rated (the first in seat order among equals); a game with fewer than two
identities left is not rated.

Determinism: `rate` sorts the games by finish time then game id, and each game is rated from the
ratings before it only, so the same games always give the same numbers (the arithmetic is
openskill's, in Python floats: the same on every machine and database). `update` rates one more
game into existing ratings and gives exactly the numbers a rebuild would, as long as the games
arrive in that order (it refuses a game that sorts before one already rated: `OutOfOrder`).

The bot keeps the ratings in its database; `rate_game` is what it calls at a game's end with the
current ratings of that game's keys (`keys_of`) and stores the changes it returns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

import engine
from bot.ratings.identity import is_ranked, seat_identity

Family = Literal["base", "moonlight"]
FAMILIES: tuple[Family, ...] = ("base", "moonlight")
#: The scope of the ratings across every server of the bot (a server's scope is its id).
GLOBAL: Final = 0
#: The only stored status of a game that is rated (`bot.storage.STATUSES`).
FINISHED: Final = "over"

#: openskill's Plackett-Luce model with its default parameters (mu 25, sigma 25/3, beta 25/6,
#: tau 25/300): one shared instance (it keeps no state between calls).
MODEL: Final = PlackettLuce()
START_MU: Final[float] = MODEL.mu
START_SIGMA: Final[float] = MODEL.sigma


def rated(config: Mapping[str, object], options: Mapping[str, object] | None = None) -> bool:
    """Whether a game counts for the ratings: every game but the tutorial's short practice game
    (one revolution of the sun, `engine.tutorial.final_game_config`) and the daily challenge
    (its lobby `options` name its day: `bot.services.daily`), which are unrated."""
    if options is not None and options.get("daily") is not None:
        return False
    return engine.Config.from_dict(dict(config)).revolutions != PRACTICE_REVOLUTIONS


#: The length of the tutorial's practice game, in revolutions of the sun: it is not rated.
PRACTICE_REVOLUTIONS: Final = 1


def family_of(config: Mapping[str, object]) -> Family:
    """The rule family of a game from its config (`engine.Config.to_dict`) or lobby options."""
    return "moonlight" if engine.Config.from_dict(dict(config)).expansion else "base"


def places(scores: Sequence[int], board_counts: Sequence[int]) -> tuple[int, ...]:
    """Each seat's finishing place (1 = first; equal = tied): by score, then by the rules'
    tie-break, the most seeds and trees on the board (`engine.winners`); equal on both is a tie."""
    if len(scores) != len(board_counts):
        raise ValueError("one score and one board count per seat")
    keys = [(-s, -b) for s, b in zip(scores, board_counts)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def places_of(state: engine.GameState) -> tuple[int, ...]:
    """The finishing places of a finished game's seats (`places` of its final state)."""
    if not state.is_over:
        raise ValueError("the game is not over")
    counts = [state.board_count(seat) for seat in range(len(state.seats))]
    return places(engine.scores(state), counts)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished game: whose it is (`bot.ratings.identity`) and where it finished."""

    identity: str
    place: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """What the ratings need of a stored game.

    ``finished_at`` is the finish time as the storage writes it (ISO 8601, UTC, one format for
    every row, so that the text sorts as the time does); ``server_id`` is None for a game outside
    any server (it is rated in the global scope only); ``status`` is the stored status: only
    ``over`` is rated."""

    game_id: int
    finished_at: str
    server_id: int | None
    family: Family
    seats: tuple[SeatResult, ...]
    status: str = FINISHED

    @property
    def order(self) -> tuple[str, int]:
        """Where the game is rated among the others: by finish time, then by id."""
        return (self.finished_at, self.game_id)

    @property
    def rated(self) -> bool:
        """Whether the game counts: finished, with at least two identities."""
        return self.status == FINISHED and len(rated_seats(self)) >= 2


def game_result(
    game_id: int,
    finished_at: str,
    server_id: int | None,
    status: str,
    options: Mapping[str, object],
    seats: Sequence[tuple[str, int | None]],
    places: Sequence[int],
) -> GameResult:
    """A stored game's `GameResult`: its options (or config: the rule family, Cynthia's
    difficulty), its seats' ``(kind, user_id)`` in turn order and their finishing places
    (`places_of` its final state, kept with the game). Whether a person left does not matter:
    their seat is theirs, rated as it finished."""
    if len(seats) != len(places):
        raise ValueError("one place per seat")
    return GameResult(
        game_id=game_id,
        finished_at=finished_at,
        server_id=server_id,
        family=family_of(options),
        seats=tuple(
            SeatResult(seat_identity(kind, user_id, options, game_id, position), place)
            for position, ((kind, user_id), place) in enumerate(zip(seats, places))
        ),
        status=status,
    )


def rated_seats(result: GameResult) -> tuple[SeatResult, ...]:
    """The seats that are rated: one per identity, its best placed (first in seat order)."""
    best: dict[str, SeatResult] = {}
    for seat in result.seats:
        if seat.identity not in best or seat.place < best[seat.identity].place:
            best[seat.identity] = seat
    return tuple(best.values())


class RatingKey(NamedTuple):
    """Whose rating, where: a scope (a server's id, or `GLOBAL`), a rule family, an identity."""

    scope: int
    family: Family
    identity: str


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown and ranked: openskill's ordinal, mu - 3 sigma (0 for a newcomer)."""
    return mu - 3 * sigma


class Rating(NamedTuple):
    """A rating: openskill's mean and uncertainty, and the number of games rated.

    (This and the other small records are named tuples: a rebuild makes millions of them.)"""

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The rating shown and ranked (`ordinal`)."""
        return ordinal(self.mu, self.sigma)


NEW: Final = Rating()


class Change(NamedTuple):
    """One rating changed by one game: its key, its value after the game, the seat's place."""

    key: RatingKey
    before: Rating
    after: Rating
    place: int


class HistoryPoint(NamedTuple):
    """A rating after one game (for the chart of `/ps profile`)."""

    game_id: int
    finished_at: str
    rating: Rating
    place: int


def scopes_of(result: GameResult) -> tuple[int, ...]:
    """The scopes a game is rated in: its server's (when it has one), then the global one."""
    if result.server_id is None or result.server_id == GLOBAL:
        return (GLOBAL,)
    return (result.server_id, GLOBAL)


#: Which of a game's scopes to rate (`scopes_of`, or a part of them: `merged`).
Scopes = Callable[[GameResult], tuple[int, ...]]


def global_scope(result: GameResult) -> tuple[int, ...]:
    """The global scope of a game only (a part of a rebuild: `merged`)."""
    return (GLOBAL,)


def server_scopes(result: GameResult) -> tuple[int, ...]:
    """The server scope of a game only, if it has one (a part of a rebuild: `merged`)."""
    return tuple(scope for scope in scopes_of(result) if scope != GLOBAL)


#: The parts a rebuild may be made in, each on its own (another process): the scopes never
#: share a rating, so each part's numbers are those of the whole rebuild.
PARTS: tuple[Scopes, ...] = (global_scope, server_scopes)


def keys_of(result: GameResult) -> tuple[RatingKey, ...]:
    """The ratings a game changes (when it is rated): each rated seat's in each scope."""
    return tuple(
        RatingKey(scope, result.family, seat.identity)
        for scope in scopes_of(result)
        for seat in rated_seats(result)
    )


def rate_game(
    current: Callable[[RatingKey], Rating],
    result: GameResult,
    objects: dict[RatingKey, PlackettLuceRating] | None = None,
    scopes: Scopes = scopes_of,
) -> tuple[Change, ...]:
    """The changes one game makes, given the ratings before it (``current``: a key's rating,
    `NEW` when it has none). None for a game that is not rated.

    ``objects`` (for a rebuild) keeps openskill's rating objects between games: a key's object
    is reused while it holds the key's numbers, which spares making one per seat (the numbers
    are the same either way)."""
    if result.status != FINISHED:
        return ()
    seats = rated_seats(result)
    if len(seats) < 2:
        return ()
    changes: list[Change] = []
    for scope in scopes(result):
        keys = [RatingKey(scope, result.family, seat.identity) for seat in seats]
        before = [current(key) for key in keys]
        teams = [[_model_rating(key, r, objects)] for key, r in zip(keys, before)]
        rated = MODEL.rate(teams, ranks=[float(seat.place) for seat in seats])
        for key, old, seat, (new,) in zip(keys, before, seats, rated):
            after = Rating(float(new.mu), float(new.sigma), old.games + 1)
            changes.append(Change(key, old, after, seat.place))
            if objects is not None:
                objects[key] = new
    return tuple(changes)


def _model_rating(
    key: RatingKey, rating: Rating, objects: dict[RatingKey, PlackettLuceRating] | None
) -> PlackettLuceRating:
    """openskill's rating object for ``rating``: the one kept for ``key`` when it matches."""
    kept = None if objects is None else objects.get(key)
    if kept is not None and kept.mu == rating.mu and kept.sigma == rating.sigma:
        return kept
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


class OutOfOrder(ValueError):
    """A game that sorts before one already rated: only a rebuild can place it."""


@dataclass
class Ratings:
    """Every rating, with each one's history, after some games (`rate`, `update`)."""

    table: dict[RatingKey, Rating] = field(default_factory=dict)
    history: dict[RatingKey, list[HistoryPoint]] = field(default_factory=dict)
    #: The order (`GameResult.order`) of the last game rated.
    last: tuple[str, int] | None = None
    #: How many games were rated.
    games: int = 0
    #: openskill's objects of the latest ratings (`rate_game`'s ``objects``): not compared.
    objects: dict[RatingKey, PlackettLuceRating] = field(
        default_factory=dict, compare=False, repr=False
    )

    def get(self, key: RatingKey) -> Rating:
        return self.table.get(key, NEW)

    def leaderboard(
        self, scope: int, family: Family, min_games: int = 5
    ) -> list[tuple[str, Rating]]:
        """The ranked identities of a scope and family, best first (ordinal, then identity)."""
        rows = [
            (key.identity, rating)
            for key, rating in self.table.items()
            if key.scope == scope
            and key.family == family
            and rating.games >= min_games
            and is_ranked(key.identity)
        ]
        rows.sort(key=lambda row: (-row[1].ordinal, row[0]))
        return rows


def digest(table: Mapping[RatingKey, Rating]) -> str:
    """A short fingerprint of every rating, to the last bit of each number: two rebuilds (on
    SQLite and on PostgreSQL, say) that agree have the same digest."""
    h = hashlib.sha256()
    for key in sorted(table):
        r = table[key]
        h.update(f"{key.scope}|{key.family}|{key.identity}|{r.mu.hex()}|{r.sigma.hex()}|"
                 f"{r.games}\n".encode())  # fmt: skip
    return h.hexdigest()[:16]


def update(ratings: Ratings, result: GameResult, scopes: Scopes = scopes_of) -> tuple[Change, ...]:
    """Rate one more game into ``ratings`` (in place) and return its changes; a game that is not
    rated changes nothing. Raises `OutOfOrder` for a game that sorts before the last one rated.
    (``scopes``: of a part of a rebuild, `merged`.)"""
    if ratings.last is not None and result.order <= ratings.last:
        raise OutOfOrder(
            f"game {result.game_id} ({result.finished_at}) sorts before game "
            f"{ratings.last[1]} ({ratings.last[0]}), already rated"
        )
    changes = rate_game(ratings.get, result, ratings.objects, scopes)
    ratings.last = result.order
    if not changes:
        return changes
    ratings.games += 1
    for change in changes:
        ratings.table[change.key] = change.after
        ratings.history.setdefault(change.key, []).append(
            HistoryPoint(result.game_id, result.finished_at, change.after, change.place)
        )
    return changes


def rate(results: Iterable[GameResult], scopes: Scopes = scopes_of) -> Ratings:
    """Every rating from the stored games (a rebuild): deterministic, in the games' order.
    (``scopes``: one part of a rebuild, `merged`.)"""
    ratings = Ratings()
    for result in sorted(results, key=lambda r: r.order):
        update(ratings, result, scopes)
    return ratings


def rate_part(results: Sequence[GameResult], scopes: Scopes) -> Ratings:
    """`rate` of one part of a rebuild (`PARTS`), without openskill's objects (they do not
    travel between processes; a merged rebuild has none)."""
    ratings = rate(results, scopes)
    ratings.objects.clear()
    return ratings


def merged(parts: Sequence[Ratings]) -> Ratings:
    """The ratings of a rebuild made in `PARTS` (the global scope's first: it rates every rated
    game, so it holds their count): exactly `rate` of the same games."""
    whole = Ratings(last=parts[0].last, games=parts[0].games)
    for part in parts:
        whole.table.update(part.table)
        whole.history.update(part.history)
    return whole
