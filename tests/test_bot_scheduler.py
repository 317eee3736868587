"""The scheduler, its job store and the turn timers (no Discord): claims, wake-ups, catch-up,
turn-tied deadlines, reminders, vacations and leaving, on a manual clock."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path

import pytest

import engine
from bot.config import ConfigError
from bot.services import GameService
from bot.services.clock import FileClock, RealClock, clock_from_env
from bot.services.correspondence import Correspondence
from bot.services.scheduler import MAX_ATTEMPTS, PENDING, RETRY_BACKOFF, Job, JobStore, Scheduler
from bot.services.seats import AUTOPILOT_USER_ID
from bot.services.timers import HOUR, TURN_DM, TURN_DM_AFTER
from tests.bot_helpers import ALICE, BOB, CAROL, T0, ManualClock, started


@pytest.fixture
async def store(any_storage):
    return any_storage


async def add_job(storage, game_id: int, kind: str, due: float, turn: str = "play:1:0"):
    async with storage.transaction() as conn:
        await conn.execute(
            "INSERT INTO timer_jobs (game_id, turn, kind, seat, user_id, due_at)"
            " VALUES (?, ?, ?, 0, NULL, ?)",
            (game_id, turn, kind, due),
        )


async def a_game(storage, channel: int = 5) -> int:
    game = await storage.create_game(
        guild_id=1, channel_id=channel, host_id=ALICE, host_name="a", options={}, seed=1
    )
    return game.id


async def wait_for(clock: ManualClock, predicate, timeout: float = 5.0) -> None:
    """Wait until `predicate()` holds, re-checked whenever `clock.changed` is notified."""

    async def until() -> None:
        async with clock.changed:
            await clock.changed.wait_for(predicate)

    await asyncio.wait_for(until(), timeout)


# --- the job store --------------------------------------------------------------------------


async def test_claims_are_exclusive_even_across_connections(store, open_db) -> None:
    game = await a_game(store)
    for i in range(30):
        await add_job(store, game, f"k{i}", T0 + i)
    other = await open_db()
    a, b = JobStore(store), JobStore(other)
    first, second = await asyncio.gather(a.claim_due(T0 + 100), b.claim_due(T0 + 100))
    ids = [j.id for j in first] + [j.id for j in second]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 30
    assert await a.claim_due(T0 + 100) == []
    assert await a.next_due() is None


async def test_due_order_next_due_and_requeue_of_unfinished_jobs(store, open_db) -> None:
    game = await a_game(store)
    await add_job(store, game, "deadline", T0 + 20)
    await add_job(store, game, "reminder-50", T0 + 10)
    await add_job(store, game, "reminder-90", T0 + 30)
    jobs = JobStore(store)
    assert await jobs.next_due() == T0 + 10
    claimed = await jobs.claim_due(T0 + 25)
    assert [j.kind for j in claimed] == ["reminder-50", "deadline"]
    assert claimed[1].turn == "play:1:0"
    # The process died before recording outcomes: both are handed out again at the next
    # start (the handler sends the reminder only if its turn is still on and its deadline
    # ahead).
    await store.close()
    jobs = JobStore(await open_db())
    assert await jobs.requeue_unfinished() == 2
    again = await jobs.claim_due(T0 + 25)
    assert [j.kind for j in again] == ["reminder-50", "deadline"]
    await jobs.finish(again[0].id, "sent")
    # The deadline played its turn; its notice was pending when the process died.
    await jobs.finish(again[1].id, PENDING + "ended: end")
    await jobs.storage.close()
    jobs = JobStore(await open_db())
    assert await jobs.requeue_unfinished() == 1
    (pending_notice,) = await jobs.claim_due(T0 + 25)
    assert pending_notice.kind == "deadline" and pending_notice.outcome == PENDING + "ended: end"
    await jobs.finish(pending_notice.id, "ended: end")
    assert await jobs.requeue_unfinished() == 0
    assert await jobs.next_due() == T0 + 30


@pytest.mark.postgres
@pytest.mark.parametrize("open_db", ["postgres"], indirect=True)
async def test_a_live_process_keeps_its_claims_when_another_starts(open_db) -> None:
    """Several processes share PostgreSQL: one starting hands out again only the jobs of a
    process that died, never those a live one is firing."""
    first, second, third = await open_db(), await open_db(), await open_db()
    game = await a_game(first)
    for i in range(4):
        await add_job(first, game, f"k{i}", T0 + i)
    a, b = JobStore(first), JobStore(second)
    assert [j.kind for j in await a.claim_due(T0 + 1.5)] == ["k0", "k1"]
    assert [j.kind for j in await b.claim_due(T0 + 10)] == ["k2", "k3"]
    assert await JobStore(third).requeue_unfinished() == 0
    await second.close()  # the second process dies: its two jobs go back, the first's stay
    assert await JobStore(third).requeue_unfinished() == 2
    assert [j.kind for j in await JobStore(third).claim_due(T0 + 10)] == ["k2", "k3"]
    assert {j.kind: j.fired_at for j in await a.jobs()} == {
        "k0": T0 + 1.5,
        "k1": T0 + 1.5,
        "k2": T0 + 10,
        "k3": T0 + 10,
    }


async def test_a_failed_deadline_is_planned_again_with_backoff_up_to_a_cap(store) -> None:
    game = await a_game(store)
    await add_job(store, game, "deadline", T0)
    await add_job(store, game, "reminder-50", T0)
    clock = ManualClock()
    runs: list[tuple[str, float]] = []

    async def handler(job: Job) -> str:
        runs.append((job.kind, clock.now()))
        await clock.notify()
        raise RuntimeError("boom")

    scheduler = Scheduler(JobStore(store), clock, handler)
    scheduler.start()
    try:
        due = T0
        for attempt in range(1, MAX_ATTEMPTS):
            due += RETRY_BACKOFF * 2 ** (attempt - 1)
            await wait_for(clock, lambda due=due: clock.sleeps and clock.sleeps[-1] == due)
            (deadline,) = [j for j in await JobStore(store).jobs() if j.kind == "deadline"]
            assert (deadline.fired_at, deadline.outcome, deadline.attempts) == (None, None, attempt)
            clock.advance(due - clock.now())
        await wait_for(clock, lambda: clock.sleeps and clock.sleeps[-1] is None)
    finally:
        await scheduler.stop()
    # The deadline ran MAX_ATTEMPTS times (1, 2, 4, 8 minutes apart), then kept its error;
    # the failed reminder is not sent again.
    assert [k for k, _ in runs].count("deadline") == MAX_ATTEMPTS
    assert [k for k, _ in runs].count("reminder-50") == 1
    times = [t for k, t in runs if k == "deadline"]
    assert [b - a for a, b in zip(times, times[1:], strict=False)] == [60.0, 120.0, 240.0, 480.0]
    outcomes = {j.kind: j.outcome for j in await JobStore(store).jobs()}
    assert outcomes == {"deadline": "error: RuntimeError", "reminder-50": "error: RuntimeError"}


async def test_a_failed_deadline_that_succeeds_on_retry_plays_once(corr) -> None:
    """The retry is safe: it goes through the turn check like any deadline."""
    service, clock = corr
    game, state = await started(service, turn_timer=1)
    failures = [RuntimeError("Discord was down")]

    async def handler(job: Job) -> str:
        if failures and job.kind == "deadline":
            raise failures.pop()
        outcome = (await service.fire(job)).outcome
        await clock.notify()
        return outcome

    jobs = JobStore(service.games.storage)
    scheduler = Scheduler(jobs, clock, handler)
    clock.advance(HOUR)
    scheduler.start()
    try:
        await wait_for(clock, lambda: clock.sleeps and clock.sleeps[-1] == T0 + HOUR + 60)
        clock.advance(60)  # the retry plays the turn; Bob's turn gets its own jobs (first: its DM)
        await wait_for(
            clock, lambda: clock.sleeps and clock.sleeps[-1] == clock.now() + TURN_DM_AFTER
        )
    finally:
        await scheduler.stop()
    (deadline,) = [
        j
        for j in await jobs.jobs(game.id)
        if j.kind == "deadline" and j.turn.startswith("setup:") and j.seat == 0
    ]
    assert deadline.outcome.startswith("ended: place ") and deadline.attempts == 1
    rows = await service.games.storage.actions(game.id)
    assert [(r.seat, r.user_id) for r in rows] == [(0, AUTOPILOT_USER_ID)]


# --- the scheduler loop -----------------------------------------------------------------------


async def test_fires_each_job_once_sleeping_until_the_next_due_time(store) -> None:
    game = await a_game(store)
    clock = ManualClock()
    fired: list[int] = []

    async def handler(job: Job) -> str:
        fired.append(job.id)
        await clock.notify()
        return "ok"

    jobs = JobStore(store)
    scheduler = Scheduler(jobs, clock, handler)
    await add_job(store, game, "a", T0 + 60)
    scheduler.start()
    try:
        await wait_for(clock, lambda: clock.sleeps == [T0 + 60])  # asleep until the job is due
        assert fired == []
        clock.advance(60)
        await wait_for(clock, lambda: len(fired) == 1)
        await wait_for(clock, lambda: clock.sleeps[-1] is None)  # nothing left: sleeps until poked
        passes = scheduler.passes
        # A new job wakes it through a poke, and it sleeps until that job is due (nothing due:
        # no claim, which would be a write).
        await add_job(store, game, "b", T0 + 3600)
        scheduler.poke()
        await wait_for(clock, lambda: clock.sleeps[-1] == T0 + 3600)
        assert scheduler.passes == passes and len(fired) == 1
        clock.advance(7200)  # past it: fired once, however far time jumped
        await wait_for(clock, lambda: len(fired) == 2)
        await wait_for(clock, lambda: clock.sleeps[-1] is None)
        assert fired == sorted(set(fired))
        assert [j.outcome for j in await jobs.jobs()] == ["ok", "ok"]
    finally:
        await scheduler.stop()


async def test_catches_up_after_downtime_and_survives_a_failing_handler(store) -> None:
    game = await a_game(store)
    for i in range(250):  # more than one batch
        await add_job(store, game, f"k{i}", T0 + i)
    seen: list[int] = []

    async def handler(job: Job) -> str:
        seen.append(job.id)
        if job.kind == "k7":
            raise RuntimeError("boom")
        return "ok"

    clock = ManualClock(T0 + 10_000)  # the bot was down while all of them came due
    scheduler = Scheduler(JobStore(store), clock, handler, batch=100)
    scheduler.start()
    try:
        await wait_for(clock, lambda: clock.sleeps and clock.sleeps[-1] is None)
    finally:
        await scheduler.stop()
    assert sorted(seen) == sorted(set(seen)) and len(seen) == 250
    outcomes = {j.kind: j.outcome for j in await JobStore(store).jobs()}
    assert outcomes["k7"] == "error: RuntimeError" and outcomes["k8"] == "ok"


# --- clocks -----------------------------------------------------------------------------------


async def test_clock_from_env_is_real_unless_a_fake_clock_file_is_named(tmp_path: Path) -> None:
    assert isinstance(clock_from_env({}), RealClock)
    with pytest.raises(ConfigError):
        clock_from_env({"PS_FAKE_CLOCK_FILE": str(tmp_path / "missing")})
    path = tmp_path / "clock"
    path.write_text("1234.5")
    clock = clock_from_env({"PS_FAKE_CLOCK_FILE": str(path)})
    assert isinstance(clock, FileClock) and clock.now() == 1234.5
    path.write_text("2000")
    assert clock.now() == 2000
    wake = asyncio.Event()
    await clock.sleep_until(1999, wake)  # already due: returns at once
    wake.set()
    await clock.sleep_until(None, wake)  # otherwise only a poke wakes it
    real = RealClock(lambda: 100.0)
    await asyncio.wait_for(real.sleep_until(99.0, asyncio.Event()), 1)


# --- turn timers through the service layer ------------------------------------------------------


@pytest.fixture
async def corr(store):
    games = GameService(store, seed_source=lambda: 99)
    clock = ManualClock()
    service = Correspondence(games, clock)
    games.core.after = service.timers
    return service, clock


async def pending(service: Correspondence, game_id: int) -> dict[str, float]:
    """The unfired deadline and reminders of a game (its turn DM apart: `turn_dm`)."""
    jobs = await JobStore(service.games.storage).jobs(game_id)
    return {j.kind: j.due_at for j in jobs if j.fired_at is None and j.kind != TURN_DM}


async def turn_dm(service: Correspondence, game_id: int) -> Job | None:
    """The unfired turn DM job of a game's current turn, if any."""
    jobs = await JobStore(service.games.storage).jobs(game_id)
    return next((j for j in jobs if j.fired_at is None and j.kind == TURN_DM), None)


