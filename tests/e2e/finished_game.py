"""A finished game written into the bot's database before the bot starts (Alice against
Cynthia, each action the autopilot's unless told): the Expert's review and the replay viewer
start from it."""

from __future__ import annotations

from collections.abc import Callable

import engine
from bot.storage import NewAction, SeatRow, SQLiteStorage
from engine import GameState
from engine.players import AutopilotPlayer

CONFIG = engine.Config(seats=("human", "cynthia"))
SEED = 23


async def write_finished_game(
    path: str,
    guild: int,
    channel: int,
    alice: int,
    alices: Callable[[GameState], str] | None = None,
) -> list[str]:
    """Write a finished game of Alice against Cynthia into the bot's database (made when
    missing), each action the autopilot's (Alice's `alices`, when given); its notations."""
    state, notations, seats_of = engine.new_game(CONFIG, SEED), [], []
    while not state.is_over:
        if alices is not None and state.current_seat == 0:
            action = engine.parse_action(alices(state))
        else:
            action = AutopilotPlayer().step(state)
        notations.append(str(action))
        seats_of.append(state.current_seat)
        state = engine.apply(state, action)
    storage = await SQLiteStorage.open(path)
    try:
        game = await storage.create_game(
            guild_id=guild, channel_id=channel, host_id=alice, host_name="Alice", options={},
            seed=SEED,
        )  # fmt: skip
        seats = [SeatRow(0, "human", alice, "Alice"), SeatRow(1, "cynthia", None, "Cynthia")]
        log = [
            NewAction(n + 1, text, seat, alice if seat == 0 else None)
            for n, (text, seat) in enumerate(zip(notations, seats_of, strict=True))
        ]
        await storage.update_game(
            game.id, game.version, seats=seats, config=CONFIG.to_dict(), status="over",
            actions=log,
        )  # fmt: skip
    finally:
        await storage.close()
    return notations
