"""The upkeep loop survives any exception: one game's failure leaves the others served, and a
failed run returns normally so `discord.ext.tasks` keeps the loop going."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discord.app import PhotosynthesisBot


class Recorder:
    def __init__(self, failing: set[int]) -> None:
        self.failing, self.done = failing, []

    async def act(self, game, *_state) -> None:
        game_id = getattr(game, "id", game)
        if game_id in self.failing:
            raise RuntimeError(f"game {game_id} broke")
        self.done.append(game_id)


def fake_bot(lobbies: list[int], active: list[int], *, broken: set[int], storage_broken=False):
    closer, resumer = Recorder(broken), Recorder(broken)

    async def expire_lobbies(_age):
        return [SimpleNamespace(id=i) for i in lobbies]

    async def resume_automa(game_id):
        await resumer.act(game_id)
        return SimpleNamespace(game=SimpleNamespace(id=game_id), state=None)

    async def games_with_status(*_statuses):
        if storage_broken:
            raise OSError("database is locked")
        return [SimpleNamespace(id=i, guild_id=None) for i in active]

    bot = SimpleNamespace(
        # a resumed game's message is drawn by what follows its commit (bot.discord.pipeline)
        publisher=SimpleNamespace(close_messages=closer.act),
        serves=lambda guild_id: True,
        games=SimpleNamespace(
            endings=SimpleNamespace(expire_lobbies=expire_lobbies),
            bots=SimpleNamespace(resume_automa=resume_automa),
        ),
        storage=SimpleNamespace(games_with_status=games_with_status),
    )
    bot._expire_lobbies = lambda: PhotosynthesisBot._expire_lobbies(bot)
    bot._resume_automa = lambda: PhotosynthesisBot._resume_automa(bot)
    bot._mine_puzzles = lambda: _mine(storage_broken)
    return bot, closer, resumer


async def _mine(broken: bool) -> None:
    """The search for puzzles (its own step: a failure there is logged, and the others ran)."""
    if broken:
        raise OSError("database is locked")


async def test_one_games_failure_leaves_the_others_served() -> None:
    bot, closer, resumer = fake_bot([1, 2, 3], [4, 5, 6], broken={2, 5})
    await PhotosynthesisBot.upkeep.coro(bot)
    assert closer.done == [1, 3]
    assert resumer.done == [4, 6]


async def test_a_failed_run_returns_and_lobbies_still_expire() -> None:
    bot, closer, resumer = fake_bot([7, 8], [9], broken=set(), storage_broken=True)
    await PhotosynthesisBot.upkeep.coro(bot)  # does not raise: the loop goes on
    assert closer.done == [7, 8]
    assert resumer.done == []
