"""The rows storage returns: games and their seats, logged actions, timer jobs, turn clocks;
the statuses and seat kinds they may hold; and how a translatable text is kept in a column.
Data only: nothing here is said in a reader's language."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypedDict, get_args

import translation
from bot.ratings.core import ordinal
from bot.storage.errors import UnreadableGame
from engine import ConfigDict

if TYPE_CHECKING:
    from engine.expert.review import DecisionData

#: A game's status: a lobby, then played (`active`), then over, abandoned or (a lobby) expired.
GameStatus = Literal["lobby", "active", "over", "abandoned", "expired"]

STATUSES: tuple[GameStatus, ...] = get_args(GameStatus)

LIVE_STATUSES: tuple[GameStatus, ...] = ("lobby", "active")

#: Who plays a seat: a person, Cynthia the automa, or the Expert (quick or strong).
SeatKind = Literal["human", "cynthia", "expert", "expert-strong"]

SEAT_KINDS: tuple[SeatKind, ...] = get_args(SeatKind)

#: What happens when a turn's timer runs out: the turn ends as it is, or the autopilot plays it.
OnTimeout = Literal["end", "autopilot"]
#: What happens when a player leaves a game being played: the autopilot takes their seat, or the
#: game ends.
OnLeave = Literal["autopilot", "end"]


class GameOptions(TypedDict, total=False):
    """A game's lobby options as stored (a JSON object): the correspondence settings, the
    rules' variants, the Under the Moonlight modes, Cynthia's difficulty and the Expert's hints.
    Every key may be missing: a change names only what it changes, and a row written before an
    option existed lacks it (`bot.services.base.normalize_options` fills in the defaults)."""

    turn_timer: int  # hours; 0: no timer
    on_timeout: OnTimeout
    on_leave: OnLeave
    revolutions: int  # 3, or 4 (the advanced variant)
    shadow_rule: bool
    random_seats: bool
    moon_animals: bool
    elder_tree: bool
    moonstones: bool
    easier_no_final_collect: bool
    easier_grow_plus_one: bool
    easier_two_small_start: bool
    harder_grow_minus_one: bool
    harder_score_trees: bool
    hints: bool
    daily: int  # the daily challenge's day number (`bot.services.daily`): a private game


class Preferences(TypedDict, total=False):
    """A player's stored preferences (a JSON object; a key not set is missing)."""

    notify: bool  # a DM when it is their turn (`/ps notify on`)
    vacation_since: float  # away since then (`/ps vacation on`): their turn timers are paused


#: The prefix of a `translation.Text` kept translatable in a text column (`stored_text`).
STORED_TEXT = "\x1etext:"


def stored_text(text: str | None) -> str | None:
    """A text as the database keeps it: a `translation.Text` stays translatable (its template
    and parameters, as JSON after `STORED_TEXT`); a plain string as it is."""
    if text is None or not isinstance(text, translation.Text):
        return text
    return STORED_TEXT + json.dumps(translation.to_data(text), ensure_ascii=False)


def read_text(stored: str | None) -> str | None:
    """A text `stored_text` kept: the `translation.Text` again (English when read as a string),
    or the plain string (rows written before texts were kept translatable; and what follows
    the prefix when it does not read as a text)."""
    if stored is None or not stored.startswith(STORED_TEXT):
        return stored
    try:
        text: object = translation.from_data(json.loads(stored[len(STORED_TEXT) :]))
    except (ValueError, TypeError, KeyError):
        text = None
    return text if isinstance(text, str) else stored[len(STORED_TEXT) :]


