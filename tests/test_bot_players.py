"""The players remembered (issue 45), at the service level on SQLite and PostgreSQL: a game's
end records its result and updates the ratings in the same commit (checked against openskill's
own numbers), the rebuild gives the live ratings again, the leaderboard's pages, minimum and
hidden players, the profile and history, the export, and forgetting a person."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import re
import sys
from typing import Any

import pytest
from openskill.models import PlackettLuce

import engine
from bot.ratings import GLOBAL, digest, identity
from bot.ratings.core import ordinal
from bot.services import GameService
from bot.services.base import UserError
from bot.services.export import read_jsonl, write_jsonl
from bot.services.players import (
    HIDDEN_IDENTITY,
    HIDDEN_NAME,
    Hidden,
    LeaderboardPage,
    Profile,
    Record,
)
from bot.storage import FORMER_NAME, Finish, GameRow, SQLiteStorage, SQLStorage
from tests.bot_helpers import finish_game

GUILD, OTHER_GUILD = 7001, 7002
ANN, BOB, CAT = 1_000_000_000_000_001, 1_000_000_000_000_002, 1_000_000_000_000_003


def places(state: engine.GameState) -> list[int]:
    """The finishing places by the rules, worked out here: the higher score first, then the
    most seeds and trees on the board; equal on both is a tie."""
    key = [(s, state.board_count(i)) for i, s in enumerate(engine.scores(state))]
    return [1 + sum(other > mine for other in key) for mine in key]


async def play_three(service: GameService) -> list[GameRow]:
    """Three finished games: Ann, Bob and Cynthia here; Ann and Cat with the moon's animals
    here; Bob and Ann on another server."""
    return [
        await finish_game(service, 11, [(ANN, "Ann"), (BOB, "Bob")], cynthia=True, seed=1),
        await finish_game(
            service, 12, [(ANN, "Ann"), (CAT, "Cat")], options={"moon_animals": True}, seed=2
        ),
        await finish_game(service, 13, [(BOB, "Bob"), (ANN, "Ann")], guild=OTHER_GUILD, seed=3),
    ]


async def test_a_games_end_rates_its_seats_as_openskill_does(any_storage: SQLStorage) -> None:
    """Each game's end updates the ratings of its seats in its server's scope and the global
    one, per rule family, exactly as openskill's Plackett-Luce rates the finishing order."""
    service = GameService(any_storage)
    games = await play_three(service)
    model = PlackettLuce()
    expected: dict[tuple[int, str, str], Any] = {}
    counts: dict[tuple[int, str, str], int] = {}
    for game in games:
        state = await service.core.state(game)
        assert state.is_over and game.status == "over"
        ranks = places(state)
        family = "moonlight" if game.options.get("moon_animals") else "base"
        who = [identity.person(s.user_id) if s.user_id else "cynthia:normal" for s in game.seats]
        for scope in (game.guild_id, GLOBAL):
            keys = [(scope, family, w) for w in who]
            teams = [[expected.get(k) or model.rating()] for k in keys]
            rated = model.rate(teams, ranks=[float(r) for r in ranks])
            for k, (r,) in zip(keys, rated):
                expected[k] = r
                counts[k] = counts.get(k, 0) + 1
    stored = await any_storage.stored_ratings()
    assert {tuple(k): (r.mu, r.sigma, r.games) for k, r in stored.items()} == {
        k: (r.mu, r.sigma, counts[k]) for k, r in expected.items()
    }
    assert len(stored) == 6 + 4 + 2  # the third game adds its server's ratings only
    # The profile says the same, with each game's result.
    profile = await service.players.profile(GUILD, ANN, ANN)
    assert isinstance(profile, Profile)
    assert profile.played == 2
    assert {(r.scope, r.family): r.games for r in profile.ratings} == {
        (GUILD, "base"): 1, (GUILD, "moonlight"): 1, (GLOBAL, "base"): 2, (GLOBAL, "moonlight"): 1,
    }  # fmt: skip
    glob = next(r for r in profile.ratings if (r.scope, r.family) == (GLOBAL, "base"))
    assert glob.mu == expected[(GLOBAL, "base", identity.person(ANN))].mu
    assert [p.game_id for p in glob.history] == [games[0].id, games[2].id]
    assert glob.rank is None  # fewer than 5 games
    moon_state = await service.core.state(games[1])
    assert profile.favourite_animal == engine.moonlight.ANIMALS[moon_state.ext.animal[0]]
    assert [g.game_id for g in profile.recent] == [games[1].id, games[0].id]
    first = await service.core.state(games[0])
    mine = profile.recent[1].mine
    assert (mine.score, mine.place) == (engine.scores(first)[0], places(first)[0])
    assert mine.parts == engine.score_parts(first, 0)
    assert profile.best_score == max(engine.scores(first)[0], engine.scores(moon_state)[0])


