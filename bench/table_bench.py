"""The table, measured as a player meets it: a scripted game of two people and an Expert seat
through the real bot and the loopback Discord (issues 14 and 44).

    .venv/bin/python bench/table_bench.py [--seed N] [--correspondence]
    .venv/bin/python bench/table_bench.py [--seed N] --expansion [--lang fr]

The game's seed (``--seed N``, or drawn at random and printed) is given to the bot as its fixed
test seed (``PS_TEST_SEED``), so the same seed plays the same game and prints the same lines.
Two people and the Expert (quick) play a whole base game, the people through "Take my turn" and
the panel. Each turn the player
buys the cheapest piece offered (when 2 light points are left after it, for a planting and a
growth), plants the first planting offered, grows the cheapest piece offered, then ends the
turn, each when the panel offers it. Counted:

- C, interactions sent to the bot for a typical turn (one that bought, planted and grew, then
  ended): every button press and select submission counts one, "Take my turn" included;
- M, messages the bot posted in the channel itself during the game (its running messages are in
  the game's thread);
- T, messages the bot posted in the game's thread (a bot seat's turn posts none: goal T <= the
  turns the people took + 3);
- P, the smallest text of every picture the bot sent, in pixels, when the picture is shown
  400 px wide (a phone): each picture notes the smallest text it drew
  (``render.draw.smallest_text_in``), every glyph included. The people play under the longest
  names the tests use (``tests.every_picture.LONG_NAMES``: emoji and CJK), and besides the game
  messages and the panel's previews the scripted game opens every other kind of picture
  (``open_every_view``): the next-sun preview, ``/ps rules`` (base and expansion), a lesson
  (``/ps learn``), a step of the game's replay, ``/ps profile`` and the Expert's review (M and T
  are counted before these);
- the pings: each turn's message mentions its player.

With ``--correspondence`` the game is a correspondence one (a 24 h turn timer) where ann asked
for DMs (`/ps notify on`) and ben leaves at once (the autopilot takes his seat): ann plays the
whole game, answering each turn at once, and D counts the DMs she got.

- L, the longest game message in characters (issue 56): every text of every version of each
  game message the bot sent through the loopback Discord (`Lengths`, `game_message_chars`): its
  content, its embeds' titles, descriptions, fields, footers and authors, its Components V2
  text, its buttons' and selects' labels (and the selects' options).

With ``--expansion`` the game is a four-seat Under the Moonlight game with its three modes
(the animals, the Great Elder Tree, the moonstones): ann and ben, the Expert and Cynthia, the
game in ``--lang`` (French by default; the two people read the panels in English, their
Discord's language, so the script reads the same labels).

The last line is the issue's summary. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.config import FIXED_SEED_ENV  # noqa: E402
from engine.record import states  # noqa: E402
from render.draw import smallest_text_in  # noqa: E402
from tests.e2e.fakediscord import (  # noqa: E402
    BotProcess,
    FakeDiscord,
    FakeMessage,
    iter_components,
)
from tests.e2e.gameplay import is_final, kinds, next_turn, turn_owner  # noqa: E402
from tests.e2e.helpers import bot_select, mention  # noqa: E402
from tests.every_picture import LONG_NAMES  # noqa: E402

DISPLAY = 400
#: The Expert thinks a tenth of its budget (as in the tests): its strength is not measured here.
EXPERT_ENV = {"PS_EXPERT_BUDGET_SCALE": "0.1", "EXPERT_WORKERS": "1"}
#: The order a turn tries the kinds of action in; the turn then ends.
SCRIPT = ("buy", "plant", "grow")
#: The expansion's three modes, as `/ps new` takes them.
EXPANSION = {"moon_animals": True, "elder_tree": True, "moonstones": True}
#: A game message's buttons (its custom_ids): Take my turn, the private views, the endings.
GAME_BUTTON = re.compile(r"^ps:log:[0-9]+:[0-9]+$")


def game_message_chars(message: FakeMessage) -> int:
    """L: the characters of every text a game message shows (issue 56): its content; each
    embed's title, description, fields' names and values, footer and author; its Components V2
    text; its buttons' labels, and its selects' placeholders and options' labels."""
    texts = [message.content or ""]
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("footer") or {}).get("text") or ""]
        texts += [(embed.get("author") or {}).get("name") or ""]
        for f in embed.get("fields") or ():
            texts += [f.get("name") or "", f.get("value") or ""]
    for c in iter_components(message.components):
        texts += [c.get("label") or "", c.get("content") or "", c.get("placeholder") or ""]
        texts += [o.get("label") or "" for o in c.get("options") or ()]
    return sum(len(t) for t in texts)


