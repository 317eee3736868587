"""Under the Moonlight at the table, end to end: a game of two people and a Cynthia with the
three modes, from the lobby (options menu) through the private animal draft and the expansion's
setup to the final scores, with animal moves and abilities played through the panel and with
`/ps play`, refusals, the pictures, and `/ps rules` on the expansion.

The bot runs with `PS_TEST_SEED` (bot/config.py), so the deal is known: Alice is dealt the Fox
and the Owl and keeps the Owl; Bob is dealt the Beaver and the Turtle and keeps the Turtle, and a
Seed Baby Turtle lies face down on the beach G4, three steps from where he puts it. The test
plays like a person: it reads the position (replayed from the bot's log) to decide.
"""

from __future__ import annotations

import itertools
import json

import pytest

import engine
from bot.present import pictures, story, texts
from bot.services import refusals
from bot.storage import GameRow, NewAction, SeatRow
from engine import moon
from engine import moonlight as ml
from engine.geometry import LABEL_INDEX, LABELS
from render.alt import alt_text
from tests.e2e.fakediscord import PNG_SIGNATURE, FakeDiscord, FakeMessage
from tests.e2e.gameplay import action_log, is_final, next_turn, replay_log, turn_owner
from tests.e2e.helpers import (
    add_bot,
    answered,
    assert_hides,
    choose,
    click,
    db_rows,
    field,
    mention,
    new_lobby,
    offered,
    public_text,
    refused,
    snapshot,
    take_turn,
)
from tests.e2e.moonlight_deal import MODES, SEED

#: Words of the hidden information: Alice's and Bob's animals not kept, and the Baby Turtle
#: tokens lying face down (those whose titles are not common words).
HIDDEN_TOKENS = ("Double", "Harvest", "Scoring", "Rich soil")

#: What the log says while the game's seed stays secret (two people and a Cynthia, all modes).
RECORD_HIDDEN = texts.RECORD_HIDDEN.format(
    hidden="the order of each Cynthia's action cards; the two animals dealt to each other seat; "
    "which Baby Turtle token lies face down on each beach"
)


def lit_next_round(state: engine.GameState) -> int:
    gap, _ = ml.tracker(state)
    return moon.moonlit(gap, state.ext.elder, state.ext.stones)


async def type_action(fake: FakeDiscord, user: dict, chan: str, action: str):
    return await answered(
        await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
    )


async def open_menu(
    fake: FakeDiscord, panel: FakeMessage, user: dict, button: str, source: str | None = None
) -> bool:
    """Bring up a kind's choices: its button when its choices did not fit the panel's first
    screen, else its select there; a select of `source`s (the abilities) is answered with
    `source`. Whether the panel went to the kind's own screen."""
    verb = VERBS[button]

    def kind(select: dict) -> str:
        return select["custom_id"].split(":")[4]

    if button in [b["label"] for b in panel.buttons]:
        it = await answered(await fake.click(user, panel, panel.find_button(label=button)))
        assert it.response is panel
        select = panel.selects[0]
        if source is None or kind(select) != "src":
            return True
    else:
        (select,) = [s for s in panel.selects if s["options"][0]["value"].split()[0] == verb]
        if kind(select) != "src":
            return False
    it = await answered(await fake.select(user, panel, select, [f"{verb} {source}"]))
    assert it.response is panel
    return True


VERBS = {"Use ability...": "use", "Move animal...": "move"}


