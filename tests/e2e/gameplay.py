"""Helpers to play whole games end to end: start a game, find the current game message, play a
turn through the panel or by typing (`type_action`), and read the game back from the bot's database."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import engine
from bot.present import texts
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage
from tests.e2e.helpers import add_bot, answered, click, db_rows, is_game_message, new_lobby

TURN = "Take my turn"
MENTION = re.compile(r"^<@(?P<id>[0-9]+)>, it is your turn\.$")


def labels(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons]


def is_current(message: FakeMessage) -> bool:
    """A game message offering Take my turn (the turn it shows is being played)."""
    return is_game_message()(message) and TURN in labels(message)


def is_final(message: FakeMessage) -> bool:
    return is_game_message()(message) and message.content.startswith("The game is over.")


def turn_owner(message: FakeMessage) -> str | None:
    """The user id the game message asks to play (None for a Cynthia or a finished game)."""
    match = MENTION.match(message.content.split("\n")[0])  # (then its followers, if any)
    return match["id"] if match else None


async def next_turn(
    fake: FakeDiscord, chan: str, after: FakeMessage | None = None, timeout: float = 20
) -> FakeMessage:
    """The game message of the next human turn (or the final one), posted after `after`."""

    def newer(m: FakeMessage) -> bool:
        return after is None or int(m.id) > int(after.id)

    return await fake.wait_for_message(
        chan, lambda m: newer(m) and (is_current(m) or is_final(m)), timeout=timeout
    )


async def start_game(
    fake: FakeDiscord, chan: str, host: dict, others: list[dict], cynthias: int = 1
) -> FakeMessage:
    """Open a lobby, seat `others` and `cynthias` Cynthias, start; the first game message."""
    lobby = await new_lobby(fake, host, chan)
    for user in others:
        await click(fake, user, lobby, "Join")
    for _ in range(cynthias):
        await add_bot(fake, host, lobby)
    await click(fake, host, lobby, "Start")
    return await next_turn(fake, chan)


def action_log(bot: BotProcess, game_id: int = 1) -> list[tuple]:
    """(ply, notation, seat, user_id) of every logged action, in order."""
    return db_rows(
        bot,
        "SELECT ply, notation, seat, user_id FROM actions WHERE game_id = ? ORDER BY ply",
        (game_id,),
    )


def replay_log(bot: BotProcess, game_id: int = 1) -> engine.GameState:
    """The state the stored log leads to (engine.apply refuses any illegal or repeated move)."""
    (config, seed), *_ = db_rows(bot, "SELECT config, seed FROM games WHERE id = ?", (game_id,))
    record = engine.Record(
        engine.Config.from_dict(json.loads(config)),
        seed,
        [row[1] for row in action_log(bot, game_id)],
    )
    plies = [row[0] for row in action_log(bot, game_id)]
    assert plies == list(range(1, len(plies) + 1)), f"plies not contiguous: {plies}"
    return record.state()


Policy = Callable[[list[str], dict[str, int]], str | None]


def eager(verbs: tuple[str, ...] = ("collect", "grow", "buy"), per_turn: int = 2) -> Policy:
    """A simple policy: the first offered kind of `verbs` (at most `per_turn` a turn), else end.
    Gets the panel's verb buttons and how many actions of each verb it played this turn."""

    def choose(buttons: list[str], done: dict[str, int]) -> str | None:
        if sum(done.values()) >= per_turn:
            return None
        for verb in verbs:
            if f"{verb.title()}..." in buttons:
                return verb
        return None

    return choose


def first(verb: str, options: list[dict]) -> dict:
    return options[0]


async def panel_turn(
    fake: FakeDiscord,
    user: dict,
    message: FakeMessage,
    policy: Policy,
    pick: Callable[[str, list[dict]], dict] = first,
) -> list[str]:
    """Play one turn through Take my turn: setup places on the first offered space; in play
    `policy` picks kinds of action (and `pick` one of the offered choices) until it says end.
    Returns the notations played. Checks what the panel shows along the way."""
    it = await click(fake, user, message, TURN)
    assert it.ephemeral, it.content
    panel = it.response
    if panel.content.startswith("Setup"):
        select = panel.selects[0]
        choice = select["options"][0]["value"]
        pick = await answered(await fake.select(user, panel, select, [choice]))
        assert pick.content == f"You played `{choice}`. {texts.PANEL_DONE}"
        return [choice]
    played: list[str] = []
    done: dict[str, int] = {}
    while True:
        assert "Choose an action, or end your turn." in panel.content, (
            f"not the panel menu: {panel.content!r}"
        )
        offered = kinds(panel)
        verb = policy([f"{v.title()}..." for v in offered], done)
        if verb is None:
            end = await answered(await fake.click(user, panel, panel.find_button(label="End turn")))
            assert end.content.endswith(f"You played `end`. {texts.PANEL_DONE}")
            assert end.response.components == [] and end.response.attachments == []
            return [*played, "end"]
        select = offered[verb]
        if select is None:  # too many choices for the first screen: the kind's own screen
            menu = await answered(
                await fake.click(user, panel, panel.find_button(label=f"{verb.title()}..."))
            )
            assert menu.response is panel and "(you have " in panel.content
            select = panel.selects[0]
        if select["custom_id"].split(":")[4] == "src":  # two steps: the tree, then the target
            step = await answered(
                await fake.select(user, panel, select, [select["options"][0]["value"]])
            )
            assert step.response is panel
            select = panel.selects[0]
        option = pick(verb, select["options"])
        assert option["label"].startswith(option["value"])
        assert " light" in option["label"], option  # every choice shows its cost
        act = await answered(await fake.select(user, panel, select, [option["value"]]))
        assert act.response is panel
        assert panel.content.startswith(f"You played `{option['value']}`."), panel.content
        played.append(option["value"])
        done[verb] = done.get(verb, 0) + 1
        if not panel.components:  # the action ended the turn (it cannot in the base game)
            return played
        ((name, png),) = panel.attachments  # the preview picture after each action
        assert name == "preview.png" and png.startswith(b"\x89PNG")


def kinds(panel: FakeMessage) -> dict[str, dict | None]:
    """The kinds of action the panel's first screen offers: verb -> its select, or None when
    the kind has a button to its own screen ("Plant..."), in the panel's order."""
    out: dict[str, dict | None] = {}
    for label in labels(panel):
        if label.endswith("...") and label != "Take my turn":
            out[VERB_OF_BUTTON.get(label, label[:-3].lower())] = None
    for select in panel.selects:
        out[select["options"][0]["value"].split()[0]] = select
    return out


#: Buttons whose label is not the verb's name.
VERB_OF_BUTTON = {"Move animal...": "move", "Use ability...": "use"}


async def type_action(fake: FakeDiscord, user: dict, chan: str, action: str) -> str:
    """`/ps play action` as `user`: played, privately; the answer's text."""
    it = await answered(
        await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
    )
    assert it.ephemeral and it.content.startswith(f"You played `{action}`"), it.content
    return it.content
