"""Storage: schema migrations from the first version, optimistic versions, replay from the log."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

import engine
from bot.services import GameService
from bot.services.correspondence import Correspondence
from bot.services.plays import replay
from bot.storage import (
    SCHEMA_VERSION,
    ChannelBusy,
    DatabaseUrlError,
    NewAction,
    SeatRow,
    SQLiteStorage,
    StorageUnwritable,
    UnreadableGame,
    VersionConflict,
    database_url,
)
from bot.storage.rows import CLOCK_COLUMNS
from tests.bot_helpers import ALICE, ManualClock, started
from tests.bot_helpers import BOB as GUEST

HOST, BOB = 1001, 1002
CHANNEL = 555


@pytest.fixture
async def storage(tmp_path: Path):
    store = await SQLiteStorage.open(str(tmp_path / "games.db"))
    yield store
    await store.close()


async def _new_game(store: SQLiteStorage, channel: int = CHANNEL):
    return await store.create_game(
        guild_id=1, channel_id=channel, host_id=HOST, host_name="host", options={}, seed=42
    )


async def test_fresh_database_is_at_the_current_version_with_wal_and_foreign_keys(
    tmp_path: Path,
) -> None:
    store = await SQLiteStorage.open(str(tmp_path / "fresh.db"))
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        async with store.transaction() as conn:
            assert (await conn.fetchrow("PRAGMA journal_mode"))[0] == "wal"
            assert (await conn.fetchrow("PRAGMA foreign_keys"))[0] == 1
    finally:
        await store.close()


async def test_migrations_step_by_step_from_version_1(tmp_path: Path) -> None:
    path = str(tmp_path / "steps.db")
    for target in range(1, SCHEMA_VERSION + 1):
        store = await SQLiteStorage.open(path, migrate_to=target)
        try:
            assert await store.schema_version() == target
        finally:
            await store.close()
    tables = {
        row[0]
        for row in sqlite3.connect(path).execute(
            "SELECT name FROM sqlite_master WHERE type='table'"
        )
    }
    assert {"games", "seats", "actions", "messages", "user_preferences", "snapshots"} <= tables


async def test_a_version_1_database_with_a_game_migrates_and_replays(tmp_path: Path) -> None:
    """A game stored by the first schema keeps loading: rows survive, new columns default,
    and the state is rebuilt from its log."""
    path = str(tmp_path / "v1.db")
    config = engine.Config(seats=("human", "human")).to_dict()
    moves = ["place A1", "place D7", "place G1", "place A4"]
    store = await SQLiteStorage.open(path, migrate_to=1)
    try:
        game = await _new_game(store)
        game = await store.update_game(
            game.id,
            game.version,
            seats=[SeatRow(0, "human", HOST, "host"), SeatRow(1, "human", BOB, "bob")],
            config=config,
            status="active",
        )
        # The first schema's action log has no explanation column: write it as v1 did.
        async with store.transaction() as conn:
            await conn.executemany(
                "INSERT INTO actions (game_id, ply, notation, seat, user_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, 'then')",
                [(game.id, i + 1, m, i % 2, (HOST, BOB)[i % 2]) for i, m in enumerate(moves)],
            )
        await store.set_message(game.id, "game", CHANNEL, 777)
    finally:
        await store.close()

    store = await SQLiteStorage.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        loaded = await store.get_game(game.id)
        assert loaded is not None and loaded.status == "active" and loaded.config == config
        assert [s.user_id for s in loaded.seats] == [HOST, BOB]
        rows = await store.actions(game.id)
        assert [r.notation for r in rows] == moves
        assert all(r.explanation is None for r in rows)
        assert await store.message(game.id, "game") == (CHANNEL, 777)
        assert await store.snapshot(game.id) is None
        await store.set_preferences(HOST, {"board": "large"})
        assert await store.preferences(HOST) == {"board": "large"}

        state = await GameService(store).core.state(loaded)
        expected = engine.new_game(engine.Config.from_dict(config), 42)
        for move in moves:
            expected = engine.apply(expected, move)
        assert state == expected
        assert state.phase == "play" and state.round == 1
    finally:
        await store.close()


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "newer.db")
    sqlite3.connect(path).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(Exception, match="newer than this bot"):
        await SQLiteStorage.open(path)


async def test_one_live_game_per_channel(any_storage) -> None:
    storage = any_storage
    game = await _new_game(storage)
    with pytest.raises(ChannelBusy):
        await _new_game(storage)
    assert await _new_game(storage, channel=CHANNEL + 1)
    await storage.update_game(game.id, game.version, status="over")
    again = await _new_game(storage)
    assert again.id != game.id and (await storage.live_game(CHANNEL)).id == again.id


async def test_update_checks_the_version_and_changes_nothing_on_conflict(any_storage) -> None:
    storage = any_storage
    game = await _new_game(storage)
    joined = await storage.update_game(
        game.id, game.version, seats=[*game.seats, SeatRow(1, "human", BOB, "bob")]
    )
    assert joined.version == game.version + 1 and len(joined.seats) == 2
    with pytest.raises(VersionConflict):
        await storage.update_game(
            game.id,
            game.version,
            seats=[],
            status="abandoned",
            actions=[NewAction(1, "place A1", 0, HOST)],
        )
    assert await storage.get_game(game.id) == joined
    assert await storage.actions(game.id) == []


async def test_foreign_keys_reject_actions_of_unknown_games(any_storage) -> None:
    with pytest.raises(any_storage.integrity_errors):
        async with any_storage.transaction() as conn:
            await conn.execute(
                "INSERT INTO actions (game_id, ply, notation, seat, created_at)"
                " VALUES (999, 1, 'end', 0, 'now')"
            )


async def test_replay_from_log_matches_play_and_ignores_a_broken_snapshot(any_storage) -> None:
    """The log is the source of truth: a new service (empty cache) rebuilds the same state
    from the snapshot, from the log alone, and from the log when the snapshot is unusable."""
    storage = any_storage
    service = GameService(storage, seed_source=lambda: 7)
    game = await service.lobby.new_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="host", options={}
    )
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    started = await service.lobby.start(game.id, game.version, HOST)
    state = started.state
    while state.phase == "setup":
        seat = started.game.seats[state.current_seat]
        move = str(engine.legal_actions(state)[0])
        result = await service.turns.play(game.id, seat.user_id, move)
        state = result.state
    game = result.game
    rows = await storage.actions(game.id)
    assert len(rows) == 6 and [r.ply for r in rows] == [1, 2, 3, 4, 5, 6]
    assert {r.seat for r in rows if r.user_id is None} == {2}  # Cynthia's, logged with reasons
    assert all(r.explanation for r in rows if r.user_id is None)

    expected = replay(game.config, game.seed, [r.notation for r in rows])
    assert expected == state
    assert await GameService(storage).core.state(game) == state  # from the snapshot

    async with storage.transaction() as conn:
        await conn.execute("DELETE FROM snapshots")
    assert await GameService(storage).core.state(game) == state  # from the log alone

    async with storage.transaction() as conn:
        await conn.execute(
            "INSERT INTO snapshots (game_id, ply, state) VALUES (?, 3, ?)",
            (game.id, json.dumps({"format": 999})),
        )
    assert await GameService(storage).core.state(game) == state  # broken cache: full replay


async def test_a_read_only_database_is_refused_at_open_not_at_the_first_click(
    tmp_path: Path,
) -> None:
    # Issue 13 item 9. The tests run as root, for whom file modes mean nothing, so the
    # database is made read-only the way SQLite sees it: a read-only connection.
    path = tmp_path / "games.db"
    writable = await SQLiteStorage.open(str(path))
    await writable.check_writable(str(path))  # a writable database passes the probe
    await writable.close()
    conn = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    read_only = SQLiteStorage(conn)
    try:
        assert await read_only.schema_version() == SCHEMA_VERSION  # reading works
        with pytest.raises(StorageUnwritable) as refused:
            await read_only.check_writable(str(path))
        assert str(refused.value) == (
            f"database {path} is not writable: attempt to write a readonly database"
        )
        assert await read_only.schema_version() == SCHEMA_VERSION  # the probe left no mark
    finally:
        await read_only.close()


def test_an_unwritable_database_stops_the_bot_with_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import bot.__main__ as entry

    async def refused(settings) -> None:
        raise StorageUnwritable("database /srv/games.db is not writable: readonly")

    monkeypatch.setenv("DISCORD_TOKEN", "x" * 59)
    monkeypatch.setattr(entry, "run", refused)
    monkeypatch.setattr(entry, "configure_logging", lambda *args, **kwargs: None)
    with caplog.at_level("INFO", logger="bot"):
        assert entry.main() == 1
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors == ["cannot start: database /srv/games.db is not writable: readonly"]


async def test_stored_turns_migrate_to_the_engines_turn_ids(tmp_path: Path) -> None:
    """Migration 7: the bot's own turn lists (issue 12) become `engine.turn_id` strings, so a
    pending deadline or clock of a running game still matches its turn after the upgrade."""
    path = str(tmp_path / "v6.db")
    store = await SQLiteStorage.open(path, migrate_to=6)
    try:
        game = await _new_game(store)
        rows = [
            (json.dumps(["setup", 0, 2, 1]), "deadline"),
            (json.dumps(["play", 3, None, 0]), "reminder-50"),
        ]
        async with store.transaction() as conn:
            await conn.executemany(
                "INSERT INTO timer_jobs (game_id, turn, kind, seat, user_id, due_at)"
                " VALUES (?, ?, ?, 0, NULL, 1.0)",
                [(game.id, turn, kind) for turn, kind in rows],
            )
            await conn.execute(
                "INSERT INTO turn_clocks (game_id, version, turn, seat, user_id, started_at)"
                " VALUES (?, 1, ?, 0, NULL, 1.0)",
                (game.id, json.dumps(["play", 12, None, 3])),
            )
    finally:
        await store.close()
    store = await SQLiteStorage.open(path)
    try:
        async with store.reading() as conn:
            jobs = await conn.fetch("SELECT turn FROM timer_jobs ORDER BY id")
            clocks = await conn.fetch("SELECT turn FROM turn_clocks")
        assert [row[0] for row in jobs] == ["setup:2:1", "play:3:0"]
        assert [row[0] for row in clocks] == ["play:12:3"]
    finally:
        await store.close()
    state = engine.new_game(engine.Config(seats=("human", "human")), seed=1)
    assert engine.turn_id(state) == "setup:0:0"  # the format the migration writes


async def test_writes_that_come_together_share_one_commit_and_are_all_durable(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "group.db")
    store = await SQLiteStorage.open(path)
    try:
        games = [await _new_game(store, channel=CHANNEL + i) for i in range(3)]
        before = store.commits
        await asyncio.gather(*(store.set_preferences(HOST + i, {"n": i}) for i in range(10)))
        assert store.commits == before + 1  # ten writes, one COMMIT (one fsync)
        # A write that fails in the group is undone alone: its savepoint is rolled back.
        results = await asyncio.gather(
            store.update_game(games[0].id, games[0].version, status="active"),
            store.update_game(games[1].id, games[1].version + 5, status="active"),
            store.update_game(games[2].id, games[2].version, status="active"),
            return_exceptions=True,
        )
        assert [type(r).__name__ for r in results] == ["GameRow", "VersionConflict", "GameRow"]
        assert store.commits == before + 2
    finally:
        await store.close()
    with sqlite3.connect(path) as other:  # durable: another connection reads every write
        rows = other.execute("SELECT user_id, preferences FROM user_preferences ORDER BY 1")
        assert [(u, json.loads(p)["n"]) for u, p in rows] == [(HOST + i, i) for i in range(10)]
        statuses = other.execute("SELECT status, version FROM games ORDER BY id").fetchall()
        assert statuses == [("active", 1), ("lobby", 0), ("active", 1)]


@pytest.mark.parametrize("joined", [False, True], ids=["alone", "joined"])
async def test_a_statement_sent_without_waiting_that_fails_undoes_its_write(
    storage: SQLiteStorage, joined: bool
) -> None:
    """The statements of a write whose results nothing needs are sent without waiting for
    each: one that fails still fails its write (at the next statement waited for, or at the
    write's end), which is undone alone, in its transaction or joined to another write."""
    games = [await _new_game(storage, channel=CHANNEL + i) for i in range(2)]
    twice = (SeatRow(0, "human", HOST, "h"), SeatRow(1, "human", HOST, "h"))  # (one person)
    writes = [storage.update_game(games[1].id, games[1].version, seats=twice)]
    if joined:
        writes.insert(0, storage.update_game(games[0].id, games[0].version, status="active"))
    results = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(results[-1], sqlite3.IntegrityError)
    assert [type(r).__name__ for r in results[:-1]] == (["GameRow"] if joined else [])
    with pytest.raises(sqlite3.IntegrityError):  # (a foreign key: no such game)
        await storage.set_message(games[1].id + 100, "game", 1, 2)
    storage._games.clear()
    async with storage.reading() as conn:
        seats = await conn.fetch("SELECT game_id, user_id FROM seats ORDER BY game_id")
        messages = await conn.fetch("SELECT game_id FROM messages")
    assert [tuple(row) for row in seats] == [(games[0].id, HOST), (games[1].id, HOST)]
    assert messages == []
    stored = [await storage.get_game(game.id) for game in games]
    assert [(g.status, g.version) for g in stored if g is not None] == [
        ("active" if joined else "lobby", 1 if joined else 0),
        ("lobby", 0),
    ]


@pytest.mark.parametrize("joined", [False, True], ids=["alone", "joined"])
async def test_a_cancelled_write_is_undone_alone_and_the_storage_goes_on(
    storage: SQLiteStorage, joined: bool
) -> None:
    """A write cancelled while its statements run (alone in its transaction, or joined to
    another write waiting for the same COMMIT) leaves nothing behind: the other write is
    committed, and the writes after it too."""
    inside = asyncio.Event()

    async def write(user: int, hang: bool) -> None:
        async with storage.transaction() as conn:
            await conn.execute(
                "INSERT INTO user_preferences (user_id, preferences, updated_at)"
                " VALUES (?, '{}', '2026-01-01')",
                (user,),
            )
            if hang:
                inside.set()
                await asyncio.sleep(30)

    first = asyncio.create_task(write(HOST, False)) if joined else None
    cancelled = asyncio.create_task(write(BOB, True))
    await inside.wait()
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    if first is not None:
        await first
    await storage.set_preferences(HOST + 5, {"n": 1})
    async with storage.reading() as conn:
        rows = await conn.fetch("SELECT user_id FROM user_preferences ORDER BY 1")
    assert [row[0] for row in rows] == ([HOST] if joined else []) + [HOST + 5]


async def test_a_write_returns_once_committed_and_reads_never_wait_for_it(
    storage: SQLiteStorage,
) -> None:
    game = await _new_game(storage)
    release = asyncio.Event()
    commit = storage._finish

    async def slow_commit() -> None:  # a slow disk: COMMIT takes its time
        await asyncio.wait_for(release.wait(), 10)
        await commit()

    storage._finish = slow_commit  # type: ignore[method-assign]
    write = asyncio.create_task(storage.update_game(game.id, game.version, status="active"))
    while not storage._batch:  # the write is made and waits for its COMMIT
        await asyncio.sleep(0)
    await asyncio.sleep(0.05)
    assert not write.done()
    seen = await storage.get_game(game.id)  # served at once, from the last commit
    assert seen is not None and (seen.status, seen.version) == ("lobby", 0)
    release.set()
    stored = await write
    assert (stored.status, stored.version) == ("active", 1)
    seen = await storage.get_game(game.id)
    assert seen is not None and (seen.status, seen.version) == ("active", 1)


async def test_a_play_costs_one_write_transaction_and_reading_the_game_costs_nothing(
    storage: SQLiteStorage,
) -> None:
    """Statements and round trips per action, counted: a play is one transaction of six
    statements, and waits for the writing connection's thread twice: once for its statements
    (BEGIN, its savepoint, the version, the action, the snapshot: sent, and waited for once),
    once for its COMMIT. The game as stored is the row kept, bumped: not read back. What an
    answer reads of a live game (the game by id, its log, its turn clock) is kept as committed
    and costs nothing once read, and so does a channel's live game once found (a channel
    without one costs one statement, its own snapshot: no read transaction around it); a
    write made by other means (migrations, tests) makes the storage forget what it kept."""
    service = GameService(storage, seed_source=lambda: 1234)
    game = await service.lobby.new_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="h"
    )
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    result = await service.lobby.start(game.id, game.version, HOST)
    for user, space in ((HOST, "A1"), (BOB, "G1"), (HOST, "D7"), (BOB, "G4")):
        result = await service.turns.play(game.id, user, f"place {space}")
    log = await storage.actions(game.id)  # (read once: kept from now on)
    assert [a.notation for a in log] == ["place A1", "place G1", "place D7", "place G4"]
    assert await storage.turn_clock(game.id) is None
    statements: list[tuple[str, str]] = []
    await storage._conn.set_trace_callback(lambda sql: statements.append(("write", sql.split()[0])))
    await storage._reader.set_trace_callback(
        lambda sql: statements.append(("read", sql.split()[0]))
    )
    round_trips = storage.round_trips

    result = await service.turns.play(game.id, HOST, "buy seed", result.game.version)
    assert statements == [
        ("write", "BEGIN"),
        ("write", "SAVEPOINT"),  # the write's own (what undoes it alone)
        ("write", "UPDATE"),  # the game's version
        ("write", "INSERT"),  # the action
        ("write", "INSERT"),  # the snapshot
        ("write", "COMMIT"),
    ]
    assert storage.round_trips == round_trips + 2
    statements.clear()
    assert await storage.get_game(game.id) == result.game
    assert (result.game.version, result.game.status) == (
        game.version + 6,
        "active",
    )  # (start, five plays)
    assert [a.notation for a in await storage.actions(game.id, 4)] == ["buy seed"]
    assert await storage.turn_clock(game.id) is None
    assert statements == [] and storage.round_trips == round_trips + 2
    storage._games.clear()
    assert await storage.get_game(game.id) == result.game  # (the row built is the row stored)
    assert await storage.actions(game.id) == [*log, *await storage.actions(game.id, 4)]
    statements.clear()
    assert await storage.live_game(CHANNEL) == result.game
    assert statements == [("read", "SELECT")]  # (not kept: read)
    assert await storage.live_game(CHANNEL) == result.game  # the channel's game, kept
    assert await storage.live_game(CHANNEL + 1) is None  # (none: read each time)
    assert statements == [("read", "SELECT")] * 2

    async with storage.transaction() as conn:
        await conn.execute("UPDATE games SET status = 'abandoned' WHERE id = ?", (game.id,))
    seen = await storage.get_game(game.id)
    assert seen is not None and seen.status == "abandoned"
    assert await storage.live_game(CHANNEL) is None


