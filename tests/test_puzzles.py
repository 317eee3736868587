"""Puzzles (issue 58) without Discord: the record format and its schema, the judge, the shipped
set, the service (an attempt played, judged, rated, refused when it is another's or out of
date; the next puzzle near the rating; the day's puzzle; the leaderboard without hidden
players; forgetting), and the background search of finished games (with a stand-in finder).

The fixture puzzles (tests/data/puzzles-fixture.json) are two puzzles of `bench/make_puzzles.py`
(one base game, one expansion); their stored losses hold the empty turn's (End turn at once),
so that judging them needs no search."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import engine
from bot.ratings.puzzles import PuzzleRating, rate_attempt
from bot.services import GameService, refusals
from bot.services.base import UserError
from bot.services.puzzles import (
    PuzzleService,
    Result,
    Screen,
    day_pick,
    finished_game_records,
)
from bot.storage import SQLiteStorage, SQLStorage
from engine.expert import puzzles as ep
from engine.expert.puzzles import Puzzle, load_puzzles
from tests.player_helpers import finish_game

DATA = Path(__file__).parent / "data"
SCHEMA = json.loads((Path(__file__).parents[1] / "docs" / "puzzles.schema.json").read_text())
FIXTURE = load_puzzles((DATA / "puzzles-fixture.json").read_text())
BASE, MOON = FIXTURE
ANA, BEA = 7, 8


def test_the_fixture_and_the_shipped_file_follow_the_schema() -> None:
    for path in (DATA / "puzzles-fixture.json", Path(__file__).parents[1] / "data/puzzles.json"):
        jsonschema.validate(json.loads(path.read_text()), SCHEMA)


def test_the_shipped_puzzles_are_distinct_valid_positions_of_both_rules() -> None:
    shipped = ep.shipped_puzzles()
    keys = [p.key for p in shipped]
    assert len(keys) == len(set(keys)) >= 300
    assert {p.rules for p in shipped} == {"base", "moonlight"}
    for p in shipped[:: max(1, len(shipped) // 25)]:
        state = p.state
        assert ep.is_puzzle_position(state)
        assert ep.position_key(state) == p.key  # the key names what the seat sees
        assert p.gap >= ep.MIN_GAP and p.losses[ep.turn_key(state, p.best)] == 0.0
        assert (p.rules == "moonlight") == (state.ext is not None)


def test_a_record_round_trips_and_an_unknown_format_is_refused() -> None:
    assert Puzzle.from_dict(BASE.to_dict()) == BASE
    data = BASE.to_dict()
    data["format"] = 99
    with pytest.raises(ValueError, match="puzzle format 99"):
        Puzzle.from_dict(data)


def test_the_key_is_what_the_seat_sees() -> None:
    state = BASE.state
    hidden = state.copy()
    hidden.rng = state.rng + 1  # the RNG is hidden: the same position for the solver
    assert ep.position_key(hidden) == ep.position_key(state)
    moved = engine.apply(state, BASE.best[0])
    assert ep.position_key(moved) != ep.position_key(state)


def test_turns_reaching_the_same_position_are_one_turn() -> None:
    state = BASE.state
    legal = [str(a) for a in engine.legal_actions(state)]
    buys = [n for n in legal if n.startswith("buy ")]
    assert len(buys) >= 2
    a, b = buys[:2]
    after_a = engine.apply(state, a)
    if b in [str(x) for x in engine.legal_actions(after_a)]:
        assert ep.turn_key(state, [a, b]) == ep.turn_key(state, [b, a])
    assert ep.turn_key(state, [a]) != ep.turn_key(state, [b])
    assert ep.turn_key(state, [a, "end"]) == ep.turn_key(state, [a])
    with pytest.raises(ValueError, match="not a legal action"):
        ep.turn_key(state, ["grow Z9"])


def test_the_judge_uses_the_stored_losses_and_simulates_any_other_turn() -> None:
    for p in FIXTURE:
        assert p.judge(p.best).right and p.judge(p.best).loss == 0.0
        empty = p.losses[ep.turn_key(p.state, [])]
        assert p.judge([]).loss == empty and not p.judge([]).right
    # a turn no analysis simulated: simulated beside the best turn's stored mean
    state = BASE.state
    known = set(BASE.losses)
    other = next(
        (str(a),)
        for a in engine.legal_actions(state)
        if str(a) != "end" and ep.turn_key(state, [str(a)]) not in known
    )
    draws = ep.draws_for(state, 2, ep.QUICK_BUDGET_S, ep.JUDGE_SEED)
    expected = max(0.0, BASE.best_quick - ep.turn_mean(state, other, draws))
    assert BASE.judge(other).loss == expected
    assert ep.best_on_judge_draws(state, BASE.best, ep.QUICK_BUDGET_S) == pytest.approx(
        BASE.best_quick, abs=1e-4
    )


def test_a_puzzle_needs_two_analyses_agreeing_on_a_best_turn_2_points_clear(monkeypatch) -> None:
    for p in FIXTURE:
        state = p.state
        a1, a2 = (ep.analyse(state, 0.05, seed) for seed in (1, 2))
        assert a1.turns[0].key == a2.turns[0].key == ep.turn_key(state, p.best)
        assert min(a1.gap, a2.gap) >= ep.MIN_GAP  # (these two are puzzles at 0.05 s too)
        assert ep.puzzle_check(state, (1, 2), budget_s=0.05) == [a1, a2]
        for a in (a1, a2):
            assert a.gap == a.turns[0].mean - a.turns[1].mean
            assert [t.mean for t in a.turns] == sorted((t.mean for t in a.turns), reverse=True)
        # a gap below the rule's: no puzzle
        monkeypatch.setattr(ep, "MIN_GAP", min(a1.gap, a2.gap) + 0.01)
        assert ep.puzzle_check(state, (1, 2), budget_s=0.05) is None
        monkeypatch.undo()


def test_an_analysis_dedupes_turns_by_the_position_they_reach() -> None:
    state = BASE.state
    turns = ep.candidate_turns(state, 0.05, 1)
    keys = [ep.turn_key(state, t) for t in turns]
    assert len(keys) == len(set(keys)) == len(turns) >= 2


# --- the service -----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 11, 28, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
async def service(any_storage: SQLStorage):
    store = any_storage
    judged: list[tuple[str, ...]] = []

    async def judge(puzzle: dict[str, Any], answer: Any) -> float:
        judged.append(tuple(answer))
        return 0.25  # within half a point: right

    svc = PuzzleService(store, judge=judge, now=Clock())
    svc.judged = judged  # type: ignore[attr-defined]  # what the stand-in judge was asked
    assert await svc.ensure_shipped(FIXTURE) == 2
    assert await svc.ensure_shipped(FIXTURE) == 0  # once
    return svc


async def rows(svc: PuzzleService, sql: str, params: tuple = ()) -> list[tuple]:
    async with svc.storage._reading() as conn:  # type: ignore[attr-defined]
        return [tuple(r) for r in await conn.fetch(sql, params)]


async def play_turn(svc: PuzzleService, user: int, screen: Screen, turn: tuple[str, ...]):
    shown: Screen | Result = screen
    for ply, notation in enumerate((*turn, "end")):
        assert isinstance(shown, Screen)
        shown = await svc.play(user, screen.attempt.id, ply, notation)
    return shown


async def test_a_puzzle_solved_then_one_failed_rates_both_and_keeps_the_streak(service) -> None:
    first = await service.start(ANA)
    assert isinstance(first, Screen) and first.attempt.actions == ()
    puzzle = first.puzzle
    result = await play_turn(service, ANA, first, puzzle.best)
    assert isinstance(result, Result) and result.solved and result.loss == 0.0 and result.rated
    me, it = rate_attempt(PuzzleRating(), PuzzleRating(), True)
    assert (result.after.mu, result.after.sigma) == (me.mu, me.sigma)
    assert (result.after.solved, result.after.failed, result.after.streak) == (1, 0, 1)
    assert result.before == PuzzleRating().ordinal
    assert await rows(service, "SELECT mu, sigma, attempts FROM puzzles WHERE id = ?",
                      (first.row.id,)) == [(it.mu, it.sigma, 1)]  # fmt: skip
    assert service.judged == []  # the best turn's loss is stored
    # the next puzzle: the other one, near the new rating
    assert result.next is not None and result.next.id != first.row.id
    second = await service.start(ANA)
    assert isinstance(second, Screen) and second.row.id == result.next.id
    failed = await play_turn(service, ANA, second, ())
    assert isinstance(failed, Result) and not failed.solved
    assert failed.loss == second.puzzle.losses[ep.turn_key(second.puzzle.state, [])]
    assert (failed.after.solved, failed.after.failed) == (1, 1)
    assert (failed.after.streak, failed.after.best_streak) == (0, 1)
    assert failed.next is None  # every puzzle tried
    with pytest.raises(UserError) as refused:
        await service.start(ANA)
    assert refused.value.sentence == refusals.ALL_PUZZLES_DONE


async def test_an_answer_no_analysis_simulated_goes_to_the_judge(service) -> None:
    screen = await service.start(ANA)
    assert isinstance(screen, Screen)
    state, known = screen.state, set(screen.puzzle.losses)
    other = next(
        str(a)
        for a in engine.legal_actions(state)
        if str(a) != "end" and ep.turn_key(state, [str(a)]) not in known
    )
    after = await service.play(ANA, screen.attempt.id, 0, other)
    assert isinstance(after, Screen) and after.attempt.actions == (other,)
    undone = await service.undo(ANA, screen.attempt.id, 1)
    assert undone.attempt.actions == ()
    again = await service.play(ANA, screen.attempt.id, 0, other)
    assert isinstance(again, Screen)
    result = await service.play(ANA, screen.attempt.id, 1, "end")
    assert isinstance(result, Result) and result.solved and result.loss == 0.25
    assert service.judged == [(other,)]


async def test_a_click_for_someone_else_or_out_of_date_changes_nothing(service) -> None:
    screen = await service.start(ANA)
    assert isinstance(screen, Screen)
    attempt = screen.attempt.id
    best = screen.puzzle.best
    before = await rows(service, "SELECT * FROM puzzle_attempts")
    for user, ply, sentence in (
        (BEA, 0, refusals.NOT_YOUR_PUZZLE),  # another person's attempt (a forged custom_id)
        (ANA, 1, refusals.STALE_PUZZLE),  # a screen of another point of the answer
    ):
        with pytest.raises(UserError) as refused:
            await service.play(user, attempt, ply, best[0])
        assert refused.value.sentence == sentence
    with pytest.raises(UserError) as refused:
        await service.play(ANA, attempt, 0, "grow Z9")
    assert refused.value.sentence == refusals.NOT_OFFERED
    assert await rows(service, "SELECT * FROM puzzle_attempts") == before
    await play_turn(service, ANA, screen, best)
    with pytest.raises(UserError) as refused:  # the same click again: answered already
        await service.play(ANA, attempt, len(best), "end")
    assert refused.value.sentence == refusals.PUZZLE_ANSWERED
    assert await rows(service, "SELECT solved, failed FROM puzzle_players") == [(1, 0)]


async def test_the_day_s_puzzle_is_the_same_for_everyone_and_changes_by_day(service) -> None:
    day = service.now().date()
    ana = await service.start(ANA, daily=True)
    bea = await service.start(BEA, daily=True)
    assert isinstance(ana, Screen) and isinstance(bea, Screen)
    assert ana.row.id == bea.row.id == [p.id for p in await ordered(service)][day_pick(day) % 2]
    assert ana.attempt.day == day.isoformat()
    result = await play_turn(service, ANA, ana, ana.puzzle.best)
    assert isinstance(result, Result) and result.rated
    shown = await service.start(ANA, daily=True)  # answered: its verdict again, not rated
    assert isinstance(shown, Result) and shown.solved and not shown.rated


async def ordered(service: PuzzleService) -> list[Any]:
    ids = await rows(service, "SELECT id FROM puzzles ORDER BY id")
    return [await service.storage.puzzle(i) for (i,) in ids]


async def test_the_leaderboard_leaves_out_hidden_and_forgotten_players(service) -> None:
    for user in (ANA, BEA):
        screen = await service.start(user)
        assert isinstance(screen, Screen)
        await play_turn(service, user, screen, screen.puzzle.best if user == ANA else ())
    board, mine = await service.leaderboard(BEA)
    assert [r.user_id for r in board] == [ANA, BEA] and mine is not None and mine[0] == 2
    await service.storage.set_hidden(ANA, True)
    board, mine = await service.leaderboard(ANA)
    assert [r.user_id for r in board] == [BEA] and mine is None
    assert await service.storage.forget_user(BEA) == 0
    board, _mine = await service.leaderboard(ANA)
    assert board == []
    assert await rows(service, "SELECT user_id FROM puzzle_attempts") == [(ANA,)]
    assert await rows(service, "SELECT user_id FROM puzzle_players") == [(ANA,)]


async def test_finished_games_are_searched_a_few_positions_a_run(any_storage: SQLStorage) -> None:
    store = any_storage
    asked: list[int] = []

    async def finder(config, seed, notations, ply, source, seeds) -> dict[str, Any] | None:
        asked.append(ply)
        return MOON.to_dict() if len(asked) == 2 else None

    svc = PuzzleService(store, finder=finder)
    assert await svc.mine(3) == 0  # no finished game
    game_id = await finished_game(store)
    assert await svc.mine(3) == 1
    assert await rows(svc, "SELECT key, source FROM puzzles") == [(MOON.key, MOON.source)]
    ((next_ply, done),) = await rows(svc, "SELECT next_ply, done FROM puzzle_sources")
    assert (next_ply, done) == (asked[-1] + 1, 0)
    while await svc.mine(50) or not (await rows(svc, "SELECT done FROM puzzle_sources"))[0][0]:
        pass
    assert len(asked) == len(set(asked)) and asked == sorted(asked)  # each position once
    assert game_id == 1


async def finished_game(store: SQLStorage) -> int:
    """A finished game of two people and Cynthia, played by random legal actions."""
    game = await finish_game(GameService(store), 11, [(ANA, "Ana"), (BEA, "Bea")], cynthia=True)
    return game.id


async def test_a_database_s_finished_games_for_make_puzzles(tmp_path: Path) -> None:
    """`bench/make_puzzles.py --database` reads every finished game: config, seed, actions."""
    path = tmp_path / "games.db"
    store = await SQLiteStorage.open(str(path))
    game_id = await finished_game(store)
    stored = [r.notation for r in await store.actions(game_id)]
    game = await store.get_game(game_id)
    await store.close()
    assert game is not None and game.config is not None
    records = await finished_game_records(f"sqlite:///{path}")
    assert records == [(game_id, engine.Config.from_dict(game.config), game.seed, stored)]
    final = engine.replay(records[0][1], records[0][2], records[0][3])
    assert final.is_over