@pytest.mark.long
async def test_moonlight_game_from_lobby_to_final_scores(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process(env={"PS_TEST_SEED": str(SEED)})
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    users = {alice["id"]: alice, bob["id"]: bob}
    chan = fake.add_channel("moonlight")

    # --- the lobby: the three modes in any combination through the host's options menu ----------
    lobby = await new_lobby(fake, alice, chan)
    for n in range(len(MODES) + 1):
        for combo in itertools.combinations(MODES, n):
            it = await answered(await fake.select(alice, lobby, lobby.selects[0], list(combo)))
            assert it.response is lobby
            shown = field(lobby, "Options").splitlines()[3:]
            assert shown == [texts.OPTION_LABELS[m] for m in combo]
            chosen = [o["value"] for o in lobby.selects[0]["options"] if o.get("default")]
            assert chosen == list(combo)
    await click(fake, bob, lobby, "Join")
    await add_bot(fake, alice, lobby)
    await click(fake, alice, lobby, "Start")
    assert db_rows(bot, "SELECT seed FROM games WHERE id = 1") == [(SEED,)]
    (config,) = db_rows(bot, "SELECT config FROM games WHERE id = 1")[0]
    assert all(json.loads(config)[m] for m in MODES)

    # --- the draft: each person sees their two animals privately and keeps one --------------------
    msg = await next_turn(fake, chan)
    assert msg.embeds[0]["description"] == texts.SETUP_LINES["animal"]
    assert turn_owner(msg) == alice["id"]
    assert_hides(public_text(msg), "fox", "owl", "beaver", "turtle")
    await refused(
        await fake.click(bob, msg, msg.find_button(label="Take my turn")),
        refusals.NOT_YOUR_TURN.format(player=mention(alice)),
    )
    panel = await take_turn(fake, alice, msg)
    assert panel.content.startswith("Setup: choose your animal.\nYou were dealt these animals")
    for words in ("**Fox**", "**Owl**", "**Nighttime Hunting** (`use hunt 1/2/3`, 5/9/12 lunar ",
                  "gain 3/7/10 light", "**Scaring** (`use scare owl C3`, 1 lunar point)",
                  "**Stealing** (`use steal owl`, 4 lunar points): take 2 light"):  # fmt: skip
        assert words in panel.content
    assert_hides(panel.content, "beaver", "turtle")
    options = panel.selects[0]["options"]
    assert [(o["value"], o["label"]) for o in options] == [
        ("animal fox", "Fox: Scaring 1, Scratching the soil 3, Stealing 4 lunar"),
        ("animal owl", "Owl: Nighttime Hunting 5/9/12 lunar"),
    ]
    it = await answered(await fake.select(alice, panel, panel.selects[0], ["animal owl"]))
    assert it.content == f"You played `animal owl`. {texts.PANEL_DONE}"

    msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == bob["id"]
    assert "(blue, " not in field(msg, "Seats") and "(orange) \N{EM DASH} " in field(msg, "Seats")
    assert_hides(public_text(msg), "fox", "owl", "beaver", "turtle")  # the Owl is in her hand
    panel = await take_turn(fake, bob, msg)
    assert "**Beaver**" in panel.content and "**Turtle**" in panel.content
    assert "**Hatching a Baby** (`use hatch`, 4 lunar points)" in panel.content
    assert_hides(panel.content, "fox", "owl")
    it = await type_action(fake, bob, chan, "keep turtle")
    assert it.ephemeral and it.content == f"You played `animal turtle`. {texts.PANEL_DONE}"

    # The tokens now lie face down; neither the channel, nor the log, nor a passer-by learns them.
    msg = await next_turn(fake, chan, msg)
    assert msg.embeds[0]["description"] == texts.SETUP_LINES["settle"]
    assert_hides(public_text(msg), "fox", "beaver", *HIDDEN_TOKENS)
    log = await click(fake, carol, msg, "Game log")
    assert log.ephemeral and log.attachments == []  # the record (its seed) waits for the end
    assert log.embeds[0]["footer"]["text"] == RECORD_HIDDEN
    assert "Six Baby Turtle tokens are laid face down" in log.embeds[0]["description"]
    assert_hides(public_text(log.response), "fox", "beaver", *HIDDEN_TOKENS)
    it = await answered(await fake.slash(carol, "ps log", channel_id=chan))
    assert it.attachments == [] and it.embeds[0]["footer"]["text"] == RECORD_HIDDEN

    # --- placements, in the rules' order: animals backwards from Bob, Cynthia's Elder Tree, then
    # moonstones backwards from Bob; then the starting trees --------------------------------------
    panel = await take_turn(fake, bob, msg)
    assert panel.content == "Setup: choose a 3-leaf space for your animal."
    spaces = [o["value"] for o in panel.selects[0]["options"]]
    assert spaces == [f"settle {x}" for x in ("C3", "C4", "D3", "D5", "E3", "E4")]
    await choose(fake, bob, panel, "settle E4")
    msg = await next_turn(fake, chan, msg)
    assert turn_owner(msg) == alice["id"]
    values = await fake.autocomplete(
        alice, "ps play", focused="action", options={"action": "sett"}, channel_id=chan
    )
    assert [c["value"] for c in values] == [f"settle {x}" for x in ("C3", "C4", "D3", "D5", "E3")]
    it = await type_action(fake, alice, chan, "settle c3")
    assert it.content == f"You played `settle C3`. {texts.PANEL_DONE}"
    msg = await next_turn(fake, chan, msg)
    assert msg.embeds[0]["description"] == texts.SETUP_LINES["moonstone"]
    elder = [row for row in action_log(bot) if row[1].startswith("elder ")]
    assert [(r[1], r[2], r[3]) for r in elder] == [("elder B2", 2, None)]  # Cynthia, by herself
    (why,) = db_rows(bot, "SELECT explanation FROM actions WHERE notation = 'elder B2'")[0]
    assert "Directional Selection" in why
    assert turn_owner(msg) == bob["id"]
    panel = await take_turn(fake, bob, msg)
    assert panel.content == "Setup: choose a space for a moonstone."
    assert "moonstone B2" not in offered(panel) and "moonstone E4" not in offered(panel)
    await choose(fake, bob, panel, "moonstone G3")
    msg = await next_turn(fake, chan, msg)
    it = await type_action(fake, alice, chan, "stone g2")
    assert it.content == f"You played `moonstone G2`. {texts.PANEL_DONE}"
    msg = await next_turn(fake, chan, msg)
    while msg.embeds[0]["description"].startswith("Setup"):
        user = users[turn_owner(msg)]
        panel = await take_turn(fake, user, msg)
        assert panel.content == "Setup: choose an empty outer space for a small tree."
        await choose(fake, user, panel, panel.selects[0]["options"][-1]["value"])
        msg = await next_turn(fake, chan, msg)

    # --- play --------------------------------------------------------------------------------------
    assert msg.embeds[0]["description"].startswith("Round 1 of 18")
    assert " Half Moon (next round: " in msg.embeds[0]["description"]
    seats = field(msg, "Seats").splitlines()
    assert "(orange, Owl) \N{EM DASH} " in seats[0] and ", 2 lunar, " in seats[0]
    assert "(blue, Turtle) \N{EM DASH} " in seats[1] and " lunar" not in seats[2]
    # The text board: its legend explains the moonstones' and the Great Elder Tree's marks, its
    # words say where the animals stand.
    board = await answered(await fake.slash(carol, "ps status", {"words": True}, channel_id=chan))
    assert " MS" in board.content and " EL" in board.content
    assert board.content.endswith(texts.BOARD_TEXT_MOON)
    assert ", owl on " in board.content and ", turtle on " in board.content
    table = Table(fake, bot, chan, alice, bob)
    hunts = 0
    while not is_final(msg):
        state = replay_log(bot)
        if not table.picture_checked and state.ext.babies[1]:
            table.check_picture(msg, state)
        if turn_owner(msg) == alice["id"]:
            plan = alice_plan(state, hunts)
            hunts += sum(1 for a in plan if a.startswith("use hunt "))
            await table.alice_turn(msg, state, plan)
        else:
            await table.bob_turn(msg, state, bob_plan(state))
        msg = await next_turn(fake, chan, msg)
    done = table.done

    # --- what was played: every human action is logged under its player; moves and abilities went
    # through the panel and through /ps play; the refusals changed nothing --------------------------
    log = action_log(bot)
    seat_of = {int(alice["id"]): 0, int(bob["id"]): 1}
    assert all(seat_of[row[3]] == row[2] for row in log if row[3] is not None)
    played = [row[1] for row in log if row[3] is not None]
    assert [n for n in played if n.split()[0] in ("move", "use")] == [
        n for n in played if n in done["panel"] + done["typed"] and n.split()[0] in ("move", "use")
    ]
    assert "use hunt 1" in done["panel"]
    assert {"use hunt 2", "use hunt 3"} & set(done["panel"])  # a level above 1, chosen in a select
    assert "use hatch" in done["typed"]
    assert any(n.startswith("use baby seed ") for n in done["panel"])  # a target, two selects
    assert any(n.startswith("move ") for n in done["panel"])
    assert any(n.startswith("move ") for n in done["typed"])
    assert done["refused"] == ["use hunt 1", "u hatch", "use hunt 1 again"]
    assert table.picture_checked

    # --- the end: lunar points in the final scores, the record now attached --------------------------
    final = replay_log(bot)
    assert final.is_over
    assert msg.embeds[0]["description"] == "The game is over."
    breakdown = field(msg, "Final scores").splitlines()
    scores = engine.scores(final)
    for seat in (0, 1):
        parts = engine.score_parts(final, seat)
        assert f": {scores[seat]}** = " in breakdown[seat]
        assert f"lunar {parts['lunar']}" in breakdown[seat] and "baby turtle" not in breakdown[seat]
    assert "lunar" not in breakdown[2]
    it = await answered(await fake.slash(carol, "ps log", channel_id=chan))
    ((name, data),) = it.attachments
    record = engine.Record.from_text(data.decode())
    assert record.seed == SEED and record.state() == final
    assert fake.late_interactions == []


# --- the players' decisions (pure: what a person would choose, read off the position) ------------


def legal(state: engine.GameState) -> list[str]:
    return [str(a) for a in engine.legal_actions(state)]


def alice_plan(state: engine.GameState, hunts: int) -> list[str]:
    """The Owl hunts at level 1 once, then saves up for a higher level (or spends it all in the
    last round), and steps into the next round's moonlight."""
    lunar = state.seats[0].lunar
    levels = [lv for lv in (1, 2, 3) if ml.LEVEL_COSTS["hunt"][lv] <= lunar]
    last = state.round == 6 * state.config.revolutions
    plan = []
    if levels and (hunts == 0 or lunar >= 9 or last):
        plan.append(f"use hunt {1 if hunts == 0 else levels[-1]}")
    lit, here = (0 if last else lit_next_round(state)), state.ext.at[0]
    if lit and not lit >> here & 1:
        plan += [
            m for m in legal(state) if m.startswith("move ") and lit >> LABEL_INDEX[m[5:]] & 1
        ][:1]
    base = [a for verb in ("collect", "grow", "buy") for a in legal(state) if a.startswith(verb)]
    return [*plan, *base[:1], "end"]


def bob_plan(state: engine.GameState) -> list[str]:
    """The Turtle walks E4 -> F4 -> G4 to the beach, hatches the Baby Turtle there, then uses it."""
    offered_now = legal(state)
    plan = []
    if "use hatch" in offered_now:
        plan.append("use hatch")
    else:
        plan += [a for a in offered_now if a.startswith("use baby ")][-1:]
    step = {"E4": "F4", "F4": "G4"}.get(LABELS[state.ext.at[1]])
    if step and state.ext.beach_token(LABEL_INDEX["G4"]) >= 0:
        plan.append(f"move {step}")
    return [*plan, "end"]


class Table:
    """Plays the plans at the table: Alice through the panel (and her refusals typed), Bob
    mostly by typing (his Baby Turtle through the panel)."""

    def __init__(self, fake: FakeDiscord, bot, chan: str, alice: dict, bob: dict) -> None:
        self.fake, self.bot, self.chan, self.alice, self.bob = fake, bot, chan, alice, bob
        self.names = [r[0] for r in db_rows(bot, "SELECT name FROM seats ORDER BY position")]
        self.done: dict[str, list[str]] = {"panel": [], "typed": [], "refused": []}
        self.picture_checked = False

    def moves(self) -> int:
        return len(action_log(self.bot))

    async def typed(self, user: dict, action: str, expected: str) -> None:
        it = await type_action(self.fake, user, self.chan, action)
        assert it.ephemeral and it.content.startswith(f"You played `{expected}`."), it.content
        self.done["typed"].append(expected)

    async def refuse(self, msg: FakeMessage, user: dict, action: str, sentence: str) -> None:
        """A typed action refused in one private sentence, and nothing changed."""
        before = (snapshot(msg), self.moves())
        it = await self.fake.slash(
            user, "ps play", options={"action": action}, channel_id=self.chan
        )
        await refused(it, sentence)
        assert (snapshot(msg), self.moves()) == before
        self.done["refused"].append(action)

    async def alice_turn(self, msg: FakeMessage, state: engine.GameState, plan: list[str]) -> None:
        fake, alice = self.fake, self.alice
        lunar, light, here = state.seats[0].lunar, state.seats[0].light, state.ext.at[0]
        if not self.done["refused"]:
            await self.refuse(
                msg, alice, "use hunt 1",
                f"Nighttime Hunting level 1 costs 5 lunar points; you have {lunar}.",
            )  # fmt: skip
            await self.refuse(
                msg,
                alice,
                "u hatch",
                "Hatching a Baby is the Turtle's ability; your animal is the Owl.",
            )
        panel = await take_turn(fake, alice, msg)
        assert panel.content.startswith(
            f"Your turn: you have {light} light and {lunar} lunar points; "
            f"your Owl is on {LABELS[here]} (1 step left)."
        )
        last_round = state.round == 6 * state.config.revolutions
        typing = False  # once she types, the open panel is out of date: she types on
        for action in plan:
            if action.startswith(("collect ", "grow ", "buy ")) or (
                last_round and action.startswith("use hunt ")
            ):
                await self.typed(alice, action, action)
                typing = True
                continue
            if action == "end" and typing:
                await self.typed(alice, "end", "end")
                continue
            if action.startswith("use hunt "):
                if await open_menu(fake, panel, alice, "Use ability...", "hunt"):
                    assert panel.content.startswith(
                        f"Use Nighttime Hunting (you have {light} light and {lunar} lunar "
                        "points): choose.\n**Nighttime Hunting** (`use hunt 1/2/3`, 5/9/12 "
                        "lunar points): gain 3/7/10 light"
                    )
                levels = [lv for lv in (1, 2, 3) if ml.LEVEL_COSTS["hunt"][lv] <= lunar]
                choices = {k: v for k, v in offered(panel).items() if k.startswith("use hunt")}
                assert list(choices) == [f"use hunt {lv}" for lv in levels]  # only affordable
                gains = [
                    f"+{min(20, light + ml.HUNT_GAIN[lv]) - light} light"
                    if light < 20
                    else "light stays at 20, the most you can hold"
                    for lv in levels
                ]
                assert [o["label"] for _, o in choices.values()] == [
                    f"use hunt {lv} \N{MIDDLE DOT} {ml.LEVEL_COSTS['hunt'][lv]} lunar "
                    f"\N{MIDDLE DOT} {gain}"
                    for lv, gain in zip(levels, gains, strict=True)
                ]
            elif action.startswith("move "):
                await open_menu(fake, panel, alice, "Move animal...")
                assert offered(panel)[action][1]["label"] == (
                    f"{action} \N{MIDDLE DOT} in the moonlight next round"
                )
            else:
                end = await answered(
                    await fake.click(alice, panel, panel.find_button(label="End turn"))
                )
                assert end.content.endswith(f"You played `end`. {texts.PANEL_DONE}")
                continue
            content = await choose(fake, alice, panel, action)
            assert content.startswith(f"You played `{action}`.")
            ((name, png),) = panel.attachments  # the preview after each action
            assert name == "preview.png" and png.startswith(PNG_SIGNATURE)
            self.done["panel"].append(action)
            if action.startswith("use hunt ") and "use hunt 1 again" not in self.done["refused"]:
                await self.refuse(
                    msg, alice, "use hunt 1",
                    "You already used Nighttime Hunting this turn (each ability once per turn).",
                )  # fmt: skip
                self.done["refused"][-1] = "use hunt 1 again"

    async def bob_turn(self, msg: FakeMessage, state: engine.GameState, plan: list[str]) -> None:
        fake, bob = self.fake, self.bob
        for action in plan:
            if action.startswith("use baby "):
                panel = await take_turn(fake, bob, msg)
                assert await open_menu(fake, panel, bob, "Use ability...", "baby")
                assert "**Seed** (`use baby seed E5`)" in panel.content
                sizes = [len(s["options"]) for s in panel.selects]
                assert len(sizes) >= 2 and sizes[0] == 25  # more than 25 targets: several selects
                select, option = offered(panel)[action]
                assert panel.selects.index(select) == len(sizes) - 1
                assert option["label"] == (
                    f"{action} \N{MIDDLE DOT} 1 lunar \N{MIDDLE DOT} {action[-2:]}: seed placed"
                )
                await choose(fake, bob, panel, action)
                self.done["panel"].append(action)
            elif action == "move F4":
                panel = await take_turn(fake, bob, msg)
                await open_menu(fake, panel, bob, "Move animal...")
                await choose(fake, bob, panel, action)
                self.done["panel"].append(action)
            elif action == "use hatch":
                values = await fake.autocomplete(
                    bob, "ps play", focused="action", options={"action": "use h"},
                    channel_id=self.chan,
                )  # fmt: skip
                assert [c["value"] for c in values] == ["use hatch"]
                await self.typed(bob, "u hatch", "use hatch")
            else:
                await self.typed(bob, action.replace("move ", "m ").lower(), action)
                if action == "move G4":  # a step can be taken back (it reveals nothing)
                    before = self.moves()
                    it = await answered(
                        await fake.slash(bob, "ps play", {"action": "undo"}, channel_id=self.chan)
                    )
                    assert it.content.startswith(f"You took back `{action}`.\nYour turn: ")
                    assert self.moves() == before - 1
                    await self.typed(bob, "step g4", action)

    def check_picture(self, msg: FakeMessage, state: engine.GameState) -> None:
        """The game message's picture is the board of the position, expansion included."""
        ((name, png),) = msg.attachments
        assert name == "board.png" and png.startswith(PNG_SIGNATURE)
        # Outlined: every space named or changed since the player to play last played.
        (config, seed), *_ = db_rows(self.bot, "SELECT config, seed FROM games WHERE id = 1")
        seats = tuple(SeatRow(i, "human", None, n) for i, n in enumerate(self.names))
        game = GameRow(1, 1, 1, 1, "active", {}, json.loads(config), seed, 1, "", "", seats)
        log = [NewAction(*row) for row in action_log(self.bot)]
        highlight = story.changed_spaces(story.tell(game, state, log))
        assert png == pictures.board_png(
            state, highlight=highlight, names=self.names, layout=pictures.GAME_LAYOUT
        )
        # Its alt text: the same position in words, within Discord's 1,024 characters.
        (file,) = msg.files
        assert file.description == alt_text(state, highlight=highlight, names=self.names)
        assert len(file.description) <= 1024 and "Moonstones on " in file.description
        d = state.to_dict()
        del d["moonlight"]
        d["config"] = {**d["config"], **{m: False for m in MODES}}
        base = engine.GameState.from_dict(d)
        assert png != pictures.board_png(base, highlight=highlight, names=self.names)
        self.picture_checked = True


async def test_rules_cover_the_expansion_and_every_animal(fake: FakeDiscord, bot_process) -> None:
    await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("rules")
    it = await answered(await fake.slash(alice, "ps rules", channel_id=chan))
    assert it.embeds[0]["title"] == "Photosynthesis \N{EM DASH} the rules in short"
    assert "topic: base, moonlight, animals, cynthia or expert" in it.embeds[0]["footer"]["text"]

    it = await answered(
        await fake.slash(alice, "ps rules", options={"topic": "moonlight"}, channel_id=chan)
    )
    embed = it.embeds[0]
    assert it.ephemeral and embed["title"] == "Photosynthesis \N{EM DASH} Under the Moonlight"
    for words in ("**The Moon and Forest Animals.**", "**The Great Elder Tree**",
                  "**Moonstones**", "lunar point", "Move animal...", "Use ability..."):  # fmt: skip
        assert words in embed["description"]
    ((name, png),) = it.attachments
    assert name == "board.png" and png.startswith(PNG_SIGNATURE)
    assert embed["image"]["url"] == "attachment://board.png"

    it = await answered(
        await fake.slash(alice, "ps rules", options={"topic": "animals"}, channel_id=chan)
    )
    fields = {f["name"]: f["value"] for f in it.embeds[0]["fields"]}
    assert list(fields) == [*(a.capitalize() for a in ml.ANIMALS), "Baby Turtle tokens"]
    for word, (animal, title) in ml.ABILITIES.items():
        assert f"**{title}** (`" in fields[ml.ANIMALS[animal].capitalize()], word
    assert "(`use hunt 1/2/3`, 5/9/12 lunar points): gain 3/7/10 light" in fields["Owl"]
    assert "always: moves one or two steps a turn" in fields["Squirrel"]
    assert all(f"**{t}**" in fields["Baby Turtle tokens"] for t in ml.BABY_TITLES)
    assert it.attachments == []

    it = await answered(
        await fake.slash(alice, "ps rules", options={"topic": "cynthia"}, channel_id=chan)
    )
    assert it.embeds[0]["title"] == "Photosynthesis \N{EM DASH} Cynthia, the automa"
    assert "action cards" in it.embeds[0]["description"]
    assert fake.late_interactions == []
