"""What the rest of the bot uses of storage (`Storage`), and what the SQL needs of a driver's
connection (`Connection`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Protocol

from bot.ratings import core as rc
from bot.ratings import seasons as rs
from bot.storage.rows import (
    ActionRow,
    ClockValues,
    ClockWrite,
    DailyRow,
    DatabaseRow,
    Finish,
    FinishedGame,
    GameOptions,
    GameRow,
    HistoryRow,
    Job,
    NewAction,
    Preferences,
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRow,
    RatingRow,
    ReviewRow,
    SeatRow,
    StandingRow,
    StatRow,
)
from engine import ConfigDict

if TYPE_CHECKING:
    from engine.expert.review import DecisionData


class Storage(Protocol):
    """What the bot needs from a database. Every method is one atomic step."""

    #: Whether several bot processes may share this database (PostgreSQL).
    shared: bool
    #: "sqlite" or "postgres"
    dialect: str

    async def close(self) -> None: ...

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The lock every change to one game runs under: an asyncio lock on SQLite (one
        process), a database lock on PostgreSQL (every process)."""
        ...

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: GameOptions,
        seed: int,
        language: str = "en",
    ) -> GameRow: ...

    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def live_game(self, channel_id: int) -> GameRow | None: ...

    async def latest_started_game(self, channel_id: int) -> GameRow | None: ...

    async def games_with_status(self, *statuses: str) -> list[GameRow]: ...

    async def games_of_user(self, guild_id: int, user_id: int, status: str) -> list[GameRow]: ...

    async def quarantine(self, game_id: int, reason: str) -> None: ...

    async def quarantined(self) -> dict[int, str]: ...

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        seats: Sequence[SeatRow] | None = None,
        options: GameOptions | None = None,
        config: ConfigDict | None = None,
        status: str | None = None,
        host_id: int | None = None,
        actions: Sequence[NewAction] = (),
        truncate_after: int | None = None,
        snapshot: tuple[int, dict[str, object]] | None = None,
        job_outcome: tuple[int, str] | None = None,
        turn_clock: ClockWrite | None = None,
        finish: Finish | None = None,
    ) -> GameRow: ...

    async def actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]: ...

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, object]] | None: ...

    async def drop_snapshot(self, game_id: int) -> None: ...

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None: ...

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None: ...

    async def preferences(self, user_id: int) -> Preferences: ...

    async def set_preferences(
        self, user_id: int, preferences: Preferences, turn_clocks: Sequence[ClockWrite] = ()
    ) -> None: ...

    async def languages(
        self, user_id: int, guild_id: int | None
    ) -> tuple[str | None, str | None]: ...

    async def set_language(self, scope: str, id: int, language: str | None) -> None: ...

    # the tutorial (`/ps learn`): a learner's progress, `engine.tutorial.Progress.to_json`

    async def tutorial_progress(self, user_id: int) -> str | None: ...

    async def set_tutorial_progress(self, user_id: int, progress: str) -> None: ...

    # the puzzles (`/ps puzzle`, issue 58): `bot.storage.sql.puzzles`

    async def add_puzzles(
        self,
        puzzles: Sequence[tuple[str, str, str, str]],
        mu: float,
        sigma: float,
        created_at: str | None = None,
    ) -> int: ...

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None: ...

    async def puzzle_keys(self) -> set[str]: ...

    async def puzzle_near(self, user_id: int, mu: float) -> PuzzleRow | None: ...

    async def puzzle_of_day(self, before: str, pick: int) -> PuzzleRow | None: ...

    async def puzzle_counts(self) -> dict[str, int]: ...

    async def puzzle_player(self, user_id: int) -> PuzzlePlayerRow | None: ...

    async def puzzle_leaderboard(
        self, size: int, reader: int | None
    ) -> tuple[list[PuzzlePlayerRow], tuple[int, PuzzlePlayerRow] | None]: ...

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttemptRow | None: ...

    async def puzzle_attempt_with(
        self, attempt_id: int
    ) -> tuple[PuzzleAttemptRow, PuzzleRow, PuzzlePlayerRow | None] | None: ...

    async def open_puzzle_attempt(self, user_id: int) -> PuzzleAttemptRow | None: ...

    async def start_puzzle_attempt(
        self, user_id: int, puzzle_id: int, day: str | None
    ) -> PuzzleAttemptRow: ...

    async def set_puzzle_actions(
        self, attempt_id: int, before: Sequence[str], after: Sequence[str]
    ) -> bool: ...

    async def finish_puzzle_attempt(
        self,
        attempt: PuzzleAttemptRow,
        actions: Sequence[str],
        solved: bool,
        loss: float,
        player: PuzzlePlayerRow | None,
        puzzle: tuple[float, float] | None,
    ) -> bool: ...

    async def next_puzzle_source(self) -> tuple[int, int] | None: ...

    async def puzzle_source_progress(self, game_id: int, next_ply: int, done: bool) -> None: ...

    # a person's choice for one game (`/ps follow`: 'mute' or 'follow')

    async def follow_modes(self, game_id: int) -> dict[int, str]: ...

    async def set_follow_mode(self, game_id: int, user_id: int, mode: str | None) -> None: ...

    # turn clocks (`bot.services.timers`)

    async def turn_clock(self, game_id: int) -> DatabaseRow | None: ...

    async def clocks_of_user(self, user_id: int) -> list[DatabaseRow]: ...

    async def write_turn_clock(
        self, clock: ClockValues, jobs: Sequence[tuple[str, float]], replaced_outcome: str
    ) -> None: ...

    async def clear_turn_clock(self, game_id: int) -> None: ...

    async def set_turn_clock_version(self, game_id: int, version: int) -> None: ...

    async def clear_ended_clocks(self) -> None: ...

    # timer jobs (`bot.services.scheduler`)

    async def claim_due_jobs(self, now: float, limit: int) -> list[Job]: ...

    async def finish_job(self, job_id: int, outcome: str) -> None: ...

    async def next_due(self) -> float | None: ...

    async def requeue_unfinished_jobs(self, pending: str) -> int: ...

    async def prune_finished_jobs(self, pending: str) -> int: ...

    async def retry_job(self, job_id: int, due_at: float) -> None: ...

    async def timer_jobs(self, game_id: int | None = None) -> list[Job]: ...

    # the players remembered: results, ratings, leaderboards, privacy (issue 45)

    async def player_stats(self, identity: str, guild_id: int | None) -> list[StatRow]: ...

    async def player_animals(
        self, identity: str, guild_id: int | None
    ) -> list[tuple[str, int]]: ...

    async def player_games(
        self, identity: str, guild_id: int | None, size: int, page: int = 0
    ) -> tuple[list[FinishedGame], int, int]: ...

    async def finished_games(
        self, guild_id: int, since: str | None = None, until: str | None = None
    ) -> list[FinishedGame]: ...

    async def finished_game_ids(
        self, guild_id: int, since: str | None = None, until: str | None = None
    ) -> list[int]: ...

    async def finished_games_by_id(self, ids: Sequence[int]) -> list[FinishedGame]: ...

    async def rating_changes(
        self, identity: str, scope: int, game_ids: Sequence[int]
    ) -> dict[int, tuple[HistoryRow, HistoryRow | None]]: ...

    async def head_to_head(
        self, identity: str, opponent: str | None, guild_id: int | None
    ) -> dict[str, tuple[int, int, int]]: ...

    async def hidden_users(self, user_ids: Sequence[int]) -> set[int]: ...

    async def player_ratings(
        self, identity: str, scopes: Sequence[int], min_games: int, points: int
    ) -> list[tuple[RatingRow, int | None, list[HistoryRow]]]: ...

    async def leaderboard(
        self, scope: int, family: str, min_games: int, size: int, page: int, reader: str | None
    ) -> tuple[list[RatingRow], int, int, tuple[int, RatingRow] | None]: ...

    async def rated_results(self) -> list[rc.GameResult]: ...

    async def results_mark(self) -> tuple[int, str | None]: ...

    async def replace_ratings(
        self,
        ratings: rc.Ratings,
        seasons: Mapping[rs.SeasonKey, rc.Rating],
        mark: tuple[int, str | None],
    ) -> bool: ...

    async def stored_ratings(self) -> dict[rc.RatingKey, rc.Rating]: ...

    async def unrecorded_games(self) -> list[GameRow]: ...

    async def record_results(self, game_id: int, finish: Finish, finished_at: str) -> bool: ...

    # the seasons (issue 58)

    async def season_leaderboard(
        self, season: str, scope: int, family: str, size: int, page: int, reader: str | None
    ) -> tuple[list[RatingRow], int, int, tuple[int, RatingRow] | None]: ...

    async def season_standings(
        self, season: str, scope: int, family: str, size: int, page: int, reader: str | None
    ) -> tuple[list[StandingRow], int, int, StandingRow | None]: ...

    async def player_season(
        self, identity: str, season: str, scopes: Sequence[int]
    ) -> list[tuple[RatingRow, int | None]]: ...

    async def player_standings(
        self, identity: str, scopes: Sequence[int], limit: int
    ) -> list[StandingRow]: ...

    async def closed_seasons(self) -> list[str]: ...

    async def seasons_to_close(self, current: str) -> list[str]: ...

    async def close_season(self, season: str) -> int | None: ...

    async def stored_season_ratings(self) -> dict[rs.SeasonKey, rc.Rating]: ...

    async def set_hidden(self, user_id: int, hidden: bool) -> None: ...

    async def is_hidden(self, user_id: int) -> bool: ...

    async def in_live_game(self, user_id: int) -> bool: ...

    async def forget_user(self, user_id: int) -> int | None: ...

    # the daily challenge (`bot.storage.sql.daily`)

    async def bot_secret(self, name: str, made: str) -> str: ...

    async def claim_daily(
        self, day: int, user_id: int, guild_id: int | None, started_at: str
    ) -> tuple[DailyRow, bool]: ...

    async def set_daily_game(self, day: int, user_id: int, game_id: int) -> None: ...

    async def daily_row(self, day: int, user_id: int) -> DailyRow | None: ...

    async def daily_rows(self, user_id: int, since: int) -> list[DailyRow]: ...

    async def finish_daily(
        self, day: int, user_id: int, margin: int, won: bool, rounds: str, finished_at: str
    ) -> bool: ...

    async def daily_leaderboard(
        self, day: int, guild_id: int | None, size: int, reader: int | None
    ) -> tuple[list[DailyRow], int, tuple[int, DailyRow] | None]: ...

    async def live_daily_games(self, user_id: int) -> list[int]: ...

    # the Expert's reviews of finished games (`bot.services.reviews`)

    async def review(self, game_id: int) -> ReviewRow | None: ...

    async def start_review(self, game_id: int) -> tuple[ReviewRow, bool]: ...

    async def update_review(
        self,
        game_id: int,
        *,
        status: str | None = None,
        attempts: int | None = None,
        next_ply: int | None = None,
        decisions: list[DecisionData] | None = None,
        posted: int | None = None,
    ) -> None: ...

    async def reviews_to_finish(self) -> list[ReviewRow]: ...

    # the web companion (`bot.services.web`, issue 59)

    async def web_secret(self, guild_id: int) -> str | None: ...

    async def set_web_secret(self, guild_id: int, secret: str | None) -> None: ...

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]: ...

    async def played_names(self, user_ids: Sequence[int], guild_id: int) -> dict[int, str]: ...

    async def listen_games(
        self, changed: Callable[[int, int], None]
    ) -> Callable[[], Awaitable[None]] | None:
        """Call `changed(game_id, version)` for each change of a game's version committed by any
        process (PostgreSQL's LISTEN/NOTIFY); returns how to stop. None: this database cannot
        announce changes (SQLite): a reader polls `game_versions`."""
        ...


class Connection(Protocol):
    """What `SQLStorage` needs of a driver's connection (`?` placeholders, rows by name)."""

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[DatabaseRow]: ...

    async def fetchrow(self, sql: str, params: Sequence[object] = ()) -> DatabaseRow | None: ...

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def send(self, sql: str, params: Sequence[object] = ()) -> None:
        """A statement of a write whose result nothing needs: a driver may run it later, in
        the order sent, before the next statement's; its error is then raised by the next
        statement waited for (or at the end of the write, which it undoes either way)."""
        ...

    async def send_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """`executemany` as `send` sends."""
        ...

    async def send_changing(
        self, sql: str, params: Sequence[object], rows: int, error: Exception
    ) -> None:
        """A statement sent as `send` sends, that must change exactly `rows` rows: else the
        write fails with `error` (raised as a sent statement's error is, and undone)."""
        ...

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        """Insert many rows at once (PostgreSQL's COPY; SQLite's executemany)."""
        ...