async def test_a_read_of_one_statement_needs_no_read_transaction(storage: SQLiteStorage) -> None:
    """A read of one statement sees one committed state by itself: no BEGIN and COMMIT around
    it (three round trips to the reading connection's thread would be one); a second statement
    in such a read is refused, as it might see a later state than the first."""
    statements: list[str] = []
    await storage._reader.set_trace_callback(lambda sql: statements.append(sql.split()[0]))
    assert await storage.preferences(HOST) == {}
    assert await storage.turn_clock(1) is None
    assert await storage.languages(HOST, 1) == (None, None)
    assert statements == ["SELECT"] * 3
    async with storage._reading_one() as conn:
        await conn.fetch("SELECT 1")
        with pytest.raises(RuntimeError):
            await conn.fetch("SELECT 2")


async def test_the_settings_of_every_answer_are_kept_and_a_write_of_them_is_read_back(
    storage: SQLiteStorage,
) -> None:
    """A user's preferences and languages, and a live game's follow modes, are read once and
    then served as kept (no statement) until a write of them, which is read back at once; what
    a caller is given is a copy."""
    game = await _new_game(storage)
    statements: list[str] = []
    await storage._reader.set_trace_callback(statements.append)
    for _ in range(2):
        assert await storage.preferences(HOST) == {}
        assert await storage.languages(HOST, 1) == (None, None)
        assert await storage.follow_modes(game.id) == {}
    assert len(statements) == 3
    (await storage.preferences(HOST))["vacation"] = True  # (the caller's copy)
    assert await storage.preferences(HOST) == {}
    await storage.set_preferences(HOST, {"n": 1})
    await storage.set_language("guild", 1, "fr")
    await storage.set_follow_mode(game.id, BOB, "mute")
    assert await storage.preferences(HOST) == {"n": 1}
    assert await storage.languages(HOST, 1) == (None, "fr")
    assert await storage.follow_modes(game.id) == {BOB: "mute"}
    async with storage.transaction() as conn:  # (tests, migrations: anything may change)
        await conn.execute("DELETE FROM user_preferences")
    assert await storage.preferences(HOST) == {}


