"""Issue 44's slips, each at the level where it was made: the settings sentence without a timer,
the end of a game won by the autopilot, the thread name of four long names, a typed refusal's
echo (the calm thread itself is played end to end in tests/e2e)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

import engine
from bot.discord.publisher import THREAD_NAME_LIMIT, final_content, thread_name
from bot.discord.replies import CHANNEL_PERMISSIONS
from bot.present import correspondence_texts as ct
from bot.present import i18n, texts
from bot.storage import GameRow, SeatRow
from tests.play_helpers import random_game


def test_settings_without_a_timer_say_nothing_of_its_running_out() -> None:
    line = ct.settings_line({"turn_timer": 0, "on_timeout": "end", "on_leave": "autopilot"})
    assert line == "**No turn timer**; when a player leaves, the autopilot takes the seat."
    timed = ct.settings_line({"turn_timer": 12, "on_timeout": "autopilot", "on_leave": "end"})
    assert timed == (
        "Turn timer: **12 hours**; when it runs out, the autopilot plays the turn; "
        "when a player leaves, the game ends."
    )
    for lang in ("nl", "fr", "he"):  # translated whole, in every language
        with i18n.speaking(lang):
            assert i18n.tr(line) != line and i18n.tr(timed) != timed
            changed = ct.SETTINGS_CHANGED.format(user="<@1>", settings=line)
            assert "changed the settings" not in i18n.tr(changed)


def game_over(seats: tuple[SeatRow, ...]) -> tuple[GameRow, engine.GameState]:
    state, _ = random_game(engine.Config(seats=("human",) * len(seats)), seed=4)
    game = GameRow(1, 1, 7, 11, "over", {}, None, 4, 9, "", "", seats)
    return game, state


def test_the_autopilot_of_a_player_who_left_is_not_congratulated() -> None:
    left = (
        SeatRow(0, "human", None, "Bob (autopilot)"),
        SeatRow(1, "human", None, "Ann (autopilot)"),
    )
    game, state = game_over(left)
    (winner,) = [left[w].name for w in engine.winners(state)]
    assert final_content(game, state) == f"The game is over. The winner: {winner}."
    people = (SeatRow(0, "human", 5, "Bob"), SeatRow(1, "human", 6, "Ann"))
    game, state = game_over(people)
    winner = {0: "<@5>", 1: "<@6>"}[engine.winners(state)[0]]
    assert final_content(game, state) == f"The game is over. Congratulations, {winner}!"


def test_the_thread_name_names_every_player_cutting_long_names_only_as_needed() -> None:
    names = [
        "Bartholomew the Magnificent", "Alexandrina Constantinopolous",
        "Maximilian Featherstonehaugh", "Dana",
    ]  # fmt: skip
    name = thread_name(12, names)
    assert len(name) <= THREAD_NAME_LIMIT
    assert name == (
        "Photosynthesis #12: Bartholomew the Magnif\N{HORIZONTAL ELLIPSIS}, Alexandrina "
        "Constantin\N{HORIZONTAL ELLIPSIS}, Maximilian Featherston\N{HORIZONTAL ELLIPSIS}, Dana"
    )
    assert thread_name(12, ["Bartholomew", "Dana"]) == "Photosynthesis #12: Bartholomew, Dana"


def test_a_typed_refusal_quotes_the_words_as_typed() -> None:
    for typed, said in (
        ("grow Z9", "'Z9' is not a space on the board (A1 to G4)."),
        ("Plant C3 Q1", "'Q1' is not a space on the board (A1 to G4)."),
        ("Fly D4", "'Fly' is not an action. Try place, buy, plant, grow, collect or end."),
    ):
        try:
            engine.parse_actions(typed)
        except engine.IllegalAction as exc:
            assert str(exc) == said
        else:
            raise AssertionError(f"{typed!r} was read")
    assert [str(a) for a in engine.parse_actions("G d 4; P C3 to E5")] == ["grow D4", "plant C3 E5"]


def test_the_invite_link_asks_for_every_permission_a_game_needs() -> None:
    """Issue 44: games are played in threads, so the invite asks for Create Public Threads and
    Send Messages in Threads too: the README's link and the no-token help give one number, the
    sum of Discord's documented bits of what the bot checks in a channel, plus its commands."""
    needed = discord.Permissions(
        use_application_commands=True, **dict.fromkeys(CHANNEL_PERMISSIONS, True)
    )
    assert texts.INVITE_PERMISSIONS == needed.value == 311385246720
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for text in (readme, texts.NO_TOKEN):
        assert re.findall(r"permissions=(\d+)", text) == [str(needed.value)]
        words = " ".join(text.split())
        assert "Create Public Threads" in words and "Send Messages in Threads" in words