def is_game_message(message: FakeMessage) -> bool:
    """A game message (a turn's, or the final one in the thread or the channel): it offers the
    Game log, and no lobby's buttons."""
    return any(GAME_BUTTON.match(c.get("custom_id") or "") for c in message.buttons)


class Lengths:
    """The game messages' lengths (`game_message_chars`), as the loopback Discord stored each
    version (a post or an edit): the longest version of all, and each message as it was posted.
    (How many edits Discord's rate limits coalesce depends on timing; a turn's edits only add
    to its story, so the longest version is the same from run to run, as are the posts.)"""

    def __init__(self, fake: FakeDiscord) -> None:
        self.posted: dict[str, int] = {}  # message id -> characters when posted
        self.longest = 0
        self.text = ""
        apply = fake._apply_payload

        def measured(message: FakeMessage, payload: dict, files: dict) -> None:
            apply(message, payload, files)
            if message.author_id == fake.application_id and is_game_message(message):
                n = game_message_chars(message)
                self.posted.setdefault(message.id, n)
                if n > self.longest:
                    self.longest, self.text = n, message_text(message)

        fake._apply_payload = measured  # type: ignore[method-assign]


def message_text(message: FakeMessage) -> str:
    """A game message as plain lines (to read the longest one: `--show-longest`)."""
    lines = [message.content or ""]
    for embed in message.embeds:
        lines += [embed.get("title") or "", embed.get("description") or ""]
        for f in embed.get("fields") or ():
            lines += [f"[{f.get('name')}]", f.get("value") or ""]
        lines += [(embed.get("footer") or {}).get("text") or ""]
    lines += [" | ".join(c.get("label") or "" for c in message.buttons)]
    return "\n".join(line for line in lines if line)


def cost(option: dict) -> int:
    """The light points a choice costs, from its label (`buy seed · 2 light`)."""
    match = re.search(r" (\d+) light", option["label"])
    return int(match[1]) if match else 0


def light(content: str) -> int:
    """The light points the panel says the player has."""
    match = re.search(r"you have (\d+) light", content)
    return int(match[1]) if match else 0