async def test_a_clock_version_is_not_waited_for_and_commits_with_the_next_write(
    storage: SQLiteStorage,
) -> None:
    """The clock's version mark (a lagging one is planned again at start) returns before its
    COMMIT, so a play's answer waits for one commit, not two; it is committed all the same."""
    game = await _new_game(storage)
    await storage.write_turn_clock((game.id, 1, "play:1:0", 0, HOST, 1.0, None, 0.0), [], "x")
    release = asyncio.Event()
    commit = storage._finish

    async def slow_commit() -> None:
        await asyncio.wait_for(release.wait(), 10)
        await commit()

    storage._finish = slow_commit  # type: ignore[method-assign]
    await asyncio.wait_for(storage.set_turn_clock_version(game.id, 7), 5)  # not waiting
    assert (await storage.turn_clock(game.id))["version"] == 1  # not committed yet
    release.set()
    await storage.set_preferences(HOST, {})  # a write waited for: committed with it, or after
    while storage._batch or storage._commit_planned:
        await asyncio.sleep(0.01)
    assert (await storage.turn_clock(game.id))["version"] == 7


async def _play_out(service: GameService, channel: int):
    """A game of the host against Cynthia, its message ids stored as the bot stores them,
    played to its end (the host's turns ended at once, as a deadline does)."""
    game = await service.lobby.new_lobby(
        guild_id=1, channel_id=channel, host_id=HOST, host_name="h"
    )
    await service.storage.set_message(game.id, "lobby", channel, channel * 10)
    game = await service.lobby.add_cynthia(game.id, None, HOST)
    state = (await service.lobby.start(game.id, None, HOST)).state
    await service.storage.set_message(game.id, "game", channel, channel * 10 + 1)
    while not state.is_over:
        result = await service.bots.play_automatically(
            game.id, engine.turn_id(state), autopilot=False
        )
        assert result is not None
        state = result.state
    await service.storage.set_message(game.id, "result", channel, channel * 10 + 2)
    return result.game


