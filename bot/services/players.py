"""The players remembered (issue 45): profiles, leaderboards, histories, the export, the
rebuild of the ratings, and privacy (hiding, forgetting).

What a player sees is the presentation's (the cogs'); this service returns data only, in the
frozen dataclasses below. The ratings themselves are `bot.ratings`' (openskill), updated by the
storage in the commit that ends a game (`GameCore.commit_play`); `rebuild` recomputes them all
from the stored games.

Pages count from 0. A profile or history of a person who hid it is `Hidden` to anyone else,
and in the games others look at (their histories, the export) that person's seats are
`HIDDEN_NAME`, without their id.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import engine
from bot.ratings import (
    FAMILIES,
    GLOBAL,
    PARTS,
    Family,
    GameResult,
    Ratings,
    digest,
    merged,
    rate,
    rate_part,
)
from bot.ratings import identity as ri
from bot.ratings.core import ordinal
from bot.services import refusals
from bot.services.base import UserError, is_stored_id
from bot.services.core import GameCore
from bot.services.export import ExportGame, SeatInfo, stored_game
from bot.services.plays import finish_of, replay
from bot.storage import FinishedGame, HistoryRow, RatingRow
from engine.expert.review import Decision, current, per_turn

log = logging.getLogger(__name__)

#: The games a player needs to be ranked on a leaderboard.
MIN_GAMES = 5
#: Entries on a leaderboard page; games on a history page; recent games on a profile.
LEADERBOARD_PAGE = 10
HISTORY_PAGE = 10
RECENT_GAMES = 5
#: The rating history points a profile's chart gets (the latest).
HISTORY_POINTS = 200
#: The name of a seat whose person hid their profile, as others see it (in their histories and
#: the export; the presentation says it in the reader's language).
HIDDEN_NAME = "a hidden player"
#: The identity of such a seat as others see it (no id: `bot.ratings.identity` never makes it).
HIDDEN_IDENTITY = "hidden"
#: Until how many rated games a rating is new (`RatingChange.new`): its figure says why it
#: starts low.
NEW_RATING_GAMES = MIN_GAMES
#: From how many games a rebuild rates its parts (`bot.ratings.PARTS`) in processes of their own.
PARALLEL_FROM = 20_000


@dataclass(frozen=True)
class FamilyStats:
    """A player's finished games of one rule family and seat count."""

    family: str
    seat_count: int
    played: int
    won: int
    average_score: float
    best_score: int


@dataclass(frozen=True)
class GameSeat:
    """One seat of a finished game: who (their identity; a person's user id, also when they
    left), the name they played under (`bot.storage.FORMER_NAME` for a forgotten person), the
    seat's kind (`bot.storage.SEAT_KINDS`), and how it finished."""

    position: int
    identity: str
    user_id: int | None
    name: str
    kind: str
    place: int
    score: int
    parts: dict[str, int]
    animal: str | None
    left: bool

    @property
    def won(self) -> bool:
        return self.place == 1


