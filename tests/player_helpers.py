"""Finished games for the players' tests (issue 45) and the seasons' (issue 58): people, servers,
a game played to its end through the game service, and its finishing places by the rules."""

from __future__ import annotations

import random
from typing import Any

import engine
from bot.services import GameService
from bot.storage import GameRow, NewAction, SeatRow

GUILD, OTHER_GUILD = 7001, 7002
ANN, BOB, CAT = 1_000_000_000_000_001, 1_000_000_000_000_002, 1_000_000_000_000_003


async def finish_game(
    service: GameService,
    channel: int,
    people: list[tuple[int, str]],
    *,
    guild: int | None = GUILD,
    cynthia: bool = False,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    leave: int | None = None,
    bots: tuple[str, ...] = (),
) -> GameRow:
    """A game of `people` (and Cynthia) started through the lobby and played to its end by
    random legal actions, committed at once through `GameCore.commit_play` (every game's end
    goes through it). `leave`: that person leaves (`/ps leave`) before the end."""
    host, host_name = people[0]
    game = await service.lobby.new_lobby(
        guild_id=guild, channel_id=channel, host_id=host, host_name=host_name,
        options=options or {},
    )  # fmt: skip
    for user_id, name in people[1:]:
        game = await service.lobby.join(game.id, game.version, user_id, name)
    if cynthia:
        game = await service.lobby.add_bot(game.id, game.version, host, "cynthia")
    for kind in bots:
        game = await service.lobby.add_bot(game.id, game.version, host, kind)
    game = (await service.lobby.start(game.id, game.version, host)).game
    if leave is not None:  # what `/ps leave` stores (`bot.services.correspondence`)
        seats = [
            SeatRow(s.position, s.kind, None, f"{s.name} (autopilot)") if s.user_id == leave else s
            for s in game.seats
        ]
        game = await service.storage.update_game(game.id, game.version, seats=seats)
    state, ply = await service.core.state_and_ply(game)
    rnd = random.Random(seed)
    applied = []
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        action = rnd.choice(engine.legal_actions(state))
        state = engine.apply(state, action)
        applied.append(
            NewAction(ply + 1 + len(applied), str(action), seat, game.seats[seat].user_id)
        )
    async with service.core.lock(game.id):
        return await service.core.commit_play(game, state, applied, status="over")


def places(state: engine.GameState) -> list[int]:
    """The finishing places by the rules, worked out here: the higher score first, then the
    most seeds and trees on the board; equal on both is a tie."""
    key = [(s, state.board_count(i)) for i, s in enumerate(engine.scores(state))]
    return [1 + sum(other > mine for other in key) for mine in key]
