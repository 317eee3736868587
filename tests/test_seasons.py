"""Seasons (issue 58, part 3), without Discord: the quarters and their keys; each season's ratings
are openskill's from a fresh start at its first game, updated at each game's end and given again
by a rebuild, to the last bit; a season that ended has its final standings stored once (by the
scheduler's chore or lazily by a read, in whichever process comes first); hidden and forgotten
players; the leaderboard and the profile of a season; how the seasons are named."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from openskill.models import PlackettLuce

from bot.present.player_texts import season_date, season_name
from bot.ratings import GLOBAL, GameResult, SeatResult, rate
from bot.ratings import seasons as rs
from bot.services import GameService
from bot.services import players as ps
from bot.services.base import UserError
from bot.services.scheduler import ERROR_BACKOFF, JobStore, Scheduler
from bot.storage import SQLStorage
from tests.bot_helpers import ManualClock
from tests.player_helpers import ANN, BOB, CAT, GUILD, finish_game, places

#: 2026-12-30 12:00 UTC, in the season 2026Q4; the next season starts at NEW_YEAR.
LATE_Q4 = datetime(2026, 12, 30, 12, tzinfo=UTC).timestamp()
NEW_YEAR = datetime(2027, 1, 1, tzinfo=UTC).timestamp()


class Now:
    """The time of a test's storage and services (moved by the test)."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def stamp(self) -> str:
        return datetime.fromtimestamp(self.t, UTC).isoformat(timespec="milliseconds")


# --- the quarters ---------------------------------------------------------------------------


def test_a_season_is_a_calendar_quarter_of_utc_time() -> None:
    assert rs.season_of("2026-03-31T23:59:59.999+00:00") == "2026Q1"
    assert rs.season_of("2026-04-01T00:00:00.000+00:00") == "2026Q2"
    assert rs.season_of("2026-09-30T23:59:59.999+00:00") == "2026Q3"
    assert rs.season_of("2026-10-01T00:00:00.000+00:00") == "2026Q4"
    # a finish written in another offset falls in the UTC quarter (01:30 at +02:00 is 23:30 UTC)
    assert rs.season_of("2027-01-01T01:30:00+02:00") == "2026Q4"
    assert rs.season_at(NEW_YEAR - 0.001) == "2026Q4" and rs.season_at(NEW_YEAR) == "2027Q1"
    assert (
        rs.next_start(LATE_Q4) == NEW_YEAR
        and rs.next_start(NEW_YEAR) == datetime(2027, 4, 1, tzinfo=UTC).timestamp()
    )
    assert rs.following("2026Q4") == "2027Q1" and rs.preceding("2027Q1") == "2026Q4"
    assert rs.following("2026Q2") == "2026Q3" and rs.preceding("2026Q3") == "2026Q2"
    assert rs.start_of("2026Q3") == datetime(2026, 7, 1, tzinfo=UTC)
    assert rs.end_of("2026Q4") == datetime(2027, 1, 1, tzinfo=UTC)
    assert sorted(["2027Q1", "2026Q4", "2026Q1"]) == ["2026Q1", "2026Q4", "2027Q1"]
    assert [rs.is_season(k) for k in ("2026Q4", "2026Q5", "2026Q0", "26Q4", "2026q4")] == [
        True, False, False, False, False,
    ]  # fmt: skip
    with pytest.raises(ValueError, match="not a season"):
        rs.start_of("2026Q5")


def test_a_season_is_named_in_the_readers_language() -> None:
    assert [season_name("2026Q4", lang) for lang in ("en", "fr", "nl", "he")] == [
        "Q4 2026", "T4 2026", "K4 2026", "רבעון 4 2026",
    ]  # fmt: skip
    assert [season_date("2027Q1", lang) for lang in ("en", "fr", "nl", "he")] == [
        "March 31, 2027", "31 mars 2027", "31 maart 2027", "31 במרץ 2027",
    ]  # fmt: skip


