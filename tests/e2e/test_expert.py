"""The Expert at the table, through the loopback Discord: a lobby with an Expert seat and a few
turns against it with its reasons on the game message, `/ps hint` refused and given, a click in
another game answered while an Expert thinks, and a bot killed while the Expert thinks.

The Expert's budgets are scaled down (`PS_EXPERT_BUDGET_SCALE`, tests only) so that a game is
quick; each test computes the Expert's decisions itself (the same seed, the same budget) and
checks the bot's log against them exactly.
"""

from __future__ import annotations

import re

import pytest

import engine
from bot.services import refusals
from bot.services.experts import EXPERT_BUDGETS, play_turn
from bot.storage import read_text
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.gameplay import action_log, is_current, replay_log, turn_owner
from tests.e2e.helpers import (
    add_bot,
    answered,
    click,
    db_rows,
    field,
    mention,
    new_lobby,
    place_by_typing,
    refused,
    seat_rows,
)
from translation import Text

#: A tenth of the budget: a quick decision plays its beam's best plan (2 simulations are too few
#: to compare plans), a strong one simulates 14.
SCALE = 0.1
QUICK_ENV = {"PS_EXPERT_BUDGET_SCALE": str(SCALE), "EXPERT_WORKERS": "1"}
SEED = 11


async def my_turn(
    fake: FakeDiscord, chan: str, user: dict, after: FakeMessage | None = None
) -> FakeMessage:
    """The game message of `user`'s next turn (posted after `after`)."""

    def mine(m: FakeMessage) -> bool:
        newer = after is None or int(m.id) > int(after.id)
        return newer and is_current(m) and turn_owner(m) == user["id"]

    return await fake.wait_for_message(chan, mine, timeout=30)


async def type_action(fake: FakeDiscord, user: dict, chan: str, action: str) -> None:
    it = await answered(
        await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
    )
    assert it.ephemeral and it.content.startswith(f"You played `{action}`"), it.content


def log_rows(bot) -> list[tuple]:
    """(notation, seat, user_id, explanation) of every logged action, the explanation read back
    as the bot reads it (a translatable text is stored as its template and parameters)."""
    rows = db_rows(
        bot,
        "SELECT notation, seat, user_id, explanation FROM actions WHERE game_id = 1 ORDER BY ply",
    )
    return [(n, seat, user, read_text(why)) for n, seat, user, why in rows]


def expert_turns(state: engine.GameState, budget_s: float, seat: int) -> list[tuple]:
    """The Expert's turns from `state` while `seat` is to play, as the bot logs them."""
    rows = []
    while not state.is_over and state.current_seat == seat:
        for action in play_turn(state, budget_s, SEED):
            rows.append((str(action), seat, None, action.explanation))
            state = engine.apply(state, action)
    return rows