class DatabaseRow(Protocol):
    """A row a driver's query returns (sqlite3.Row, asyncpg.Record): its columns by name (or
    by position). A column's value is whatever the database holds, so it is `Any`: the row
    types below give each column its type where a row is read."""

    def __getitem__(self, column: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


@dataclass(frozen=True)
class SeatRow:
    """One seat: its position (join order in the lobby, seat index once started)."""

    position: int
    kind: SeatKind
    #: the name as stored (an Expert's and an autopilot's mark in English: the reader's
    #: language is the presentation's, `bot.present.expert_texts.shown_name`)
    user_id: int | None
    name: str


@dataclass(frozen=True)
class DailyRow:
    """A person's attempt at one day's challenge (`bot.services.daily`): its game (None for
    the moment between the claim of the day and the game's creation), the server it started
    in, and its result once finished: the margin over Cynthia, won or not, and the row of the
    rounds (one character a round: `+` the round gained more than Cynthia's, `=` as much,
    `-` less)."""

    day: int
    user_id: int
    game_id: int | None
    guild_id: int | None
    started_at: str
    finished_at: str | None = None
    margin: int | None = None
    won: bool | None = None
    rounds: str | None = None


@dataclass(frozen=True)
class GameRow:
    """One game as stored."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    options: GameOptions
    config: ConfigDict | None  # the engine's (`engine.Config.to_dict`) once started
    seed: int
    version: int
    created_at: str
    updated_at: str
    seats: tuple[SeatRow, ...] = field(default=())
    #: the language of the game's channel messages (`translation.LANGUAGES`)
    language: str = "en"

    @property
    def updated(self) -> datetime:
        """When the game last changed (a stored row whose time has no zone does not read)."""
        return datetime.fromisoformat(self.updated_at)

    @property
    def is_live(self) -> bool:
        """Whether the game still occupies its channel (lobby or in play)."""
        return self.status in LIVE_STATUSES


@dataclass(frozen=True)
class NewAction:
    """An action to append to the log."""

    ply: int
    notation: str
    seat: int
    user_id: int | None
    explanation: str | None = None


@dataclass(frozen=True)
class ActionRow:
    """One applied action as stored (ply counts from 1)."""

    ply: int
    notation: str
    seat: int
    user_id: int | None
    explanation: str | None
    created_at: str


@dataclass(frozen=True)
class Job:
    """One scheduled job (`bot.services.scheduler`): `kind` for the seat `seat` in the turn `turn` of a
    game."""

    id: int
    game_id: int
    turn: str  # engine.turn_id
    kind: str
    seat: int
    user_id: int | None
    due_at: float
    fired_at: float | None = None
    outcome: str | None = None
    attempts: int = 0  # how many times its handler failed before

    @classmethod
    def from_row(cls, row: DatabaseRow) -> Job:
        return cls(
            id=row["id"],
            game_id=row["game_id"],
            turn=row["turn"],
            kind=row["kind"],
            seat=row["seat"],
            user_id=row["user_id"],
            due_at=row["due_at"],
            fired_at=row["fired_at"],
            outcome=row["outcome"],
            attempts=row["attempts"],
        )


#: The columns of a turn clock (`bot.services.timers.TurnClock`), in the order `write_turn_clock` takes.
CLOCK_COLUMNS = (
    "game_id",
    "version",
    "turn",
    "seat",
    "user_id",
    "started_at",
    "paused_at",
    "paused_total",
)

#: A turn clock's values in `CLOCK_COLUMNS` order: the game, its version, the turn
#: (`engine.turn_id`), the seat, its player (None: the autopilot's), when the turn started, when
#: it was paused (None: running) and the time paused so far (seconds).
ClockValues: TypeAlias = tuple[int, int, str, int, int | None, float, float | None, float]


@dataclass(frozen=True)
class ClockWrite:
    """A change to a game's turn clock and its jobs (`bot.services.timers`), written on its own or in
    the transaction of a play (`update_game(turn_clock=...)`): a new `clock` (values in
    `CLOCK_COLUMNS` order) with its `jobs` (kind, due_at), which replace the game's unfired
    jobs and the fired ones whose outcome is `replaced_outcome`; or only the clock's `version`
    (the same turn goes on); or neither: the clock and the unfired jobs go (no turn to time)."""

    game_id: int
    clock: ClockValues | None = None
    jobs: tuple[tuple[str, float], ...] = ()
    replaced_outcome: str = ""
    version: int | None = None


def aware_time(text: object) -> datetime | None:
    """An ISO 8601 time with its time zone (as `_utcnow` writes), or None for anything else
    (a time without its zone, as SQLite's `datetime('now')` writes, an empty string, a word)."""
    if not isinstance(text, str):
        return None
    try:
        time = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return time if time.tzinfo is not None else None


def decode_game(row: DatabaseRow, seats: tuple[SeatRow, ...]) -> GameRow | UnreadableGame:
    """The game of a `games` row and its seat rows, or the `UnreadableGame` of a damaged one:
    each field the bot relies on is checked here, so that a damaged row is quarantined where it
    is read, never found out later by whatever uses it first."""
    try:  # as the bot wrote them (checked below: objects; a started game's seats)
        options: GameOptions = json.loads(row["options"])
        config: ConfigDict | None = json.loads(row["config"]) if row["config"] is not None else None
    except (TypeError, ValueError) as exc:
        return UnreadableGame(row["id"], f"its stored row does not read ({exc})")
    if not isinstance(options, dict) or not isinstance(config, dict | None):
        return UnreadableGame(row["id"], "its stored options or config are not objects")
    damage = _damage(row, seats, config)
    if damage is not None:
        return UnreadableGame(row["id"], damage)
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        options=options,
        config=config,
        seed=row["seed"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        seats=seats,
        language=row["language"] if "language" in row.keys() else "en",  # noqa: SIM118 (a Row)
    )


def _damage(row: DatabaseRow, seats: tuple[SeatRow, ...], config: ConfigDict | None) -> str | None:
    """What is wrong with a games row whose options and config read, or None."""
    for column in ("seed", "version"):
        if type(row[column]) is not int:  # SQLite stores any value in an INTEGER column
            return f"its stored {column} is not a whole number ({str(row[column])[:40]!r})"
    if row["version"] < 0:
        return f"its stored version is negative ({row['version']})"
    if aware_time(row["updated_at"]) is None:
        shown = str(row["updated_at"])[:40]
        return f"its stored updated_at is not a time with its time zone ({shown!r})"
    if config is not None:  # started: one seat row per player of its engine config
        players = config.get("seats")
        if not isinstance(players, list):
            return "its stored config has no seats"
        if [seat.position for seat in seats] != list(range(len(players))):
            return f"its {len(seats)} stored seats do not match its {len(players)} players"
    return None


# --- the players remembered (issue 45) ---

#: The name a forgotten person's seat keeps (`Storage.forget_user`): stored in English, like an
#: autopilot's mark; the presentation shows it in the reader's language.
FORMER_NAME = "a former player"


@dataclass(frozen=True)
class FinishedSeat:
    """How one seat of a game finished, as the engine scored it: its place (1 = first, equal
    places a tie), its score and the score's parts (`engine.score_parts`), and its animal
    (Under the Moonlight's, else None)."""

    position: int
    place: int
    score: int
    parts: dict[str, int]
    animal: str | None = None


@dataclass(frozen=True)
class Finish:
    """A finished game's result, written with its end (`update_game(finish=...)`) or, for a
    game that finished before results were kept, afterwards (`record_results`)."""

    seats: tuple[FinishedSeat, ...]


@dataclass(frozen=True)
class ResultRow:
    """One finished seat as stored (`seat_results`): whose (`identity`, the person's
    `user_id` when a person's, also when they left: `left`), where it finished and how."""

    game_id: int
    position: int
    identity: str
    user_id: int | None
    guild_id: int | None
    family: str
    seat_count: int
    place: int
    score: int
    parts: dict[str, int]
    animal: str | None
    left: bool
    finished_at: str

    @classmethod
    def from_row(cls, row: DatabaseRow) -> ResultRow:
        return cls(
            game_id=row["game_id"],
            position=row["position"],
            identity=row["identity"],
            user_id=row["user_id"],
            guild_id=row["guild_id"],
            family=row["family"],
            seat_count=row["seat_count"],
            place=row["place"],
            score=row["score"],
            parts=json.loads(row["parts"]),
            animal=row["animal"],
            left=bool(row["left_game"]),
            finished_at=row["finished_at"],
        )


@dataclass(frozen=True)
class StatRow:
    """A player's finished games of one rule family and seat count: how many, how many won
    (first place, alone or tied), the sum and the best of their scores."""

    family: str
    seat_count: int
    played: int
    won: int
    score_sum: int
    best: int


@dataclass(frozen=True)
class RatingRow:
    """A stored rating (`bot.ratings.Rating` with its key)."""

    scope: int
    family: str
    identity: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class StandingRow:
    """A rating in the final standings of a season that ended (`season_standings`): its rank
    on its leaderboard when the season closed (None: not ranked, fewer games than a rank needs,
    a hidden profile, or a forgotten seat)."""

    season: str
    scope: int
    family: str
    identity: str
    rank: int | None
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class HistoryRow:
    """A rating after one game (`rating_history`)."""

    scope: int
    family: str
    games: int
    game_id: int
    finished_at: str
    mu: float
    sigma: float
    place: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class FinishedGame:
    """A finished game for the history and the export: its row, its seats' results (in seat
    order), the people who left a seat (position -> (user id, name)), its thread's id."""

    game: GameRow
    results: tuple[ResultRow, ...]
    leavers: dict[int, tuple[int, str]]
    thread_id: int | None
    finished_at: str
    #: the game's logged actions (the export's record), when asked for
    notations: tuple[str, ...] = ()


#: The states of a game's review (`bot.services.reviews`): being computed, computed (its
#: messages being posted), posted in the game's thread, or given up.
REVIEW_STATUSES = ("running", "done", "posted", "failed")


@dataclass(frozen=True)
class ReviewRow:
    """The Expert's review of a finished game (`bot.services.reviews`): its `status`, how many
    times a run of it was started (`attempts`: a restart resumes it once), the first ply not yet
    reviewed (`next_ply`), the decisions reviewed so far (`engine.expert.review.Decision` as
    dicts) and how many of its messages were posted in the game's thread (`posted`)."""

    game_id: int
    status: str
    attempts: int
    next_ply: int
    decisions: list[DecisionData]
    posted: int
    updated: str

    @classmethod
    def from_row(cls, row: DatabaseRow) -> ReviewRow:
        decisions = json.loads(row["decisions"])
        if not isinstance(decisions, list):
            raise ValueError("a review's decisions are not a list")
        return cls(
            game_id=row["game_id"],
            status=row["status"],
            attempts=row["attempts"],
            next_ply=row["next_ply"],
            decisions=decisions,
            posted=row["posted"],
            updated=row["updated_at"],
        )


#: An attempt at a puzzle (`bot.services.puzzles`): being played, solved or failed.
PUZZLE_STATUSES = ("open", "solved", "failed")


@dataclass(frozen=True)
class PuzzleRow:
    """A puzzle of `/ps puzzle`: its number, position key (`engine.expert.puzzles.position_key`),
    rules, where it was found, its record (`engine.expert.puzzles.Puzzle.to_dict`, as JSON
    text), its rating (openskill's mu and sigma: `bot.ratings.puzzles`) and how many attempts
    rated it."""

    id: int
    key: str
    rules: str
    source: str
    data: str
    mu: float
    sigma: float
    attempts: int
    created_at: str

    @classmethod
    def from_row(cls, row: DatabaseRow) -> PuzzleRow:
        return cls(
            id=row["id"],
            key=row["key"],
            rules=row["rules"],
            source=row["source"],
            data=row["data"],
            mu=row["mu"],
            sigma=row["sigma"],
            attempts=row["attempts"],
            created_at=row["created_at"],
        )


@dataclass(frozen=True)
class PuzzlePlayerRow:
    """A solver's puzzle rating (openskill's mu and sigma, the `ordinal` shown and ranked), the
    puzzles solved and failed, the current streak of puzzles solved in a row and the best."""

    user_id: int
    mu: float
    sigma: float
    ordinal: float
    solved: int
    failed: int
    streak: int
    best_streak: int

    @classmethod
    def from_row(cls, row: DatabaseRow) -> PuzzlePlayerRow:
        return cls(
            user_id=row["user_id"],
            mu=row["mu"],
            sigma=row["sigma"],
            ordinal=row["ordinal"],
            solved=row["solved"],
            failed=row["failed"],
            streak=row["streak"],
            best_streak=row["best_streak"],
        )


@dataclass(frozen=True)
class PuzzleAttemptRow:
    """A solver's attempt at a puzzle: the actions of the turn played so far (notations), its
    status, the loss the Expert gave the answer (once judged), whether it is rated (the first
    attempt at a puzzle is), and the day when it is that day's puzzle (`YYYY-MM-DD`)."""

    id: int
    user_id: int
    puzzle_id: int
    day: str | None
    actions: tuple[str, ...]
    status: str
    loss: float | None
    rated: bool

    @classmethod
    def from_row(cls, row: DatabaseRow) -> PuzzleAttemptRow:
        actions = json.loads(row["actions"])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("an attempt's actions are not a list of notations")
        return cls(
            id=row["id"],
            user_id=row["user_id"],
            puzzle_id=row["puzzle_id"],
            day=row["day"],
            actions=tuple(actions),
            status=row["status"],
            loss=row["loss"],
            rated=bool(row["rated"]),
        )