@dataclass(frozen=True)
class RatingChange:
    """What one game did to the player's rating (in the scope the history is read in): the
    figure shown before it (None: the game was the first rated) and after, and how many rated
    games the rating had after it."""

    before: float | None
    after: float
    games: int

    @property
    def change(self) -> float:
        """The figure after minus the one before (a first game: from 0, a newcomer's)."""
        return self.after - (0.0 if self.before is None else self.before)

    @property
    def new(self) -> bool:
        """Whether the rating was still new after this game (`NEW_RATING_GAMES`)."""
        return self.games <= NEW_RATING_GAMES


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as a player's profile and history list it: where (its server, channel
    and thread, for a link), when, its rule family, every seat, and the player's own seat."""

    game_id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    finished_at: str
    family: str
    seats: tuple[GameSeat, ...]
    #: the position of the player's seat in `seats`
    position: int
    #: what the game did to the player's rating (`PlayerService.history`; None: not rated, or
    #: not asked for)
    rating: RatingChange | None = None

    @property
    def mine(self) -> GameSeat:
        return self.seats[self.position]

    @property
    def winners(self) -> tuple[GameSeat, ...]:
        return tuple(s for s in self.seats if s.won)


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one scope (a server's id, or `GLOBAL`) and rule family, the rank
    it has on that leaderboard (None: not ranked, fewer than `MIN_GAMES` games or hidden),
    and its history (the latest `HISTORY_POINTS`, oldest first)."""

    scope: int
    family: str
    mu: float
    sigma: float
    games: int
    rank: int | None
    history: tuple[HistoryRow, ...]  # its ratings after each game, the chart's points

    @property
    def ordinal(self) -> float:
        """The rating shown and ranked (openskill's ordinal, mu - 3 sigma)."""
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class Profile:
    """A person's profile in a server (`guild_id`; None: every server)."""

    user_id: int
    guild_id: int | None
    played: int
    won: int
    average_score: float | None
    best_score: int | None
    by_family: tuple[FamilyStats, ...]
    favourite_animal: str | None
    recent: tuple[PlayedGame, ...]
    ratings: tuple[PlayerRating, ...]
    #: whether the person hid their profile (only they see it then)
    hidden: bool
    #: the points given away per turn in the Expert's reviews of the recent games, on average,
    #: and how many reviewed games that is (None: none reviewed)
    review_loss: tuple[float, int] | None = None


@dataclass(frozen=True)
class Hidden:
    """A profile or history its person hid from others."""

    user_id: int


@dataclass(frozen=True)
class LeaderboardEntry:
    """One ranked identity: a person (`user_id`), Cynthia at a difficulty or the Expert."""

    rank: int
    identity: str
    user_id: int | None
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def is_bot(self) -> bool:
        return ri.is_bot(self.identity)


@dataclass(frozen=True)
class LeaderboardPage:
    """A page of a leaderboard (`LEADERBOARD_PAGE` entries), with the reader's own entry (None:
    not ranked there)."""

    family: str
    scope: int
    page: int
    pages: int
    total: int
    entries: tuple[LeaderboardEntry, ...]
    reader: LeaderboardEntry | None
    min_games: int = MIN_GAMES


@dataclass(frozen=True)
class HistoryPage:
    """A page of a person's finished games, newest first (`HISTORY_PAGE` a page)."""

    user_id: int
    guild_id: int | None
    page: int
    pages: int
    total: int
    games: tuple[PlayedGame, ...]


@dataclass(frozen=True)
class Record:
    """Games shared with an opponent: how many the player finished above, below and level with
    it (its best placed seat)."""

    won: int = 0
    lost: int = 0
    tied: int = 0

    @property
    def games(self) -> int:
        return self.won + self.lost + self.tied


@dataclass(frozen=True)
class HeadToHead:
    """The records a profile shows: the reader's against the profile's person (None: the reader
    reads their own profile), and the profile's person's against Cynthia and the Expert."""

    reader_id: int
    user_id: int
    reader: Record | None
    cynthia: Record
    expert: Record


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild did: the games rated, the ratings kept, their digest
    (`bot.ratings.digest`), and the games whose results it recorded first."""

    games: int
    ratings: int
    digest: str
    recorded: int


def _pages(total: int, size: int) -> int:
    return max(1, -(-total // size))


def _entry(rank: int, row: RatingRow) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank, row.identity, ri.user_id_of(row.identity), row.mu, row.sigma, row.games
    )


def _played(
    game: FinishedGame,
    identity: str,
    hidden: frozenset[int] = frozenset(),
    rating: RatingChange | None = None,
) -> PlayedGame:
    """A finished game as `identity` sees it: the seats of the people in `hidden` (who hid
    their profile) are `HIDDEN_NAME`'s, without their id."""
    seats = []
    for r in game.results:
        seat = game.game.seats[r.position]
        name = game.leavers[r.position][1] if r.position in game.leavers else seat.name
        who, user_id = r.identity, r.user_id
        if user_id is not None and user_id in hidden and who != identity:
            name, who, user_id = HIDDEN_NAME, HIDDEN_IDENTITY, None
        seats.append(
            GameSeat(
                r.position,
                who,
                user_id,
                name,
                seat.kind,
                r.place,
                r.score,
                dict(r.parts),
                r.animal,
                r.left,
            )  # fmt: skip
        )
    position = next((s.position for s in seats if s.identity == identity), 0)
    return PlayedGame(
        game.game.id, game.game.guild_id, game.game.channel_id, game.thread_id, game.finished_at,
        game.results[0].family, tuple(seats), position, rating,
    )  # fmt: skip


def _rating_change(after: HistoryRow, before: HistoryRow | None) -> RatingChange:
    return RatingChange(None if before is None else before.ordinal, after.ordinal, after.games)


class PlayerService:
    """Profiles, leaderboards, histories, the export, the rebuild, privacy
    (`GameService.players`)."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.storage = core.storage

    # --- reading ---

    async def profile(self, guild_id: int | None, user_id: int, reader_id: int) -> Profile | Hidden:
        """A person's profile in a server (None: every server), as `reader_id` may see it; an
        id that names nobody (`is_stored_id`) is refused."""
        if not is_stored_id(user_id):
            raise UserError(refusals.NO_SUCH_PLAYER)
        hidden = await self.storage.is_hidden(user_id)
        if hidden and reader_id != user_id:
            return Hidden(user_id)
        who = ri.person(user_id)
        stats = await self.storage.player_stats(who, guild_id)
        animals = await self.storage.player_animals(who, guild_id)
        recent, _, _ = await self.storage.player_games(who, guild_id, RECENT_GAMES)
        played = sum(s.played for s in stats)
        total = sum(s.score_sum for s in stats)
        scopes = (GLOBAL,) if guild_id is None else (guild_id, GLOBAL)
        ratings = []
        for row, rank, points in await self.storage.player_ratings(
            who, scopes, MIN_GAMES, HISTORY_POINTS
        ):
            ratings.append(
                PlayerRating(
                    row.scope,
                    row.family,
                    row.mu,
                    row.sigma,
                    row.games,
                    rank,
                    tuple(points),
                )  # fmt: skip
            )
        ratings.sort(key=lambda r: (scopes.index(r.scope), FAMILIES.index(r.family)))
        return Profile(
            user_id=user_id,
            guild_id=guild_id,
            played=played,
            won=sum(s.won for s in stats),
            average_score=total / played if played else None,
            best_score=max((s.best for s in stats), default=None),
            by_family=tuple(
                FamilyStats(
                    s.family, s.seat_count, s.played, s.won, s.score_sum / s.played, s.best
                )  # fmt: skip
                for s in stats
            ),
            favourite_animal=animals[0][0] if animals else None,
            recent=tuple(_played(g, who) for g in recent),
            ratings=tuple(ratings),
            hidden=hidden,
            review_loss=await self._review_loss([_played(g, who) for g in recent]),
        )

    async def _review_loss(self, games: list[PlayedGame]) -> tuple[float, int] | None:
        """The points given away per turn in the reviewed ones of `games` (each game's own
        average, averaged), and how many were reviewed."""
        figures = []
        for game in games:
            review = await self.storage.review(game.game_id)
            if review is None or review.status not in ("done", "posted"):
                continue
            if not current(review.decisions):
                continue
            figure = per_turn([Decision.from_dict(d) for d in review.decisions], game.position)
            if figure is not None:
                figures.append(figure)
        return (sum(figures) / len(figures), len(figures)) if figures else None

    async def leaderboard(
        self, family: Family, scope: int, page: int, reader_id: int | None
    ) -> LeaderboardPage:
        """A page of a leaderboard: a rule family in a server (its id) or every server
        (`GLOBAL`), with the reader's own rank. A page past the end shows the last one."""
        if family not in FAMILIES:
            raise ValueError(f"not a rule family: {family!r}")
        reader = None if reader_id is None else ri.person(reader_id)
        rows, total, page, mine = await self.storage.leaderboard(
            scope, family, MIN_GAMES, LEADERBOARD_PAGE, page, reader
        )
        first = page * LEADERBOARD_PAGE + 1
        entries = tuple(_entry(first + i, row) for i, row in enumerate(rows))
        pages = _pages(total, LEADERBOARD_PAGE)
        return LeaderboardPage(
            family, scope, page, pages, total, entries, None if mine is None else _entry(*mine)
        )

    async def history(
        self, user_id: int, guild_id: int | None, page: int, reader_id: int | None = None
    ) -> HistoryPage | Hidden:
        """A page of a person's finished games (in a server, or None: every server), newest
        first; `Hidden` to another reader when they hid their profile. A page past the end
        shows the last one. An id that names nobody (0, past `MAX_ID`: a forged custom_id's)
        is refused."""
        if not is_stored_id(user_id):
            raise UserError(refusals.NO_SUCH_PLAYER)
        if reader_id not in (None, user_id) and await self.storage.is_hidden(user_id):
            return Hidden(user_id)
        who = ri.person(user_id)
        games, total, page = await self.storage.player_games(who, guild_id, HISTORY_PAGE, page)
        pages = _pages(total, HISTORY_PAGE)
        hidden = await self._hidden_among(games, reader_id)
        scope = GLOBAL if guild_id is None else guild_id
        changes = await self.storage.rating_changes(who, scope, [g.game.id for g in games])
        played = []
        for g in games:
            change = changes.get(g.game.id)
            rating = None if change is None else _rating_change(*change)
            played.append(_played(g, who, hidden, rating))
        return HistoryPage(user_id, guild_id, page, pages, total, tuple(played))

    async def _hidden_among(
        self, games: Sequence[FinishedGame], reader_id: int | None
    ) -> frozenset[int]:
        """The people of these games who hid their profile, but the reader."""
        people = {r.user_id for g in games for r in g.results if r.user_id is not None}
        for g in games:
            people.update(user for user, _name in g.leavers.values())
        people.discard(reader_id or 0)
        return frozenset(await self.storage.hidden_users(sorted(people)))

    async def head_to_head(self, guild_id: int | None, user_id: int, reader_id: int) -> HeadToHead:
        """The records of a profile (in a server, or None: every server): the reader's against
        the profile's person, that person's against Cynthia and against the Expert. (Call it
        after `profile` has said the reader may see the profile.)"""
        if not is_stored_id(user_id) or not is_stored_id(reader_id):
            raise UserError(refusals.NO_SUCH_PLAYER)
        # One read: the profile's person against the reader and the bots; the reader's record
        # against them is theirs turned round.
        rival = None if reader_id == user_id else ri.person(reader_id)
        mine = await self.storage.head_to_head(ri.person(user_id), rival, guild_id)
        reader = None
        if rival is not None:
            won, lost, tied = mine.get("player", (0, 0, 0))
            reader = Record(lost, won, tied)
        return HeadToHead(
            reader_id,
            user_id,
            reader,
            Record(*mine.get("cynthia", (0, 0, 0))),
            Record(*mine.get("expert", (0, 0, 0))),
        )

    async def export_ids(
        self, guild_id: int, since: str | None = None, until: str | None = None
    ) -> list[int]:
        """The numbers of a server's finished games (finished from `since`, before `until`:
        ISO 8601 times), oldest first: what `export` is asked for, a slice at a time."""
        return await self.storage.finished_game_ids(guild_id, since, until)

    async def export(
        self,
        guild_id: int,
        since: str | None = None,
        until: str | None = None,
        reader_id: int | None = None,
        ids: Sequence[int] | None = None,
    ) -> list[ExportGame]:
        """A server's finished games (finished from `since`, before `until`; or the games
        `ids` of `export_ids`), oldest first, for `bot.services.export` (JSON lines, CSV). The
        seats of people who hid their profile (but the reader) are `HIDDEN_NAME`'s, no id."""
        if ids is None:
            games = await self.storage.finished_games(guild_id, since, until)
        else:
            games = [
                g
                for g in await self.storage.finished_games_by_id(ids)
                if g.game.guild_id == guild_id
            ]
        hidden = await self._hidden_among(games, reader_id)
        return await asyncio.to_thread(_exported, games, hidden)

    # --- privacy ---

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        """Take a person off the leaderboards and others' view of their profile, or back."""
        await self.storage.set_hidden(user_id, hidden)

    async def is_hidden(self, user_id: int) -> bool:
        return await self.storage.is_hidden(user_id)

    async def may_forget(self, user_id: int) -> None:
        """Refuse (`refusals.FORGET_IN_GAME`) while the person holds a seat in a lobby or a
        game in play: asked before `/ps forget` asks its question."""
        if await self.storage.in_live_game(user_id):
            raise UserError(refusals.FORGET_IN_GAME)

    async def forget(self, user_id: int) -> int:
        """Remove a person's id and name from everything stored (`Storage.forget_user`); the
        number of games that held a seat of theirs. Refused while they hold a seat in a lobby
        or a game in play; a daily challenge being played is abandoned (its result, like every
        daily row of theirs, goes: `bot.services.daily`)."""
        for game_id in await self.storage.live_daily_games(user_id):
            async with self.core.lock(game_id):
                game = await self.core.get_game(game_id)
                if game is not None and game.status == "active":
                    stored = await self.storage.update_game(
                        game.id, game.version, status="abandoned"
                    )
                    self.core.forget(game.id)
                    await self.core.ended(stored)
        done = await self.storage.forget_user(user_id)
        if done is None:
            raise UserError(refusals.FORGET_IN_GAME)
        return done

    # --- the ratings from the stored games ---

    async def record_missing(self) -> int:
        """Record the results of the finished games that ended before results were kept
        (replayed from their logs); how many. Their finish is their last change."""
        recorded = 0
        for game in await self.storage.unrecorded_games():
            if game.config is None:  # (never: a game ends by a play, once started)
                log.error("a game over that never started", extra={"game_id": game.id})
                continue
            rows = await self.storage.actions(game.id)
            try:
                state = await self.core.replaying(
                    game, replay, game.config, game.seed, [r.notation for r in rows]
                )
            except Exception:
                log.exception("a finished game did not replay", extra={"game_id": game.id})
                continue
            if not state.is_over:
                log.error("a game over whose log is not", extra={"game_id": game.id})
                continue
            if await self.storage.record_results(game.id, finish_of(state), game.updated_at):
                recorded += 1
        return recorded

    async def rebuild(self, attempts: int = 5) -> Rebuilt:
        """Recompute every rating from the stored games (recording first those finished before
        results were kept): the same games give the same ratings, and the same as the updates
        made at each game's end. Tried again when a game ends meanwhile."""
        recorded = await self.record_missing()
        for _ in range(attempts):
            mark = await self.storage.results_mark()
            results = await self.storage.rated_results()
            ratings = await rate_in_parts(results)
            if await self.storage.replace_ratings(ratings, mark):
                return Rebuilt(ratings.games, len(ratings.table), digest(ratings.table), recorded)
        raise RuntimeError(f"games kept ending during {attempts} rebuilds")

    async def catch_up(self) -> Rebuilt | None:
        """At the bot's start: when finished games have no results yet (a database from before
        they were kept), record them and rebuild the ratings; else nothing (None)."""
        if not await self.storage.unrecorded_games():
            return None
        return await self.rebuild()


async def rate_in_parts(results: Sequence[GameResult]) -> Ratings:
    """`bot.ratings.rate` of the games (pure CPU): in a thread, or, from `PARALLEL_FROM` games,
    in one process per part (the global scope, the servers' scopes: `bot.ratings.PARTS`), whose
    ratings are merged into exactly those of one rebuild."""
    if len(results) < PARALLEL_FROM:
        return await asyncio.to_thread(rate, results)
    loop = asyncio.get_running_loop()
    spawn = multiprocessing.get_context("spawn")  # (a fork would copy the bot's threads)
    with ProcessPoolExecutor(len(PARTS), mp_context=spawn) as pool:
        parts = await asyncio.gather(
            *(loop.run_in_executor(pool, rate_part, results, part) for part in PARTS)
        )
    return merged(parts)


def _exported(
    games: Sequence[FinishedGame], hidden: frozenset[int] = frozenset()
) -> list[ExportGame]:
    """The export of finished games (their stored results: `export.stored_game`); the seats of the
    people in `hidden` are `HIDDEN_NAME`'s, without their id."""
    out = []
    for g in games:
        seats = []
        for r in g.results:
            seat = g.game.seats[r.position]
            left = g.leavers.get(r.position)
            user_id, name = (left[0], left[1]) if left else (seat.user_id, seat.name)
            if user_id is not None and user_id in hidden:
                user_id, name = None, HIDDEN_NAME
            seats.append(SeatInfo(seat.kind, user_id, name, left is not None))
        record = engine.Record(
            engine.Config.from_dict(g.game.config or {}),
            g.game.seed,
            list(g.notations),
            tuple(s.name for s in seats),
        )
        out.append(
            stored_game(
                g.game.id,
                g.game.guild_id,
                g.game.created_at,
                g.finished_at,
                g.game.options,
                record,
                seats,
                [(r.place, r.parts) for r in g.results],
            )  # fmt: skip
        )
    return out
