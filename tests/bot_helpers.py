"""Shared by the bot's tests without Discord: a game row, a clock the test moves with a game
started on it, finished games as an export gives them, and a game played to its end through
the services (`finish_game`)."""

from __future__ import annotations

import asyncio
from functools import cache

import engine
from bot.services import export
from bot.services.correspondence import Correspondence
from bot.services.export import SeatInfo, exported_game
from bot.storage import GameRow, SeatRow
from tests.play_helpers import random_game


def game_with(seats: tuple[SeatRow, ...], config: engine.Config) -> GameRow:
    """An active game of `seats` playing `config` (made-up ids, seed 4)."""
    return GameRow(
        id=1, guild_id=1, channel_id=2, host_id=3, status="active", options={},
        config=config.to_dict(), seed=4, version=1, created_at="", updated_at="", seats=seats,
    )  # fmt: skip


# --- a clock the test moves -----------------------------------------------------------------------

ALICE, BOB, CAROL = 11, 22, 33
T0 = 1_800_000_000.0


class ManualClock:
    """A clock the test moves; `sleep_until` waits for the due time or a wake-up. Each sleep
    is recorded and notifies `changed`, which `wait_for` waits on (no polling)."""

    fake = True

    def __init__(self, now: float = T0) -> None:
        self.t = now
        self.sleeps: list[float | None] = []
        self._moved = asyncio.Event()
        self.changed = asyncio.Condition()

    async def notify(self) -> None:
        """Something a test waits for may have changed (a sleep, a handler run)."""
        async with self.changed:
            self.changed.notify_all()

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self._moved.set()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        self.sleeps.append(when)
        await self.notify()
        while when is None or when > self.t:
            self._moved.clear()
            waiters = [
                asyncio.ensure_future(wake.wait()),
                asyncio.ensure_future(self._moved.wait()),
            ]
            done, pending = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
            if wake.is_set():
                return


async def started(service: Correspondence, **options):
    """A game of Alice and Bob started through `service` (with `options`): its row and state."""
    games = service.games
    game = await games.lobby.new_lobby(
        guild_id=1, channel_id=7, host_id=ALICE, host_name="alice", options=options
    )
    game = await games.lobby.join(game.id, None, BOB, "bob")
    result = await games.lobby.start(game.id, None, ALICE)
    return result.game, result.state


# --- finished games, exported ---------------------------------------------------------------------

MOON = {"moon_animals": True, "elder_tree": True, "moonstones": True}


@cache
def exported_games() -> tuple[export.ExportGame, ...]:
    """Three finished games: two people, people and Cynthia (one left), the expansion."""
    made = []
    for game_id, (seats, options, infos) in enumerate(
        [
            (("human", "human"), {}, [SeatInfo("human", 11, "Ann"), SeatInfo("human", 22, "Bé")]),
            (
                ("human", "cynthia", "human"),
                {"harder_score_trees": True},
                [
                    SeatInfo("expert-strong", None, "Expert"),
                    SeatInfo("cynthia", None, "Cynthia"),
                    SeatInfo("human", 33, "אורי", left=True),
                ],
            ),
            (
                ("human", "human", "human", "human"),
                MOON,
                [SeatInfo("human", 10**18 + n, f"P{n}") for n in range(4)],
            ),
        ],
        1,
    ):
        config = engine.Config(seats=seats, **options)
        _, actions = random_game(config, seed=game_id)
        names = tuple(info.name for info in infos)
        record = engine.Record(config, game_id, actions, names)
        made.append(
            exported_game(
                game_id,
                None if game_id == 2 else 900 + game_id,
                f"2026-05-0{game_id}T09:00:00+00:00",
                f"2026-05-0{game_id}T10:00:00+00:00",
                {"revolutions": 3, "turn_timer": 24, **options},
                record,
                infos,
            )
        )
    return tuple(made)
