"""The Expert at the table, service side (no Discord): bot seats in the lobby, the Expert's turns
off the event loop, its reasons, hints, the autopilot, and what the Expert may see."""

from __future__ import annotations

import asyncio
import os

import pytest

import engine
from bot.config import ConfigError
from bot.present import expert_texts as xt
from bot.services import GameService, refusals, seats
from bot.services.base import UserError
from bot.services.experts import (
    EXPERT_BUDGETS,
    Experts,
    budget_scale_from_env,
    engine_kind,
    play_turn,
)
from bot.services.seats import AUTOPILOT_USER_ID
from engine import moonlight as ml
from engine.players import AutopilotPlayer, CynthiaPlayer, play_until
from translation import translate

HOST, BOB, CAROL = 1, 2, 3
CHANNEL = 99
SEED = 1234
#: The tests' budget scale: one simulation a decision at most (quick).
SCALE = 0.01


@pytest.fixture(scope="module")
def experts():
    pool = Experts(workers=1, scale=SCALE)
    yield pool
    pool.close()


@pytest.fixture
async def service(any_storage, experts):
    return GameService(any_storage, seed_source=lambda: SEED, experts=experts)


async def refuses(coro, sentence: str) -> None:
    with pytest.raises(UserError) as info:
        await coro
    assert str(info.value) == sentence


async def lobby(service: GameService, **options):
    return await service.lobby.new_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="host", options=options
    )


def test_seat_kinds_budgets_and_the_tests_scale() -> None:
    assert EXPERT_BUDGETS == {"expert": 0.25, "expert-strong": 2.0}
    assert [engine_kind(k) for k in ("human", "cynthia", "expert", "expert-strong")] == [
        "human", "cynthia", "human", "human",
    ]  # fmt: skip
    assert Experts(workers=0, scale=0.5).budget("expert-strong") == 1.0
    assert budget_scale_from_env({}) == 1.0
    assert budget_scale_from_env({"PS_EXPERT_BUDGET_SCALE": "0.01"}) == 0.01
    assert budget_scale_from_env({"PS_EXPERT_BUDGET_SCALE": "20"}) == 20.0
    for bad in ("0", "-1", "20.5", "fast"):
        with pytest.raises(ConfigError, match="PS_EXPERT_BUDGET_SCALE must be a number"):
            budget_scale_from_env({"PS_EXPERT_BUDGET_SCALE": bad})


async def test_add_and_remove_bots_in_the_lobby(service: GameService) -> None:
    game = await lobby(service)
    await refuses(
        service.lobby.add_bot(game.id, None, BOB, "expert"),
        refusals.HOST_ONLY_BOTS.format(host=f"<@{HOST}>"),
    )
    await refuses(service.lobby.remove_bot(game.id, None, HOST), refusals.NO_BOT)
    game = await service.lobby.add_bot(game.id, game.version, HOST, "expert")
    game = await service.lobby.add_bot(game.id, game.version, HOST, "cynthia")
    # The strong Expert an older lobby message offers seats the one Expert (issue 56).
    game = await service.lobby.add_bot(game.id, game.version, HOST, "expert-strong")
    assert [(s.kind, s.user_id, s.name) for s in game.seats] == [
        ("human", HOST, "host"),
        ("expert", None, "Expert"),
        ("cynthia", None, "Cynthia"),
        ("expert", None, "Expert 2"),
    ]
    await refuses(service.lobby.add_bot(game.id, None, HOST, "expert"), refusals.GAME_FULL)
    game = await service.lobby.remove_bot(game.id, game.version, HOST)  # the last bot seated
    assert [s.name for s in game.seats] == ["host", "Expert", "Cynthia"]
    game = await service.lobby.remove_bot(game.id, game.version, HOST)
    game = await service.lobby.add_bot(game.id, game.version, HOST, "expert")
    assert [(s.position, s.kind, s.name) for s in game.seats] == [
        (0, "human", "host"), (1, "expert", "Expert"), (2, "expert", "Expert 2"),
    ]  # fmt: skip
    # Stored as the seat's kind: read back as it was.
    stored = await service.core.get_game(game.id)
    assert [s.kind for s in stored.seats] == ["human", "expert", "expert"]