async def test_what_is_kept_serves_the_live_games_not_every_game_ever_played(
    storage: SQLiteStorage,
) -> None:
    """The rows and message ids the storage keeps are those of the live games: a game that
    ends (played out, abandoned, expired) is forgotten once its end is committed, so memory
    does not grow with the games played; a forgotten game reads back as stored."""
    service = GameService(storage, seed_source=lambda: 1234)
    live = await service.lobby.new_lobby(guild_id=1, channel_id=1, host_id=HOST, host_name="h")
    await storage.set_message(live.id, "lobby", 1, 10)
    over = [await _play_out(service, channel) for channel in (2, 3, 4)]
    abandoned = await service.lobby.new_lobby(guild_id=1, channel_id=5, host_id=HOST, host_name="h")
    await storage.set_message(abandoned.id, "lobby", 5, 50)
    abandoned = await service.endings.abandon_game(abandoned.id, HOST, False)
    for game in [*over, abandoned]:
        assert await storage.get_game(game.id) == game
        assert await storage.message(game.id, "lobby") == (game.channel_id, game.channel_id * 10)
    assert [g.status for g in over] == ["over"] * 3 and abandoned.status == "abandoned"
    assert await storage.message(over[0].id, "result") == (2, 22)
    assert set(storage._games) == {live.id}
    assert set(storage._messages) == {live.id} and storage._unsettled == {}
    statements: list[str] = []
    await storage._reader.set_trace_callback(statements.append)
    assert await storage.get_game(live.id) == live  # the live game costs no statement
    assert await storage.message(live.id, "lobby") == (1, 10)
    assert statements == []