def test_each_seasons_ratings_start_fresh_exactly_as_openskill_rates() -> None:
    """Two games in 2026Q4 and one in 2027Q1: the new season rates its game from new ratings,
    the all-time ratings go on; every number is openskill's own."""
    a, b, c = "user:1", "user:2", "user:3"
    games = [
        GameResult(1, "2026-12-30T10:00:00.000+00:00", 5, "base", (SeatResult(a, 1), SeatResult(b, 2))),
        GameResult(2, "2026-12-31T10:00:00.000+00:00", 5, "base",
                   (SeatResult(b, 1), SeatResult(a, 2), SeatResult(c, 2))),
        GameResult(3, "2027-01-01T00:00:00.000+00:00", 5, "base", (SeatResult(a, 2), SeatResult(b, 1))),
    ]  # fmt: skip
    model = PlackettLuce()
    # 2026Q4 by hand: game 1 from new ratings, then game 2 (b first, a and c tied).
    ra, rb = (r for (r,) in model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0]))
    rb, ra, rc = (r for (r,) in model.rate([[rb], [ra], [model.rating()]], ranks=[1.0, 2.0, 2.0]))
    # 2027Q1: from new ratings again (all time, game 3 follows game 2's ratings).
    na, nb = (r for (r,) in model.rate([[model.rating()], [model.rating()]], ranks=[2.0, 1.0]))
    table = rs.rate_seasons(games)
    for scope in (5, GLOBAL):
        assert table[rs.SeasonKey("2026Q4", scope, "base", a)][:2] == (ra.mu, ra.sigma)
        assert table[rs.SeasonKey("2026Q4", scope, "base", b)][:2] == (rb.mu, rb.sigma)
        assert table[rs.SeasonKey("2026Q4", scope, "base", c)][:2] == (rc.mu, rc.sigma)
        assert table[rs.SeasonKey("2027Q1", scope, "base", a)] == (na.mu, na.sigma, 1)
        assert table[rs.SeasonKey("2027Q1", scope, "base", b)] == (nb.mu, nb.sigma, 1)
        assert table[rs.SeasonKey("2026Q4", scope, "base", a)].games == 2
    assert len(table) == 2 * 5
    all_time = rate(games).table
    assert all_time[(GLOBAL, "base", a)].games == 3
    assert all_time[(GLOBAL, "base", a)][:2] != (na.mu, na.sigma)


# --- stored, live and rebuilt ---------------------------------------------------------------


async def season_service(open_db, now: Now) -> GameService:
    storage = await open_db(clock=now.stamp)
    return GameService(storage, clock=now)


async def test_a_games_end_updates_its_seasons_ratings_as_a_rebuild_gives_them(
    open_db, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rs, "RANKED_FROM", 1)  # every rating counted on its board
    now = Now(LATE_Q4)
    service = await season_service(open_db, now)
    storage = service.storage
    first = await finish_game(service, 11, [(ANN, "Ann"), (BOB, "Bob")], seed=1)
    now.t = NEW_YEAR + 60
    second = await finish_game(service, 12, [(BOB, "Bob"), (ANN, "Ann")], seed=2)
    model = PlackettLuce()
    expected = {}
    for game, season in ((first, "2026Q4"), (second, "2027Q1")):
        state = await service.core.state(game)
        ranks = [float(p) for p in places(state)]
        rated = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
        for seat, (r,) in zip(game.seats, rated):
            for scope in (GUILD, GLOBAL):
                expected[rs.SeasonKey(season, scope, "base", f"user:{seat.user_id}")] = (
                    r.mu, r.sigma, 1,
                )  # fmt: skip
    live = await storage.stored_season_ratings()
    assert live == expected
    live_counts = await counts(storage)
    assert live_counts == await recounted(storage) and sum(live_counts.values()) == 8
    # the all-time ratings went on from the first game
    assert (await storage.stored_ratings())[(GLOBAL, "base", f"user:{ANN}")].games == 2
    assert await service.players.rebuild()
    assert await storage.stored_season_ratings() == live
    assert await counts(storage) == live_counts