async def test_a_turn_dm_only_when_the_turn_waited_for_its_player(corr) -> None:
    """Issue 44: a player who asked for DMs gets one for a turn only when it has waited for
    them `TURN_DM_AFTER` seconds (with or without a timer); a turn played at once, or one they
    began playing meanwhile, sends none; nor does a turn of someone who wants no DM, or who
    muted the game."""
    service, clock = corr
    games = service.games
    await service.set_notify(ALICE, True)
    await service.set_notify(BOB, True)
    game, state = await started(service)  # no turn timer
    first = await turn_dm(service, game.id)
    assert first is not None and (first.user_id, first.due_at) == (ALICE, T0 + TURN_DM_AFTER)
    await games.turns.play(game.id, ALICE, "place A1")  # at once
    second = await turn_dm(service, game.id)
    assert second is not None and second.user_id == BOB
    clock.advance(TURN_DM_AFTER)
    assert (await service.fire(first)).outcome == "void"  # her turn is over
    fired = await service.fire(second)  # Bob's turn waited for him
    assert (fired.outcome, fired.dm_to, fired.deadline) == ("sent", BOB, None)
    for user, space in ((BOB, "G1"), (ALICE, "D7"), (BOB, "G4")):
        result = await games.turns.play(game.id, user, f"place {space}")
    state = result.state
    assert state.phase == "play"
    player = game.seats[state.current_seat].user_id
    job = await turn_dm(service, game.id)
    assert job is not None and job.user_id == player
    some = next(str(a) for a in engine.legal_actions(state) if str(a) != "end")
    await games.turns.play(game.id, player, some)  # begun, not finished
    clock.advance(TURN_DM_AFTER)
    assert (await service.fire(job)).outcome == "acted"
    await games.turns.play(game.id, player, "end")
    other = BOB if player == ALICE else ALICE
    job = await turn_dm(service, game.id)
    assert job is not None and job.user_id == other
    await service.set_follow(7, other, "mute")  # `/ps follow mute`: no DMs for this game
    clock.advance(TURN_DM_AFTER)
    assert (await service.fire(job)).outcome == "off"
    await service.set_follow(7, other, None)
    await service.set_notify(other, False)  # nor when they asked for none
    assert (await service.fire(job)).outcome == "off"