async def test_the_rebuild_gives_the_live_ratings_again(any_storage: SQLStorage) -> None:
    """`rebuild` from the stored games gives the ratings and histories the games' ends gave,
    to the last bit; a game finished before results were kept is recorded (replayed) first."""
    service = GameService(any_storage)
    games = await play_three(service)
    live = await any_storage.stored_ratings()
    async with any_storage.reading() as conn:
        history = await conn.fetch(
            "SELECT * FROM rating_history ORDER BY identity, scope, family, games"
        )
        live_history = [tuple(r) for r in history]
    async with any_storage.transaction() as conn:  # as a database from before issue 45 holds
        await conn.execute("DELETE FROM ratings")
        await conn.execute("DELETE FROM rating_history")
        await conn.execute("DELETE FROM seat_results WHERE game_id = ?", (games[0].id,))
        await conn.execute("UPDATE games SET finished_at = NULL WHERE id = ?", (games[0].id,))
    # The game's last change is its end: its finish time, from before the others'.
    done = await service.players.rebuild()
    assert (done.games, done.ratings, done.recorded) == (3, len(live), 1)
    assert done.digest == digest(live)
    assert await any_storage.stored_ratings() == live
    async with any_storage.reading() as conn:
        history = await conn.fetch(
            "SELECT * FROM rating_history ORDER BY identity, scope, family, games"
        )
        rebuilt = [tuple(r) for r in history]
    assert [r[:5] + r[6:] for r in rebuilt] == [r[:5] + r[6:] for r in live_history]
    again = await service.players.rebuild()
    assert (again.digest, again.recorded) == (done.digest, 0)


