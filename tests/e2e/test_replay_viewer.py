"""The move-by-move replay viewer, end to end (one bot, restarted once): a finished game (written
into the bot's database before it starts, as `/ps replay` sees any stored game) opened from its
final message's Replay button, `/ps replay game:` and `/ps replay` of its record file;
each picture is the engine's position at its step, forward and back, by action, turn and round,
the select jumps to a round, and the viewer keeps working after a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from bot.present import pictures, replays, story, texts
from bot.services import refusals
from bot.storage import NewAction
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.finished_game import write_finished_game
from tests.e2e.helpers import answered, db_rows, refused, write_db

NAMES = ["Alice", "Cynthia"]
FORWARD = "Action \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"
BACK = "\N{SINGLE LEFT-POINTING ANGLE QUOTATION MARK} Action"
NEXT_TURN = "Turn \N{BLACK RIGHT-POINTING TRIANGLE}"
NEXT_ROUND = "Round \N{BLACK RIGHT-POINTING DOUBLE TRIANGLE}"
PREVIOUS_ROUND = "\N{BLACK LEFT-POINTING DOUBLE TRIANGLE} Round"


def alice_ends(state: engine.GameState) -> str:
    """Alice places her setup trees where the engine lists first, then only ends her turns (the
    shortest whole game)."""
    return "end" if state.phase == "play" else str(engine.legal_actions(state)[0])


class Expected:
    """The engine's positions of the stored game, and the picture of each step drawn as the
    game message draws a position (the spaces of the step's turn so far outlined)."""

    def __init__(self, bot) -> None:
        (config, seed), *_ = db_rows(bot, "SELECT config, seed FROM games WHERE id = 1")
        rows = db_rows(bot, "SELECT ply, notation, seat, user_id FROM actions ORDER BY ply")
        self.config = engine.Config.from_dict(json.loads(config))
        self.seed = seed
        self.notations = [row[1] for row in rows]
        self.log = [NewAction(*row) for row in rows]
        start = engine.new_game(self.config, seed)
        self.states = [start, *engine.record.states(self.config, seed, self.notations)]
        self.turn_starts = [0]
        for turn in story.turns_of(self.log):
            self.turn_starts.append(self.turn_starts[-1] + len(turn.moves))
        self.round_starts = [
            i
            for i in range(1, len(self.states))
            if self.states[i].round != self.states[i - 1].round
        ]
        self._pictures: dict[int, tuple[bytes, str]] = {}

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def picture(self, step: int) -> tuple[bytes, str]:
        """The PNG and its alt text."""
        if step not in self._pictures:
            start = max((s for s in self.turn_starts if s < step), default=0)
            spaces: set[str] = set()
            for i in range(start, step):
                before, after = self.states[i], self.states[i + 1]
                spaces |= story.changed(story.marks(before), after, self.notations[i])
            self._pictures[step] = pictures.board_picture(
                self.states[step], highlight=sorted(spaces), names=NAMES, lang="en",
                layout="phone",
            )  # fmt: skip
        return self._pictures[step]


def picture(viewer: FakeMessage) -> bytes:
    (png,) = [data for name, data in viewer.attachments if name == "board.png"]
    return png


def alt(viewer: FakeMessage) -> str | None:
    (described,) = [a.description for a in viewer.files if a.filename == "board.png"]
    return described


def footer(viewer: FakeMessage) -> str:
    return viewer.embeds[0]["footer"]["text"]


def at(viewer: FakeMessage, expected: Expected, step: int) -> None:
    """The viewer shows `step`: its footer counts it, its picture is the engine's position (the
    alt text too)."""
    assert footer(viewer).endswith(f"action {step} of {expected.last}"), footer(viewer)
    assert (picture(viewer), alt(viewer)) == expected.picture(step), f"picture of step {step}"
    # The phone picture has no seat cards: each seat's light and score are the embed's.
    state = expected.states[step]
    seats = viewer.embeds[0]["fields"][0]
    assert seats["name"] == "Seats"
    assert [line.rsplit(" \N{EM DASH} ", 1)[1] for line in seats["value"].splitlines()] == [
        f"{seat.light} light, {score} point{'' if score == 1 else 's'}"
        for seat, score in zip(state.seats, engine.scores(state), strict=True)
    ]
    assert [f["name"].split(" ", 1)[1] for f in viewer.embeds[0]["fields"][1:]] == NAMES


async def press(fake: FakeDiscord, user: dict, viewer: FakeMessage, label: str) -> FakeMessage:
    it = await answered(await fake.click(user, viewer, viewer.find_button(label=label)))
    assert it.response is viewer, it.content
    return viewer


@pytest.mark.long
async def test_the_replay_viewer_steps_through_a_finished_game(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    await write_finished_game(
        str(tmp_path / "bot.db"), int(fake.guild_id), int(chan), int(alice["id"]), alice_ends
    )
    bot = await bot_process()  # its start's resync posts the final message
    final = await fake.wait_for_message(
        chan, lambda m: any(b["label"] == "Replay" for b in m.buttons), timeout=30
    )
    expected = Expected(bot)
    assert expected.states[-1].is_over and expected.last > 60

    # The final message's Replay button opens the viewer privately, for anyone in the server.
    it = await answered(await fake.click(bob, final, final.find_button(label="Replay")))
    viewer = it.response
    assert it.ephemeral and viewer.embeds[0]["title"] == "Replay of game #1"
    assert viewer.embeds[0]["description"] == replays.REPLAY_START.template
    at(viewer, expected, 0)
    assert [b["label"] for b in viewer.buttons if b.get("disabled")] == [
        PREVIOUS_ROUND, "\N{BLACK LEFT-POINTING TRIANGLE} Turn", BACK,
    ]  # fmt: skip

    # The whole game forward by action, then back: every picture is the engine's position.
    seen = {0: picture(viewer)}
    for step in range(1, expected.last + 1):
        await press(fake, bob, viewer, FORWARD)
        at(viewer, expected, step)
        seen[step] = picture(viewer)
    assert "Final position after" in viewer.embeds[0]["description"]
    assert [b["label"] for b in viewer.buttons if b.get("disabled")] == [
        FORWARD, NEXT_TURN, NEXT_ROUND,
    ]  # fmt: skip
    for step in range(expected.last - 1, -1, -1):
        await press(fake, bob, viewer, BACK)
        assert footer(viewer).endswith(f"action {step} of {expected.last}")
        assert picture(viewer) == seen[step]

    # By turn, then by round, then the select jumps to round 5.
    for start in expected.turn_starts[1:4]:
        await press(fake, bob, viewer, NEXT_TURN)
        at(viewer, expected, start)
    step = expected.turn_starts[3]
    for start in [s for s in expected.round_starts if s > step][:2]:
        await press(fake, bob, viewer, NEXT_ROUND)
        at(viewer, expected, start)
        assert footer(viewer).startswith(f"Round {expected.states[start].round} of 18")
    jump = viewer.selects[0]
    fifth = next(o for o in jump["options"] if o["label"] == "Round 5")
    await answered(await fake.select(bob, viewer, jump, [fifth["value"]]))
    at(viewer, expected, expected.round_starts[4])
    await press(fake, bob, viewer, PREVIOUS_ROUND)
    at(viewer, expected, expected.round_starts[3])

    # A record file (from /ps log) opens a viewer of its own.
    it = await answered(await fake.slash(alice, "ps log", channel_id=chan))
    ((name, data),) = it.attachments
    it = await fake.slash(alice, "ps replay", options={"record": (name, data)}, channel_id=chan)
    await it.wait_response(timeout=30)
    from_file = it.response
    assert it.ephemeral and from_file.embeds[0]["title"] == "Replay of a game record"
    at(from_file, expected, 0)
    await press(fake, alice, from_file, NEXT_ROUND)
    at(from_file, expected, expected.round_starts[0])

    # After a restart both viewers keep stepping (their source and step are in the custom_id;
    # the file's viewer reads the record it carries again).
    bot.kill()
    await bot.wait_exit()
    await bot.start()
    await fake.wait_ready()
    await press(fake, bob, viewer, FORWARD)
    at(viewer, expected, expected.round_starts[3] + 1)
    await press(fake, alice, from_file, FORWARD)
    at(from_file, expected, expected.round_starts[0] + 1)

    # In Hebrew: the viewer's words are the reader's, its picture drawn in Hebrew.
    carol = fake.add_user("carol")
    await answered(
        await fake.slash(carol, "ps language", options={"language": "he"}, channel_id=chan)
    )
    it = await answered(await fake.click(carol, final, final.find_button(label="Replay")))
    hebrew = it.response
    assert hebrew.embeds[0]["title"] == "צפייה חוזרת במשחק 1"
    assert footer(hebrew) == f"הכנת המשחק · פעולה 0 מתוך {expected.last}"
    assert [b["label"] for b in hebrew.buttons][3:] == [
        "פעולה \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}",
        "תור \N{BLACK RIGHT-POINTING TRIANGLE}",
        "סבב \N{BLACK RIGHT-POINTING DOUBLE TRIANGLE}",
    ]
    start = pictures.board_picture(
        expected.states[0], highlight=[], names=NAMES, lang="he", layout="phone"
    )
    assert (picture(hebrew), alt(hebrew)) == start

    # `/ps replay game:` opens the same viewer; a wrong number or a forged step is refused.
    it = await answered(await fake.slash(alice, "ps replay", options={"game": 1}, channel_id=chan))
    assert it.ephemeral and it.response.embeds[0]["title"] == "Replay of game #1"
    await refused(
        await fake.slash(alice, "ps replay", options={"game": 7}, channel_id=chan),
        refusals.REPLAY_NO_GAME.template.format(id=7),
    )
    await refused(
        await fake.slash(alice, "ps replay", channel_id=chan), texts.REPLAY_WHICH.template
    )
    await refused(
        await fake.forged_component(bob, viewer, f"ps:rv:g1:a+:{expected.last + 1}"),
        refusals.NOT_OFFERED.template,
    )
    # A game of another server is not replayed here (as if it had been played elsewhere).
    write_db(bot, "UPDATE games SET guild_id = guild_id + 1 WHERE id = 1")
    await refused(
        await fake.click(bob, viewer, viewer.find_button(label=FORWARD)),
        refusals.REPLAY_NO_GAME.template.format(id=1),
    )
    assert fake.late_interactions == []