async def test_a_turn_is_timed_in_the_commit_that_starts_it(corr) -> None:
    """Issue 48, defect 6: the process dies right after a play's commit, before its commit
    hooks (an exception no hook guard catches stands for the kill): the turn the play started
    has its clock and jobs all the same, from the commit's time, for any process to fire."""
    service, clock = corr
    game, _ = await started(service, turn_timer=1)
    games = service.games

    class Killed(BaseException):
        pass

    class DieAfterCommit:
        in_commit = service.timers.in_commit
        on_end = service.timers.on_end

        async def on_commit(self, game, state) -> None:
            raise Killed

    games.core.after = DieAfterCommit()
    clock.advance(600)
    with pytest.raises(Killed):
        await games.turns.play(game.id, ALICE, "place A1")
    stored = await games.core.get_game(game.id)
    assert stored.version == game.version + 1
    turn_clock = await service.timers.turn_clock(game.id)
    assert turn_clock is not None
    assert (turn_clock.turn, turn_clock.version, turn_clock.user_id, turn_clock.started_at) == (
        engine.turn_id(await games.core.state(stored)),
        stored.version,
        BOB,
        T0 + 600,
    )
    assert await pending(service, game.id) == {
        "deadline": T0 + 600 + HOUR,
        "reminder-50": T0 + 600 + HOUR / 2,
        "reminder-90": T0 + 600 + 0.9 * HOUR,
    }