async def _kept_and_stored(storage: SQLiteStorage, fresh: SQLiteStorage, game_id: int):
    """What `storage` serves of a game (its row, log and turn clock: kept, for a live game)
    and what a storage that keeps nothing reads of it, the clock's values with their types."""

    async def seen(store: SQLiteStorage):
        clock = await store.turn_clock(game_id)
        values = None if clock is None else [(type(clock[c]), clock[c]) for c in CLOCK_COLUMNS]
        return await store.get_game(game_id), await store.actions(game_id), values

    async with storage._transaction():  # after the writes not waited for (a clock's version)
        pass  # have committed: commits land in order, so this one's wait covers theirs
    kept = await seen(storage)
    fresh._forget_all()
    stored = await seen(fresh)
    fresh._forget_all()
    return kept, stored


async def test_what_is_kept_of_a_live_game_is_what_its_commits_stored(tmp_path: Path) -> None:
    """A live game's row, log and turn clock are kept as each commit writes them, and equal
    what a fresh read finds after each change: plays (the clock of a new turn, the version of
    the same turn's), an undo (the log cut), a vacation (the clock paused), a play whose
    writer is cancelled while its COMMIT is under way (committed all the same: what is kept
    too), the game's end (forgotten)."""
    path = str(tmp_path / "kept.db")
    storage = await SQLiteStorage.open(path)
    fresh = await SQLiteStorage.open(path)
    try:
        games = GameService(storage, seed_source=lambda: 99)
        corr = Correspondence(games, ManualClock())
        games.core.after = corr.timers
        game, state = await started(corr, turn_timer=24)
        checks = 0

        async def same() -> None:
            nonlocal checks
            kept, stored = await _kept_and_stored(storage, fresh, game.id)
            assert kept == stored
            checks += 1

        await same()  # (read once: kept from now on)
        assert game.id in storage._logs and game.id in storage._clocks
        for user, space in ((ALICE, "A1"), (GUEST, "G1"), (ALICE, "D7"), (GUEST, "G4")):
            state = (await games.turns.play(game.id, user, f"place {space}")).state
            await same()
        player = game.seats[state.current_seat].user_id
        assert player is not None
        move = next(str(a) for a in engine.legal_actions(state) if str(a) != "end")
        await games.turns.play(game.id, player, move)  # the same turn: the clock's version
        await same()
        state = (await games.turns.undo(game.id, player)).state  # the log cut
        await same()
        await corr.set_vacation(player, True)  # the turn's clock paused
        await same()
        assert (await storage.turn_clock(game.id))["paused_at"] is not None

        committing, release = asyncio.Event(), asyncio.Event()
        commit = storage._finish

        async def slow_commit() -> None:
            committing.set()
            await asyncio.wait_for(release.wait(), 10)
            await commit()

        storage._finish = slow_commit  # type: ignore[method-assign]
        commits = storage.commits
        play = asyncio.create_task(games.turns.play(game.id, player, "end"))
        await asyncio.wait_for(committing.wait(), 10)  # its statements made, its COMMIT begun
        play.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await play
        while storage.commits == commits:  # (nobody waits for it: it goes on all the same)
            await asyncio.sleep(0.01)
        storage._finish = commit  # type: ignore[method-assign]
        await same()  # the row, log and clock the cancelled play committed
        assert [a.notation for a in await storage.actions(game.id, 4)] == ["end"]

        await games.endings.abandon_game(game.id, ALICE, False)
        assert game.id not in storage._games and game.id not in storage._logs
        assert game.id not in storage._clocks
        await same()
        assert checks == 10
    finally:
        await fresh.close()
        await storage.close()


