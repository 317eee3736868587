"""Forged component ids: whatever custom_id a client sends, the answer is one sentence, and a
game of another channel is refused (a hostile client may send any custom_id it likes)."""

from __future__ import annotations

import json

import engine
from bot.present import texts
from bot.services import refusals
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, find_component, numbered
from tests.e2e.gameplay import action_log, next_turn, replay_log, start_game
from tests.e2e.helpers import add_bot, answered, click, db_rows, new_lobby, snapshot

HUGE = "9" * 30


async def forge(fake: FakeDiscord, user: dict, message: FakeMessage, label: str, custom_id: str):
    """Click the button `label` of `message` as if its custom_id were `custom_id`."""
    find_component(message, label=label)["custom_id"] = custom_id
    return await answered(await fake.click(user, message, custom_id))


async def test_forged_component_ids_get_one_sentence(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice, mallory = fake.add_user("alice"), fake.add_user("mallory")
    here, there = fake.add_channel("here"), fake.add_channel("there")
    await start_game(fake, there, alice, [], cynthias=1)  # game 1
    ours = await start_game(fake, here, mallory, [], cynthias=1)  # game 2
    cases = {
        f"ps:turn:{HUGE}:1": texts.UNKNOWN_COMPONENT,
        f"ps:log:1:{HUGE}": texts.UNKNOWN_COMPONENT,
        f"ps:more:{HUGE}:1": texts.UNKNOWN_COMPONENT,
        f"ps:panel:{HUGE}:1:end": texts.UNKNOWN_COMPONENT,
        "ps:bogus:2:1": texts.UNKNOWN_COMPONENT,
        "ps:turn:2": texts.UNKNOWN_COMPONENT,
        "ps:log:1:1": refusals.OTHER_CHANNEL,
        "ps:sun:1:1": refusals.OTHER_CHANNEL,
        "ps:more:1:1": refusals.OTHER_CHANNEL,  # Details of another channel's game
        "ps:turn:1:1": refusals.OTHER_CHANNEL,
        "ps:panel:1:1:end": refusals.OTHER_CHANNEL,
    }
    for custom_id, expected in cases.items():
        it = await forge(fake, mallory, ours, "Game log", custom_id)
        assert (custom_id, it.ephemeral, it.content) == (custom_id, True, expected)
    assert action_log(bot, 1) == []
    assert fake.late_interactions == []


#: A deal (PS_TEST_SEED) in which the host, against a Cynthia with the expansion's animals, may
#: use an ability in the first round of play (after keeping the first animal dealt).
ABILITY_SEED = 10


async def refused_as_not_offered(it) -> None:
    await answered(it)
    assert (it.ephemeral, it.content) == (True, refusals.NOT_OFFERED)


async def ability_turn(fake: FakeDiscord, bot, alice: dict, chan: str):
    """A game of Alice and a Cynthia with the expansion's animals, played (the first of each
    choice, typed) to the first turn in which Alice may use an ability; that turn's game
    message and Alice's panel."""
    lobby = await new_lobby(fake, alice, chan, moon_animals=True)
    await add_bot(fake, alice, lobby)
    await click(fake, alice, lobby, "Start")
    msg = await next_turn(fake, chan)
    while True:
        state = replay_log(bot)
        legal = [str(a) for a in engine.legal_actions(state)]
        if state.phase == "play" and any(a.startswith("use ") for a in legal):
            break
        action = "end" if "end" in legal else legal[0]
        it = await answered(
            await fake.slash(alice, "ps play", options={"action": action}, channel_id=chan)
        )
        assert it.content.startswith(f"You played `{action}`."), it.content
        msg = await next_turn(fake, chan, msg)
    return msg, (await click(fake, alice, msg, "Take my turn")).response


def select_of(panel: FakeMessage, verb: str) -> dict:
    (select,) = [s for s in panel.selects if s["options"][0]["value"].split()[0] == verb]
    return select


async def test_forged_source_is_refused(fake: FakeDiscord, bot_process) -> None:
    """A piece to act from that the panel never offered (`use hunt 1`, which raised KeyError)
    is refused in one sentence, from a client that forges the click or the message as well."""
    bot = await bot_process(env={"PS_TEST_SEED": str(ABILITY_SEED)})
    alice = fake.add_user("alice")
    msg, panel = await ability_turn(fake, bot, alice, fake.add_channel("moon"))
    before = action_log(bot)
    if "Use ability..." in [b["label"] for b in panel.buttons]:
        await answered(await fake.click(alice, panel, panel.find_button(label="Use ability...")))
    use = select_of(panel, "use")
    use["custom_id"] = use["custom_id"].replace(":act:", ":src:")  # the message forged too
    use["options"][0]["value"] = "use hunt 1"
    await refused_as_not_offered(await fake.select(alice, panel, use, ["use hunt 1"]))
    panel = (await click(fake, alice, msg, "Take my turn")).response
    shown = snapshot(panel)
    game, version = msg.find_button(label="Take my turn")["custom_id"].split(":")[2:]
    for part in range(4):  # a select the panel does not have
        forged = f"ps:pick:{game}:{version}:src:{part}"
        await refused_as_not_offered(
            await fake.forged_component(alice, panel, forged, ["use hunt 1"])
        )
    assert action_log(bot) == before and snapshot(panel) == shown
    assert fake.late_interactions == []


async def test_forged_chain_is_refused(fake: FakeDiscord, bot_process) -> None:
    """A select plays only one of the actions it offers: a chain (`buy seed; end`), several
    values, or a value of another select change nothing; what it offers still plays."""
    bot = await bot_process(env={"PS_TEST_SEED": str(ABILITY_SEED)})
    alice = fake.add_user("alice")
    msg, panel = await ability_turn(fake, bot, alice, fake.add_channel("moon"))
    before, shown = action_log(bot), snapshot(panel)
    buy = select_of(panel, "buy")
    assert "buy seed" in [o["value"] for o in buy["options"]]
    for values in (["buy seed; end"], ["buy seed", "end"], ["end"], []):
        forged = await fake.forged_component(alice, panel, buy["custom_id"], values)
        await refused_as_not_offered(forged)
    assert action_log(bot) == before and snapshot(panel) == shown
    buy["options"][0]["value"] = "buy seed; end"  # the message forged too
    await refused_as_not_offered(await fake.select(alice, panel, buy, ["buy seed; end"]))
    assert action_log(bot) == before
    panel = (await click(fake, alice, msg, "Take my turn")).response
    it = await answered(await fake.select(alice, panel, select_of(panel, "buy"), ["buy seed"]))
    assert it.content.startswith("You played `buy seed`.") and action_log(bot)[-1][1] == "buy seed"
    assert fake.late_interactions == []


async def test_forged_button_on_another_message_is_refused(fake: FakeDiscord, bot_process) -> None:
    """The answer to `/ps abandon`'s private question, sent as if from the public game message,
    does not close that message (it once said "The game goes on." and lost its buttons)."""
    bot = await bot_process()
    alice, mallory = fake.add_user("alice"), fake.add_user("mallory")
    chan = fake.add_channel("here")
    msg = await start_game(fake, chan, alice, [mallory], cynthias=0)
    game, version = msg.find_button(label="Take my turn")["custom_id"].split(":")[2:]
    log = find_component(msg, label="Game log")
    for custom_id in ("ps:keep:1", "ps:abandon:1", f"ps:panel:{game}:{version}:play end"):
        log["custom_id"] = custom_id  # the message forged too: it carries the button
        shown = snapshot(msg)
        for user in (alice, mallory):
            await refused_as_not_offered(await fake.click(user, msg, custom_id))
        assert snapshot(msg) == shown
    log["custom_id"] = f"ps:log:{game}:{version}"
    shown = snapshot(msg)
    for user in (alice, mallory):
        for what in ("keep", "abandon", "rematch"):
            await refused_as_not_offered(await fake.forged_component(user, msg, f"ps:{what}:1"))
    lobby = fake.messages(chan)[0]  # its buttons are gone: the game started
    await refused_as_not_offered(await fake.forged_component(alice, lobby, "ps:turn:1:1"))
    assert snapshot(msg) == shown
    assert action_log(bot) == []
    assert db_rows(bot, "SELECT status FROM games WHERE id = 1") == [("active",)]
    assert fake.late_interactions == []


async def test_forged_slash_choices_are_refused(fake: FakeDiscord, bot_process) -> None:
    """A slash option holds one of its declared choices or is refused, whatever the command."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("here")
    cases = [
        ("ps new", {"turn_timer": "2h"}),
        ("ps new", {"on_leave": "stay"}),
        ("ps new", {"on_timeout": "wait"}),
        ("ps new", {"revolutions": 5}),
        ("ps new", {"language": "xx"}),
        ("ps rules", {"topic": "secrets"}),
        ("ps language", {"language": "xx"}),
        ("ps notify", {"mode": "maybe"}),
    ]
    for command, options in cases:
        it = await fake.slash(alice, command, options=options, channel_id=chan, forged=True)
        await refused_as_not_offered(it)
    assert db_rows(bot, "SELECT COUNT(*) FROM games") == [(0,)]
    lobby = await new_lobby(fake, alice, chan, turn_timer="24h")
    shown = snapshot(lobby)
    for options in ({"turn_timer": "2h"}, {"on_leave": "stay"}, {"on_timeout": "1h"}):
        it = await fake.slash(alice, "ps settings", options=options, channel_id=chan, forged=True)
        await refused_as_not_offered(it)
    (options,) = db_rows(bot, "SELECT options FROM games WHERE id = 1")[0]
    assert json.loads(options)["turn_timer"] == 24 and snapshot(lobby) == shown
    for table in ("user_preferences", "language_settings"):
        assert db_rows(bot, f"SELECT COUNT(*) FROM {table}") == [(0,)]
    assert fake.late_interactions == []


async def test_forged_ids_out_of_range_name_nothing(fake: FakeDiscord, bot_process) -> None:
    """An id no database stores (0, 2^63 and past it) in a slash option or a custom_id is
    answered as an unknown one: `/ps replay game:` says there is no such finished game (the
    databases raised on it), a history page of nobody says so; nothing changes."""
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("here")
    msg = await start_game(fake, chan, alice, [], cynthias=1)
    shown = (msg.content, msg.embeds, msg.edits)
    for game in (2**63, 10**30, 2**63 - 1):
        it = await answered(
            await fake.slash(
                alice, "ps replay", options={"game": game}, channel_id=chan, forged=True
            )
        )
        expected = refusals.REPLAY_NO_GAME.format(id=game)
        assert (game, it.ephemeral, it.content) == (game, True, expected)
    cases = {
        "ps:hist:0:0": refusals.NO_SUCH_PLAYER,
        f"ps:hist:{2**63}:0": refusals.NO_SUCH_PLAYER,
        f"ps:hist:{10**19 - 1}:1": refusals.NO_SUCH_PLAYER,
        f"ps:hist:{2**64 - 1}:0": texts.UNKNOWN_COMPONENT,
        f"ps:hist:{HUGE}:0": texts.UNKNOWN_COMPONENT,
    }
    for custom_id, expected in cases.items():
        it = await forge(fake, alice, msg, "Game log", custom_id)
        assert (custom_id, it.ephemeral, it.content) == (custom_id, True, expected)
    assert (msg.content, msg.embeds, msg.edits) == shown
    assert action_log(bot, 1) == []
    assert fake.late_interactions == []


async def test_forget_answered_off_its_question_forgets_nothing(
    fake: FakeDiscord, bot_process
) -> None:
    """`ps:forget:yes` forgets only from `/ps forget`'s own private question: sent from a public
    message, or from a private message that never asked it (even one the client made carry
    the question's buttons), it is refused in one sentence and forgets nothing."""
    bot = await bot_process()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("here")
    msg = await start_game(fake, chan, alice, [], cynthias=1)
    await answered(await fake.slash(bob, "ps notify", options={"mode": "on"}, channel_id=chan))
    prefs = "SELECT COUNT(*) FROM user_preferences WHERE user_id = ?"
    assert db_rows(bot, prefs, (int(bob["id"]),)) == [(1,)]
    history = (await answered(await fake.slash(bob, "ps history", channel_id=chan))).response
    help_ = (await answered(await fake.slash(bob, "ps help", channel_id=chan))).response
    assert history.ephemeral and help_.ephemeral
    for message in (msg, history, help_):
        await refused_as_not_offered(await fake.forged_component(bob, message, "ps:forget:yes"))
    for message in (msg, history, help_):
        message.components = numbered(  # the message forged too: it carries the buttons
            [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 4, "label": "Forget", "custom_id": "ps:forget:yes"},
                        {"type": 2, "style": 2, "label": "Keep", "custom_id": "ps:forget:no"},
                    ],
                }
            ]
        )
        shown = snapshot(message)
        await refused_as_not_offered(await fake.click(bob, message, "ps:forget:yes"))
        assert snapshot(message) == shown
    assert db_rows(bot, prefs, (int(bob["id"]),)) == [(1,)]
    question = (await answered(await fake.slash(bob, "ps forget", channel_id=chan))).response
    done = await answered(await fake.click(bob, question, "ps:forget:yes"))
    assert done.response.content.startswith("Done: you are forgotten")
    assert db_rows(bot, prefs, (int(bob["id"]),)) == [(0,)]
    assert fake.late_interactions == []
