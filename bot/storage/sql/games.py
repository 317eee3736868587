"""The SQL of games and seats, and of a play's commit (its actions, snapshot, clock and job)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from bot.storage.errors import ChannelBusy, UnreadableGame, VersionConflict
from bot.storage.interface import Connection
from bot.storage.rows import (
    STATUSES,
    ClockWrite,
    Finish,
    GameOptions,
    GameRow,
    NewAction,
    SeatRow,
    decode_game,
    stored_text,
)
from bot.storage.sql.base import _utcnow
from bot.storage.sql.results import ResultSQL
from engine import ConfigDict

log = logging.getLogger(__name__)

#: The games of a channel: those opened in it, and the one whose thread it is (a game is played
#: in a thread started from its lobby message; its id is stored as the message kind "thread").
IN_CHANNEL = (
    "SELECT id FROM games WHERE channel_id = ?"
    " UNION SELECT game_id FROM messages WHERE kind = 'thread' AND channel_id = ?"
)


class GameSQL(ResultSQL):
    """Games and their seats: create, read, update (a play's whole commit), quarantine."""

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
    ) -> GameRow:
        """Create a lobby with the host in the first seat. Raises `ChannelBusy`."""
        now = self._clock()
        try:
            async with self._transaction() as conn:
                row = await conn.fetchrow(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, options, seed,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, 0, ?, ?)"
                    " RETURNING id",
                    (guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
                )
                assert row is not None
                game_id = row["id"]
                if language != "en":  # (the column's default: a schema before 9 has none)
                    await conn.execute(
                        "UPDATE games SET language = ? WHERE id = ?", (language, game_id)
                    )
                await conn.execute(
                    "INSERT INTO seats (game_id, position, kind, user_id, name)"
                    " VALUES (?, 0, 'human', ?, ?)",
                    (game_id, host_id, host_name),
                )
                (game,) = await self._fetch_games(conn, "id = ?", (game_id,))
        except self.integrity_errors as exc:
            raise ChannelBusy(str(exc)) from exc
        if isinstance(game, UnreadableGame):
            raise game
        return self._keep(game)

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        return await self._read_game("id = ?", (game_id,))

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or in play in this channel, or in this game thread, or None."""
        return await self._read_game(
            f"id IN ({IN_CHANNEL}) AND status IN ('lobby', 'active')", (channel_id, channel_id)
        )

    async def latest_started_game(self, channel_id: int) -> GameRow | None:
        """The most recent game of a channel (or the game of a game thread) that got past its
        lobby, or None."""
        return await self._read_game(
            f"id = (SELECT MAX(id) FROM games WHERE id IN ({IN_CHANNEL}) AND config IS NOT NULL)",
            (channel_id, channel_id),
        )

    async def _read_game(self, where: str, params: Sequence[object]) -> GameRow | None:
        """One game; a damaged one is quarantined before it is raised."""
        games = await self._read_games(where, params, one=True)
        return games[0] if games else None

    async def _read_games(
        self, where: str, params: Sequence[object], *, one: bool = False
    ) -> list[GameRow]:
        """The games matching `where`, oldest first, in two queries (games, then all their
        seats). A damaged one is quarantined; when `one` game was asked for it is raised,
        else the others are still served."""
        async with self._reading() as conn:
            found = await self._fetch_games(conn, where, params)
        return await self._served(found, one=one)

    async def _served(
        self, found: list[GameRow | UnreadableGame], *, one: bool = False
    ) -> list[GameRow]:
        """The games read (`_read_games`), the damaged ones quarantined (and the first raised
        when `one` game was asked for)."""
        unreadable = [g for g in found if isinstance(g, UnreadableGame)]
        for exc in unreadable:
            await self.quarantine(exc.game_id, exc.reason)
        if one and unreadable:
            raise unreadable[0]
        return [g for g in found if isinstance(g, GameRow)]

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """Every game whose status is one of `statuses`, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        return await self._read_games(f"status IN ({marks})", statuses)

    async def games_of_user(self, guild_id: int, user_id: int, status: str) -> list[GameRow]:
        """The games of a server with this status in which the user holds a seat, oldest
        first."""
        return await self._read_games(
            "guild_id = ? AND status = ? AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (guild_id, status, user_id),
        )

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set a game that cannot be loaded aside: marked with its reason (once) and logged."""
        async with self._transaction() as conn:
            added = await conn.execute(
                "INSERT INTO quarantined_games (game_id, reason, at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (game_id, reason, _utcnow()),
            )
        if added:
            log.error("game %d quarantined: %s", game_id, reason, extra={"game_id": game_id})

    async def quarantined(self) -> dict[int, str]:
        """The quarantined games and why each cannot be loaded."""
        async with self._reading() as conn:
            rows = await conn.fetch("SELECT game_id, reason FROM quarantined_games")
        return {row["game_id"]: row["reason"] for row in rows}

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
    ) -> GameRow:
        """Apply one change atomically and bump the game's version.

        `truncate_after` removes the logged actions with a greater ply (an undo) before
        `actions` are appended. `job_outcome` (job id, outcome) records, in the same
        transaction, what a timer job did (a deadline's turn and its pending notice: never one
        without the other). `turn_clock` plans the turn the change leads to, in the same
        transaction too (a turn is never committed without its clock and deadline). `finish`
        records the result of a game that ends (status `over`) and updates the ratings, in the
        same transaction too (`ResultSQL._record_finish`); should that fail (our bug), the game
        still ends, without its result, which the next start records (`unrecorded_games`). A
        person whose seat of a started game passes to the autopilot (their user id gone from
        it) is kept as the seat's leaver: they are rated as the seat finishes.

        Raises `VersionConflict` when the stored version is not `expected_version`.
        """
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        now = self._clock()
        sets: list[str] = ["version = version + 1", "updated_at = ?"]
        params: list[object] = [now]
        for column, value in (
            ("options", None if options is None else json.dumps(options)),
            ("config", None if config is None else json.dumps(config)),
            ("status", status),
            ("host_id", host_id),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        async with self._transaction() as conn:
            await conn.send_changing(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game_id, expected_version),
                1,
                VersionConflict(f"game {game_id} is not at version {expected_version}"),
            )
            if seats is not None:
                if config is None:  # (not the start: seats are reordered then)
                    await self._keep_leavers(conn, game_id, seats)
                await conn.send("DELETE FROM seats WHERE game_id = ?", (game_id,))
                await conn.send_many(
                    "INSERT INTO seats (game_id, position, kind, user_id, name)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(game_id, s.position, s.kind, s.user_id, s.name) for s in seats],
                )
            if truncate_after is not None:
                await conn.send(
                    "DELETE FROM actions WHERE game_id = ? AND ply > ?", (game_id, truncate_after)
                )
            if actions:
                await conn.send_many(
                    "INSERT INTO actions (game_id, ply, notation, seat, user_id, explanation,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_id,
                            a.ply,
                            a.notation,
                            a.seat,
                            a.user_id,
                            stored_text(a.explanation),
                            now,
                        )
                        for a in actions
                    ],
                )
            if actions or truncate_after is not None:
                self._logged(game_id, truncate_after, actions, now)
            if snapshot is not None:
                ply, state = snapshot
                await conn.send(
                    "INSERT INTO snapshots (game_id, ply, state) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, state = excluded.state",
                    (game_id, ply, json.dumps(state)),
                )
            if job_outcome is not None:
                job_id, outcome = job_outcome
                await conn.send(
                    "UPDATE timer_jobs SET outcome = ? WHERE id = ?", (outcome[:1000], job_id)
                )
            if turn_clock is not None:
                await self._write_clock(conn, turn_clock)
            if finish is not None:  # never in the way of the game's end (see below)
                await conn.execute("SAVEPOINT finish")
                try:
                    await self._record_finish(conn, game_id, finish)
                except Exception:
                    await conn.execute("ROLLBACK TO SAVEPOINT finish")
                    log.exception("a game's result not recorded", extra={"game_id": game_id})
                await conn.execute("RELEASE SAVEPOINT finish")
            changed = seats, options, config, status, host_id, finish
            game = await self._game_after_update(
                conn,
                game_id,
                expected_version,
                now,
                reread=any(change is not None for change in changed),
            )
        if isinstance(game, UnreadableGame):
            self._forget(game_id)
            raise game
        return self._keep(game)

    def _logged(
        self, game_id: int, truncate_after: int | None, actions: Sequence[NewAction], at: str
    ) -> None:
        """A write under way cuts a game's log after `truncate_after` (when not None) and
        appends `actions` to it, logged `at`: a driver may keep track (SQLite keeps the live
        games' logs: `SQLiteStorage.actions`)."""

    async def _game_after_update(
        self,
        conn: Connection,
        game_id: int,
        expected_version: int,
        updated_at: str,
        *,
        reread: bool,
    ) -> GameRow | UnreadableGame:
        """A game's row as the write under way leaves it (`update_game`: its version bumped
        from `expected_version`, its `updated_at` changed, and, when `reread`, other columns
        or its seats): read back. A driver that keeps the row it committed last may build
        it."""
        (game,) = await self._fetch_games(conn, "id = ?", (game_id,))
        return game

    async def _keep_leavers(self, conn: Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Keep the person of each seat of a started game that loses its user id (`/ps leave`:
        the autopilot plays it from now on), with the name they played under."""
        row = await conn.fetchrow("SELECT config FROM games WHERE id = ?", (game_id,))
        if row is None or row["config"] is None:
            return  # a lobby: its seats come and go
        new = {s.position: s for s in seats}
        left = []
        for old in await conn.fetch(
            "SELECT position, user_id, name FROM seats WHERE game_id = ? AND user_id IS NOT NULL",
            (game_id,),
        ):
            now = new.get(old["position"])
            if now is not None and now.kind == "human" and now.user_id is None:
                left.append((game_id, old["position"], old["user_id"], old["name"]))
        if not left:
            return
        await conn.executemany(
            "INSERT INTO seat_leavers (game_id, position, user_id, name) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, position) DO NOTHING",
            left,
        )

    async def _fetch_games(
        self, conn: Connection, where: str, params: Sequence[object]
    ) -> list[GameRow | UnreadableGame]:
        """The games matching `where` with their seats, in two queries; a row that does not
        read comes back as its `UnreadableGame`."""
        rows = await conn.fetch(f"SELECT * FROM games WHERE {where} ORDER BY id", tuple(params))
        if not rows:
            return []
        seats: dict[int, list[SeatRow]] = {row["id"]: [] for row in rows}
        marks = ", ".join("?" for _ in seats)
        for r in await conn.fetch(
            "SELECT game_id, position, kind, user_id, name FROM seats"
            f" WHERE game_id IN ({marks}) ORDER BY game_id, position",
            tuple(seats),
        ):
            seats[r["game_id"]].append(SeatRow(r["position"], r["kind"], r["user_id"], r["name"]))
        return [decode_game(row, tuple(seats[row["id"]])) for row in rows]