async def test_an_expert_seat_plays_its_turns_with_its_reasons(service: GameService) -> None:
    game = await lobby(service)
    game = await service.lobby.add_bot(game.id, game.version, HOST, "expert")
    result = await service.lobby.start(game.id, game.version, HOST)
    assert result.game.config["seats"] == ["human", "human"]  # the engine's view of the seats
    assert await service.bots.play_expert(game.id) is None  # the host's turn: nothing to do
    assert not await service.bots.expert_to_play(game.id)
    result = await service.turns.play(game.id, HOST, "place A1")
    assert result.applied[-1].seat == 0  # the Expert did not play within the host's play
    assert await service.bots.expert_to_play(game.id)
    before = result.state
    played = await service.bots.play_expert(game.id)
    assert played is not None and played.played == 1
    (move,) = played.applied
    expected = play_turn(before, EXPERT_BUDGETS["expert"] * SCALE, SEED)
    assert [move.notation] == [str(a) for a in expected]
    assert move.user_id is None and move.seat == 1
    assert move.explanation == expected[0].explanation  # as the engine words it
    assert move.explanation.startswith(f"{move.notation}: ")
    rows = await service.storage.actions(game.id)
    assert [(r.notation, r.user_id, r.explanation) for r in rows][-1] == (
        move.notation, None, move.explanation,
    )  # fmt: skip
    # Into the game: the Expert plays whole turns, each committed at once.
    state = played.state
    while state.phase == "setup":
        if state.current_seat == 0:
            free = next(a for a in engine.legal_actions(state))
            state = (await service.turns.play(game.id, HOST, str(free))).state
        else:
            state = (await service.bots.play_expert(game.id)).state
    state = (await service.turns.play(game.id, HOST, "end")).state
    assert state.current_seat == 1
    played = await service.bots.play_expert(game.id)
    assert played.applied[-1].notation == "end" and {m.seat for m in played.applied} == {1}
    assert played.previous_turn == engine.turn_id(state)
    # The first seat passes on: round 2 starts with the Expert again, its turn to play.
    assert (played.state.round, played.state.current_seat) == (2, 1)
    assert await service.bots.expert_to_play(game.id)


async def test_the_expert_thinks_off_the_event_loop(service: GameService) -> None:
    """While an Expert thinks (in a worker process), the event loop runs other work."""
    game = await lobby(service)
    game = await service.lobby.add_bot(game.id, game.version, HOST, "expert")
    await service.lobby.start(game.id, game.version, HOST)
    await service.turns.play(game.id, HOST, "place A1")
    ticks = 0
    thinking = asyncio.create_task(service.bots.play_expert(game.id))
    while not thinking.done():
        ticks += 1
        await asyncio.sleep(0)
    assert (await thinking) is not None
    assert ticks > 1  # the loop went round while the Expert's turn was under way
    # It thought in a worker process of its own, not in this one.
    assert len(service.bots.experts.worker_pids()) == 1
    assert os.getpid() not in service.bots.experts.worker_pids()


async def test_hints(service: GameService) -> None:
    await refuses(service.bots.hint_position(CHANNEL, HOST), refusals.NO_GAME_HERE)
    game = await lobby(service)
    await refuses(service.bots.hint_position(CHANNEL, HOST), refusals.HINTS_OFF)
    game = await service.lobby.set_options(game.id, game.version, HOST, {"hints": True})
    assert game.options["hints"] is True
    await refuses(service.bots.hint_position(CHANNEL, HOST), refusals.NOT_STARTED)
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    await service.lobby.start(game.id, game.version, HOST)
    await refuses(service.bots.hint_position(CHANNEL, CAROL), refusals.NOT_A_PLAYER)
    await refuses(
        service.bots.hint_position(CHANNEL, BOB), refusals.NOT_YOUR_TURN.format(player=f"<@{HOST}>")
    )
    game, state = await service.bots.hint_position(CHANNEL, HOST)
    action = await service.bots.hint(game, state)
    expected = engine.expert_action(state, budget_s=0.25 * SCALE, seed=SEED)
    assert (str(action), action.explanation) == (str(expected), expected.explanation)
    assert await service.storage.actions(game.id) == []  # a hint is said, never played