async def test_a_log_read_while_a_play_commits_is_kept_with_the_play(
    storage: SQLiteStorage,
) -> None:
    """A live game's log read (and kept) after a play's statements were made and before its
    COMMIT holds the log without the play: the play's commit still adds it to what is kept."""
    game = await _new_game(storage)
    game = await storage.update_game(game.id, game.version, status="active")
    storage._logs.clear()  # not kept yet: the next read reads the log and keeps it
    committing, release = asyncio.Event(), asyncio.Event()
    commit = storage._finish

    async def slow_commit() -> None:
        committing.set()
        await asyncio.wait_for(release.wait(), 10)
        await commit()

    storage._finish = slow_commit  # type: ignore[method-assign]
    play = asyncio.create_task(
        storage.update_game(game.id, game.version, actions=[NewAction(1, "buy seed", 0, HOST)])
    )
    await asyncio.wait_for(committing.wait(), 10)
    assert await storage.actions(game.id) == []  # (read before the COMMIT: kept)
    assert storage._logs == {game.id: []}
    release.set()
    await play
    storage._finish = commit  # type: ignore[method-assign]
    assert [a.notation for a in await storage.actions(game.id)] == ["buy seed"]


async def test_a_write_whose_begin_fails_commits_nothing_of_itself(
    storage: SQLiteStorage,
) -> None:
    """A write's BEGIN is sent, not waited for: should it fail, the write's savepoint (sent
    right after it) still holds its statements in a transaction, so that none is committed on
    its own before the write's end finds the error and undoes them."""
    game = await _new_game(storage)

    def no_begin(action: int, arg1: str | None, *_: object) -> int:
        refused = action == sqlite3.SQLITE_TRANSACTION and arg1 == "BEGIN"
        return sqlite3.SQLITE_DENY if refused else sqlite3.SQLITE_OK

    await storage._conn.set_authorizer(no_begin)
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        await storage.update_game(game.id, game.version, status="active")
    await storage._conn.set_authorizer(None)
    storage._forget_all()
    stored = await storage.get_game(game.id)
    assert stored is not None and (stored.status, stored.version) == ("lobby", 0)
    changed = await storage.update_game(game.id, game.version, status="active")
    assert (changed.status, changed.version) == ("active", 1)


