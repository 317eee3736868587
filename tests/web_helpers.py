"""A game for the web companion's tests: a person and Cynthia in a server whose site is on,
played with the first legal action (to the end, or a number of actions)."""

from __future__ import annotations

import engine
from bot.services import GameService
from bot.storage import GameRow

GUILD = 5
CHANNEL = 50
HOST = 11


async def played_game(service: GameService, actions: int | None = None) -> GameRow:
    """A started game of a person (HOST, "Ann") and Cynthia, its person's turns the first legal
    action each, for `actions` of the person's actions (None: to the end)."""
    game = await service.lobby.new_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Ann", options={}
    )
    game = await service.lobby.add_cynthia(game.id, game.version, HOST)
    game = (await service.lobby.start(game.id, game.version, HOST)).game
    done = 0
    while actions is None or done < actions:
        state = await service.core.state(game)
        if state.is_over:
            break
        first = str(engine.legal_actions(state)[0])
        game = (await service.turns.play(game.id, HOST, first, game.version)).game
        done += 1
    return game
