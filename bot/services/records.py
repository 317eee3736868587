"""What was played: the turns the game message tells, the log and the recent moves. Reading
only: nothing here takes a game's lock."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.present import story, texts
from bot.services import replays
from bot.services.base import Applied, UserError
from bot.services.core import GameCore
from bot.services.plays import replay_events
from bot.services.replays import Replay
from bot.storage import GameRow
from engine import GameState


class RecordService:
    """The story, the log and the recent moves of a game."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.storage = core.storage
        #: the replays of finished games and of record files, and their pictures
        self.replays = replays.ReplayCache.new()

    async def shown_game(self, channel_id: int) -> GameRow | None:
        """The game `/ps status` shows: the one in the lobby or in play, or else the channel's
        last started game (over or abandoned), so its result stays visible after the end."""
        live = await self.storage.live_game(channel_id)
        return live if live is not None else await self.storage.latest_started_game(channel_id)

    async def game_for_log(self, channel_id: int) -> tuple[GameRow, list[Applied]]:
        """The channel's game in play, or else its last started one, with its whole log."""
        game = await self.storage.latest_started_game(channel_id)
        if game is None:
            raise UserError(texts.NO_GAME_HERE)
        rows = await self.storage.actions(game.id)
        return game, [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]

    async def recent(self, game: GameRow, count: int) -> list[Applied]:
        """The last `count` logged actions of a game, oldest first."""
        if game.config is None:
            return []
        _, ply = await self.core.state_and_ply(game)
        rows = await self.storage.actions(game.id, after_ply=max(0, ply - count))
        return [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]

    async def story(self, game: GameRow, state: GameState) -> list[story.Turn]:
        """The turns the game message tells (`bot.present.story.tell`): since the player to play last
        finished a turn, with their events and the spaces they changed."""
        if game.config is None:
            return []
        rows = await self.storage.actions(game.id)
        keep: dict[int, tuple[int, Any]] = {}
        turns = await asyncio.to_thread(
            story.tell, game, state, rows, self.core.told.get(game.id), keep
        )
        if game.status == "active" and not state.is_over:
            self.core.told[game.id] = keep  # the next telling replays only what came since
        else:
            self.core.told.pop(game.id, None)
        return turns

    async def history(self, game: GameRow) -> list[tuple[Applied, tuple[str, ...]]]:
        """Every logged action of a started game with the events it set off (photosynthesis,
        Cynthia's card draws, the end of the game), replayed from the log."""
        if game.config is None:
            raise UserError(texts.NOT_STARTED)
        rows = await self.storage.actions(game.id)
        moves = [Applied(r.ply, r.notation, r.seat, r.user_id, r.explanation) for r in rows]
        events = await self.core.replaying(game, replay_events, game.config, game.seed, moves)
        return list(zip(moves, events, strict=True))

    async def finished_game(self, game_id: int, guild_id: int | None) -> GameRow:
        """A finished game anyone in the server it was played in may replay (its record is
        public once it is over). Refused in one sentence: a game unknown, of another server
        (the same words: nothing said about other servers' games) or abandoned; one still
        played."""
        game = await self.storage.get_game(game_id)
        if game is None or game.config is None or game.guild_id != guild_id:
            raise UserError(texts.REPLAY_NO_GAME.format(id=game_id))
        if game.is_live:
            raise UserError(texts.REPLAY_NOT_OVER.format(id=game_id))
        if game.status != "over":  # abandoned or expired: it never finished
            raise UserError(texts.REPLAY_NO_GAME.format(id=game_id))
        return game

    async def replay(self, game: GameRow) -> Replay:
        """The replay of a finished game (`finished_game`), kept for the next steps."""
        key = f"g{game.id}"
        kept = self.replays.replays.get(key)
        if kept is not None:
            return kept
        rows = await self.storage.actions(game.id)
        built = await self.core.replaying(game, replays.replay, game, rows)
        return self.replays.replays.put(key, built)
