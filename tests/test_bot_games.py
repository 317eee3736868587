"""The service layer: lobby seating, refusals, versions, turns and the automa (no Discord)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.services import GameService, refusals
from bot.services.base import StaleComponent, UserError, normalize_options

HOST, BOB, CAROL, DAVE, ERIN = 1, 2, 3, 4, 5
CHANNEL = 99


@pytest.fixture
async def service(any_storage):
    return GameService(any_storage, seed_source=lambda: 1234)


async def lobby(service: GameService, **options):
    return await service.lobby.new_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="host", options=options
    )


async def refuses(coro, sentence: str) -> None:
    with pytest.raises(UserError) as info:
        await coro
    assert str(info.value) == sentence


async def test_lobby_seating_and_refusals(service: GameService) -> None:
    game = await lobby(service)
    assert [(s.kind, s.user_id) for s in game.seats] == [("human", HOST)]
    await refuses(lobby(service), refusals.CHANNEL_BUSY)
    await refuses(service.lobby.join(game.id, game.version, HOST, "host"), refusals.ALREADY_JOINED)
    await refuses(service.lobby.leave(game.id, game.version, BOB), refusals.NOT_IN_LOBBY)
    await refuses(service.lobby.start(game.id, game.version, HOST), refusals.TOO_FEW_SEATS)
    await refuses(
        service.lobby.add_cynthia(game.id, game.version, BOB),
        refusals.HOST_ONLY_CYNTHIA.format(host=f"<@{HOST}>"),
    )
    await refuses(service.lobby.remove_cynthia(game.id, game.version, HOST), refusals.NO_CYNTHIA)
    assert (await service.core.get_game(game.id)).version == game.version  # nothing changed

    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    assert [s.name for s in game.seats] == ["host", "bob", "Cynthia", "Cynthia 2"]
    await refuses(service.lobby.join(game.id, game.version, CAROL, "carol"), refusals.GAME_FULL)
    game = await service.lobby.leave(game.id, game.version, BOB)
    await refuses(
        service.lobby.add_cynthia(game.id, game.version, HOST), refusals.TOO_MANY_CYNTHIAS
    )
    game = await service.lobby.remove_cynthia(game.id, game.version, HOST)
    assert [(s.position, s.name) for s in game.seats] == [(0, "host"), (1, "Cynthia")]
    await refuses(
        service.lobby.start(game.id, game.version, BOB),
        refusals.HOST_ONLY_START.format(host=f"<@{HOST}>"),
    )


async def test_stale_versions_are_refused_for_host_actions(service: GameService) -> None:
    game = await lobby(service)
    await service.lobby.join(game.id, game.version, BOB, "bob")
    for stale in (
        service.lobby.add_cynthia(game.id, game.version, HOST),
        service.lobby.set_options(game.id, game.version, HOST, {"random_seats": True}),
        service.lobby.start(game.id, game.version, HOST),
    ):
        with pytest.raises(StaleComponent) as info:
            await stale
        assert str(info.value) == refusals.STALE and info.value.game.version == game.version + 1
    # Without a version (slash commands) the current one is used.
    assert len((await service.lobby.add_cynthia(game.id, None, HOST)).seats) == 3


async def test_join_and_leave_do_not_check_the_version(service: GameService) -> None:
    """Join and Leave are guarded under the lock (already seated, full, not seated): clicks
    on an older lobby message, or at the same moment, all count."""
    game = await lobby(service)
    results = await asyncio.gather(
        service.lobby.join(game.id, game.version, BOB, "bob"),
        service.lobby.join(game.id, game.version, CAROL, "carol"),
        service.lobby.join(game.id, game.version, DAVE, "dave"),
    )
    assert [len(r.seats) for r in results] == [2, 3, 4]
    seated = await service.core.get_game(game.id)
    assert [s.user_id for s in seated.seats] == [HOST, BOB, CAROL, DAVE]
    await refuses(service.lobby.join(game.id, game.version, ERIN, "erin"), refusals.GAME_FULL)
    await refuses(service.lobby.join(game.id, game.version, BOB, "bob"), refusals.ALREADY_JOINED)
    left = await asyncio.gather(
        service.lobby.leave(game.id, game.version, BOB),
        service.lobby.leave(game.id, game.version, CAROL),
    )
    assert [s.user_id for s in left[-1].seats] == [HOST, DAVE]
    await refuses(service.lobby.leave(game.id, game.version, BOB), refusals.NOT_IN_LOBBY)
    assert (await service.core.get_game(game.id)).version == left[-1].version  # refusals: no change


async def test_options_host_only_and_engine_validated(service: GameService) -> None:
    game = await lobby(service, revolutions=4, shadow_rule=True)
    assert game.options == normalize_options({"revolutions": 4, "shadow_rule": True})
    await refuses(
        service.lobby.set_options(game.id, game.version, BOB, {"random_seats": True}),
        refusals.HOST_ONLY_OPTIONS.format(host=f"<@{HOST}>"),
    )
    game = await service.lobby.set_options(game.id, game.version, HOST, {"random_seats": True})
    assert game.options["random_seats"] and game.options["revolutions"] == 4


def test_normalized_options_hold_every_option_in_order() -> None:
    """`normalize_options` gives every key of `GameOptions` (the stored JSON's order; `daily`
    only for a daily challenge's game), keeps a valid choice, drops an unknown key and a choice
    never offered, and makes flags booleans."""
    from bot.services.base import CYNTHIA_OPTIONS, FLAGS, MOONLIGHT_OPTIONS
    from bot.storage import GameOptions

    assert [*normalize_options(None), "daily"] == list(GameOptions.__annotations__)
    assert normalize_options({"daily": 331})["daily"] == 331
    assert {*CYNTHIA_OPTIONS, *MOONLIGHT_OPTIONS} <= set(FLAGS) <= set(GameOptions.__annotations__)
    given = {"turn_timer": 24, "on_timeout": "never", "revolutions": 5, "hints": 1, "colour": "red"}
    options = normalize_options(given)  # (a stored row may hold anything)
    assert options["turn_timer"] == 24 and options["on_timeout"] == "end"
    assert options["revolutions"] == 3 and options["hints"] is True and "colour" not in options


async def test_random_seat_order_is_a_function_of_the_seed(service: GameService) -> None:
    game = await lobby(service, random_seats=True)
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        game = await service.lobby.join(game.id, game.version, uid, name)
    result = await service.lobby.start(game.id, game.version, HOST)
    order = [s.user_id for s in result.game.seats]
    assert sorted(order) == [HOST, BOB, CAROL, DAVE]
    import random

    expected = [HOST, BOB, CAROL, DAVE]
    random.Random(1234).shuffle(expected)
    assert order == expected
    assert [s.position for s in result.game.seats] == [0, 1, 2, 3]


async def test_start_runs_cynthia_setup_and_turn_refusals(service: GameService) -> None:
    game = await lobby(service)
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    # Seats in join order: host, Cynthia, bob. The host places first.
    result = await service.lobby.start(game.id, game.version, HOST)
    game, state = result.game, result.state
    assert game.status == "active" and game.config["seats"] == ["human", "cynthia", "human"]
    assert result.applied == () and state.current_seat == 0
    await refuses(
        service.lobby.join(game.id, game.version, CAROL, "carol"), refusals.ALREADY_STARTED
    )
    await refuses(service.turns.play(game.id, CAROL, "place A1"), refusals.NOT_A_PLAYER)
    await refuses(
        service.turns.play(game.id, BOB, "place A1"), refusals.NOT_YOUR_TURN.format(player="<@1>")
    )
    await refuses(
        service.turns.play(game.id, HOST, "place D4"),
        "Starting trees go on the outer ring (1-leaf spaces); D4 is not on it.",
    )
    assert (await service.core.get_game(game.id)).version == game.version

    result = await service.turns.play(game.id, HOST, "place A1", game.version)
    # Cynthia (seat 1) placed at once; it is bob's turn.
    assert [(a.seat, a.user_id) for a in result.applied] == [(0, HOST), (1, None)]
    assert result.applied[1].explanation
    assert result.state.current_seat == 2 and result.previous_turn == "setup:0:0"
    assert result.notations == ["place A1"]
    with pytest.raises(StaleComponent):
        await service.turns.play(game.id, BOB, "place G1", game.version)


async def test_a_game_needs_a_person(service: GameService) -> None:
    """Two Cynthias alone would play the whole game inside the Start click: refused."""
    game = await lobby(service)
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    game = await service.lobby.leave(game.id, game.version, HOST)
    await refuses(service.lobby.start(game.id, game.version, HOST), refusals.NO_PERSON)
    stored = await service.core.get_game(game.id)
    assert stored.status == "lobby" and stored.version == game.version
    assert await service.storage.actions(game.id) == []
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    result = await service.lobby.start(game.id, game.version, HOST)
    assert result.game.status == "active" and not result.state.is_over
    assert result.game.seats[result.state.current_seat].user_id == BOB


async def test_a_typed_command_is_pinned_to_its_turn(service: GameService) -> None:
    """End turn clicked and typed at once: the typed one (read before the click's commit)
    finds another turn on and plays nothing, instead of ending the player's next turn."""
    game = await lobby(service)
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    result = await service.lobby.start(game.id, game.version, HOST)
    for space in ("A1", "G1"):
        result = await service.turns.play(game.id, HOST, f"place {space}")
    assert result.state.phase == "play" and result.state.current_seat == 0
    typed_in = await service.turns.current_turn(result.game)
    clicked = await service.turns.play(game.id, HOST, "end", result.game.version)  # the panel
    # Cynthia played her turn; a new round: it is the host's turn again.
    assert clicked.state.current_seat == 0 and clicked.state.round == 2
    await refuses(service.turns.play(game.id, HOST, "end", turn=typed_in), refusals.TURN_CHANGED)
    stored = await service.core.get_game(game.id)
    assert stored.version == clicked.game.version
    assert (await service.storage.actions(game.id))[-1].seat == 1  # Cynthia's last
    # Pinned to the turn on now, it plays.
    now = await service.turns.current_turn(stored)
    assert (await service.turns.play(game.id, HOST, "end", turn=now)).notations == ["end"]
    # A command typed in someone else's turn is refused as it was then.
    other = await lobby_elsewhere(service)
    before = await service.turns.current_turn(
        await service.core.get_game(other.id)
    )  # the host's placement
    await service.turns.play(other.id, HOST, "place A1")
    await refuses(
        service.turns.play(other.id, BOB, "place G1", turn=before),
        refusals.NOT_YOUR_TURN.format(player=f"<@{HOST}>"),
    )


async def lobby_elsewhere(service: GameService):
    game = await service.lobby.new_lobby(
        guild_id=1, channel_id=CHANNEL + 1, host_id=HOST, host_name="host", options={}
    )
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    return (await service.lobby.start(game.id, game.version, HOST)).game


async def test_abandon_and_expiry(service: GameService) -> None:
    game = await lobby(service)
    await refuses(
        service.endings.abandon(CHANNEL, BOB, can_manage=False), refusals.ABANDON_FORBIDDEN
    )
    assert (await service.endings.abandon(CHANNEL, BOB, can_manage=True)).status == "abandoned"
    await refuses(service.endings.abandon(CHANNEL, HOST, can_manage=False), refusals.NO_GAME_HERE)
    await refuses(service.lobby.join(game.id, None, ERIN, "erin"), refusals.GAME_ABANDONED)

    game = await lobby(service)
    assert await service.endings.expire_lobbies(timedelta(hours=24)) == []
    later = datetime.now(UTC) + timedelta(hours=25)
    (expired,) = await service.endings.expire_lobbies(timedelta(hours=24), now=later)
    assert expired.id == game.id and expired.status == "expired"
    assert await service.core.live_game(CHANNEL) is None


async def test_a_lobby_with_a_damaged_time_stops_no_other_lobby_expiring(
    service: GameService, any_storage
) -> None:
    """Issue 48, item 8: each lobby is handled on its own. One whose `updated_at` does not
    read is quarantined; the idle others still expire."""
    lobbies = [
        await service.lobby.new_lobby(
            guild_id=1, channel_id=CHANNEL + i, host_id=HOST, host_name="host", options={}
        )
        for i in range(3)
    ]
    async with any_storage.transaction() as conn:
        await conn.execute(
            "UPDATE games SET updated_at = 'yesterday' WHERE id = ?", (lobbies[1].id,)
        )
    later = datetime.now(UTC) + timedelta(hours=25)
    expired = await service.endings.expire_lobbies(timedelta(hours=24), now=later)
    assert [(g.id, g.status) for g in expired] == [
        (lobbies[0].id, "expired"),
        (lobbies[2].id, "expired"),
    ]
    assert list(await any_storage.quarantined()) == [lobbies[1].id]
    assert await service.endings.expire_lobbies(timedelta(hours=24), now=later) == []


async def test_a_lobby_that_fails_to_expire_is_logged_and_the_others_expire(
    service: GameService, any_storage, monkeypatch, caplog
) -> None:
    """Issue 48, item 8: whatever fails for one lobby (here its write) is logged with its id,
    and the other idle lobbies still expire."""
    lobbies = [
        await service.lobby.new_lobby(
            guild_id=1, channel_id=CHANNEL + i, host_id=HOST, host_name="host", options={}
        )
        for i in range(3)
    ]
    update_game = any_storage.update_game

    async def failing(game_id: int, *args, **kwargs):
        if game_id == lobbies[0].id:
            raise RuntimeError("the disk is full")
        return await update_game(game_id, *args, **kwargs)

    monkeypatch.setattr(any_storage, "update_game", failing)
    later = datetime.now(UTC) + timedelta(hours=25)
    expired = await service.endings.expire_lobbies(timedelta(hours=24), now=later)
    assert [g.id for g in expired] == [lobbies[1].id, lobbies[2].id]
    failed = [r for r in caplog.records if r.getMessage() == "could not expire a lobby"]
    assert [(r.game_id, str(r.exc_info[1])) for r in failed] == [
        (lobbies[0].id, "the disk is full")
    ]


async def test_undo_takes_back_own_actions_of_this_turn_only(service: GameService) -> None:
    game = await lobby(service)
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    game = (await service.lobby.start(game.id, game.version, HOST)).game
    for user, space in ((HOST, "A1"), (BOB, "G1"), (HOST, "D7"), (BOB, "G4")):
        result = await service.turns.play(game.id, user, f"place {space}")
    await refuses(service.turns.undo(game.id, HOST), refusals.NOTHING_TO_UNDO)  # setup is final
    before = result.state
    result = await service.turns.play(game.id, HOST, "buy seed")
    assert await service.turns.can_undo(result.game, result.state, HOST)
    assert not await service.turns.can_undo(result.game, result.state, BOB)
    await refuses(
        service.turns.undo(game.id, BOB), refusals.NOT_YOUR_TURN.format(player=f"<@{HOST}>")
    )
    undone = await service.turns.undo(game.id, HOST, result.game.version)
    assert undone.state == before and undone.applied[0].notation == "buy seed"
    assert [r.notation for r in await service.storage.actions(game.id)][-1] == "place G4"
    assert await GameService(service.storage).core.state(undone.game) == before  # replayed
    await service.turns.play(game.id, HOST, "end")
    await refuses(service.turns.undo(game.id, BOB), refusals.NOTHING_TO_UNDO)  # not across turns


async def test_undo_goes_back_without_replaying_the_log(service: GameService, monkeypatch) -> None:
    """The state before each of the player's actions of this turn is kept: undoing them one
    by one replays nothing, and gives exactly the states the log replays to."""
    game = await lobby(service)
    game = await service.lobby.join(game.id, game.version, BOB, "bob")
    game = (await service.lobby.start(game.id, game.version, HOST)).game
    for user, space in ((HOST, "A1"), (BOB, "G1"), (HOST, "D7"), (BOB, "G4")):
        result = await service.turns.play(game.id, user, f"place {space}")
    states = [result.state]
    for action in ("buy seed", "buy seed"):
        states.append((await service.turns.play(game.id, HOST, action)).state)

    def no_replay(*args, **kwargs):
        raise AssertionError("the log was replayed")

    with monkeypatch.context() as patched:
        patched.setattr("bot.services.core.replay", no_replay)
        assert (await service.turns.undo(game.id, HOST)).state == states[1]
        assert (await service.turns.undo(game.id, HOST)).state == states[0]
    stored = await service.core.get_game(game.id)
    assert await GameService(service.storage).core.state(stored) == states[0]  # the log agrees
    # Several actions typed at once: the state before the last one was never kept.
    result = await service.turns.play(game.id, HOST, "buy seed; buy seed")
    undone = await service.turns.undo(game.id, HOST, result.game.version)
    assert undone.state == states[1]


async def test_no_lock_is_kept_for_games_no_one_is_touching(service: GameService) -> None:
    # Issue 13 item 12: the per-game and per-channel lock dictionaries grew with every game.
    for channel in range(CHANNEL, CHANNEL + 20):
        game = await service.lobby.new_lobby(
            guild_id=1, channel_id=channel, host_id=HOST, host_name="host", options={}
        )
        game = await service.lobby.join(game.id, game.version, BOB, "bob")
        await service.endings.abandon(channel, HOST, can_manage=False)
    assert (len(service.storage._game_locks), len(service.lobby._channel_locks)) == (0, 0)
    assert service.core._states == {}


async def test_a_click_reads_its_game_once_and_is_refused_in_another_channel(
    service: GameService, monkeypatch
) -> None:
    """A panel click's service reads the game row once (under its lock) and returns what the
    answer and the publisher need, Undo included; a click from another channel (a forged
    custom_id) is refused there and changes nothing."""
    game = await lobby(service)
    game = await service.lobby.add_cynthia(game.id, game.version, HOST, channel_id=CHANNEL)
    game = (await service.lobby.start(game.id, game.version, HOST, channel_id=CHANNEL)).game
    reads: list[int] = []
    get_game = service.storage.get_game

    async def counted(game_id: int):
        reads.append(game_id)
        return await get_game(game_id)

    monkeypatch.setattr(service.storage, "get_game", counted)
    await refuses(
        service.turns.play(game.id, HOST, "place A1", game.version, channel_id=CHANNEL + 1),
        refusals.OTHER_CHANNEL,
    )
    assert (await get_game(game.id)).version == game.version
    reads.clear()
    result = await service.turns.play(game.id, HOST, "place A1", game.version, channel_id=CHANNEL)
    assert reads == [game.id]
    assert (result.game.version, result.notations) == (game.version + 1, ["place A1"])
    assert result.can_undo is False  # Cynthia placed next: the host's turn is over
    await refuses(
        service.lobby.rematch(game.id, HOST, channel_id=CHANNEL + 1), refusals.OTHER_CHANNEL
    )