@pytest.mark.long
async def test_a_game_against_the_expert_with_its_reasons(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process(env={**QUICK_ENV, "PS_TEST_SEED": str(SEED)})
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    lobby = await new_lobby(fake, alice, chan)
    await refused(await fake.slash(alice, "ps hint", channel_id=chan), refusals.HINTS_OFF)
    await add_bot(fake, alice, lobby, "expert")
    assert field(lobby, "Seats") == f"1. {mention(alice)}\n2. Expert"
    assert seat_rows(bot) == [(0, "human", int(alice["id"])), (1, "expert", None)]
    await click(fake, alice, lobby, "Start")
    budget = EXPERT_BUDGETS["expert"] * SCALE

    msg = await my_turn(fake, chan, alice)
    turns = 1  # alice's turns: the Expert's get no message of their own (issue 44)
    while msg.embeds[0]["description"].startswith("Setup"):
        await place_by_typing(fake, alice, chan)
        msg = await my_turn(fake, chan, alice, msg)
        turns += 1
    # Setup done: the Expert placed after each of alice's placements. Now a few rounds: the
    # first seat passes each round, so alice's `end` is followed by two turns of the Expert
    # (the end of its round, the start of the next), then by none.
    for round_ in range(1, 4):
        state = engine.apply(replay_log(bot), engine.parse_actions("end")[0])
        logged = len(log_rows(bot))
        await type_action(fake, alice, chan, "end")
        msg = await my_turn(fake, chan, alice, msg)
        turns += 1
        theirs = log_rows(bot)[logged + 1 :]
        assert theirs == expert_turns(state, budget, seat=1)
        assert all(isinstance(row[3], Text) for row in theirs)  # kept translatable
        assert [row[0] for row in theirs].count("end") == (2 if round_ % 2 else 0)
        if not theirs:
            continue
        # On alice's game message, a line for the Expert's actions since her last turn, with
        # the margin it expects once (issue 56: not "best of ..." after each action).
        story = "\n".join(
            f["value"] for f in msg.embeds[0]["fields"] if f["name"].startswith("Since Alice's")
        )
        (line,) = [line for line in story.splitlines() if "Expert: " in line]
        margin = next(r[3].params["margin"] for r in theirs if "margin" in r[3].params)
        assert line.endswith(f" (expected margin {margin} points)"), line
        assert "best of" not in story and story.count("expected margin") == 1
        # Details, privately: each seat's pieces and tokens, and the Expert's reason once a
        # turn, as the engine words it
        details = await click(fake, alice, msg, "Details")
        assert details.ephemeral and details.embeds[0]["title"] == "Game #1: details"
        (fields,) = [e["fields"] for e in details.embeds]
        assert [f["name"] for f in fields if f["inline"]] == ["\N{LARGE ORANGE CIRCLE} Alice",
                                                             "\N{LARGE BLUE CIRCLE} Expert"]  # fmt: skip
        assert all(f["value"].startswith("Available: ") for f in fields if f["inline"])
        told = "\n".join(f["value"] for f in fields if not f["inline"])
        assert f"\N{EM DASH} {theirs[0][3]}" in told, told
        assert told.count(": best of ") + told.count(": nothing beats") <= told.count("Expert: ")
    # The thread holds one message per turn of alice's; the Expert's turns only changed the
    # message before alice's next one (no message, no "Take my turn" of their own).
    (thread,) = fake.threads_of(chan)
    assert len(fake.messages(thread)) == turns
    assert fake.messages(thread)[-1].content == f"{mention(alice)}, it is your turn."
    # The game log tells the Expert's moves with their reasons, like Cynthia's.
    it = await click(fake, alice, msg, "Game log")
    last = [r for r in log_rows(bot) if r[1] == 1][-1]
    assert it.ephemeral
    assert f"Expert: `{last[0]}` \N{EM DASH} {last[3]}" in it.embeds[0]["description"]
    reasons = [r[3] for r in log_rows(bot) if r[1] == 1]
    assert any(": best of " in r and " turn plans, expected margin " in r for r in reasons)
    await refused(await fake.slash(alice, "ps hint", channel_id=chan), refusals.HINTS_OFF)


async def test_hints_refused_and_given(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process(env={**QUICK_ENV, "PS_TEST_SEED": str(SEED)})
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    chan, elsewhere = fake.add_channel("games"), fake.add_channel("elsewhere")
    lobby = await new_lobby(fake, alice, chan, hints=True)
    assert field(lobby, "Options").splitlines()[-1] == "hints allowed (/ps hint)"
    hints_option = next(o for o in lobby.selects[0]["options"] if o["value"] == "hints")
    assert hints_option.get("default") is True
    await refused(await fake.slash(alice, "ps hint", channel_id=chan), refusals.NOT_STARTED)
    await click(fake, bob, lobby, "Join")
    await click(fake, alice, lobby, "Start")
    msg = await my_turn(fake, chan, alice)

    await refused(await fake.slash(alice, "ps hint", channel_id=elsewhere), refusals.NO_GAME_HERE)
    await refused(await fake.slash(carol, "ps hint", channel_id=chan), refusals.NOT_A_PLAYER)
    await refused(
        await fake.slash(bob, "ps hint", channel_id=chan),
        refusals.NOT_YOUR_TURN.format(player=mention(alice)),
    )
    while True:  # the setup placements, then a turn of the game
        logged = action_log(bot)
        it = await answered(await fake.slash(alice, "ps hint", channel_id=chan))
        state = replay_log(bot)
        best = engine.expert_action(state, budget_s=0.25 * SCALE, seed=SEED)
        assert it.ephemeral
        assert it.content == f"Hint: {best.explanation}"
        assert action_log(bot) == logged  # said, not played
        if state.phase == "play":
            assert re.fullmatch(
                rf"Hint: {best}: best of [0-9,]+ turn plans, expected margin [+-][0-9.]+ points",
                it.content,
            )
            break
        assert it.content == f"Hint: {best}: the starting space worth most"
        await type_action(fake, alice, chan, str(best))
        await my_turn(fake, chan, bob, msg)
        await place_by_typing(fake, bob, chan)
        msg = await my_turn(fake, chan, alice, msg)


async def test_clicks_answered_while_the_expert_thinks_and_a_restart_while_it_is_to_play(
    fake: FakeDiscord, bot_process
) -> None:
    # The Expert at twenty times its budget, with a Cynthia at the table: her cards are
    # chance, so each decision runs all its simulations and takes seconds. The other
    # game's click below is then answered while it surely still thinks, even on a loaded
    # machine. (Between people alone each plan is simulated once, a few dozen at most: there a
    # loaded machine once let it finish its first turn before the click was answered.)
    slow = {"PS_EXPERT_BUDGET_SCALE": "20", "EXPERT_WORKERS": "1", "PS_TEST_SEED": str(SEED)}
    bot = await bot_process(env=slow)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan, other = fake.add_channel("games"), fake.add_channel("other")
    lobby = await new_lobby(fake, alice, chan)
    await add_bot(fake, alice, lobby, "expert")
    await add_bot(fake, alice, lobby, "cynthia")
    await click(fake, alice, lobby, "Start")
    lobby_b = await new_lobby(fake, bob, other)
    await add_bot(fake, bob, lobby_b, "cynthia")
    await click(fake, bob, lobby_b, "Start")
    game_b = await my_turn(fake, other, bob)

    msg = await my_turn(fake, chan, alice)
    while msg.embeds[0]["description"].startswith("Setup"):
        await place_by_typing(fake, alice, chan)
        msg = await my_turn(fake, chan, alice, msg)
    before = replay_log(bot)
    await type_action(fake, alice, chan, "end")  # the Expert's turn begins
    ended = len(log_rows(bot))

    # Another game's click is answered while the Expert's turn is under way.
    it = await click(fake, bob, game_b, "Take my turn")
    assert it.ephemeral and it.content == "Setup: choose an empty outer space for a small tree."
    assert len(log_rows(bot)) == ended  # the Expert has not played yet

    # Killed while the Expert thinks: nothing of its turn was stored.
    bot.kill()
    await bot.wait_exit()
    assert len(log_rows(bot)) == ended
    # Restarted (with the tests' scale, for speed): the Expert plays that turn then, once.
    bot.extra_env.update(QUICK_ENV)
    await bot.start()
    await fake.wait_ready()
    await my_turn(fake, chan, alice, msg)
    state = engine.apply(before, engine.parse_actions("end")[0])
    expected = expert_turns(state, EXPERT_BUDGETS["expert"] * SCALE, seat=1)
    assert log_rows(bot)[ended : ended + len(expected)] == expected
    assert expected[-1][0] == "end"
    assert log_rows(bot)[ended + len(expected)][1] == 2  # then Cynthia's turn
    assert db_rows(bot, "SELECT kind FROM seats WHERE game_id = 1 ORDER BY position") == [
        ("human",), ("expert",), ("cynthia",),
    ]  # fmt: skip


async def test_in_an_expansion_game_the_expert_keeps_an_animal_and_hides_the_other(
    fake: FakeDiscord, bot_process
) -> None:
    from engine.expert.facade import ANIMAL_PREFERENCE
    from engine.moonlight import ANIMALS
    from tests.e2e.helpers import assert_hides, public_text
    from tests.e2e.moonlight_deal import MODES

    bot = await bot_process(env={**QUICK_ENV, "PS_TEST_SEED": str(SEED)})
    alice = fake.add_user("alice")
    chan = fake.add_channel("moonlight")
    lobby = await new_lobby(fake, alice, chan)
    await answered(await fake.select(alice, lobby, lobby.selects[0], list(MODES)))
    await add_bot(fake, alice, lobby, "expert")
    await click(fake, alice, lobby, "Start")
    msg = await my_turn(fake, chan, alice)
    dealt = replay_log(bot).ext.dealt
    await type_action(fake, alice, chan, f"animal {ANIMALS[dealt[0][0]]}")
    msg = await my_turn(fake, chan, alice, msg)

    theirs, other = sorted((ANIMALS[a] for a in dealt[1]), key=ANIMAL_PREFERENCE.index)
    expert_rows = [r for r in log_rows(bot) if r[1] == 1]
    assert expert_rows[0][0] == f"animal {theirs}"
    assert expert_rows[0][3] == f"animal {theirs}: of the two animals dealt, the one it plays best"
    # Alice sees the animal it kept, never the one it put back: not on the game message, not in
    # the game log.
    assert theirs.title() in field(msg, "Seats")
    assert_hides(public_text(msg), other)
    it = await click(fake, alice, msg, "Game log")
    assert f"`animal {theirs}`" in it.embeds[0]["description"]
    assert_hides(it.embeds[0]["description"], other)