class Table:
    """One channel, two people (and an Expert seat, or a correspondence game ben leaves), and a
    count of everything sent and posted."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        correspondence: bool = False,
        expansion: bool = False,
        lang: str | None = None,
    ) -> None:
        self.fake = fake
        self.correspondence = correspondence
        self.expansion = expansion
        self.lang = lang
        self.chan = fake.add_channel("table")
        self.users = {u["id"]: u for u in (fake.add_user("ann"), fake.add_user("ben"))}
        name_people(list(self.users.values()))
        self.turns: list[tuple[tuple[str, ...], int]] = []  # (verbs played, interactions)
        #: the pictures each view opened besides the game's turns sent (`open_every_view`)
        self.views: dict[str, list[bytes]] = {}
        self.pings = 0

    async def send(self, interaction) -> None:
        await interaction.wait_response(60)

    async def start(self) -> FakeMessage:
        fake = self.fake
        host, guest = self.users.values()
        options: dict[str, object] = {"turn_timer": "24h"} if self.correspondence else {}
        if self.expansion:
            options.update(EXPANSION)
        if self.lang:
            options["language"] = self.lang
        if self.correspondence:
            await self.send(
                await fake.slash(host, "ps notify", options={"mode": "on"}, channel_id=self.chan)
            )
        it = await fake.slash(host, "ps new", options=options, channel_id=self.chan)
        await self.send(it)
        lobby = it.response
        join = lobby.find_button(custom_id_prefix="ps:lobby:join:")
        await self.send(await fake.click(guest, lobby, join))
        if not self.correspondence:
            await self.send(await fake.select(host, lobby, bot_select(lobby), ["expert"]))
        if self.expansion:
            await self.send(await fake.select(host, lobby, bot_select(lobby), ["cynthia"]))
        start = lobby.find_button(custom_id_prefix="ps:lobby:start:")
        await self.send(await fake.click(host, lobby, start))
        if self.correspondence:  # ben leaves: the autopilot plays his seat from now on
            await self.send(await fake.slash(guest, "ps leave", channel_id=self.chan))
        return await self.next_turn(None, timeout=60)

    def owner(self, msg: FakeMessage) -> str | None:
        """The person a game message asks to play (its first line's mention), in any language."""
        if self.lang is None:
            return turn_owner(msg)
        match = re.match(r"<@([0-9]+)>", msg.content.split("\n")[0])
        return match[1] if match and match[1] in self.users else None

    def is_final(self, msg: FakeMessage) -> bool:
        if self.lang is None:
            return is_final(msg)
        return any(b["custom_id"].startswith("ps:rematch:") for b in msg.buttons)

    async def next_turn(self, after: FakeMessage | None, timeout: float) -> FakeMessage:
        """The game message of the next person's turn (or the final one), posted after `after`."""
        if self.lang is None:
            return await next_turn(self.fake, self.chan, after, timeout=timeout)

        def wanted(m: FakeMessage) -> bool:
            newer = after is None or int(m.id) > int(after.id)
            turn = any(b["custom_id"].startswith("ps:turn:") for b in m.buttons)
            return (
                newer and is_game_message(m) and (turn and bool(self.owner(m)) or self.is_final(m))
            )

        return await self.fake.wait_for_message(self.chan, wanted, timeout=timeout)

    async def turn(self, msg: FakeMessage) -> None:
        """One turn through the panel, counting the interactions it took."""
        owner = self.owner(msg)
        assert owner is not None
        fake, user = self.fake, self.users[owner]
        if self.lang is None:
            self.pings += msg.content == f"<@{user['id']}>, it is your turn."
        else:
            self.pings += msg.content.split("\n")[0].startswith(mention(user))
        it = await fake.click(user, msg, msg.find_button(custom_id_prefix="ps:turn:"))
        await self.send(it)
        count, panel, played = 1, it.response, []
        ends = [b for b in panel.buttons if b["label"] == "End turn"]
        if panel.content.startswith("Setup") or not ends and panel.selects:
            select = panel.selects[0]
            await self.send(await fake.select(user, panel, select, [select["options"][0]["value"]]))
            self.turns.append((("place",), 2))
            return
        for verb in SCRIPT:
            offered = kinds(panel)
            if verb not in offered:
                continue
            select = offered[verb]
            if select is None:  # its own screen: more than 25 choices
                await self.send(
                    await fake.click(user, panel, panel.find_button(label=f"{verb.title()}..."))
                )
                count += 1
                select = panel.selects[0]
            if select["custom_id"].split(":")[4] == "src":  # the tree first, then the target
                await self.send(
                    await fake.select(user, panel, select, [select["options"][0]["value"]])
                )
                count += 1
                select = panel.selects[0]
            option = min(select["options"], key=cost)
            if verb == "buy" and light(panel.content) - cost(option) < 2:
                continue
            await self.send(await fake.select(user, panel, select, [option["value"]]))
            count += 1
            played.append(verb)
        await self.send(await fake.click(user, panel, panel.find_button(label="End turn")))
        self.turns.append((tuple(played), count + 1))

    async def play(self) -> FakeMessage:
        msg = await self.start()
        await self.fake.wait_until(lambda: bool(self.fake.uploaded), 60, "the game's picture")
        self.views["next-sun preview"] = await next_sun_preview(self, msg)
        while not self.is_final(msg):
            await self.turn(msg)
            msg = await self.next_turn(msg, timeout=120)
        return msg


def positions(bot: BotProcess) -> list[engine.GameState]:
    """Every position of the game, from the bot's own database."""
    import sqlite3

    conn = sqlite3.connect(bot.database_path)
    try:
        config, seed = conn.execute("SELECT config, seed FROM games WHERE id = 1").fetchone()
        moves = [r[0] for r in conn.execute("SELECT notation FROM actions ORDER BY ply")]
    finally:
        conn.close()
    return list(states(engine.Config.from_dict(json.loads(config)), seed, moves))


# --- P: every kind of picture, as the bot sends it ---------------------------------------------


def name_people(users: list[dict]) -> None:
    """The people's display names: the longest the tests use (emoji, CJK), before they act."""
    for user, name in zip(users, (LONG_NAMES[3], LONG_NAMES[1]), strict=False):
        user["global_name"] = name


async def _pictures_of(table: Table, action) -> list[bytes]:
    """The pictures the bot attached while ``action()`` (a coroutine function) ran."""
    fake = table.fake
    before = len(fake.uploaded)
    await action()
    return [a.data for a in fake.uploaded[before:] if a.filename.endswith(".png")]


async def next_sun_preview(table: Table, msg: FakeMessage) -> list[bytes]:
    """The game message's Next-sun preview, asked once by the first person to play."""
    user = table.users[table.owner(msg) or next(iter(table.users))]

    async def ask() -> None:
        await table.send(
            await table.fake.click(user, msg, msg.find_button(custom_id_prefix="ps:sun:"))
        )

    return await _pictures_of(table, ask)


def review_posted(bot: BotProcess) -> bool:
    """Whether the bot posted the game's review (every message of it, pictures included)."""
    import sqlite3

    conn = sqlite3.connect(bot.database_path)
    try:
        return conn.execute("SELECT status FROM reviews WHERE game_id = 1").fetchall() == [
            ("posted",)
        ]
    except sqlite3.OperationalError:  # (the table is being written)
        return False
    finally:
        conn.close()


async def open_every_view(table: Table, final: FakeMessage, bot: BotProcess) -> None:
    """After the game, every other picture a player meets: `/ps rules` (base and expansion), a
    lesson, a step of the game's replay (a round in the middle, from the viewer's select),
    `/ps profile` and the Expert's review (the Review button; its pictures are posted once
    computed)."""
    fake, chan = table.fake, table.chan
    host = next(iter(table.users.values()))

    async def slash(command: str, **options) -> None:
        it = await fake.slash(host, command, options=options, channel_id=chan)
        await table.send(it)

    async def replay() -> None:
        it = await fake.slash(host, "ps replay", options={"game": 1}, channel_id=chan)
        await table.send(it)
        viewer = it.response
        select = viewer.selects[0]
        middle = select["options"][len(select["options"]) // 2]["value"]
        await table.send(await fake.select(host, viewer, select, [middle]))

    async def review() -> None:
        await table.send(
            await fake.click(host, final, final.find_button(custom_id_prefix="ps:review:"))
        )
        await fake.wait_until(lambda: review_posted(bot), 300, "the review posted")

    views = {
        "rules base": lambda: slash("ps rules"),
        "rules moonlight": lambda: slash("ps rules", topic="moonlight"),
        "lesson": lambda: slash("ps learn"),
        "replay step": replay,
        "profile chart": lambda: slash("ps profile"),
        "review": review,
    }
    for name, action in views.items():
        table.views[name] = await _pictures_of(table, action)


#: A picture's kind by the view that sent it and its file's name (without its numbers).
PICTURE_FILES = {
    ("game", "board"): "game message",
    ("game", "preview"): "panel preview",
    ("review", "review-chart"): "review chart",
    ("review", "review"): "review decision",
}


def smallest_picture_text(table: Table) -> tuple[float, str]:
    """P: the smallest text of every picture the bot sent (`render.draw.smallest_text_in`) at
    ``DISPLAY`` px wide, and each kind's, by file name and view ("none" for a view that sent
    no picture, which makes P nan: every kind must be measured). How many pictures of a kind
    were sent is not said: the game message's redraws depend on timing, the lines on the seed
    alone."""
    fake = table.fake
    opened = {id(png): name for name, pngs in table.views.items() for png in pngs}
    by_kind: dict[str, list[float]] = {name: [] for name in ("game message", "panel preview")}
    by_kind |= {name: [] for name in table.views if name != "review"}
    by_kind |= {"review chart": [], "review decision": []}
    for attachment in fake.uploaded:
        if not attachment.filename.endswith(".png"):
            continue
        kind = opened.get(id(attachment.data), "game")
        stem = re.sub(r"(-\d+)+$", "", attachment.filename.removesuffix(".png"))
        kind = PICTURE_FILES.get((kind, stem), kind)
        px = smallest_text_in(attachment.data, DISPLAY)
        by_kind.setdefault(kind, []).append(float("nan") if px is None else px)
    said = "; ".join(
        f"{kind} {min(sizes):.1f} px" if sizes else f"{kind} none"
        for kind, sizes in by_kind.items()
    )
    every = [min(sizes) if sizes else float("nan") for sizes in by_kind.values()]
    p = float("nan") if any(v != v for v in every) else min(every)
    return p, said


async def run(args) -> None:
    fake = FakeDiscord(check_spec=False)  # a bench: no spec checks competing for the CPU
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"LOG_LEVEL": "WARNING", FIXED_SEED_ENV: str(args.seed), **EXPERT_ENV}
        bot = BotProcess(fake, tmp, env=env)
        try:
            await bot.start()
            await fake.wait_ready(timeout=60)
            lengths = Lengths(fake)
            table = Table(
                fake,
                correspondence=args.correspondence,
                expansion=args.expansion,
                lang=args.lang if args.expansion else None,
            )
            final = await table.play()
            await fake.wait_until(
                lambda: len(fake.messages(table.chan)) >= 2, 30, "the result in the channel"
            )
            # An edit of an old turn still on its rate limit lands by itself, then that message
            # loses its buttons: once only the final message has any, no picture of the game
            # is left to come (it would be counted in the view opened next).
            await fake.wait_until(
                lambda: (
                    sum(
                        bool(m.buttons)
                        for t in fake.threads_of(table.chan)
                        for m in fake.messages(t)
                    )
                    <= 1
                ),
                60,
                "the old game messages without buttons",
            )
            seen = positions(bot)
            bot_id = fake.application_id
            in_channel = [m for m in fake.messages(table.chan) if m.author["id"] == bot_id]
            threads = fake.threads_of(table.chan)
            in_threads = sum(len(fake.messages(t)) for t in threads)
            await open_every_view(table, final, bot)
        finally:
            await bot.stop()
            await fake.stop()
    typical = [n for verbs, n in table.turns if verbs == SCRIPT]
    play_turns = [(v, n) for v, n in table.turns if v != ("place",)]
    p, kinds_seen = smallest_picture_text(table)
    c = statistics.median(typical) if typical else float("nan")
    print(f"seed: {args.seed}")
    print(f"game: {len(table.turns)} turns ({len(play_turns)} in play), {len(seen) - 1} moves")
    print(
        f"typical turns (buy, plant, grow, end): {len(typical)}; interactions median {c:g}, "
        f"max {max(typical) if typical else 0}"
    )
    print(
        f"channel: {len(in_channel)} bot message(s) "
        f"({', '.join(repr(m.content[:40] or m.embeds[0]['title']) for m in in_channel)}); "
        f"{len(threads)} thread(s) holding {in_threads} message(s)"
    )
    kinds_of_turns: dict[tuple[str, ...], int] = {}
    for verbs, _ in play_turns:
        kinds_of_turns[verbs] = kinds_of_turns.get(verbs, 0) + 1
    print(
        "turns played: "
        + "; ".join(
            f"{'+'.join(v) or 'end only'} x{n}"
            for v, n in sorted(kinds_of_turns.items(), key=lambda kv: -kv[1])
        )
    )
    print(f"pings: {table.pings} of {len(table.turns)} turn messages mention their player")
    named = re.sub(r"<@(\d+)>", lambda m: "@" + table.users[m[1]]["username"], final.content)
    print(f"final message in the thread: {named[:60]!r}")
    print(f"smallest picture text at {DISPLAY} px wide, by kind: {kinds_seen}")
    if args.correspondence:
        host = next(iter(table.users.values()))
        print(
            f"dms: {len(fake.dms(host))} DMs to a player in a correspondence game against an "
            "autopilot seat"
        )
        return
    print(f"turns taken by people: {len(table.turns)}")
    print(longest_line(lengths))
    if args.show_longest:
        print(lengths.text)
    print(
        f"table: typical turn {c:g} clicks; {len(in_channel)} channel messages, {in_threads} "
        f"thread messages per game; smallest picture text {p:.1f} px at {DISPLAY} px wide "
        "(every picture kind); "
        f"longest game message {lengths.longest} characters"
    )


def longest_line(lengths: Lengths) -> str:
    """The game messages' lengths: how many versions were measured, their median and longest."""
    sizes = list(lengths.posted.values()) or [0]
    return (
        f"game messages: {len(lengths.posted)} posted, characters when posted median "
        f"{statistics.median(sizes):g}; longest version {lengths.longest}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="The table, as a player meets it")
    parser.add_argument(
        "--seed",
        type=int,
        default=random.randrange(2**31),
        help="the game's seed: the same seed plays the same game (default: drawn at random)",
    )
    parser.add_argument(
        "--correspondence",
        action="store_true",
        help="a correspondence game against an autopilot seat: count the DMs to its player",
    )
    parser.add_argument(
        "--expansion",
        action="store_true",
        help="four seats (two people, the Expert, Cynthia) in Under the Moonlight, every mode",
    )
    parser.add_argument(
        "--lang",
        default="fr",
        choices=("en", "fr", "he", "nl"),
        help="the game's language with --expansion (default: fr)",
    )
    parser.add_argument(
        "--show-longest", action="store_true", help="print the longest game message's text"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
