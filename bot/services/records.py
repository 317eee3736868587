"""What was played: the turns the game message tells, the log and the recent moves. Reading
only: nothing here takes a game's lock."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import engine
from bot.services import refusals
from bot.services.base import Applied, UserError, daily_of
from bot.services.core import GameCore
from bot.services.plays import replay_events
from bot.storage import ActionRow, GameRow, NewAction, SeatRow
from engine import GameState

T = TypeVar("T")


class RecordService:
    """The story, the log and the recent moves of a game."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.storage = core.storage

    async def shown_game(self, channel_id: int) -> GameRow | None:
        """The game `/ps status` shows: the one in the lobby or in play, or else the channel's
        last started game (over or abandoned), so its result stays visible after the end."""
        live = await self.core.live_game(channel_id)
        if live is not None:
            return live
        return await self.core.checked(await self.storage.latest_started_game(channel_id))

    async def game_for_log(self, channel_id: int) -> tuple[GameRow, list[Applied]]:
        """The channel's game in play, or else its last started one, with its whole log."""
        game = await self.core.checked(await self.storage.latest_started_game(channel_id))
        if game is None:
            raise UserError(refusals.NO_GAME_HERE)
        rows = await self.storage.actions(game.id)
        return game, [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]

    async def recent(self, game: GameRow, count: int) -> list[Applied]:
        """The last `count` logged actions of a game, oldest first."""
        if game.config is None:
            return []
        _, ply = await self.core.state_and_ply(game)
        rows = await self.storage.actions(game.id, after_ply=max(0, ply - count))
        return [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]

    async def log(self, game: GameRow) -> list[ActionRow]:
        """Every logged action of a game, oldest first (none before it starts)."""
        if game.config is None:
            return []
        return await self.storage.actions(game.id)

    async def history(self, game: GameRow) -> list[tuple[Applied, tuple[str, ...]]]:
        """Every logged action of a started game with the events it set off (photosynthesis,
        Cynthia's card draws, the end of the game), replayed from the log."""
        if game.config is None:
            raise UserError(refusals.NOT_STARTED)
        rows = await self.storage.actions(game.id)
        moves = [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]
        events = await self.core.replaying(game, replay_events, game.config, game.seed, moves)
        return list(zip(moves, events, strict=True))

    async def finished_game(
        self, game_id: int, guild_id: int | None, reader_id: int | None = None
    ) -> GameRow:
        """A finished game anyone in the server it was played in may replay (its record is
        public once it is over), and its players anywhere (`reader_id` held a seat: from a DM
        with the bot too). Refused in one sentence: a game unknown, of another server and not
        the reader's (the same words: nothing said about other servers' games) or abandoned;
        one still played."""
        game = await self.core.get_game(game_id)
        if game is None or game.config is None:
            raise UserError(refusals.REPLAY_NO_GAME.format(id=game_id))
        played = reader_id is not None and any(s.user_id == reader_id for s in game.seats)
        if daily_of(game) is not None:  # a daily challenge's: no server; once its day is over
            if self.core.daily_closed(game):
                raise UserError(refusals.DAILY_CLOSED)
        elif not (game.guild_id == guild_id or played):
            raise UserError(refusals.REPLAY_NO_GAME.format(id=game_id))
        if game.is_live:
            raise UserError(refusals.REPLAY_NOT_OVER.format(id=game_id))
        if game.status != "over":  # abandoned or expired: it never finished
            raise UserError(refusals.REPLAY_NO_GAME.format(id=game_id))
        return game

    async def replay(self, game: GameRow, tell: Callable[[GameRow, list[ActionRow]], T]) -> T:
        """A started game's log told by `tell(game, rows)` (the replay viewer's: pure CPU, run
        in a thread); a log that no longer replays sets the game aside (`UnreadableGame`)."""
        rows = await self.storage.actions(game.id)
        return await self.core.replaying(game, tell, game, rows)


def record_game(record: engine.Record, names: Sequence[str]) -> GameRow:
    """A record file's game as a stored one would read (its config, seed and names), for the
    story and the pictures."""
    seats = tuple(
        SeatRow(i, "cynthia" if kind == "cynthia" else "human", None, name)
        for i, (kind, name) in enumerate(zip(record.config.seats, names, strict=True))
    )
    return GameRow(
        id=0, guild_id=None, channel_id=0, host_id=0, status="over", options={},
        config=record.config.to_dict(), seed=record.seed, version=0, created_at="",
        updated_at="", seats=seats,
    )  # fmt: skip


def record_log(states: Sequence[GameState], notations: Sequence[str]) -> list[NewAction]:
    """A record's actions as a log (each played by the seat to play before it)."""
    return [
        NewAction(i + 1, notation, int(states[i].current_seat or 0), None)
        for i, notation in enumerate(notations)
    ]
