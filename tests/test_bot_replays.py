"""The replay viewer's logic without Discord: where its buttons lead, its rounds, what a replay
tells of hidden information, and which games may be replayed."""

from __future__ import annotations

import random

import pytest

import engine
from bot.discord.cogs.board import file_replay
from bot.present import embeds, i18n, pictures, replays
from bot.services import GameService, refusals
from bot.services.base import UserError
from translation import translate

NAMES = ["Ash", "Birch"]


def random_record(config: engine.Config, seed: int, stop: int | None = None) -> engine.Record:
    """A record of random legal actions (to the end, or `stop` actions)."""
    rnd = random.Random(seed)
    state, actions = engine.new_game(config, seed), []
    while not state.is_over and (stop is None or len(actions) < stop):
        action = str(rnd.choice(engine.legal_actions(state)))
        actions.append(action)
        state = engine.apply(state, action)
    return engine.Record(config, seed, actions, tuple(NAMES[: len(config.seats)]))


def of(record: engine.Record) -> replays.Replay:
    return file_replay(record.to_text().encode())


def test_the_buttons_lead_by_action_turn_and_round() -> None:
    record = random_record(engine.Config(seats=("human", "cynthia")), 7)
    replay = of(record)
    states = [
        engine.new_game(record.config, 7),
        *engine.record.states(record.config, 7, record.actions),
    ]
    assert replay.last == len(record.actions) and replay.states[-1] == states[-1]
    assert all(a == b for a, b in zip(replay.states, states, strict=True))
    starts = [0] + [i for i in range(1, len(states)) if states[i].round != states[i - 1].round]
    assert [replay.round_of(s) for s in starts] == list(range(19))
    # by action: one step, none before the start or after the end
    assert (replay.target("a-", 0), replay.target("a+", 0)) == (None, 1)
    assert (replay.target("a-", replay.last), replay.target("a+", replay.last)) == (
        replay.last - 1, None,
    )  # fmt: skip
    # by round: the start of the next round (the end after the last), back to this round's start
    middle = starts[5] + 2
    assert replay.target("r+", middle) == starts[6]
    assert replay.target("r-", middle) == starts[5]
    assert replay.target("r-", starts[5]) == starts[4]
    assert replay.target("r+", starts[-1]) == replay.last
    # by turn: a turn is one seat's actions to its end (a setup placement is a turn)
    turn = replay.target("t+", starts[3])
    assert turn is not None and record.actions[turn - 1] == "end"
    assert "end" not in record.actions[starts[3] : turn - 1]
    assert replay.target("t-", turn) == starts[3]
    # the select: the setup, each round, the final position; by their first step
    rounds = replay.rounds()
    assert [translate(label, "en") for label, _ in rounds] == [
        "Setup", *(f"Round {n}" for n in range(1, 19)), "Final position",
    ]  # fmt: skip
    assert [step for _, step in rounds] == [*starts, replay.last]
    with i18n.speaking("en"):
        assert (
            translate(replay.status(starts[2]), "en")
            == f"Round 2 of 18 · action {starts[2]} of {replay.last}"
        )


def test_four_revolutions_fit_one_select() -> None:
    replay = of(random_record(engine.Config(seats=("human", "cynthia"), revolutions=4), 3))
    labels = [translate(label, "en") for label, _ in replay.rounds()]
    assert len(labels) == replays.SELECT_LIMIT
    assert labels[0] == "Round 1" and labels[-2:] == ["Round 24", "Final position"]


def test_an_animal_kept_and_not_placed_stays_hidden() -> None:
    """A record that stops once the first seat kept an animal: the replay says it kept one, not
    which (the seat's hand is hidden until the animal stands on the board)."""
    config = engine.Config(seats=("human", "human"), moon_animals=True)
    state = engine.new_game(config, 3)
    kept = str(engine.legal_actions(state)[0])
    assert kept == "animal beaver"
    replay = of(engine.Record(config, 3, [kept], tuple(NAMES)))
    with i18n.speaking("en"):
        lines = [translate(line, "en") for line in replay.lines(1)]
    assert lines == ["\N{LARGE ORANGE CIRCLE} Ash: kept an animal"]
    assert replay.moves[0].notation == "animal ?"
    # the other animal kept instead: the replay's story and picture are the same
    other = str(engine.legal_actions(state)[1])
    assert other == "animal turtle"
    twin = of(engine.Record(config, 3, [other], tuple(NAMES)))
    with i18n.speaking("en"):
        assert [translate(line, "en") for line in twin.lines(1)] == lines
    drawn = [
        pictures.board_picture(
            r.states[1], highlight=r.changed(1), names=NAMES, lang="en", layout="phone"
        )
        for r in (replay, twin)
    ]
    assert drawn[0] == drawn[1]
    # nor the viewer's embed: the seats' fields show no animal in hand
    with i18n.speaking("en"):
        shown = [embeds.replay_embed("Replay", r, 1).to_dict() for r in (replay, twin)]
    assert shown[0] == shown[1]
    assert "Beaver" not in str(shown[0]) and "Turtle" not in str(shown[0])


@pytest.fixture
async def service(any_storage):
    return GameService(any_storage, seed_source=lambda: 1234)


async def test_only_a_finished_game_of_this_server_is_replayed(service: GameService) -> None:
    game = await service.lobby.new_lobby(
        guild_id=1, channel_id=99, host_id=1, host_name="host", options={}
    )
    game = await service.lobby.add_cynthia(game.id, game.version, 1)
    started = (await service.lobby.start(game.id, game.version, 1)).game
    records = service.records
    for game_id, guild, reader, sentence in (
        (started.id, 1, None, refusals.REPLAY_NOT_OVER.format(id=started.id)),
        (started.id, 2, None, refusals.REPLAY_NO_GAME.format(id=started.id)),
        (started.id + 1, 1, None, refusals.REPLAY_NO_GAME.format(id=started.id + 1)),
        # from a DM (no server): its player gets as far as this server's members, no one else
        (started.id, None, 1, refusals.REPLAY_NOT_OVER.format(id=started.id)),
        (started.id, None, 5, refusals.REPLAY_NO_GAME.format(id=started.id)),
        (started.id, 2, 5, refusals.REPLAY_NO_GAME.format(id=started.id)),
    ):
        with pytest.raises(UserError) as info:
            await records.finished_game(game_id, guild, reader)
        assert info.value.args[0] == sentence


def test_the_caches_keep_the_most_recently_used() -> None:
    cache: replays.Lru[str, int] = replays.Lru(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # now the most recent
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)
