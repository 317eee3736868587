"""Finished games stored in a bot's database file before the bot starts (the players' tests):
played through the game service (`seed_games`, their ends rated as in the bot), or copied many
times over by SQL (`copy_game`: a large export without playing thousands of games)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import engine
from bot.services import GameService
from bot.storage.databases import open_storage


async def seed_games(
    path: Path,
    guild: str,
    channel: str,
    tables: list[list[dict]],
    clock: Callable[[], str] | None = None,
) -> list[int]:
    """A finished game of each table's people (random legal moves, or `end`) in the bot's
    database file, finished days ago (or, with `clock`, at the times it gives: ISO 8601 UTC, a
    test's fake time); their numbers."""
    storage = await (
        open_storage(None, str(path)) if clock is None else open_storage(None, str(path), clock)
    )
    service = GameService(storage, seed_source=lambda: 5)
    rng = random.Random(45)
    made = []
    try:
        for host, *others in tables:
            game = await service.lobby.new_lobby(
                guild_id=int(guild),
                channel_id=int(channel),
                host_id=int(host["id"]),
                host_name=host["username"],
                options={},
            )
            for user in others:
                game = await service.lobby.join(
                    game.id, game.version, int(user["id"]), user["username"]
                )
            result = await service.lobby.start(game.id, game.version, int(host["id"]))
            state = result.state
            while not state.is_over:
                user_id = result.game.seats[state.current_seat].user_id
                legal = [str(a) for a in engine.legal_actions(state)]
                moves = [a for a in legal if a != "end"]
                ending = "end" in legal and (not moves or rng.random() < 0.8)
                chosen = "end" if ending else rng.choice(moves)
                result = await service.turns.play(game.id, user_id, chosen)
                state = result.state
            made.append(game.id)
    finally:
        await storage.close()
    # They changed last days ago: the bot's start leaves their messages alone (no redraw).
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE games SET updated_at = '2026-01-01T00:00:00.000+00:00'")
    conn.close()
    return made


def copy_game(path: Path, game_id: int, copies: int) -> list[int]:
    """`copies` copies of a finished game (its row, seats, log and results; not its ratings),
    inserted in the database file in one transaction; their numbers, in order."""
    conn = sqlite3.connect(path)
    try:
        with conn:

            def columns(table: str) -> list[str]:
                return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]

            (top,) = conn.execute("SELECT MAX(id) FROM games").fetchone()
            ids = list(range(top + 1, top + 1 + copies))
            kept = [c for c in columns("games") if c != "id"]
            conn.executemany(
                f"INSERT INTO games (id, {', '.join(kept)})"  # noqa: S608 (the schema's names)
                f" SELECT ?, {', '.join(kept)} FROM games WHERE id = ?",
                [(new, game_id) for new in ids],
            )
            for table in ("seats", "actions", "seat_results"):
                rest = [c for c in columns(table) if c != "game_id"]
                rows = conn.execute(
                    f"SELECT {', '.join(rest)} FROM {table} WHERE game_id = ?",  # noqa: S608
                    (game_id,),
                ).fetchall()
                conn.executemany(
                    f"INSERT INTO {table} (game_id, {', '.join(rest)})"  # noqa: S608
                    f" VALUES (?, {', '.join('?' for _ in rest)})",
                    [(new, *row) for new in ids for row in rows],
                )
    finally:
        conn.close()
    return ids