async def test_a_turn_gets_its_deadline_and_reminders_and_a_move_keeps_them(corr) -> None:
    service, clock = corr
    game, state = await started(service, turn_timer=24)
    assert await pending(service, game.id) == {
        "deadline": T0 + 24 * HOUR,
        "reminder-50": T0 + 12 * HOUR,
        "reminder-90": T0 + 0.9 * 24 * HOUR,
    }
    clock.advance(HOUR)
    await service.games.turns.play(game.id, ALICE, "place A1")  # the next turn: Bob's placement
    jobs = await pending(service, game.id)
    assert jobs["deadline"] == T0 + 25 * HOUR and len(jobs) == 3
    untimed, _ = await started_elsewhere(service)
    assert await pending(service, untimed.id) == {}


async def started_elsewhere(service: Correspondence):
    games = service.games
    game = await games.lobby.new_lobby(guild_id=1, channel_id=8, host_id=BOB, host_name="bob")
    game = await games.lobby.join(game.id, None, ALICE, "alice")
    result = await games.lobby.start(game.id, None, BOB)
    return result.game, result.state


async def test_a_deadline_ends_the_turn_once_and_a_played_turn_voids_it(corr) -> None:
    service, clock = corr
    game, state = await started(service, turn_timer=1)
    job = next(
        j for j in await JobStore(service.games.storage).jobs(game.id) if j.kind == "deadline"
    )
    clock.advance(HOUR)
    # In setup there is no "end": the autopilot places for the player.
    fired = await service.fire(job)
    assert fired.outcome.startswith("ended: place ")
    rows = await service.games.storage.actions(game.id)
    assert [(r.seat, r.user_id) for r in rows] == [(0, AUTOPILOT_USER_ID)]
    assert (await service.fire(job)).outcome == "void"  # the same deadline again: its turn is over
    assert len(await service.games.storage.actions(game.id)) == 1