async def test_the_autopilot_is_the_expert_at_the_quick_budget(service: GameService) -> None:
    game = await lobby(service, on_timeout="autopilot")
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    result = await service.lobby.start(game.id, game.version, HOST)
    for space in ("A1", "G1", "D7", "G4"):
        current = result.game.seats[result.state.current_seat].user_id
        result = await service.turns.play(game.id, current, f"place {space}")
    state = result.state
    expected = play_turn(state, 0.25 * SCALE, SEED)
    done = await service.bots.play_automatically(game.id, engine.turn_id(state), autopilot=True)
    assert [(m.notation, m.user_id) for m in done.applied] == [
        (str(a), AUTOPILOT_USER_ID) for a in expected
    ]
    assert expected[-1].verb == "end"


def _moved_on(state, players) -> engine.GameState:
    return play_until(
        state, players, lambda s: s.phase == "play" and s.round >= 2 and s.current_seat == 0
    )[0]


def test_the_expert_sees_only_its_own_view() -> None:
    """What a seat may not see (the RNG, Cynthia's cards, the animals dealt to others, the
    face-down Baby Turtle tokens) changes neither the Expert's decision nor its reason."""
    base = _moved_on(
        engine.new_game(engine.Config(seats=("human", "cynthia")), seed=3),
        [AutopilotPlayer(), CynthiaPlayer()],
    )
    data = base.to_dict()
    data["rng"] = data["rng"] ^ 0x5DEECE66D
    deck = data["cynthia"][1]["deck"]
    data["cynthia"][1]["deck"] = deck[::-1]
    other = engine.GameState.from_dict(data)
    assert other.to_dict() != base.to_dict()
    assert engine.observation(other, 0) == engine.observation(base, 0)
    for budget in (0.25 * SCALE, 0.25):
        mine = engine.expert_action(base, budget_s=budget, seed=SEED)
        theirs = engine.expert_action(other, budget_s=budget, seed=SEED)
        assert (str(mine), mine.explanation) == (str(theirs), theirs.explanation)

    moon = _moved_on(
        engine.new_game(engine.Config(seats=("human", "human"), moon_animals=True), seed=3),
        [AutopilotPlayer(), AutopilotPlayer()],
    )
    data = moon.to_dict()
    seats = data["moonlight"]["seats"]
    used = {a for s in seats for a in s["dealt"]}
    spare = next(a for a in ml.ANIMALS if a not in used)
    seats[1]["dealt"] = [spare if a != seats[1]["animal"] else a for a in seats[1]["dealt"]]
    data["rng"] = data["rng"] ^ 0x5DEECE66D
    other = engine.GameState.from_dict(data)
    assert other.to_dict() != moon.to_dict()
    assert engine.observation(other, 0) == engine.observation(moon, 0)
    mine = engine.expert_action(moon, budget_s=0.25, seed=SEED)
    theirs = engine.expert_action(other, budget_s=0.25, seed=SEED)
    assert (str(mine), mine.explanation) == (str(theirs), theirs.explanation)