async def test_a_person_who_left_is_rated_as_their_seat_finished(any_storage: SQLStorage) -> None:
    """Bob leaves and the autopilot finishes his seat: he is rated and his history, profile and
    the export show the game as his, under the name he played with, marked as left."""
    service = GameService(any_storage)
    game = await finish_game(
        service, 21, [(ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")], seed=5, leave=BOB
    )
    assert game.seats[1].user_id is None
    ratings = await any_storage.stored_ratings()
    assert {k.identity for k in ratings} == {identity.person(u) for u in (ANN, BOB, CAT)}
    page = await service.players.history(BOB, GUILD, 0)
    assert not isinstance(page, Hidden)
    assert [g.game_id for g in page.games] == [game.id]
    seat = page.games[0].mine
    assert (seat.user_id, seat.name, seat.left, seat.position) == (BOB, "Bob", True, 1)
    (exported,) = read_jsonl(write_jsonl(await service.players.export(GUILD)))
    state = await service.core.state(game)
    assert [(s.user_id, s.name, s.left) for s in exported.seats] == [
        (ANN, "Ann", False), (BOB, "Bob", True), (CAT, "Cat", False),
    ]  # fmt: skip
    assert [s.place for s in exported.seats] == places(state)
    assert exported.record.state().to_dict() == state.to_dict()


async def _rate(storage: SQLStorage, rows: list[tuple[str, float, int]]) -> None:
    """Ratings as stored (identity, mu, games), in this server's base family."""
    async with storage.transaction() as conn:
        await conn.insert_rows(
            "ratings",
            ("scope", "family", "identity", "mu", "sigma", "games", "ordinal"),
            [(GUILD, "base", who, mu, 1.0, n, mu - 3.0) for who, mu, n in rows],
        )


async def test_the_leaderboard_pages_ranks_and_hides(any_storage: SQLStorage) -> None:
    """Ten a page, best first; only 5 games or more are ranked; a forgotten seat never, a
    hidden person not (nor their own rank); a page past the end shows the last one."""
    service = GameService(any_storage)
    people = [(identity.person(100 + i), 30.0 - i, 5 + i) for i in range(13)]
    await _rate(
        any_storage,
        [
            *people,
            (identity.person(99), 40.0, 4),
            ("former:1:0", 50.0, 9),
            ("cynthia:harder", 29.5, 9),
        ],
    )
    first = await service.players.leaderboard("base", GUILD, 0, 105)
    assert isinstance(first, LeaderboardPage)
    assert (first.total, first.pages, first.page) == (14, 2, 0)
    assert [(e.rank, e.identity) for e in first.entries][:3] == [
        (1, identity.person(100)), (2, "cynthia:harder"), (3, identity.person(101)),
    ]  # fmt: skip
    assert len(first.entries) == 10 and first.entries[1].is_bot
    assert first.reader is not None and (first.reader.rank, first.reader.user_id) == (7, 105)
    last = await service.players.leaderboard("base", GUILD, 5, 99)
    assert last.page == 1 and [e.rank for e in last.entries] == [11, 12, 13, 14]
    assert last.entries[-1].user_id == 112 and last.reader is None  # 4 games: not ranked
    profile = await service.players.profile(GUILD, 105, 105)
    assert [(r.scope, r.rank, r.games) for r in profile.ratings] == [(GUILD, 7, 10)]
    assert (await service.players.profile(GUILD, 99, 99)).ratings[0].rank is None
    await service.players.set_hidden(101, True)
    assert (await service.players.profile(GUILD, 101, 101)).ratings[0].rank is None
    assert (await service.players.profile(GUILD, 102, 102)).ratings[0].rank == 3
    hidden = await service.players.leaderboard("base", GUILD, 0, 101)
    assert hidden.total == 13 and hidden.reader is None
    assert identity.person(101) not in [e.identity for e in hidden.entries]
    assert hidden.entries[2].identity == identity.person(102) and hidden.entries[2].rank == 3
    assert (await service.players.leaderboard("base", GLOBAL, 0, 101)).total == 0
    await service.players.set_hidden(101, False)
    assert (await service.players.leaderboard("base", GUILD, 0, 101)).reader.rank == 3


async def test_a_hidden_profile_is_its_owners_only(any_storage: SQLStorage) -> None:
    service = GameService(any_storage)
    await finish_game(service, 31, [(ANN, "Ann"), (BOB, "Bob")], seed=7)
    await service.players.set_hidden(ANN, True)
    assert await service.players.profile(GUILD, ANN, BOB) == Hidden(ANN)
    assert await service.players.history(ANN, GUILD, 0, BOB) == Hidden(ANN)
    own = await service.players.profile(None, ANN, ANN)
    assert isinstance(own, Profile) and own.hidden and own.played == 1
    assert [r.rank for r in own.ratings] == [None]
    await service.players.set_hidden(ANN, False)
    assert isinstance(await service.players.profile(GUILD, ANN, BOB), Profile)


async def _every_value(storage: SQLStorage) -> dict[str, list[str]]:
    """Every value of every table of the database, as text, by table."""
    async with storage.reading() as conn:
        if storage.dialect == "sqlite":
            names = await conn.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            names = await conn.fetch(
                "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'"
            )
        found = {}
        for row in names:
            rows = await conn.fetch(f'SELECT * FROM "{row["name"]}"')
            found[row["name"]] = [str(value) for r in rows for value in tuple(r)]
    return found


async def _history(storage: SQLStorage) -> list[tuple]:
    """Every rating's history, in key order, without its finish time (written as the game's)."""
    async with storage.reading() as conn:
        rows = await conn.fetch(
            "SELECT * FROM rating_history ORDER BY identity, scope, family, games"
        )
    return [tuple(r)[:5] + tuple(r)[6:] for r in rows]


async def test_forget_me_leaves_no_trace_and_the_games_whole(any_storage: SQLStorage) -> None:
    """After `forget`, no table holds the person's id or name; their seats are a former
    player's (one nameless identity), the games replay to the same end, the others' results and
    ratings stay, and a rebuild gives the same ratings again."""
    service = GameService(any_storage)
    name = "Annabelle Quux"
    games = [
        await finish_game(service, 41, [(ANN, name), (BOB, "Bob")], cynthia=True, seed=8),
        await finish_game(service, 42, [(BOB, "Bob"), (ANN, name)], seed=9, leave=ANN),
    ]
    # A game played click by click (Cynthia's explanations, the log's user ids), its thread.
    lobby = await service.lobby.new_lobby(
        guild_id=GUILD, channel_id=43, host_id=ANN, host_name=name, options={}
    )
    lobby = await service.lobby.add_bot(lobby.id, lobby.version, ANN, "cynthia")
    played = (await service.lobby.start(lobby.id, lobby.version, ANN)).game
    await any_storage.set_message(played.id, "thread", 4300, 4301)
    rnd = random.Random(3)
    state = await service.core.state(played)
    with pytest.raises(UserError):  # not while in a game being played
        await service.players.forget(ANN)
    while not state.is_over:
        result = await service.turns.play(
            played.id, ANN, str(rnd.choice(engine.legal_actions(state)))
        )
        state = result.state
    games.append(result.game)
    await any_storage.set_preferences(ANN, {"board": "phone"})
    await any_storage.set_language("user", ANN, "nl")
    await service.players.set_hidden(ANN, True)
    await any_storage.set_follow_mode(games[0].id, ANN, "mute")
    await any_storage.set_tutorial_progress(ANN, '{"lesson": "light"}')
    before = await _every_value(any_storage)
    assert any(str(ANN) in v for values in before.values() for v in values)
    assert any(name in v for values in before.values() for v in values)
    ends = [(await service.core.state(g)).to_dict() for g in games]
    bob = await service.players.profile(GUILD, BOB, BOB)

    assert await service.players.forget(ANN) == 3
    rated, history = await any_storage.stored_ratings(), await _history(any_storage)
    (nameless,) = {k.identity for k in rated} - {
        identity.person(BOB),
        identity.cynthia({}),
        identity.person(ANN),
    }
    assert nameless.startswith("former:") and str(ANN) not in nameless

    after = await _every_value(any_storage)
    traces = {
        table: [v for v in values if str(ANN) in v or name in v] for table, values in after.items()
    }
    assert {t: v for t, v in traces.items() if v} == {}
    service = GameService(any_storage)  # nothing kept in memory
    for game, end in zip(games, ends):
        stored = await service.core.get_game(game.id)
        assert stored is not None and stored.status == "over"
        assert (await service.core.state(stored)).to_dict() == end
        assert FORMER_NAME in [s.name for s in stored.seats]
    now = await service.players.profile(GUILD, BOB, BOB)
    assert isinstance(now, Profile) and isinstance(bob, Profile)
    assert dataclasses.replace(now, recent=()) == dataclasses.replace(bob, recent=())
    assert [(s.identity, s.name) for s in now.recent[0].seats] == [
        (identity.person(BOB), "Bob"), (nameless, FORMER_NAME),
    ]  # fmt: skip
    # The rebuild rates the former player's seats as one player, as they were rated live.
    assert await service.players.rebuild() and await any_storage.stored_ratings() == rated
    assert await _history(any_storage) == history
    assert (await service.players.profile(GUILD, ANN, ANN)).played == 0
    (first, *_) = await service.players.export(GUILD)
    assert [s.user_id for s in first.seats] == [None, BOB, None]


async def test_an_abandoned_game_is_not_rated(any_storage: SQLStorage) -> None:
    service = GameService(any_storage)
    game = await service.lobby.new_lobby(
        guild_id=GUILD, channel_id=51, host_id=ANN, host_name="Ann", options={}
    )
    game = await service.lobby.join(game.id, game.version, BOB, "Bob")
    await service.lobby.start(game.id, game.version, ANN)
    await service.endings.abandon(51, ANN, False)
    assert await any_storage.stored_ratings() == {}
    assert (await service.players.history(ANN, GUILD, 0)).total == 0
    assert (await service.players.rebuild()).games == 0


async def test_the_tutorials_practice_game_is_not_rated(any_storage: SQLStorage) -> None:
    """The practice game (one revolution, as `/ps learn` starts it) ends, is recorded and is
    in the player's history, and no rating moves, live or rebuilt."""
    service = GameService(any_storage)
    practice = {"revolutions": 1, "easier_no_final_collect": True}
    game = await finish_game(service, 61, [(ANN, "Ann")], cynthia=True, options=practice)
    assert engine.Config.from_dict(game.config or {}).last_round == 6
    assert await any_storage.stored_ratings() == {}
    assert (await service.players.history(ANN, GUILD, 0)).total == 1
    assert await any_storage.rated_results() == []
    assert (await service.players.rebuild()).games == 0
    assert await any_storage.stored_ratings() == {}
    await finish_game(service, 62, [(ANN, "Ann")], cynthia=True, seed=3)  # a real one: rated
    assert [r.game_id for r in await any_storage.rated_results()] == [game.id + 1]


async def test_games_ending_at_once_in_two_processes_rate_as_the_rebuild(open_db) -> None:
    """Two processes (two storages on one database) end games of the same players at once:
    the updates are made one after the other in the order of their finish times, so the
    rebuild gives the same ratings."""
    first, second = GameService(await open_db()), GameService(await open_db())
    people = [(ANN, "Ann"), (BOB, "Bob")]
    await asyncio.gather(
        *(
            finish_game(service, 60 + i, people, seed=10 + i)
            for i, service in enumerate([first, second, first, second, first, second])
        )
    )
    live = await first.storage.stored_ratings()
    assert {k.identity: r.games for k, r in live.items()} == {
        identity.person(ANN): 6, identity.person(BOB): 6,
    }  # fmt: skip
    assert (await second.players.rebuild()).digest == digest(live)
    assert await first.storage.stored_ratings() == live


@pytest.mark.parametrize(
    "dialect", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
async def test_python_m_bot_ratings_rebuild_on_the_configured_database(
    dialect: str, tmp_path, request
) -> None:
    """The command reads the database the bot is configured with (DATABASE_URL, else
    DATABASE_PATH), rebuilds, and prints the digest of the live ratings."""
    if dialect == "sqlite":
        path = str(tmp_path / "games.db")
        storage: SQLStorage = await SQLiteStorage.open(path)
        env = {"DATABASE_PATH": path}
    else:
        from bot.storage.postgres import PostgresStorage
        from tests.pg_server import fresh_database

        url = await fresh_database(request.getfixturevalue("postgres_server"))
        storage = await PostgresStorage.open(url)
        env = {"DATABASE_URL": url}
    try:
        service = GameService(storage)
        await finish_game(service, 71, [(ANN, "Ann"), (BOB, "Bob")], cynthia=True, seed=4)
        await finish_game(service, 72, [(CAT, "Cat"), (ANN, "Ann")], seed=6)
        live = await storage.stored_ratings()
    finally:
        await storage.close()
    done = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.ratings", "rebuild",
        cwd=tmp_path, env={"PATH": os.environ["PATH"], **env},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await done.communicate()
    assert done.returncode == 0, err.decode()
    assert re.fullmatch(
        rf"ratings: rebuilt from 2 games \(0 recorded first\): {len(live)} ratings, digest"
        rf" {digest(live)} \(\d+\.\d s\)\n",
        out.decode(),
    )


async def test_the_history_pages_newest_first(any_storage: SQLStorage, monkeypatch) -> None:
    from bot.services import players

    monkeypatch.setattr(players, "HISTORY_PAGE", 2)
    service = GameService(any_storage)
    games = await play_three(service)
    first = await service.players.history(ANN, None, 0)
    assert not isinstance(first, Hidden)
    assert (first.total, first.pages, first.page) == (3, 2, 0)
    assert [g.game_id for g in first.games] == [games[2].id, games[1].id]
    assert first.games[0].mine.user_id == ANN and first.games[0].position == 1
    last = await service.players.history(ANN, None, 7)
    assert (last.page, [g.game_id for g in last.games]) == (1, [games[0].id])
    here = await service.players.history(ANN, OTHER_GUILD, 0)
    assert [g.game_id for g in here.games] == [games[2].id] and here.pages == 1
    assert (await service.players.history(CAT, OTHER_GUILD, 3)).games == ()


async def test_two_processes_starting_at_once_record_an_old_game_once(open_db) -> None:
    """A game finished before results were kept is recorded once, however many processes
    catch up at their start at the same time."""
    first = GameService(await open_db())
    game = await finish_game(first, 81, [(ANN, "Ann"), (BOB, "Bob")], seed=12)
    async with first.storage.transaction() as conn:  # as a database from before issue 45 holds
        for table in ("ratings", "rating_history", "seat_results"):
            await conn.execute(f"DELETE FROM {table}")
        await conn.execute("UPDATE games SET finished_at = NULL WHERE id = ?", (game.id,))
    second = GameService(await open_db())
    done = await asyncio.gather(first.players.record_missing(), second.players.record_missing())
    assert sorted(done) == [0, 1]
    history = await first.players.history(ANN, None, 0)
    assert [g.finished_at for g in history.games] == [game.updated_at]
    assert await first.players.catch_up() is None  # nothing left to record


async def test_a_result_that_fails_never_stops_the_games_end(any_storage, monkeypatch) -> None:
    """Our bug in recording a result (here: no seat's result) leaves the game ended without
    it, and the next start records it (replayed) and rates it."""
    from bot.services import core

    monkeypatch.setattr(core, "finish_of", lambda state: Finish(()))
    service = GameService(any_storage)
    game = await finish_game(service, 91, [(ANN, "Ann"), (BOB, "Bob")], seed=13)
    assert game.status == "over"
    assert await any_storage.stored_ratings() == {}
    assert [g.id for g in await any_storage.unrecorded_games()] == [game.id]
    monkeypatch.undo()
    rebuilt = await GameService(any_storage).players.catch_up()
    assert rebuilt is not None and (rebuilt.recorded, rebuilt.games) == (1, 1)
    assert {k.identity for k in await any_storage.stored_ratings()} == {
        identity.person(ANN), identity.person(BOB),
    }  # fmt: skip


async def _finish_time(storage: SQLStorage, game_id: int) -> str:
    async with storage.reading() as conn:
        row = await conn.fetchrow("SELECT finished_at FROM games WHERE id = ?", (game_id,))
    assert row is not None
    return str(row["finished_at"])


async def test_a_history_says_what_each_game_did_to_the_rating(any_storage: SQLStorage) -> None:
    """Each game of a history carries the rating shown after it and before it (in the scope
    read: the server's, or all servers'), as the ratings stored say."""
    service = GameService(any_storage)
    games = await play_three(service)
    stored = await any_storage.stored_ratings()

    def shown(scope: int, family: str) -> float:
        r = next(
            r
            for k, r in stored.items()
            if (k.scope, k.family, k.identity) == (scope, family, identity.person(ANN))
        )
        return ordinal(r.mu, r.sigma)

    here = await service.players.history(ANN, GUILD, 0, ANN)
    assert not isinstance(here, Hidden)
    assert [g.game_id for g in here.games] == [games[1].id, games[0].id]
    moon, base = (g.rating for g in here.games)
    assert moon is not None and base is not None
    # each the first game of its rating here: from nothing (0), to what is stored now
    assert (moon.before, moon.after, moon.games) == (None, shown(GUILD, "moonlight"), 1)
    assert (base.before, base.after, base.games) == (None, shown(GUILD, "base"), 1)
    assert base.change == base.after and base.new
    everywhere = await service.players.history(ANN, None, 0, ANN)
    assert not isinstance(everywhere, Hidden)
    latest, _moon, first = (g.rating for g in everywhere.games)
    assert latest is not None and first is not None
    # across servers, the third game is Ann's second base game: it starts where the first ended
    assert (latest.before, latest.after, latest.games) == (first.after, shown(GLOBAL, "base"), 2)
    assert latest.change == pytest.approx(latest.after - first.after, abs=0)


async def test_hidden_players_are_hidden_in_others_histories_and_exports(
    any_storage: SQLStorage,
) -> None:
    service = GameService(any_storage)
    game = await finish_game(service, 51, [(ANN, "Ann"), (BOB, "Bobbelina")], cynthia=True)
    await service.players.set_hidden(BOB, True)
    seen = await service.players.history(ANN, GUILD, 0, ANN)
    assert not isinstance(seen, Hidden)
    assert [(s.identity, s.user_id, s.name) for s in seen.games[0].seats] == [
        (identity.person(ANN), ANN, "Ann"),
        (HIDDEN_IDENTITY, None, HIDDEN_NAME),
        (identity.cynthia({}), None, "Cynthia"),
    ]
    own = await service.players.history(BOB, GUILD, 0, BOB)  # Bob sees himself
    assert not isinstance(own, Hidden) and own.games[0].seats[1].name == "Bobbelina"
    (exported,) = await service.players.export(GUILD, reader_id=ANN)
    assert [(s.user_id, s.name) for s in exported.seats] == [
        (ANN, "Ann"), (None, HIDDEN_NAME), (None, "Cynthia"),
    ]  # fmt: skip
    assert exported.record.players == ("Ann", HIDDEN_NAME, "Cynthia")
    text = write_jsonl([exported])
    assert str(BOB) not in text and "Bobbelina" not in text
    assert read_jsonl(text) == [exported]  # a valid export still
    (his,) = await service.players.export(GUILD, reader_id=BOB)
    assert his.seats[1].user_id == BOB and his.record.players[1] == "Bobbelina"
    # shown again: his name is back in others' views
    await service.players.set_hidden(BOB, False)
    (back,) = await service.players.export(GUILD, reader_id=ANN)
    assert back.seats[1].name == "Bobbelina" and back.game_id == game.id


async def test_the_export_by_dates_and_by_numbers(any_storage: SQLStorage) -> None:
    service = GameService(any_storage)
    games = await play_three(service)
    ends = [await _finish_time(any_storage, g.id) for g in games[:2]]
    here = [g.id for g in games[:2]]
    assert await service.players.export_ids(GUILD) == here
    assert await service.players.export_ids(GUILD, since=ends[1]) == here[1:]
    assert await service.players.export_ids(GUILD, until=ends[1]) == here[:1]
    assert await service.players.export_ids(GUILD, since="9999-01-01") == []
    by_ids = await service.players.export(GUILD, ids=[here[1], games[2].id])  # (another server's)
    assert [g.game_id for g in by_ids] == [here[1]]
    # the stored results are the replayed ones
    for game in await service.players.export(GUILD):
        state = game.record.state()
        assert [s.score for s in game.seats] == engine.scores(state)
        assert [s.place for s in game.seats] == places(state)


async def test_head_to_head_records(any_storage: SQLStorage) -> None:
    """A reader's record against a person, and a person's against Cynthia and the Expert: the
    games shared, each won, lost or tied by the finishing places (against a bot's best seat)."""
    service = GameService(any_storage)
    games = [
        await finish_game(service, 61, [(ANN, "Ann"), (BOB, "Bob")], cynthia=True, seed=1),
        await finish_game(service, 62, [(BOB, "Bob"), (ANN, "Ann")], seed=9),
        await finish_game(service, 63, [(ANN, "Ann")], bots=("expert", "cynthia"), seed=4),
        await finish_game(service, 64, [(ANN, "Ann")], bots=("expert",), seed=5, guild=OTHER_GUILD),
        await finish_game(service, 65, [(CAT, "Cat"), (BOB, "Bob")], seed=6),
    ]
    expected: dict[str, list[int]] = {"bob": [0, 0, 0], "cynthia": [0, 0, 0], "expert": [0, 0, 0]}
    expected_here = {k: list(v) for k, v in expected.items()}
    for game in games:
        where = places(await service.core.state(game))
        mine = [where[s.position] for s in game.seats if s.user_id == ANN]
        if not mine:
            continue
        for key, test in (
            ("bob", lambda s: s.user_id == BOB),
            ("cynthia", lambda s: s.kind == "cynthia"),
            ("expert", lambda s: s.kind.startswith("expert")),
        ):
            theirs = [where[s.position] for s in game.seats if test(s)]
            if theirs:
                outcome = 0 if mine[0] < min(theirs) else 1 if mine[0] > min(theirs) else 2
                expected[key][outcome] += 1
                if game.guild_id == GUILD:
                    expected_here[key][outcome] += 1
    assert sum(expected["expert"]) == 2 and sum(expected_here["expert"]) == 1
    assert sum(expected["bob"]) == 2 and sum(expected["cynthia"]) == 2
    h2h = await service.players.head_to_head(None, BOB, ANN)  # Ann reads Bob's profile
    assert h2h.reader == Record(*expected["bob"])
    mine = await service.players.head_to_head(None, ANN, ANN)  # Ann's own
    assert mine.reader is None
    assert (mine.cynthia, mine.expert) == (
        Record(*expected["cynthia"]),
        Record(*expected["expert"]),
    )
    here = await service.players.head_to_head(GUILD, ANN, ANN)
    assert here.expert == Record(*expected_here["expert"])
    # Bob against Ann is Ann against Bob turned round
    back = await service.players.head_to_head(None, ANN, BOB)
    assert back.reader == Record(h2h.reader.lost, h2h.reader.won, h2h.reader.tied)
    nobody = await service.players.head_to_head(None, CAT, ANN)
    assert nobody.reader == Record() and nobody.cynthia == Record() == nobody.expert


async def test_forget_refuses_before_it_asks_while_a_game_is_not_over(
    any_storage: SQLStorage,
) -> None:
    service = GameService(any_storage)
    await service.players.may_forget(ANN)  # nothing in play: may ask
    lobby = await service.lobby.new_lobby(
        guild_id=GUILD, channel_id=71, host_id=ANN, host_name="Ann", options={}
    )
    with pytest.raises(UserError) as refused:
        await service.players.may_forget(ANN)
    assert str(refused.value.sentence) == (
        "You still have a seat in a game that is not over: finish or leave it, then ask again."
    )
    await service.players.may_forget(BOB)
    await service.lobby.join(lobby.id, lobby.version, BOB, "Bob")
    with pytest.raises(UserError):
        await service.players.may_forget(BOB)
