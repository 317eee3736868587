"""The players remembered (issue 45), end to end with one bot: a game's end rates both players
and puts them on the leaderboard; `/ps profile`, `/ps leaderboard` and `/ps history` in English
and in Hebrew; hiding a profile; `/ps export` replayed by `/ps replay`; `/ps forget` leaving no
trace of the person in the database.

Four finished games between the two players are stored before the bot starts (played through
the game service on the bot's database file, so their ends are rated as a game's end in the bot
is); the fifth is played through Discord, after which both have the 5 rated games a leaderboard
asks for."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
from pathlib import Path

import engine
from bot import export
from bot.databases import open_storage
from bot.services import GameService
from tests.e2e.fakediscord import PNG_SIGNATURE, BotProcess, FakeDiscord
from tests.e2e.gameplay import is_final, next_turn, start_game, turn_owner
from tests.e2e.test_lobby import answered, db_rows, mention, refused

SEEDED = 4
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


def iso(value: str) -> str:
    """A name or number as a Hebrew sentence isolates it."""
    return f"{FSI}{value}{PDI}"


async def seed_games(path: Path, guild: str, channel: str, people: list[dict]) -> None:
    """`SEEDED` finished games of `people` (random legal moves, or `end`) in the bot's database
    file."""
    storage = await open_storage(None, str(path))
    service = GameService(storage, seed_source=lambda: 5)
    rng = random.Random(45)
    host, *others = people
    try:
        for _ in range(SEEDED):
            game = await service.lobby.new_lobby(
                guild_id=int(guild),
                channel_id=int(channel),
                host_id=int(host["id"]),
                host_name=host["username"],
                options={},
            )
            for user in others:
                game = await service.lobby.join(
                    game.id, game.version, int(user["id"]), user["username"]
                )
            result = await service.lobby.start(game.id, game.version, int(host["id"]))
            state = result.state
            while not state.is_over:
                user_id = result.game.seats[state.current_seat].user_id
                legal = [str(a) for a in engine.legal_actions(state)]
                moves = [a for a in legal if a != "end"]
                ending = "end" in legal and (not moves or rng.random() < 0.8)
                chosen = "end" if ending else rng.choice(moves)
                result = await service.turns.play(game.id, user_id, chosen)
                state = result.state
    finally:
        await storage.close()


async def play_by_typing(fake: FakeDiscord, chan: str, users: dict[str, dict]) -> None:
    """Each person's turns with `/ps play`: the first offered placement, then `end`."""
    message = await next_turn(fake, chan)
    while not is_final(message):
        user = users[turn_owner(message)]
        action = "end"
        if message.embeds[0]["description"].startswith("Setup"):
            offered = await fake.autocomplete(
                user, "ps play", focused="action", options={"action": ""}, channel_id=chan
            )
            action = offered[0]["value"]
        it = await answered(
            await fake.slash(user, "ps play", options={"action": action}, channel_id=chan)
        )
        assert it.content.startswith(f"You played `{action}`."), it.content
        message = await next_turn(fake, chan, message)


def ratings(bot: BotProcess, guild: str) -> dict[str, tuple[float, float, int]]:
    """identity -> (mu, sigma, games) of this server's base-game ratings."""
    rows = db_rows(
        bot,
        "SELECT identity, mu, sigma, games FROM ratings WHERE scope = ? AND family = 'base'",
        (int(guild),),
    )
    return {identity: (mu, sigma, games) for identity, mu, sigma, games in rows}


def shown(mu: float, sigma: float) -> str:
    return f"{mu - 3 * sigma:.1f}"


def traces(path: Path, needles: list[str]) -> list[tuple[str, str]]:
    """(table, row) of every row of every table holding one of `needles`."""
    conn = sqlite3.connect(path)
    try:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        found = []
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):  # noqa: S608 (the schema's names)
                text = " ".join(str(v) for v in row).lower()
                if any(needle in text for needle in needles):
                    found.append((table, text[:200]))
        return found
    finally:
        conn.close()


