"""The daily challenge (`/ps daily`): each day at 00:00 UTC one solo game against one Cynthia,
the same for every player of this deployment.

**The day's game.** Its seed (Cynthia's deck, the animals and tokens of the expansion, every
draw) and whether the person sits first are the HMAC-SHA256 of the date under a secret the
deployment makes at its first start and keeps in its database (`bot_secrets`): the code is
public, the secret is not, so no one can work a day out before it comes. The rules follow a
public schedule (`rules_of`): the base game, and Under the Moonlight on Wednesdays and
Saturdays, its modes in turn (`EXPANSION_MODES`).

**An attempt.** A person's first `/ps daily` of a day claims the day (`daily_results`, one row
per person and day) and starts their game: a game stored like any other (its log, its
snapshots, restarts and the chaos of a crash), with no channel (its `options` name the day:
`daily_of`), not rated. It is played privately with the game's own panel, and `/ps daily`
again goes on where it stopped. The attempt counts for the day it started and may be finished
within `ATTEMPT_HOURS` of its start; after that it is abandoned, unscored. The result (kept
once: `Storage.finish_daily`) is the person's margin over Cynthia, with a mark per round.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import engine
from bot.ratings.core import places_of
from bot.services import refusals
from bot.services.base import (
    DAILY_EPOCH,
    Turn,
    TurnResult,
    UserError,
    daily_of,
    day_at,
    engine_config,
)
from bot.services.core import GameCore
from bot.services.plays import run_automa
from bot.services.turns import TurnService
from bot.storage import ChannelBusy, DailyRow, GameOptions, GameRow, SeatRow
from bot.storage.locks import KeyedLocks
from engine import GameState
from translation import _

log = logging.getLogger(__name__)

#: An attempt may be finished within this long of its start.
ATTEMPT_HOURS = 24
#: The weekdays of Under the Moonlight (Monday is 0): Wednesday and Saturday.
EXPANSION_WEEKDAYS = (2, 5)
#: The expansion's modes, in turn from one expansion day to the next.
EXPANSION_MODES: tuple[tuple[str, ...], ...] = (
    ("moon_animals",),
    ("elder_tree", "moonstones"),
    ("moon_animals", "elder_tree", "moonstones"),
)
#: The name of the deployment's secret in `bot_secrets`.
SECRET_NAME = "daily"
#: The leaderboard's length.
BOARD_SIZE = 10
#: How far back a streak is read (days).
STREAK_WINDOW = 400
CYNTHIA_NAME = "Cynthia"

NOT_YOURS = _("This is someone else's daily challenge: start yours with `/ps daily`.")
NOT_A_DAILY = _("That is not a daily challenge.")
ATTEMPT_EXPIRED = _(
    "This attempt is over: a daily challenge must be finished within 24 hours of its start."
)
NO_RESULT = _("Finish today's challenge first: then you can share your result.")


def date_of(day: int) -> date:
    """The date of a day number."""
    return DAILY_EPOCH + timedelta(days=day - 1)


def day_number(on: date) -> int:
    """The day number of a date (day 1 is `DAILY_EPOCH`)."""
    return (on - DAILY_EPOCH).days + 1


def rules_of(day: int) -> tuple[str, ...]:
    """The Under the Moonlight modes of a day (empty: the base game): on `EXPANSION_WEEKDAYS`,
    the modes of `EXPANSION_MODES` in turn, counting the expansion days since the epoch."""
    on = date_of(day)
    if on.weekday() not in EXPANSION_WEEKDAYS:
        return ()
    days_before = sum(
        1 for d in range(day - 1) if date_of(d + 1).weekday() in EXPANSION_WEEKDAYS
    )  # (one pass over at most a few thousand days)
    return EXPANSION_MODES[days_before % len(EXPANSION_MODES)]


def channel_of(day: int, user_id: int) -> int:
    """The channel id a daily game is stored with: none of Discord's (negative), one per person
    and day, so the one-live-game-per-channel index makes two starts of one attempt one."""
    digest = hashlib.sha256(f"daily:{day}:{user_id}".encode()).digest()
    return -(1 + int.from_bytes(digest[:7], "big"))


@dataclass(frozen=True)
class Attempt:
    """A person's attempt as `/ps daily` shows it: its row, its game and state, and while it is
    played the turn (the panel's); `ends_at` is when it may no longer be finished."""

    row: DailyRow
    game: GameRow
    state: GameState
    turn: Turn | None
    ends_at: float

    @property
    def day(self) -> int:
        return self.row.day

    @property
    def seat(self) -> int:
        """The person's seat."""
        return next(s.position for s in self.game.seats if s.kind == "human")


@dataclass(frozen=True)
class Board:
    """A day's leaderboard: its best rows, how many are ranked, and the reader's rank."""

    day: int
    guild_id: int | None
    rows: tuple[DailyRow, ...]
    total: int
    mine: tuple[int, DailyRow] | None


@dataclass(frozen=True)
class Streaks:
    """A person's streaks: days in a row with a finished attempt, and with a win, counted up
    to today (or up to yesterday while today's is not finished); and how many days they
    finished in all (over the days read)."""

    played: int
    won: int
    days: int = 0


def streaks_of(rows: Sequence[DailyRow], today: int) -> Streaks:
    """The streaks of a person's rows (any order)."""
    finished = {r.day: bool(r.won) for r in rows if r.margin is not None}
    start = today if today in finished else today - 1
    played = won = 0
    day = start
    while day in finished:
        played += 1
        day -= 1
    day = start
    while finished.get(day):
        won += 1
        day -= 1
    return Streaks(played, won, len(finished))


def round_marks(config: engine.ConfigDict, seed: int, notations: Sequence[str], seat: int) -> str:
    """A finished game's rounds as marks for the person at `seat` against the other seat: `+`
    a round whose points (the score's formula, taken at each round's end) rose more for them,
    `=` as much, `-` less. Pure CPU: run it in a thread."""
    state = engine.new_game(engine.Config.from_dict(config), seed)
    other = 1 - seat
    marks: list[str] = []
    last = engine.scores(state)
    for notation in notations:
        before = state.round
        state = engine.apply(state, notation)
        if state.round != before and before > 0 or state.is_over:
            now = engine.scores(state)
            gained = (now[seat] - last[seat]) - (now[other] - last[other])
            marks.append("+" if gained > 0 else "=" if gained == 0 else "-")
            last = now
            if state.is_over:
                break
    return "".join(marks)


class DailyService:
    """The daily challenge: the days' games, the attempts, their results, the leaderboards
    and the streaks."""

    def __init__(self, core: GameCore, turns: TurnService) -> None:
        self.core = core
        self.storage = core.storage
        self.turns = turns
        self._secret: bytes | None = None
        self._locks = KeyedLocks()

    def today(self) -> int:
        """Today's day number (the core's clock)."""
        return day_at(self.core.now())

    def _iso(self, when: float) -> str:
        return datetime.fromtimestamp(when, UTC).isoformat(timespec="milliseconds")

    async def secret(self) -> bytes:
        """The deployment's secret (made at its first start, by the app's setup, or at its first
        use, and kept in the database)."""
        if self._secret is None:
            stored = await self.storage.bot_secret(SECRET_NAME, secrets.token_hex(32))
            self._secret = bytes.fromhex(stored)
        return self._secret

    async def seed_of(self, day: int) -> tuple[int, bool]:
        """A day's game seed and whether the person sits first: the HMAC of its date."""
        digest = hmac.new(
            await self.secret(), f"photosynthesis-daily:{date_of(day).isoformat()}".encode(),
            hashlib.sha256,
        ).digest()  # fmt: skip
        return int.from_bytes(digest[:4], "big") % 2**31, digest[4] % 2 == 0

    def options_of(self, day: int) -> GameOptions:
        """A day's lobby options: its expansion modes, its day."""
        modes = rules_of(day)
        return {
            "daily": day,
            "moon_animals": "moon_animals" in modes,
            "elder_tree": "elder_tree" in modes,
            "moonstones": "moonstones" in modes,
        }

    # --- an attempt ---

    async def open(self, user_id: int, name: str, guild_id: int | None, language: str) -> Attempt:
        """The reader's attempt now: one still played within its hours (the latest first),
        else today's, started now when it is their first `/ps daily` of the day."""
        async with self._locks.hold(user_id):
            today = self.today()
            for row in await self.storage.daily_rows(user_id, today - 1):
                if row.day == today or row.game_id is None:
                    continue
                game = await self.core.get_game(row.game_id)
                if game is not None and game.status == "active":
                    attempt = await self._attempt(row, game, user_id)
                    if attempt.turn is not None or attempt.state.is_over:
                        return attempt
            started = self._iso(self.core.now())
            row, _made = await self.storage.claim_daily(today, user_id, guild_id, started)
            game = await self._game_of(row, user_id, name, language)
            return await self._attempt(row, game, user_id)

    async def _game_of(self, row: DailyRow, user_id: int, name: str, language: str) -> GameRow:
        """The game of a claimed attempt, created and started now if it has none yet (also
        when a stop came between the claim and the start)."""
        if row.game_id is not None:
            game = await self.core.get_game(row.game_id)
            if game is not None:
                return game
        channel = channel_of(row.day, user_id)
        game = await self.storage.live_game(channel)
        if game is None:
            seed, person_first = await self.seed_of(row.day)
            try:
                game = await self.storage.create_game(
                    guild_id=None,
                    channel_id=channel,
                    host_id=user_id,
                    host_name=name,
                    options=self.options_of(row.day),
                    seed=seed,
                    language=language,
                )
            except ChannelBusy:  # (another process started it at this very moment)
                game = await self.storage.live_game(channel)
                if game is None:
                    raise
            else:
                game = await self._start(game, user_id, name, person_first)
        elif game.status == "lobby":
            _seed, person_first = await self.seed_of(row.day)
            game = await self._start(game, user_id, name, person_first)
        await self.storage.set_daily_game(row.day, user_id, game.id)
        log.info("daily started", extra={"game_id": game.id, "day": row.day})
        return game

    async def _start(self, game: GameRow, user_id: int, name: str, person_first: bool) -> GameRow:
        person = SeatRow(0, "human", user_id, name)
        cynthia = SeatRow(0, "cynthia", None, CYNTHIA_NAME)
        order = [person, cynthia] if person_first else [cynthia, person]
        seats = [SeatRow(i, s.kind, s.user_id, s.name) for i, s in enumerate(order)]
        async with self.core.lock(game.id):
            fresh = await self.core.get_game(game.id)
            if fresh is None or fresh.status != "lobby":
                return fresh or game
            config = engine_config(fresh.options, [s.kind for s in seats])
            state = await asyncio.to_thread(engine.new_game, config, fresh.seed)
            state, applied = await asyncio.to_thread(run_automa, state, 1)
            return await self.core.commit_play(
                fresh, state, applied, seats=seats, config=config.to_dict(), status="active"
            )

    async def _attempt(self, row: DailyRow, game: GameRow, user_id: int) -> Attempt:
        """An attempt read: its state, its turn while played; one past its hours is abandoned
        (unscored); one over and not yet scored is scored."""
        ends_at = datetime.fromisoformat(row.started_at).timestamp() + ATTEMPT_HOURS * 3600
        if game.status == "active" and self.core.now() >= ends_at:
            game = await self._expire(game)
        state = await self.core.state(game)
        if state.is_over and row.margin is None:
            row = await self._score(row, game, state)
        turn = None
        if game.status == "active" and not state.is_over:
            turn = await self.turns.turn(game.id, user_id)
        return Attempt(row, game, state, turn, ends_at)

    async def _expire(self, game: GameRow) -> GameRow:
        async with self.core.lock(game.id):
            fresh = await self.core.get_game(game.id)
            if fresh is None or fresh.status != "active":
                return fresh or game
            stored = await self.storage.update_game(fresh.id, fresh.version, status="abandoned")
            self.core.forget(fresh.id)
            await self.core.ended(stored)
            log.info("daily attempt expired", extra={"game_id": fresh.id})
            return stored

    async def _score(self, row: DailyRow, game: GameRow, state: GameState) -> DailyRow:
        """Keep a finished attempt's result (once)."""
        person = next(s.position for s in game.seats if s.kind == "human")
        scores = engine.scores(state)
        places = places_of(state)
        margin = scores[person] - scores[1 - person]
        won = places[person] == 1 and places[1 - person] == 2
        assert game.config is not None
        notations = [a.notation for a in await self.storage.actions(game.id)]
        marks = await asyncio.to_thread(round_marks, game.config, game.seed, notations, person)
        finished = self._iso(self.core.now())
        await self.storage.finish_daily(row.day, row.user_id, margin, won, marks, finished)
        log.info("daily finished", extra={"game_id": game.id, "day": row.day})
        stored = await self.storage.daily_row(row.day, row.user_id)
        assert stored is not None
        return stored

    async def _own(self, game_id: int, user_id: int) -> tuple[GameRow, DailyRow]:
        """A daily game of the reader's (a forged custom_id naming another's is refused)."""
        game = await self.core.get_game(game_id)
        day = None if game is None else daily_of(game)
        if game is None or day is None:
            raise UserError(NOT_A_DAILY)
        row = await self.storage.daily_row(day, user_id)
        if row is None or row.game_id != game.id:
            raise UserError(NOT_YOURS)
        ends_at = datetime.fromisoformat(row.started_at).timestamp() + ATTEMPT_HOURS * 3600
        if game.status == "active" and self.core.now() >= ends_at:
            await self._expire(game)
            raise UserError(ATTEMPT_EXPIRED)
        return game, row

    async def turn(self, game_id: int, user_id: int, version: int | None) -> Turn:
        """The reader's daily turn at `version` (the panel clicked)."""
        await self._own(game_id, user_id)
        return await self.turns.turn(game_id, user_id, version)

    async def play(
        self,
        game_id: int,
        user_id: int,
        notation: str,
        version: int | None,
        *,
        offered: Callable[[Sequence[str]], bool] | None = None,
        turn: tuple[str, int | None] | None = None,
        typed_version: int | None = None,
    ) -> tuple[TurnResult, DailyRow]:
        """Play the reader's action(s) in their daily game (Cynthia answers in the same commit);
        the result is kept when the game ends."""
        _game, row = await self._own(game_id, user_id)
        result = await self.turns.play(
            game_id, user_id, notation, version,
            offered=offered, turn=turn, typed_version=typed_version,
        )  # fmt: skip
        if result.state.is_over:
            row = await self._score(row, result.game, result.state)
        return result, row

    async def undo(self, game_id: int, user_id: int, version: int | None) -> TurnResult:
        """Take back the reader's last action of the turn in their daily game."""
        await self._own(game_id, user_id)
        return await self.turns.undo(game_id, user_id, version)

    async def current(self, user_id: int) -> Attempt | None:
        """The reader's attempt being played now, if any (nothing is started)."""
        today = self.today()
        for row in await self.storage.daily_rows(user_id, today - 1):
            if row.game_id is None:
                continue
            game = await self.core.get_game(row.game_id)
            if game is not None and game.status == "active":
                attempt = await self._attempt(row, game, user_id)
                if attempt.turn is not None:
                    return attempt
        return None

    async def row_of(self, game: GameRow, user_id: int) -> DailyRow:
        """The reader's attempt whose game this is."""
        _game, row = await self._own(game.id, user_id)
        return row

    # --- results ---

    async def result(
        self, user_id: int, day: int | None = None, *, refusal: str = NO_RESULT
    ) -> DailyRow:
        """The reader's finished attempt of a day (default today), or `refusal`."""
        row = await self.storage.daily_row(self.today() if day is None else day, user_id)
        if row is None or row.margin is None:
            raise UserError(refusal)
        return row

    async def finished(self, user_id: int, day: int) -> GameRow:
        """The game of the reader's attempt of a day that is over (yesterday's: its replay and
        review), or a refusal."""
        row = await self.storage.daily_row(day, user_id)
        game = None if row is None or row.game_id is None else await self.core.get_game(row.game_id)
        if game is None or game.status != "over" or self.core.daily_closed(game):
            raise UserError(refusals.DAILY_CLOSED)
        return game

    async def leaderboard(self, guild_id: int | None, reader: int, day: int | None = None) -> Board:
        """A day's leaderboard (default today) across servers (`guild_id` None) or of the
        attempts started in one server, with the reader's rank."""
        day = self.today() if day is None else day
        rows, total, mine = await self.storage.daily_leaderboard(day, guild_id, BOARD_SIZE, reader)
        return Board(day, guild_id, tuple(rows), total, mine)

    async def streaks(self, user_id: int) -> Streaks:
        """The reader's streaks of days played and days won."""
        today = self.today()
        rows = await self.storage.daily_rows(user_id, today - STREAK_WINDOW)
        return streaks_of(rows, today)
