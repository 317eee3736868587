"""The SQL of the puzzles (`/ps puzzle`, issue 58): the puzzles and their ratings, each solver's
rating and streaks, the attempts, and the finished games searched for new puzzles."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.storage.interface import Connection
from bot.storage.rows import DatabaseRow, PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow
from bot.storage.sql.base import SQLBase

_PUZZLE = "id, key, rules, source, data, mu, sigma, attempts, created_at"
_PLAYER = "user_id, mu, sigma, ordinal, solved, failed, streak, best_streak"
_ATTEMPT = "id, user_id, puzzle_id, day, actions, status, loss, rated"
#: A solver on a puzzle leaderboard: not hidden (`hidden_players`).
_VISIBLE = " NOT EXISTS (SELECT 1 FROM hidden_players h WHERE h.user_id = p.user_id)"


class _Columns:
    """The columns of a joined row named `<prefix>_<column>`, under their own names (a
    `DatabaseRow` for a row type's `from_row`)."""

    def __init__(self, row: DatabaseRow, prefix: str, columns: str) -> None:
        self._values = {c: row[f"{prefix}_{c}"] for c in columns.split(", ")}

    def __getitem__(self, column: str | int, /) -> Any:
        if isinstance(column, int):
            return list(self._values.values())[column]
        return self._values[column]

    def keys(self) -> Iterable[str]:
        return self._values.keys()


class PuzzleSQL(SQLBase):
    """Puzzles, solvers, attempts (`bot.services.puzzles` says what they mean)."""

    # --- the puzzles ---

    async def add_puzzles(
        self,
        puzzles: Sequence[tuple[str, str, str, str]],
        mu: float,
        sigma: float,
        created_at: str | None = None,
    ) -> int:
        """Store puzzles `(key, rules, source, data)` not stored yet (by key), each at the
        rating `mu`, `sigma`, as stored at `created_at` (now unless told); returns how many
        were new."""
        added = 0
        when = created_at or self._clock()
        async with self._transaction() as conn:
            for key, rules, source, data in puzzles:
                added += await conn.execute(
                    "INSERT INTO puzzles (key, rules, source, data, mu, sigma, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                    (key, rules, source, data, mu, sigma, when),
                )
        return added

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        async with self._reading_one() as conn:
            row = await conn.fetchrow(f"SELECT {_PUZZLE} FROM puzzles WHERE id = ?", (puzzle_id,))
        return None if row is None else PuzzleRow.from_row(row)

    async def puzzle_keys(self) -> set[str]:
        """The keys of every stored puzzle."""
        async with self._reading_one() as conn:
            rows = await conn.fetch("SELECT key FROM puzzles")
        return {str(r["key"]) for r in rows}

    async def puzzle_near(self, user_id: int, mu: float) -> PuzzleRow | None:
        """The puzzle nearest in rating to `mu` that `user_id` never attempted (None: they
        attempted every one): the nearest above and the nearest below, each by the index, in
        one statement."""
        unseen = (
            "NOT EXISTS (SELECT 1 FROM puzzle_attempts a"
            " WHERE a.user_id = ? AND a.puzzle_id = puzzles.id)"
        )
        async with self._reading_one() as conn:
            rows = await conn.fetch(
                f"SELECT * FROM (SELECT {_PUZZLE} FROM puzzles WHERE mu >= ? AND {unseen}"
                " ORDER BY mu, key LIMIT 1) AS above UNION ALL"
                f" SELECT * FROM (SELECT {_PUZZLE} FROM puzzles WHERE mu < ? AND {unseen}"
                " ORDER BY mu DESC, key DESC LIMIT 1) AS below",
                (mu, user_id, mu, user_id),
            )
        found = [PuzzleRow.from_row(r) for r in rows]
        return min(found, key=lambda p: (abs(p.mu - mu), p.mu < mu)) if found else None

    async def puzzle_of_day(self, before: str, pick: int) -> PuzzleRow | None:
        """The day's puzzle: of the puzzles stored before `before` (the day's start), in
        order, the one at `pick` modulo their count (None: no puzzle yet)."""
        async with self._reading() as conn:
            count = await conn.fetchrow(
                "SELECT COUNT(*) AS n FROM puzzles WHERE created_at < ?", (before,)
            )
            n = 0 if count is None else int(count["n"])
            if n == 0:
                return None
            row = await conn.fetchrow(
                f"SELECT {_PUZZLE} FROM puzzles WHERE created_at < ? ORDER BY id LIMIT 1 OFFSET ?",
                (before, pick % n),
            )
        return None if row is None else PuzzleRow.from_row(row)

    async def puzzle_counts(self) -> dict[str, int]:
        """How many puzzles are stored, by rules."""
        async with self._reading_one() as conn:
            rows = await conn.fetch("SELECT rules, COUNT(*) AS n FROM puzzles GROUP BY rules")
        return {str(r["rules"]): int(r["n"]) for r in rows}

    # --- the solvers ---

    async def puzzle_player(self, user_id: int) -> PuzzlePlayerRow | None:
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_PLAYER} FROM puzzle_players WHERE user_id = ?", (user_id,)
            )
        return None if row is None else PuzzlePlayerRow.from_row(row)

    async def puzzle_leaderboard(
        self, size: int, reader: int | None
    ) -> tuple[list[PuzzlePlayerRow], tuple[int, PuzzlePlayerRow] | None]:
        """The `size` best solvers by rating shown (`ordinal`; hidden players left out), and
        the reader's rank and row when they are ranked (None: not ranked, or hidden)."""
        async with self._reading() as conn:
            rows = await conn.fetch(
                f"SELECT {_PLAYER} FROM puzzle_players p WHERE{_VISIBLE}"
                " ORDER BY ordinal DESC, user_id LIMIT ?",
                (size,),
            )
            mine = None
            if reader is not None:
                row = await conn.fetchrow(
                    f"SELECT {_PLAYER} FROM puzzle_players p WHERE user_id = ? AND{_VISIBLE}",
                    (reader,),
                )
                if row is not None:
                    me = PuzzlePlayerRow.from_row(row)
                    ahead = await conn.fetchrow(
                        f"SELECT COUNT(*) AS n FROM puzzle_players p WHERE{_VISIBLE}"
                        " AND (ordinal > ? OR (ordinal = ? AND user_id < ?))",
                        (me.ordinal, me.ordinal, me.user_id),
                    )
                    mine = (1 + (0 if ahead is None else int(ahead["n"])), me)
        return [PuzzlePlayerRow.from_row(r) for r in rows], mine

    # --- the attempts ---

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttemptRow | None:
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_ATTEMPT} FROM puzzle_attempts WHERE id = ?", (attempt_id,)
            )
        return None if row is None else PuzzleAttemptRow.from_row(row)

    async def puzzle_attempt_with(
        self, attempt_id: int
    ) -> tuple[PuzzleAttemptRow, PuzzleRow, PuzzlePlayerRow | None] | None:
        """An attempt with its puzzle and its solver's rating row (None: no such attempt), in
        one statement."""
        attempt = ", ".join(f"a.{c} AS a_{c}" for c in _ATTEMPT.split(", "))
        puzzle = ", ".join(f"z.{c} AS z_{c}" for c in _PUZZLE.split(", "))
        player = ", ".join(f"p.{c} AS p_{c}" for c in _PLAYER.split(", "))
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                f"SELECT {attempt}, {puzzle}, {player} FROM puzzle_attempts a"
                " JOIN puzzles z ON z.id = a.puzzle_id"
                " LEFT JOIN puzzle_players p ON p.user_id = a.user_id WHERE a.id = ?",
                (attempt_id,),
            )
        if row is None:
            return None
        solver = _Columns(row, "p", _PLAYER)
        return (
            PuzzleAttemptRow.from_row(_Columns(row, "a", _ATTEMPT)),
            PuzzleRow.from_row(_Columns(row, "z", _PUZZLE)),
            None if solver["user_id"] is None else PuzzlePlayerRow.from_row(solver),
        )

    async def open_puzzle_attempt(self, user_id: int) -> PuzzleAttemptRow | None:
        """A solver's attempt being played (the newest), if any."""
        async with self._reading_one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_ATTEMPT} FROM puzzle_attempts WHERE user_id = ? AND status = 'open'"
                " ORDER BY id DESC LIMIT 1",
                (user_id,),
            )
        return None if row is None else PuzzleAttemptRow.from_row(row)

    async def start_puzzle_attempt(
        self, user_id: int, puzzle_id: int, day: str | None
    ) -> PuzzleAttemptRow:
        """A solver's attempt at a puzzle: the one stored (a puzzle is attempted once, and
        rated once), else a new one, open; any other open attempt of theirs is left unrated
        as it is (it can still be finished from its screen)."""
        async with self._transaction() as conn:
            row = await self._attempt_of(conn, user_id, puzzle_id)
            if row is None:
                now = self._clock()
                await conn.execute(
                    "INSERT INTO puzzle_attempts"
                    " (user_id, puzzle_id, day, actions, status, rated, created_at, updated_at)"
                    " VALUES (?, ?, ?, '[]', 'open', 1, ?, ?)",
                    (user_id, puzzle_id, day, now, now),
                )
                row = await self._attempt_of(conn, user_id, puzzle_id)
        assert row is not None
        return PuzzleAttemptRow.from_row(row)

    async def _attempt_of(
        self, conn: Connection, user_id: int, puzzle_id: int
    ) -> DatabaseRow | None:
        return await conn.fetchrow(
            f"SELECT {_ATTEMPT} FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?",
            (user_id, puzzle_id),
        )

    async def set_puzzle_actions(
        self, attempt_id: int, before: Sequence[str], after: Sequence[str]
    ) -> bool:
        """Change an open attempt's turn from `before` to `after`; False (nothing changed)
        when it is no longer open or its turn is not `before` (an old screen, a replay)."""
        async with self._transaction() as conn:
            changed = await conn.execute(
                "UPDATE puzzle_attempts SET actions = ?, updated_at = ?"
                " WHERE id = ? AND status = 'open' AND actions = ?",
                (json.dumps(list(after)), self._clock(), attempt_id, json.dumps(list(before))),
            )
        return changed == 1

    async def finish_puzzle_attempt(
        self,
        attempt: PuzzleAttemptRow,
        actions: Sequence[str],
        solved: bool,
        loss: float,
        player: PuzzlePlayerRow | None,
        puzzle: tuple[float, float] | None,
    ) -> bool:
        """Close an open attempt with its verdict, in one transaction with the solver's new
        rating and streaks (`player`) and the puzzle's new rating (`puzzle`: mu, sigma), when
        rated; False (nothing changed) when the attempt is no longer open with that turn."""
        now = self._clock()
        async with self._transaction() as conn:
            changed = await conn.execute(
                "UPDATE puzzle_attempts SET actions = ?, status = ?, loss = ?, updated_at = ?"
                " WHERE id = ? AND status = 'open' AND actions = ?",
                (
                    json.dumps(list(actions)),
                    "solved" if solved else "failed",
                    loss,
                    now,
                    attempt.id,
                    json.dumps(list(attempt.actions)),
                ),
            )
            if changed != 1:
                return False
            if player is not None:
                await conn.execute(
                    f"INSERT INTO puzzle_players ({_PLAYER}, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
                    " solved = excluded.solved, failed = excluded.failed,"
                    " streak = excluded.streak, best_streak = excluded.best_streak,"
                    " updated_at = excluded.updated_at",
                    (
                        player.user_id, player.mu, player.sigma, player.ordinal, player.solved,
                        player.failed, player.streak, player.best_streak, now,
                    ),
                )  # fmt: skip
            if puzzle is not None:
                await conn.execute(
                    "UPDATE puzzles SET mu = ?, sigma = ?, attempts = attempts + 1 WHERE id = ?",
                    (puzzle[0], puzzle[1], attempt.puzzle_id),
                )
        return True

    # --- the finished games searched for puzzles ---

    async def next_puzzle_source(self) -> tuple[int, int] | None:
        """The finished game whose search for puzzles is under way (the oldest), else the
        oldest finished game not searched yet (recorded as under way from its first ply), as
        `(game id, next ply)`; None when every finished game was searched."""
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "SELECT game_id, next_ply FROM puzzle_sources WHERE done = 0"
                " ORDER BY game_id LIMIT 1"
            )
            if row is not None:
                return int(row["game_id"]), int(row["next_ply"])
            row = await conn.fetchrow(
                "SELECT id FROM games g WHERE status = 'over' AND NOT EXISTS"
                " (SELECT 1 FROM puzzle_sources s WHERE s.game_id = g.id) ORDER BY id LIMIT 1"
            )
            if row is None:
                return None
            game_id = int(row["id"])
            await conn.execute(
                "INSERT INTO puzzle_sources (game_id, next_ply, done, updated_at)"
                " VALUES (?, 0, 0, ?) ON CONFLICT (game_id) DO NOTHING",
                (game_id, self._clock()),
            )
        return game_id, 0

    async def puzzle_source_progress(self, game_id: int, next_ply: int, done: bool) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE puzzle_sources SET next_ply = ?, done = ?, updated_at = ?"
                " WHERE game_id = ?",
                (next_ply, int(done), self._clock(), game_id),
            )
