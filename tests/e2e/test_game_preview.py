"""The Next-sun preview shows the sun of the next photosynthesis (the engine's
`next_photosynthesis_sun`): round 1's during setup, and none in the last round."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

import engine
from bot.present import texts
from bot.present.embeds import SUN_CORNERS
from bot.services import GameService
from bot.services.experts import Experts
from bot.storage import SQLiteStorage
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import replay_log, start_game
from tests.e2e.helpers import click, is_game_message, refused


async def test_preview_in_setup_shows_round_one_sun(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    msg = await start_game(fake, chan, alice, [bob], cynthias=0)
    state = replay_log(bot)
    assert state.phase == "setup" and engine.next_photosynthesis_sun(state) == 0
    it = await click(fake, bob, msg, "Next-sun preview")
    assert it.ephemeral and it.embeds[0]["title"] == f"Next sun: the {SUN_CORNERS[0]} corner"
    gains = engine.light_for_sun(state, 0)
    lines = it.embeds[0]["description"].splitlines()[1:]
    assert [line.split(": ")[1] for line in lines] == [f"+{g} light (has 0)" for g in gains]
    # The phone picture (taller than wide, no seat cards), as the game message's: the gains are
    # the embed's text.
    ((name, png),) = it.attachments
    picture = Image.open(io.BytesIO(png))
    assert name == "board.png" and picture.height > picture.width


async def last_round_game(path: Path, guild_id: int, channel_id: int, user_id: int) -> int:
    """A game of a person and Cynthia played by the autopilot into its last round, stored
    before the bot starts (its restart draws the game message). The autopilot is the Expert,
    here at a hundredth of its budget (as in the Expert's tests): how it plays does not matter,
    and at its full budget the 18 rounds took 12-15 s on a slow machine."""
    storage = await SQLiteStorage.open(str(path))
    pool = Experts(workers=1, scale=0.01)
    try:
        games = GameService(storage, experts=pool)
        game = await games.lobby.new_lobby(
            guild_id=guild_id, channel_id=channel_id, host_id=user_id, host_name="alice"
        )
        game = await games.lobby.add_cynthia(game.id, None, user_id)
        result = await games.lobby.start(game.id, None, user_id)
        state = result.state
        while state.phase == "setup" or state.round < state.config.last_round:
            played = await games.bots.play_automatically(
                game.id, engine.turn_id(state), autopilot=True
            )
            assert played is not None
            state = played.state
        assert not state.is_over and state.round == state.config.last_round
        return game.id
    finally:
        pool.close()
        await storage.close()


async def test_no_preview_in_the_last_round(fake: FakeDiscord, bot_process, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    await last_round_game(tmp_path / "bot.db", int(fake.guild_id), int(chan), int(alice["id"]))
    bot = await bot_process()
    msg = await fake.wait_for_message(chan, is_game_message())
    state = replay_log(bot)
    assert state.round == state.config.last_round and not state.is_over
    assert engine.next_photosynthesis_sun(state) is None
    before = (msg.content, msg.embeds, msg.edits)
    await refused(
        await fake.click(alice, msg, msg.find_button(label="Next-sun preview")),
        texts.NO_PHOTOSYNTHESIS_LEFT,
    )
    assert texts.NO_PHOTOSYNTHESIS_LEFT == "No photosynthesis is left in this game."
    assert (msg.content, msg.embeds, msg.edits) == before