async def test_autopilot_plays_a_whole_turn_under_the_rules(corr) -> None:
    service, clock = corr
    game, state = await started(service, turn_timer=1, on_timeout="autopilot")
    for space in ("A1", "G1", "D7", "G4"):
        current = game.seats[state.current_seat].user_id
        result = await service.games.turns.play(game.id, current, f"place {space}")
        game, state = result.game, result.state
    assert state.phase == "play"
    clock.advance(HOUR)
    job = next(
        j
        for j in await JobStore(service.games.storage).claim_due(clock.now())
        if j.kind == "deadline"
    )
    assert job.turn == engine.turn_id(state)
    fired = await service.fire(job)
    assert fired.outcome.startswith("autopilot: ") and fired.outcome.endswith("end")
    # Issue 13, item 4: the turn and its pending notice were one commit (a crash right after
    # the turn can no longer lose the notice).
    (stored,) = [j for j in await JobStore(service.games.storage).jobs(game.id) if j.id == job.id]
    assert stored.outcome == PENDING + fired.outcome
    played = [r for r in await service.games.storage.actions(game.id) if r.ply > 4]
    assert played and all(r.user_id == AUTOPILOT_USER_ID for r in played)
    assert played[-1].notation == "end"


async def test_reminders_are_void_or_moot_when_late(corr) -> None:
    service, clock = corr
    game, state = await started(service, turn_timer=12)
    jobs = {j.kind: j for j in await JobStore(service.games.storage).jobs(game.id)}
    clock.advance(7 * HOUR)
    assert (await service.fire(jobs["reminder-50"])).outcome == "sent"
    clock.advance(6 * HOUR)  # past the deadline (downtime): the late reminder is moot
    assert (await service.fire(jobs["reminder-90"])).outcome == "moot"


