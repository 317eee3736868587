"""The daily challenge's service (`bot.services.daily`) on SQLite and PostgreSQL: the days'
games from the deployment's secret, the schedule, an attempt played to its end, its result
kept once and unrated, the leaderboards with the reader's rank (hidden players off), the
streaks, the 24 hours, someone else's game, and `/ps forget`."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

import engine
from bot.ratings import identity
from bot.services import GameService
from bot.services.base import UserError, day_at
from bot.services.daily import (
    EXPANSION_MODES,
    NOT_YOURS,
    date_of,
    day_number,
    round_marks,
    rules_of,
    streaks_of,
)
from bot.storage import DailyRow
from engine.autopilot import autopilot_action

ANN, BOB, CID = 1001, 1002, 1003
GUILD, OTHER_GUILD = 77, 78
NOON = datetime(2026, 11, 28, 12, tzinfo=UTC).timestamp()  # a Saturday
DAY = day_at(NOON)


def service_at(storage, when: list[float]) -> GameService:
    games = GameService(storage)
    games.core.now = lambda: when[0]
    return games


async def play_out(games: GameService, user_id: int) -> DailyRow:
    """Play a person's attempt to its end with the autopilot's choices, one action a call."""
    attempt = await games.daily.open(user_id, "P", GUILD, "en")
    game, state = attempt.game, attempt.state
    while not state.is_over:
        action = str(autopilot_action(state))
        result, row = await games.daily.play(game.id, user_id, action, game.version)
        game, state = result.game, result.state
    return row


def test_the_schedule_and_the_days() -> None:
    assert DAY == 332 and date_of(DAY) == date(2026, 11, 28)
    assert day_number(date(2026, 1, 1)) == 1
    # Wednesdays and Saturdays are Under the Moonlight, the modes in turn; other days base.
    assert rules_of(day_number(date(2026, 11, 27))) == ()  # Friday
    wed, sat = day_number(date(2026, 11, 25)), day_number(date(2026, 11, 28))
    assert rules_of(wed) in EXPANSION_MODES and rules_of(sat) in EXPANSION_MODES
    i = EXPANSION_MODES.index(rules_of(wed))
    assert rules_of(sat) == EXPANSION_MODES[(i + 1) % 3]
    assert rules_of(day_number(date(2026, 1, 3))) == EXPANSION_MODES[0]  # the first Saturday


def test_streaks_count_days_in_a_row_up_to_today() -> None:
    def row(day: int, won: bool) -> DailyRow:
        return DailyRow(day, ANN, 1, None, "", "", 3 if won else -2, won, "+")

    rows = [row(10, True), row(9, True), row(8, False), row(6, True)]
    assert streaks_of(rows, 10) == streaks_of(rows, 11)
    assert (streaks_of(rows, 10).played, streaks_of(rows, 10).won) == (3, 2)
    assert streaks_of(rows, 12).played == 0 and streaks_of(rows, 12).days == 4


async def test_the_days_game_comes_from_the_deployments_secret(open_db) -> None:
    """Every player of one deployment gets the same game; another deployment (another
    secret) another one; the secret is made once and kept."""
    when = [NOON]
    one, again = service_at(await open_db(), when), service_at(await open_db(), when)
    seed, first = await one.daily.seed_of(DAY)
    assert await again.daily.seed_of(DAY) == (seed, first)  # the same database: one secret
    assert (await one.daily.seed_of(DAY + 1))[0] != seed
    ann = await one.daily.open(ANN, "Ann", GUILD, "en")
    bob = await again.daily.open(BOB, "Bob", OTHER_GUILD, "fr")
    assert ann.game.id != bob.game.id and ann.game.seed == bob.game.seed == seed
    assert ann.state.to_dict() == bob.state.to_dict()  # the same setup, Cynthia's included
    assert ann.game.config is not None and ann.game.guild_id is None
    config = engine.Config.from_dict(ann.game.config)
    assert config.seats == (("human", "cynthia") if first else ("cynthia", "human"))
    assert config.moon_animals == ("moon_animals" in rules_of(DAY))
    assert ann.game.options["daily"] == DAY
    # /ps daily again: the same attempt, where it stopped
    assert (await one.daily.open(ANN, "Ann", GUILD, "en")).game.id == ann.game.id


async def test_an_attempt_played_to_its_end_is_scored_once_and_unrated(open_db) -> None:
    when = [NOON]
    games = service_at(await open_db(), when)
    row = await play_out(games, ANN)
    assert row.margin is not None and row.game_id is not None and row.rounds is not None
    assert set(row.rounds) <= set("+=-") and len(row.rounds) == 18
    game = await games.core.get_game(row.game_id)
    assert game is not None and game.status == "over"
    state = await games.core.state(game)
    person = next(s.position for s in game.seats if s.kind == "human")
    scores = engine.scores(state)
    assert row.margin == scores[person] - scores[1 - person]
    notations = [a.notation for a in await games.storage.actions(game.id)]
    assert game.config is not None
    assert round_marks(game.config, game.seed, notations, person) == row.rounds
    # recorded like any game, rated never (no rating for Ann, nor for Cynthia)
    assert await games.storage.stored_ratings() == {}
    assert (await games.players.rebuild()).games == 0
    # kept once: a second finish changes nothing; /ps daily shows the result
    assert not await games.storage.finish_daily(DAY, ANN, 99, True, "+", "x")
    again = await games.daily.open(ANN, "Ann", GUILD, "en")
    assert again.turn is None and again.row.margin == row.margin
    with pytest.raises(UserError) as refused:
        await games.daily.play(game.id, ANN, "end", None)
    assert refused.value.sentence is not None


async def test_the_leaderboards_rank_the_reader_and_leave_out_hidden_players(open_db) -> None:
    storage = await open_db()
    rows = [(ANN, GUILD, 5), (BOB, GUILD, 9), (CID, OTHER_GUILD, 7), (1004, GUILD, 5)]
    for i, (user, guild, margin) in enumerate(rows):
        await storage.claim_daily(DAY, user, guild, "2026-11-28T01:00:00+00:00")
        await storage.set_daily_game(DAY, user, 500 + i)
        await storage.finish_daily(DAY, user, margin, margin > 0, "+", "2026-11-28T02:00:00")
    await storage.claim_daily(DAY, 1005, GUILD, "2026-11-28T01:00:00+00:00")  # not finished
    games = service_at(storage, [NOON])
    board = await games.daily.leaderboard(None, ANN)
    assert [(r.user_id, r.margin) for r in board.rows] == [
        (BOB, 9), (CID, 7), (ANN, 5), (1004, 5),
    ]  # fmt: skip
    assert board.total == 4 and board.mine is not None and board.mine[0] == 3
    here = await games.daily.leaderboard(GUILD, CID)
    assert [r.user_id for r in here.rows] == [BOB, ANN, 1004] and here.mine is None
    await storage.set_hidden(BOB, True)
    board = await games.daily.leaderboard(None, ANN)
    assert [r.user_id for r in board.rows] == [CID, ANN, 1004]
    assert board.total == 3 and board.mine is not None and board.mine[0] == 2
    assert (await games.daily.leaderboard(None, BOB)).mine is None  # hidden: not ranked
    assert (await games.daily.leaderboard(None, 1005)).mine is None  # not finished
    await storage.set_hidden(BOB, False)  # shown again: back on it
    board = await games.daily.leaderboard(None, ANN)
    assert board.total == 4 and board.mine is not None and board.mine[0] == 3
    assert (await games.daily.leaderboard(None, BOB)).mine == (1, board.rows[0])


async def test_someone_elses_game_and_the_24_hours(open_db) -> None:
    when = [NOON]
    games = service_at(await open_db(), when)
    ann = await games.daily.open(ANN, "Ann", GUILD, "en")
    action = str(autopilot_action(ann.state))
    with pytest.raises(UserError) as refused:
        await games.daily.play(ann.game.id, BOB, action, ann.game.version)
    assert refused.value.sentence == NOT_YOURS
    assert (await games.core.get_game(ann.game.id)) == ann.game  # nothing changed
    # the next day it is still Ann's to finish, for the day it started
    when[0] = NOON + 20 * 3600
    resumed = await games.daily.open(ANN, "Ann", GUILD, "en")
    assert resumed.game.id == ann.game.id and resumed.day == DAY
    # 24 hours after its start it is over, unscored; today's challenge starts instead
    when[0] = NOON + 24 * 3600
    today = await games.daily.open(ANN, "Ann", GUILD, "en")
    assert today.day == DAY + 1 and today.game.id != ann.game.id
    gone = await games.core.get_game(ann.game.id)
    assert gone is not None and gone.status == "abandoned"
    row = await games.storage.daily_row(DAY, ANN)
    assert row is not None and row.margin is None


async def test_forget_removes_the_daily_rows_and_ends_the_attempt(open_db) -> None:
    when = [NOON]
    games = service_at(await open_db(), when)
    # yesterday's result (kept as a finished attempt keeps it), today's attempt being played
    await games.storage.claim_daily(DAY - 1, ANN, GUILD, "2026-11-27T10:00:00+00:00")
    assert await games.storage.finish_daily(DAY - 1, ANN, 4, True, "+", "2026-11-27T11:00")
    assert (await games.daily.leaderboard(None, BOB, DAY - 1)).total == 1
    live = await games.daily.open(ANN, "Ann", GUILD, "en")
    await games.players.may_forget(ANN)  # a daily being played holds nothing back
    await games.players.forget(ANN)
    assert await games.storage.daily_rows(ANN, 0) == []
    gone = await games.core.get_game(live.game.id)
    assert gone is not None and gone.status == "abandoned"
    assert all(s.user_id is None for s in gone.seats)
    assert (await games.daily.leaderboard(None, BOB, DAY - 1)).rows == ()
    assert identity.person(ANN) not in {k.identity for k in await games.storage.stored_ratings()}