async def test_a_season_that_ended_is_closed_once_by_whoever_comes_first(
    open_db, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes (two storages on one database) close 2026Q4 at once: its standings are
    stored once. A hidden person is not ranked; a game finished by a process whose clock is
    behind goes to the next season; the old board keeps its ranks; forgetting removes them."""
    monkeypatch.setattr(rs, "RANKED_FROM", 1)
    now = Now(LATE_Q4)
    service = await season_service(open_db, now)
    other = GameService(await open_db(clock=now.stamp), clock=now)
    storage = service.storage
    await finish_game(service, 11, [(ANN, "Ann"), (BOB, "Bob")], seed=1)
    await finish_game(service, 12, [(CAT, "Cat"), (ANN, "Ann")], seed=2)
    await service.players.set_hidden(CAT, True)
    board = await service.players.leaderboard("base", GUILD, 0, ANN, "2026Q4")
    assert not board.ended and board.season == "2026Q4"
    order = [e.identity for e in board.entries]
    assert sorted(order) == sorted([f"user:{ANN}", f"user:{BOB}"])  # Cat is hidden
    assert board.total == 2 and board.reader is not None
    assert board.reader.rank == 1 + order.index(f"user:{ANN}")
    for who in (BOB, CAT):  # Bob's rank, whoever is ahead; hidden Cat has none
        theirs = await service.players.leaderboard("base", GLOBAL, 0, who, "2026Q4")
        rank = None if theirs.reader is None else theirs.reader.rank
        assert rank == (1 + order.index(f"user:{BOB}") if who == BOB else None)
    assert await service.players.close_ended_seasons() == []  # nothing has ended
    now.t = NEW_YEAR
    closed = await asyncio.gather(
        service.players.close_ended_seasons(), other.players.close_ended_seasons()
    )
    assert sorted(closed) == [[], ["2026Q4"]]
    live_counts = await counts(storage)
    assert live_counts == await recounted(storage) and sum(live_counts.values()) == 4  # no Cat
    assert await storage.closed_seasons() == ["2026Q4"]
    assert await storage.close_season("2026Q4") is None  # a third try stores nothing
    async with storage.reading() as conn:
        rows = await conn.fetch(
            "SELECT scope, identity, rank, games FROM season_standings ORDER BY scope, identity"
        )
        closings = await conn.fetch("SELECT season, ranked FROM season_closings")
    assert [(r["season"], r["ranked"]) for r in closings] == [("2026Q4", 4)]
    ranks = {(r["scope"], r["identity"]): (r["rank"], r["games"]) for r in rows}
    assert len(rows) == 6  # three people in two scopes, each stored once
    for scope in (GUILD, GLOBAL):
        assert ranks[(scope, f"user:{CAT}")] == (None, 1)  # hidden at the end: not ranked
        assert [ranks[(scope, who)][0] for who in order] == [1, 2]
        assert ranks[(scope, f"user:{ANN}")][1] == 2
    # The past board: the final standings (its ranks kept when one hides later).
    past = await service.players.leaderboard("base", GUILD, 0, ANN, "2026Q4")
    assert past.ended and [(e.rank, e.identity) for e in past.entries] == [
        (1, order[0]), (2, order[1])
    ]  # fmt: skip
    assert past.reader is not None and past.reader.identity == f"user:{ANN}"
    bob = f"user:{BOB}"
    await service.players.set_hidden(int(order[0][5:]), True)
    kept = await service.players.leaderboard("base", GUILD, 0, ANN, "2026Q4")
    assert [(e.rank, e.identity) for e in kept.entries] == [(2, order[1])] and kept.total == 2
    assert await counts(storage) == await recounted(storage)  # (one hidden: one less counted)
    await service.players.set_hidden(int(order[0][5:]), False)
    await service.players.set_hidden(int(order[0][5:]), False)  # (twice: counted once)
    assert await counts(storage) == await recounted(storage) == live_counts
    # A process whose clock is behind finishes a game after the close: it counts in 2027Q1.
    now.t = LATE_Q4 + 3600
    late = await finish_game(other, 13, [(ANN, "Ann"), (BOB, "Bob")], seed=3)
    async with storage.reading() as conn:
        row = await conn.fetchrow("SELECT finished_at FROM games WHERE id = ?", (late.id,))
    assert row is not None and row["finished_at"] == "2027-01-01T00:00:00.000+00:00"
    now.t = NEW_YEAR + 60
    seasons = {k.season for k in await storage.stored_season_ratings()}
    assert seasons == {"2026Q4", "2027Q1"}
    current = await service.players.leaderboard("base", GUILD, 0, ANN, "2027Q1")
    assert not current.ended and current.total == 2
    # The profile: this season's rating and rank beside the all-time one, and the past season.
    profile = await service.players.profile(GUILD, ANN, ANN)
    assert not isinstance(profile, ps.Hidden)
    assert profile.season == "2027Q1"
    assert [(r.scope, r.games) for r in profile.season_ratings] == [(GUILD, 1), (GLOBAL, 1)]
    assert all(r.rank is not None for r in profile.season_ratings)
    assert [(p.season, p.scope, p.rank) for p in profile.past_seasons] == [
        ("2026Q4", GUILD, ranks[(GUILD, f"user:{ANN}")][0]),
        ("2026Q4", GLOBAL, ranks[(GLOBAL, f"user:{ANN}")][0]),
    ]
    # A season not begun, or no season at all, is refused.
    for season in ("2027Q2", "2027Q5", "soon"):
        with pytest.raises(UserError):
            await service.players.leaderboard("base", GUILD, 0, ANN, season)
    # Forgetting a person removes their season standings and their season ratings' name.
    await service.players.forget(BOB)
    async with storage.reading() as conn:
        left = await conn.fetch(
            "SELECT identity FROM season_standings WHERE identity = ?"
            " UNION ALL SELECT identity FROM season_ratings WHERE identity = ?",
            (bob, bob),
        )
    assert left == []
    assert await counts(storage) == await recounted(storage)


async def counts(storage: SQLStorage) -> dict[tuple, int]:
    """The stored counts of the season boards' buckets (those not 0)."""
    async with storage.reading() as conn:
        rows = await conn.fetch("SELECT season, scope, family, bucket, n FROM season_counts")
    return {(r["season"], r["scope"], r["family"], r["bucket"]): r["n"] for r in rows if r["n"]}


async def recounted(storage: SQLStorage) -> dict[tuple, int]:
    """The same counts made again from the season ratings (as a rebuild makes them)."""
    async with storage.reading() as conn:
        rows = await conn.fetch(
            "SELECT season, scope, family, identity, games, ordinal, bucket FROM season_ratings"
        )
    made: dict[tuple, int] = {}
    for r in rows:
        assert r["bucket"] == rs.bucket(r["ordinal"])
        if (
            r["games"] >= rs.RANKED_FROM
            and not r["identity"].startswith("former:")
            and not (await storage.is_hidden(int(r["identity"][5:])))
        ):
            key = (r["season"], r["scope"], r["family"], r["bucket"])
            made[key] = made.get(key, 0) + 1
    return made


async def test_a_season_that_ended_while_the_bot_was_down_is_closed_by_a_read(open_db) -> None:
    """No chore ran across the boundary: the first profile (or board) read after it stores the
    final standings, once."""
    now = Now(LATE_Q4)
    service = await season_service(open_db, now)
    await finish_game(service, 11, [(ANN, "Ann"), (BOB, "Bob")], seed=1)
    now.t = NEW_YEAR + 86400 * 40
    fresh = GameService(service.storage, clock=now)  # the restarted process
    profile = await fresh.players.profile(GUILD, BOB, BOB)
    assert not isinstance(profile, ps.Hidden)
    assert profile.season == "2027Q1" and profile.season_ratings == ()
    assert [(p.season, p.rank, p.games) for p in profile.past_seasons] == [
        ("2026Q4", None, 1),
        ("2026Q4", None, 1),
    ]  # fmt: skip  (1 game: fewer than a rank needs)
    assert await service.storage.closed_seasons() == ["2026Q4"]
    assert await fresh.players.close_ended_seasons() == []


# --- the scheduler's chore ------------------------------------------------------------------


async def test_the_scheduler_runs_its_chores_at_start_then_when_they_are_due(any_storage) -> None:
    clock = ManualClock(LATE_Q4)
    runs: list[float] = []
    failures = [True]

    async def chore() -> float:
        runs.append(clock.now())
        if failures and len(runs) == 2:
            failures.clear()
            raise RuntimeError("the database went away")
        return rs.next_start(clock.now())

    async def handler(job):  # (no jobs in this test)
        raise AssertionError(job)

    scheduler = Scheduler(JobStore(any_storage), clock, handler, chores=[chore])
    scheduler.start()
    try:
        await wait_until(clock, lambda: clock.sleeps and clock.sleeps[-1] == NEW_YEAR)
        assert runs == [LATE_Q4]
        clock.advance(NEW_YEAR - LATE_Q4)  # the season ends: the chore fails once...
        await wait_until(clock, lambda: clock.sleeps[-1] == NEW_YEAR + ERROR_BACKOFF)
        assert runs == [LATE_Q4, NEW_YEAR]
        clock.advance(ERROR_BACKOFF)  # ...and runs again after the back-off
        after = rs.next_start(NEW_YEAR)
        await wait_until(clock, lambda: clock.sleeps[-1] == after)
        assert runs == [LATE_Q4, NEW_YEAR, NEW_YEAR + ERROR_BACKOFF]
    finally:
        await scheduler.stop()


async def wait_until(clock: ManualClock, predicate) -> None:
    async def until() -> None:
        async with clock.changed:
            await clock.changed.wait_for(predicate)

    await asyncio.wait_for(until(), 10)