async def test_vacation_pauses_and_extends_by_the_time_away(corr) -> None:
    service, clock = corr
    game, state = await started(service, turn_timer=24)
    clock.advance(2 * HOUR)
    assert await service.set_vacation(ALICE, True) == [game.id]
    assert await pending(service, game.id) == {}  # nothing fires while away
    clock.advance(100 * HOUR)
    assert await service.set_vacation(ALICE, False) == [game.id]
    jobs = await pending(service, game.id)
    assert jobs["deadline"] == T0 + 124 * HOUR  # 24 h, plus the 100 h away
    # A turn that starts while its player is away starts paused.
    await service.set_vacation(BOB, True)
    await service.games.turns.play(game.id, ALICE, "place A1")
    assert await pending(service, game.id) == {}
    clock.advance(5 * HOUR)
    await service.set_vacation(BOB, False)
    assert (await pending(service, game.id))["deadline"] == clock.now() + 24 * HOUR


async def test_a_player_who_leaves_is_replaced_by_the_autopilot_at_once(corr) -> None:
    service, clock = corr
    game, state = await started(service)  # no timer
    assert await pending(service, game.id) == {}
    left = await service.leave(7, ALICE)
    assert not left.ended and left.game.seats[0].user_id is None
    assert left.game.seats[0].name == "alice (autopilot)"
    assert await pending(service, game.id) == {"deadline": clock.now()}
    job = (await JobStore(service.games.storage).claim_due(clock.now()))[0]
    assert (await service.fire(job)).outcome.startswith("autopilot: place ")
    assert await pending(service, game.id) == {}  # Bob's turn, no timer
    # Bob leaving too: no person left, the game ends.
    assert (await service.leave(7, BOB)).ended


async def test_settings_vacation_and_leaving_time_the_turn_in_their_own_commit(corr) -> None:
    """Issue 44 (the gap issue 48 left): a new setting, a vacation and a player leaving write
    the turn's clock and jobs in the transaction of the change itself, as a play does; nothing
    is planned after the commit (a planning afterwards that dies stands for a killed process)."""
    service, clock = corr
    games = service.games
    game, _ = await started(service, turn_timer=24)

    class Killed(BaseException):
        pass

    async def die(*args, **kwargs) -> None:
        raise Killed

    service.timers.plan = die  # nothing may be left to plan after a commit

    async def clock_version() -> tuple[int, int]:
        turn_clock = await service.timers.turn_clock(game.id)
        assert turn_clock is not None
        return turn_clock.version, (await games.core.get_game(game.id)).version

    clock.advance(HOUR)
    await service.update_settings(7, ALICE, {"turn_timer": 1})
    assert await pending(service, game.id) == {
        "deadline": clock.now() + HOUR,
        "reminder-50": clock.now() + HOUR / 2,
        "reminder-90": clock.now() + 0.9 * HOUR,
    }
    version, stored = await clock_version()
    assert version == stored
    assert await service.set_vacation(ALICE, True) == [game.id]
    assert await pending(service, game.id) == {}
    assert (await service.timers.turn_clock(game.id)).paused_at == clock.now()
    clock.advance(HOUR)
    assert await service.set_vacation(ALICE, False) == [game.id]
    assert (await pending(service, game.id))["deadline"] == clock.now() + HOUR  # + time away
    left = await service.leave(7, ALICE)
    jobs = await pending(service, game.id)
    assert list(jobs) == ["deadline"] and jobs["deadline"] <= clock.now()  # the autopilot's
    version, stored = await clock_version()
    assert version == stored == left.game.version
    assert (await service.timers.turn_clock(game.id)).user_id is None