async def test_players_remembered(fake: FakeDiscord, bot_process, tmp_path: Path) -> None:
    alice = fake.add_user("alice", administrator=True)
    bob = fake.add_user("bobbelina")
    carol = fake.add_user("carol")
    chan, elsewhere = fake.add_channel("games"), fake.add_channel("earlier")
    await seed_games(tmp_path / "bot.db", fake.guild_id, elsewhere, [alice, bob])
    bot = await bot_process()
    a, b = f"user:{alice['id']}", f"user:{bob['id']}"
    before = ratings(bot, fake.guild_id)
    assert (before[a][2], before[b][2]) == (SEEDED, SEEDED)

    # Four rated games: no one is on the leaderboard yet.
    it = await answered(await fake.slash(alice, "ps leaderboard", channel_id=chan))
    assert it.ephemeral and it.embeds[0]["title"] == "Leaderboard: base game, this server"
    assert it.embeds[0]["description"] == (
        "No one is ranked yet: it takes 5 rated games.\n\n"
        "You are not ranked here: it takes 5 rated games and a visible profile."
    )

    # The fifth game, through Discord: its end rates both players.
    await start_game(fake, chan, alice, [bob], cynthias=0)
    await play_by_typing(fake, chan, {alice["id"]: alice, bob["id"]: bob})
    after = ratings(bot, fake.guild_id)
    assert (after[a][2], after[b][2]) == (SEEDED + 1, SEEDED + 1)
    assert after[a][:2] != before[a][:2] and after[b][:2] != before[b][:2]
    first, second = sorted((a, b), key=lambda i: -(after[i][0] - 3 * after[i][1]))
    it = await answered(await fake.slash(alice, "ps leaderboard", channel_id=chan))
    rank = 1 if first == a else 2
    assert it.embeds[0]["description"] == (
        f"**1.** <@{first[5:]}> \N{EM DASH} {shown(*after[first][:2])} after 5 games\n"
        f"**2.** <@{second[5:]}> \N{EM DASH} {shown(*after[second][:2])} after 5 games\n\n"
        f"Your rank: {rank} of 2, {shown(*after[a][:2])}."
    )
    it = await answered(
        await fake.slash(alice, "ps leaderboard", options={"scope": "all"}, channel_id=chan)
    )
    assert it.embeds[0]["title"] == "Leaderboard: base game, all servers"
    assert f"Your rank: {rank} of 2" in it.embeds[0]["description"]
    games = [g for (g,) in db_rows(bot, "SELECT id FROM games WHERE status = 'over' ORDER BY id")]
    assert len(games) == SEEDED + 1
    thread = fake.threads_of(chan)[0]

    # Alice's profile, in English: her games, her rating and its chart, her recent games.
    it = await answered(await fake.slash(alice, "ps profile", channel_id=chan))
    embed = it.embeds[0]
    assert it.ephemeral and embed["title"] == "Profile of Alice"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Rating"].splitlines()[0] == (
        f"base game, this server: {shown(*after[a][:2])} after 5 games, rank {rank}"
    )
    assert fields["Games"].startswith("base game, 2 seats: 5 played, ")
    recent = fields["Recent games"].splitlines()
    assert len(recent) == 5
    assert recent[0].startswith(
        f"[#{games[-1]}](https://discord.com/channels/{fake.guild_id}/{thread}) \N{MIDDLE DOT} "
    )
    assert [b["custom_id"] for b in it.response.buttons] == [
        f"ps:replay:open:{g}" for g in reversed(games)
    ]
    ((name, png),) = it.attachments
    assert name == "rating.png" and png.startswith(PNG_SIGNATURE)
    assert embed["image"]["url"] == "attachment://rating.png"
    alt = it.response.payload(fake)["attachments"][0]["description"]
    assert alt.startswith("Rating history (base game): 5 rated games from ")
    it = await answered(await fake.slash(alice, "ps history", channel_id=chan))
    lines = it.embeds[0]["description"].splitlines()
    link = f"[#{games[-1]}](https://discord.com/channels/{fake.guild_id}/{thread})"
    assert lines[0] == f"Finished games of {mention(alice)}"
    assert (
        lines[1].startswith(f"{link} \N{MIDDLE DOT} 20")
        and " \N{MIDDLE DOT} base game " in lines[1]
    )
    assert lines[2].startswith("Alice ") and ", Bobbelina " in lines[2]
    assert len(lines) == 1 + 2 * 5 and "footer" not in it.embeds[0]  # one page

    # Bob reads in Hebrew (his setting): the leaderboard, his profile and alice's history.
    await answered(
        await fake.slash(bob, "ps language", options={"language": "he"}, channel_id=chan)
    )
    it = await answered(await fake.slash(bob, "ps leaderboard", channel_id=chan))
    rank_b = 3 - rank
    assert it.embeds[0]["title"] == "טבלת המובילים: המשחק הבסיסי, השרת הזה"
    assert it.embeds[0]["description"].splitlines()[-1] == (
        f"הדירוג שלך: {rank_b} מתוך 2, {iso(shown(*after[b][:2]))}."
    )
    it = await answered(await fake.slash(bob, "ps profile", channel_id=chan))
    assert it.embeds[0]["title"] == f"הפרופיל של {iso('Bobbelina')}"
    fields = {f["name"]: f["value"] for f in it.embeds[0]["fields"]}
    assert fields["דירוג"].splitlines()[0] == (
        f"המשחק הבסיסי, השרת הזה: {iso(shown(*after[b][:2]))} אחרי 5 משחקים, מקום {rank_b}"
    )
    alt = it.response.payload(fake)["attachments"][0]["description"]
    assert alt.startswith("היסטוריית הדירוג (המשחק הבסיסי): 5 משחקים מדורגים")
    it = await answered(
        await fake.slash(bob, "ps history", options={"player": alice}, channel_id=chan)
    )
    lines = it.embeds[0]["description"].splitlines()
    assert lines[0] == f"המשחקים שהסתיימו של {iso(mention(alice))}"
    assert len(lines) == 1 + 2 * 5
    assert lines[1].startswith(f"{iso(link)} \N{MIDDLE DOT} {FSI}20")
    assert [b["custom_id"] for b in it.response.buttons] == [
        f"ps:replay:open:{g}" for g in reversed(games)
    ]

    # Carol has played nothing; nobody hides another's profile.
    it = await answered(await fake.slash(carol, "ps profile", channel_id=chan))
    assert it.embeds[0]["description"] == "No finished games yet."
    assert it.embeds[0]["fields"] == [
        {"name": "Rating", "value": "No rated games yet.", "inline": False}
    ]
    assert it.attachments == [] and it.response.buttons == []
    await refused(
        await fake.slash(carol, "ps profile", options={"player": bob, "hide": True}),
        "You can hide or show only your own profile.",
    )

    # Bob hides his profile: alice cannot read it, and he leaves the leaderboard.
    it = await answered(
        await fake.slash(bob, "ps profile", options={"hide": True}, channel_id=chan)
    )
    assert it.content == "הפרופיל שלך מוסתר עכשיו: אחרים לא רואים אותו, ואינך באף טבלת מובילים."
    await refused(
        await fake.slash(alice, "ps profile", options={"player": bob}, channel_id=chan),
        "Bobbelina keeps their profile and games hidden.",
    )
    it = await answered(await fake.slash(alice, "ps leaderboard", channel_id=chan))
    assert it.embeds[0]["description"].startswith(f"**1.** <@{alice['id']}> ")
    assert f"<@{bob['id']}>" not in it.embeds[0]["description"]

    # The export: Manage Server only; both files replay through /ps replay.
    await refused(
        await fake.slash(carol, "ps export", channel_id=chan, enforce_permissions=False),
        "Only someone with Manage Server can export the server's games.",
    )
    it = await answered(await fake.slash(alice, "ps export", channel_id=chan))
    files = dict(it.attachments)
    jsonl = files[f"photosynthesis-{fake.guild_id}.jsonl"].decode()
    rows = list(csv.reader(io.StringIO(files[f"photosynthesis-{fake.guild_id}.csv"].decode())))
    assert [json.loads(line)["game"] for line in jsonl.splitlines()] == games
    assert [int(row[0]) for row in rows[1:]] == games
    third = export.read_jsonl(jsonl)[2]
    it = await answered(
        await fake.slash(
            alice,
            "ps replay",
            options={"record": ("export.jsonl", jsonl.encode()), "game": games[2]},
            channel_id=chan,
        )
    )
    assert it.content == (
        f"Game #{games[2]} of an export of 5 games (the option `game` chooses another)."
    )
    # the viewer carries the export's third game as its record, and opens at its start
    carried = dict(it.attachments)
    assert carried["record.txt"].decode() == third.record.to_text()
    assert set(carried) == {"record.txt", "board.png"}

    # Bob asks to be forgotten and confirms: neither his id nor his name stays in any table.
    assert traces(bot.database_path, [bob["id"], "bobbelina"])
    it = await answered(await fake.slash(bob, "ps forget", channel_id=chan))
    keep = await answered(
        await fake.click(bob, it.response, it.response.find_button(label="להשאיר הכול"))
    )
    assert keep.response.content == "לא השתנה דבר: לא נשכחת." and keep.response.buttons == []
    assert traces(bot.database_path, [bob["id"]])
    it = await answered(await fake.slash(bob, "ps forget", channel_id=chan))
    assert it.ephemeral and [b["label"] for b in it.response.buttons] == [
        "לשכוח אותי",
        "להשאיר הכול",
    ]
    done = await answered(
        await fake.click(bob, it.response, it.response.find_button(label="לשכוח אותי"))
    )
    assert done.response.content.startswith("בוצע: נשכחת.")
    assert traces(bot.database_path, [bob["id"], "bobbelina"]) == []
    assert fake.late_interactions == []