def test_the_expert_texts_are_said_in_each_language() -> None:
    """An Expert seat's name is stored in English and read back as a translatable text; a hint
    and the lobby's texts are translated like every text of the bot."""
    assert seats.seat_name("expert", "Expert") == "Expert"
    assert translate(seats.seat_name("expert", "Expert 2"), "he") == "מומחה 2"
    # as stored before issue 56: the one Expert needs no "(quick)"; a finished game's strong
    # Expert keeps its name
    assert seats.seat_name("expert", "Expert (quick)") == "Expert"
    assert translate(seats.seat_name("expert", "Expert 3 (quick)"), "nl") == "Expert 3"
    assert (
        translate(seats.seat_name("expert-strong", "Expert 2 (strong)"), "fr") == "Expert 2 (fort)"
    )
    assert translate(seats.seat_name("expert", "Expert (quick)"), "he") == "מומחה"
    # Cynthia's seats are stored in English and said in the reader's language, as the picture does
    assert translate(seats.seat_name("cynthia", "Cynthia 2"), "he") == "סינתיה 2"
    assert translate(seats.seat_name("cynthia", "Cynthia"), "he") == "סינתיה"
    assert translate(seats.seat_name("cynthia", "Cynthia"), "fr") == "Cynthia"
    assert seats.seat_name("human", "Cynthia") == "Cynthia"  # a person's name as it is
    assert translate(seats.seat_name("expert", "Ann"), "fr") == "Ann"  # not an Expert's name
    hint = xt.HINT.format(explanation="grow D4: the only legal action")
    assert translate(hint, "fr") == "Indice\u00a0: grow D4: the only legal action"
    assert translate(refusals.HINTS_OFF, "nl") == (
        "Tips staan uit in dit spel: de gastheer staat ze toe met `/ps new hints:True`."
    )
    assert translate(xt.REMOVE_BOT, "he") == "הסרת בוט"


async def test_a_stored_strong_expert_is_the_one_expert_after_migration_15(open_db, experts):
    """Issue 56: the lobby offers one Expert. A game not yet finished that seated the strong
    Expert (and the quick one) before migration 15 loads with two Expert seats named in seat
    order, and the Expert plays its turn; a finished game keeps its strong Expert as played."""
    from bot.storage import SCHEMA_VERSION, SeatRow

    store = await open_db(migrate_to=14)  # the schema before migration 15
    old = GameService(store, seed_source=lambda: SEED, experts=experts)
    game = await lobby(old)
    config = engine.Config(seats=("human", "human", "human")).to_dict()
    seated = (
        SeatRow(0, "human", HOST, "host"),
        SeatRow(1, "expert-strong", None, "Expert (strong)"),
        SeatRow(2, "expert", None, "Expert (quick)"),
    )
    game = await store.update_game(game.id, game.version, seats=seated, config=config,
                                   status="active")  # fmt: skip
    done = await store.create_game(
        guild_id=1, channel_id=CHANNEL + 1, host_id=HOST, host_name="host", options={}, seed=SEED
    )
    await store.update_game(done.id, done.version, seats=seated, config=config, status="over")
    await old.turns.play(game.id, HOST, "place A1")
    await store.close()

    store = await open_db()
    assert await store.schema_version() == SCHEMA_VERSION
    service = GameService(store, seed_source=lambda: SEED, experts=experts)
    loaded = await store.get_game(game.id)
    assert [(s.kind, s.name) for s in loaded.seats] == [
        ("human", "host"), ("expert", "Expert"), ("expert", "Expert 2"),
    ]  # fmt: skip
    assert [translate(seats.shown_name(s), "fr") for s in loaded.seats] == [
        "host", "Expert", "Expert 2",
    ]  # fmt: skip
    finished = await store.get_game(done.id)
    assert [(s.kind, s.name) for s in finished.seats][1:] == [
        ("expert-strong", "Expert (strong)"), ("expert", "Expert (quick)"),
    ]  # fmt: skip
    assert [seats.shown_name(s) for s in finished.seats][1:] == ["Expert (strong)", "Expert"]
    # It plays: the Expert's setup placement, as the quick Expert places it.
    before = await service.core.state(loaded)
    played = await service.bots.play_expert(game.id)
    assert played is not None and [m.seat for m in played.applied] == [1]
    expected = play_turn(before, EXPERT_BUDGETS["expert"] * SCALE, SEED)
    assert [m.notation for m in played.applied] == [str(a) for a in expected]