async def test_new_timer_restarts_the_turn_clock(corr) -> None:
    service, clock = corr
    game, state = await started(service, turn_timer=72)
    clock.advance(10 * HOUR)
    await service.update_settings(7, ALICE, {"turn_timer": 1, "on_timeout": "autopilot"})
    assert (await pending(service, game.id))["deadline"] == clock.now() + HOUR
    await service.update_settings(7, ALICE, {"turn_timer": 0})
    assert await pending(service, game.id) == {}


async def test_reconcile_plans_turns_a_crash_left_unplanned(store) -> None:
    """A play committed without its planning (the process died in between, or the game predates
    the timers) is planned at the next start; planned games are left alone."""
    games = GameService(store, seed_source=lambda: 5)
    clock = ManualClock()
    service = Correspondence(games, clock)  # no commit hook: nothing is planned while playing
    game, _ = await started(service, turn_timer=1)
    await games.turns.play(game.id, ALICE, "place A1")
    assert await pending(service, game.id) == {}
    clock.advance(HOUR / 4)
    assert await service.timers.reconcile(games) == 1
    turn_clock = await service.timers.turn_clock(game.id)
    assert turn_clock is not None and turn_clock.seat == 1 and turn_clock.started_at == clock.now()
    assert (await pending(service, game.id))["deadline"] == clock.now() + HOUR
    assert await service.timers.reconcile(games) == 0


async def test_ending_a_game_clears_its_timers(corr) -> None:
    """Abandoned games (and expired lobbies) keep no turn clock and no unfired job; vacation
    counts only games still being played; a start-up clears what older versions left."""
    service, clock = corr
    games = service.games
    game, _ = await started(service, turn_timer=24)
    assert await pending(service, game.id) != {}
    await games.endings.abandon(7, ALICE, can_manage=False)
    assert await service.timers.turn_clock(game.id) is None
    assert await pending(service, game.id) == {}
    assert await service.set_vacation(ALICE, True) == []
    await service.set_vacation(ALICE, False)
    # A clock and a job left behind by an abandon before this fix: gone at the next start.
    await add_job(games.storage, game.id, "deadline", T0 + HOUR)
    async with games.storage.transaction() as conn:
        await conn.execute(
            "INSERT INTO turn_clocks (game_id, version, turn, seat, user_id, started_at)"
            " VALUES (?, 1, '[]', 0, ?, ?)",
            (game.id, ALICE, T0),
        )
    assert await service.timers.reconcile(games) == 0
    assert await service.timers.turn_clock(game.id) is None
    assert await pending(service, game.id) == {}
    # An expired lobby: the end hook runs for it too.
    ended: list[int] = []

    class AlsoEnded:
        in_commit = service.timers.in_commit
        on_commit = service.timers.on_commit

        async def on_end(self, row) -> None:
            ended.append(row.id)
            await service.timers.on_end(row)

    games.core.after = AlsoEnded()
    lobby = await games.lobby.new_lobby(guild_id=1, channel_id=9, host_id=BOB, host_name="bob")
    later = datetime.fromisoformat(lobby.updated_at) + timedelta(hours=25)
    assert [g.id for g in await games.endings.expire_lobbies(timedelta(hours=24), now=later)] == [
        lobby.id
    ]
    assert ended == [lobby.id]