async def test_a_row_read_before_a_commit_is_not_kept_after_it(
    storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read that began before a commit and ends after it may hold an older row than the one
    committed: it is served, not kept (a game that ended is not kept live again)."""
    game = await _new_game(storage)
    storage._games.clear()  # not kept: the next read reads the row
    reading, ended = asyncio.Event(), asyncio.Event()
    fetch = SQLiteStorage._fetch_games

    async def slow_fetch(self, conn, where, params):
        found = await fetch(self, conn, where, params)
        if not reading.is_set():
            reading.set()
            await ended.wait()  # the game ends while this read is under way
        return found

    monkeypatch.setattr(SQLiteStorage, "_fetch_games", slow_fetch)
    read = asyncio.create_task(storage.get_game(game.id))
    await reading.wait()
    monkeypatch.setattr(SQLiteStorage, "_fetch_games", fetch)
    await storage.update_game(game.id, game.version, status="abandoned")
    ended.set()
    assert (await read).status == "lobby"  # what it read
    seen = await storage.get_game(game.id)
    assert seen is not None and (seen.status, seen.version) == ("abandoned", 1)
    assert storage._games == {}


# --- both databases -----------------------------------------------------------------------


async def test_migrations_step_by_step_on_either_database(open_db) -> None:
    for target in range(0, SCHEMA_VERSION + 1):
        store = await open_db(migrate_to=target)
        assert await store.schema_version() == target
        await store.close()
    store = await open_db()
    assert await store.schema_version() == SCHEMA_VERSION
    with pytest.raises(ValueError, match="unknown schema version"):
        await store.migrate(SCHEMA_VERSION + 1)


async def test_discord_sized_ids_and_every_kind_of_row_round_trip(any_storage) -> None:
    """Snowflakes need 64 bits; JSON, messages, preferences and actions read back as written."""
    big = 1_234_567_890_123_456_789
    game = await any_storage.create_game(
        guild_id=big, channel_id=big + 1, host_id=big + 2, host_name="h", options={"x": [1]},
        seed=2**40,
    )  # fmt: skip
    assert (game.guild_id, game.channel_id, game.host_id, game.seed) == (
        big, big + 1, big + 2, 2**40,
    )  # fmt: skip
    game = await any_storage.update_game(
        game.id,
        game.version,
        actions=[NewAction(1, "place A1", 0, big + 2), NewAction(2, "pass", 1, None, "why")],
        snapshot=(2, {"state": True}),
    )
    rows = await any_storage.actions(game.id)
    assert [(r.ply, r.notation, r.user_id, r.explanation) for r in rows] == [
        (1, "place A1", big + 2, None),
        (2, "pass", None, "why"),
    ]
    assert [r.ply for r in await any_storage.actions(game.id, after_ply=1)] == [2]
    assert await any_storage.snapshot(game.id) == (2, {"state": True})
    await any_storage.set_message(game.id, "game", big + 1, big + 3)
    await any_storage.set_message(game.id, "game", big + 1, big + 4)
    assert await any_storage.message(game.id, "game") == (big + 1, big + 4)
    assert await any_storage.message(game.id, "lobby") is None
    await any_storage.set_preferences(big, {"notify": True})
    assert await any_storage.preferences(big) == {"notify": True}
    assert await any_storage.preferences(big + 9) == {}


async def test_games_with_status_and_of_a_user_serve_all_but_the_damaged(any_storage) -> None:
    games = [await _new_game(any_storage, channel=CHANNEL + i) for i in range(4)]
    await any_storage.update_game(
        games[1].id, games[1].version, seats=[*games[1].seats, SeatRow(1, "human", BOB, "bob")],
        status="active",
    )  # fmt: skip
    await any_storage.update_game(games[3].id, games[3].version, status="active")
    async with any_storage.transaction() as conn:
        await conn.execute("UPDATE games SET options = 'not json' WHERE id = ?", (games[2].id,))
    assert [g.id for g in await any_storage.games_with_status("lobby")] == [games[0].id]
    assert await any_storage.quarantined() == {
        games[2].id: "its stored row does not read (Expecting value: line 1 column 1 (char 0))"
    }
    active = await any_storage.games_with_status("active")
    assert [(g.id, len(g.seats)) for g in active] == [(games[1].id, 2), (games[3].id, 1)]
    assert [g.id for g in await any_storage.games_of_user(1, BOB, "active")] == [games[1].id]
    assert [g.id for g in await any_storage.games_of_user(1, HOST, "active")] == [
        games[1].id,
        games[3].id,
    ]
    assert await any_storage.games_of_user(2, HOST, "active") == []
    assert await any_storage.games_of_user(1, HOST, "over") == []


async def test_the_game_lock_excludes_a_second_connection(open_db) -> None:
    """Two storages on one database stand for two processes: on PostgreSQL the game lock is
    the database's, so the second waits for the first; on SQLite (one process) it is the
    storage's own asyncio lock."""
    first = await open_db()
    second = await open_db() if first.shared else first
    order: list[str] = []
    entered = asyncio.Event()

    async def second_is_waiting() -> bool:
        if first.shared:  # a lock request of the other connection, not granted yet
            async with first.reading() as conn:
                row = await conn.fetchrow(
                    "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'"
                    " AND NOT granted AND objid = 7"
                )
            return row["n"] == 1
        return first._game_locks._entries[7][1][0] == 2  # holder and waiter

    async def hold() -> None:
        async with first.lock(7):
            order.append("first in")
            entered.set()
            while not await second_is_waiting():
                await asyncio.sleep(0.005)
            order.append("first out")

    async def wait() -> None:
        await entered.wait()
        async with second.lock(7):
            order.append("second in")
        async with second.lock(8):  # another game is not held up
            order.append("other game")

    await asyncio.wait_for(asyncio.gather(hold(), wait()), 30)  # without the lock: times out
    assert order == ["first in", "first out", "second in", "other game"]


def test_database_urls() -> None:
    assert database_url(None, "x.db") == ("sqlite", "x.db")
    assert database_url("", None) == ("sqlite", "./photosynthesis.db")
    assert database_url("sqlite:///data/ps.db") == ("sqlite", "data/ps.db")
    assert database_url("sqlite:////abs/ps.db") == ("sqlite", "/abs/ps.db")
    url = "postgresql://bot@db:5432/ps"
    assert database_url(url, "ignored.db") == ("postgres", url)
    for bad in ("mysql://x", "sqlite:///"):
        with pytest.raises(DatabaseUrlError):
            database_url(bad)


async def _started_game(service: GameService, channel: int):
    """A game of two people started in `channel` (no action played yet)."""
    game = await service.lobby.new_lobby(
        guild_id=1, channel_id=channel, host_id=HOST, host_name="host", options={}
    )
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    return (await service.lobby.start(game.id, game.version, HOST)).game


async def test_a_games_row_that_does_not_read_is_quarantined_and_the_others_served(
    any_storage,
) -> None:
    """Issue 48, items 1 and 9: a time without its zone (what SQLite's `datetime('now')`
    writes), an empty or a garbage time, a negative version, a started game without its seat
    rows (and, on SQLite, which stores anything in an INTEGER column, a seed that is not a
    number) are each a damaged row: quarantined with the reason where the row is read, and
    every other game is still served."""
    damages = {
        "UPDATE games SET updated_at = '2026-11-27 10:00:00' WHERE id = ?": (
            "its stored updated_at is not a time with its time zone ('2026-11-27 10:00:00')"
        ),
        "UPDATE games SET updated_at = '' WHERE id = ?": (
            "its stored updated_at is not a time with its time zone ('')"
        ),
        "UPDATE games SET updated_at = 'yesterday' WHERE id = ?": (
            "its stored updated_at is not a time with its time zone ('yesterday')"
        ),
        "UPDATE games SET version = -1 WHERE id = ?": "its stored version is negative (-1)",
        "DELETE FROM seats WHERE game_id = ?": "its 0 stored seats do not match its 2 players",
    }
    if any_storage.dialect == "sqlite":
        damages["UPDATE games SET seed = 'x' WHERE id = ?"] = (
            "its stored seed is not a whole number ('x')"
        )
    service = GameService(any_storage, seed_source=lambda: 7)
    games = [await _started_game(service, CHANNEL + i) for i in range(len(damages) + 1)]
    healthy, damaged = games[-1], games[:-1]
    async with any_storage.transaction() as conn:
        for sql, game in zip(damages, damaged, strict=True):
            await conn.execute(sql, (game.id,))

    assert [g.id for g in await any_storage.games_with_status("active")] == [healthy.id]
    assert await any_storage.quarantined() == {
        game.id: reason for game, reason in zip(damaged, damages.values(), strict=True)
    }
    for game in damaged:
        with pytest.raises(UnreadableGame) as raised:
            await any_storage.get_game(game.id)
        assert raised.value.game_id == game.id
    assert (await service.core.state(healthy)).phase == "setup"  # still served


async def test_a_snapshot_that_is_not_json_is_dropped_and_rebuilt_from_the_log(
    any_storage, caplog
) -> None:
    """Issue 48, item 5: a snapshot is a cache. One that does not read is dropped (logged this
    once), the state is replayed from the log, and the game's next change stores a fresh one."""
    service = GameService(any_storage, seed_source=lambda: 7)
    game = await _started_game(service, CHANNEL)
    seat = game.seats[0]
    move = str(engine.legal_actions(await service.core.state(game))[0])
    result = await service.turns.play(game.id, seat.user_id, move)
    async with any_storage.transaction() as conn:
        await conn.execute("UPDATE snapshots SET state = 'garbage{' WHERE game_id = ?", (game.id,))

    caplog.set_level("WARNING", logger="bot.services.core")
    for _ in range(2):  # two fresh services (restarts): the bad snapshot is dropped once
        assert await GameService(any_storage).core.state(result.game) == result.state
    assert [r.getMessage() for r in caplog.records if r.name == "bot.services.core"] == [
        "snapshot dropped, replaying the log: not JSON (Expecting value: line 1 column 1 (char 0))"
    ]
    assert await any_storage.snapshot(game.id) is None

    fresh = GameService(any_storage)
    seat = result.game.seats[result.state.current_seat]
    move = str(engine.legal_actions(result.state)[0])
    after = await fresh.turns.play(game.id, seat.user_id, move)
    ply, state = await any_storage.snapshot(game.id)
    assert ply == 2 and engine.GameState.from_dict(state) == after.state
    assert await GameService(any_storage).core.state(after.game) == after.state
    assert await any_storage.quarantined() == {}


async def test_a_learners_tutorial_progress_round_trips_and_is_replaced(any_storage) -> None:
    """`/ps learn`'s progress per learner (a Discord-sized id): None before, then the latest."""
    big = 1_234_567_890_123_456_789
    assert await any_storage.tutorial_progress(big) is None
    await any_storage.set_tutorial_progress(big, '{"lesson": "light"}')
    await any_storage.set_tutorial_progress(big, '{"lesson": "reach"}')
    await any_storage.set_tutorial_progress(big + 1, '{"lesson": "shadows"}')
    assert await any_storage.tutorial_progress(big) == '{"lesson": "reach"}'
    assert await any_storage.tutorial_progress(big + 1) == '{"lesson": "shadows"}'


async def test_a_persons_choice_for_a_game_is_stored_per_user_and_game(any_storage) -> None:
    """Issue 44, `/ps follow`: mute or follow one game, changed and cleared; each game its own,
    Discord-sized ids; the choices go with their game."""
    big = 1_234_567_890_123_456_789
    games = [
        await any_storage.create_game(
            guild_id=1, channel_id=channel, host_id=big, host_name="h", options={}, seed=1
        )
        for channel in (5, 6)
    ]
    first, second = (g.id for g in games)
    assert await any_storage.follow_modes(first) == {}
    await any_storage.set_follow_mode(first, big, "mute")
    await any_storage.set_follow_mode(first, big + 1, "follow")
    await any_storage.set_follow_mode(second, big, "follow")
    assert await any_storage.follow_modes(first) == {big: "mute", big + 1: "follow"}
    await any_storage.set_follow_mode(first, big, "follow")  # changed
    await any_storage.set_follow_mode(first, big + 1, None)  # back to the default
    assert await any_storage.follow_modes(first) == {big: "follow"}
    assert await any_storage.follow_modes(second) == {big: "follow"}