async def test_the_host_leaving_passes_host_to_the_next_person(store) -> None:
    games = GameService(store, seed_source=lambda: 3)
    service = Correspondence(games, ManualClock())
    game = await games.lobby.new_lobby(guild_id=1, channel_id=7, host_id=ALICE, host_name="alice")
    for user, name in ((BOB, "bob"), (CAROL, "carol")):
        game = await games.lobby.join(game.id, None, user, name)
    game = await games.lobby.add_cynthia(game.id, None, ALICE)
    await games.lobby.start(game.id, None, ALICE)
    left = await service.leave(7, BOB)  # not the host: nothing passes
    assert left.new_host is None and left.game.host_id == ALICE
    left = await service.leave(7, ALICE)  # the host: the next person seated after her
    assert not left.ended and left.new_host == CAROL and left.game.host_id == CAROL
    settings = await service.update_settings(7, CAROL, {"turn_timer": 12})
    assert settings.options["turn_timer"] == 12
    await games.endings.abandon(7, CAROL, can_manage=False)  # host powers: abandoning too


async def test_finished_jobs_of_ended_games_are_pruned_and_nothing_else(store) -> None:
    # Issue 13 item 12: fired jobs stayed forever, about three rows per timed turn.
    ended, live = await a_game(store, channel=5), await a_game(store, channel=6)
    for game in (ended, live):
        await add_job(store, game, "reminder-50", T0 + 1)
        await add_job(store, game, "deadline", T0 + 2)
        await add_job(store, game, "reminder-90", T0 + 50)  # not due yet
    jobs = JobStore(store)
    claimed = await jobs.claim_due(T0 + 10)
    for job in claimed:
        notice_pending = job.game_id == ended and job.kind == "deadline"
        await jobs.finish(job.id, PENDING + "ended: end" if notice_pending else "sent")
    row = await store.get_game(ended)
    await store.update_game(ended, row.version, status="over")
    assert await jobs.prune_finished() == 1  # the ended game's sent reminder
    left = [(j.game_id, j.kind) for j in await jobs.jobs()]
    assert left == [
        (ended, "deadline"),  # its time-ran-out notice is still to be posted
        (ended, "reminder-90"),
        (live, "reminder-50"),
        (live, "deadline"),
        (live, "reminder-90"),
    ]
    assert await jobs.prune_finished() == 0


async def test_a_polling_scheduler_fires_jobs_another_process_planned(store, open_db) -> None:
    """With several processes (`poll`), a job planned by another one, which cannot poke this
    scheduler, fires at the next poll; the unfinished jobs of a dead process go back too."""
    clock, fired = ManualClock(), []
    game = await a_game(store)

    async def handler(job: Job) -> str:
        fired.append((job.kind, clock.now()))
        await clock.notify()
        return "done"

    scheduler = Scheduler(JobStore(store), clock, handler, poll=30.0)
    scheduler.start()
    try:
        await wait_for(clock, lambda: clock.sleeps == [T0 + 30])  # no job: sleeps one poll
        other = await open_db()
        await add_job(other, game, "deadline", T0 + 5)  # no poke
        clock.advance(30)
        await wait_for(clock, lambda: fired == [("deadline", T0 + 30)])
        await wait_for(clock, lambda: clock.sleeps[-1] == T0 + 60)
    finally:
        await scheduler.stop()
    assert [(j.kind, j.outcome) for j in await JobStore(store).jobs()] == [("deadline", "done")]


def test_a_turn_clock_is_written_in_the_columns_order() -> None:
    """`TurnClock.values` gives the fields `CLOCK_COLUMNS` names, in that order (what storage
    writes, and `TurnClock.from_row` reads back)."""
    from bot.services.timers import TurnClock
    from bot.storage import CLOCK_COLUMNS

    clock = TurnClock(7, 3, "play:1:0:2", 1, 42, 1000.0, None, 12.5)
    assert clock.values() == tuple(getattr(clock, column) for column in CLOCK_COLUMNS)
