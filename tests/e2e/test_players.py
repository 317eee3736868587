"""The players remembered (issue 45), end to end with one bot: a game's end rates both players
and puts them on the leaderboard; `/ps profile`, `/ps leaderboard` and `/ps history` in English
and in Hebrew; hiding a profile; `/ps export` replayed by `/ps replay`; `/ps forget` leaving no
trace of the person in the database.

Four finished games between the two players are stored before the bot starts (played through
the game service on the bot's database file, so their ends are rated as a game's end in the bot
is); the fifth is played through Discord, after which both have the 5 rated games a leaderboard
asks for. A crowd of 10 more people has played 15 four-seat games among themselves (one of them
all 15, the others 5 each), so that the leaderboard and a history have two pages to click
through."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from bot.services import GameService, export
from bot.storage.databases import open_storage
from render.chart import number
from tests.e2e.fakediscord import PNG_SIGNATURE, BotProcess, FakeDiscord
from tests.e2e.gameplay import is_final, next_turn, start_game, turn_owner
from tests.e2e.helpers import answered, db_rows, mention, refused, type_a_turn
from tests.e2e.seeded import seed_games

SEEDED = 4
CROWD, CROWD_GAMES = 10, 15
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


def iso(value: str) -> str:
    """A name or number as a Hebrew sentence isolates it."""
    return f"{FSI}{value}{PDI}"


def crowd_tables(crowd: list[dict]) -> list[list[dict]]:
    """The crowd's `CROWD_GAMES` games: the first of them in each, with three of the nine others
    in turn (5 games each)."""
    first, *others = crowd
    return [[first, *others[3 * (k % 3) : 3 * (k % 3) + 3]] for k in range(CROWD_GAMES)]


async def rebuild(path: Path) -> None:
    """`python -m bot.ratings rebuild`'s work, on the bot's database file (the bot running)."""
    storage = await open_storage(None, str(path))
    try:
        await GameService(storage).players.rebuild()
    finally:
        await storage.close()


async def play_by_typing(fake: FakeDiscord, chan: str, users: dict[str, dict]) -> None:
    """Each person's turns with `/ps play`: the first offered placement, then `end`."""
    message = await next_turn(fake, chan)
    while not is_final(message):
        await type_a_turn(fake, chan, users[turn_owner(message)], message)
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


def ranked(bot: BotProcess, guild: str, lang: str = "en") -> list[str]:
    """This server's base-game leaderboard as its lines should read: the identities with 5
    rated games or more (a visible profile), by rating, then identity."""
    rows = db_rows(
        bot,
        "SELECT identity, mu, sigma, games FROM ratings WHERE scope = ? AND family = 'base'"
        " AND games >= 5 AND identity NOT IN (SELECT identity FROM hidden_players)",
        (int(guild),),
    )
    rows.sort(key=lambda r: (-(r[1] - 3 * r[2]), r[0]))
    after = {"en": "after {} games", "he": "אחרי {} משחקים"}[lang]
    isolate = iso if lang == "he" else str
    return [
        f"**{isolate(str(rank))}.** {isolate(f'<@{who[5:]}>')} \N{EM DASH} "
        f"{isolate(number(mu - 3 * sigma, lang))} {after.format(games)}"
        for rank, (who, mu, sigma, games) in enumerate(rows, 1)
    ]


def numbered(embed: dict) -> list[int]:
    """The games a page of history lists, in order (their numbers, linked)."""
    return [int(n) for n in re.findall(r"\[#([0-9]+)\]", embed["description"])]


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


@pytest.mark.long
async def test_players_remembered(fake: FakeDiscord, bot_process, tmp_path: Path) -> None:
    alice = fake.add_user("alice", administrator=True)
    bob = fake.add_user("bobbelina")
    carol = fake.add_user("carol")
    crowd = [fake.add_user(f"crowd{i}") for i in range(CROWD)]
    chan, elsewhere = fake.add_channel("games"), fake.add_channel("earlier")
    tables = [[alice, bob]] * SEEDED + crowd_tables(crowd)
    await seed_games(tmp_path / "bot.db", fake.guild_id, elsewhere, tables)
    bot = await bot_process()
    a, b = f"user:{alice['id']}", f"user:{bob['id']}"
    before = ratings(bot, fake.guild_id)
    assert (before[a][2], before[b][2]) == (SEEDED, SEEDED)

    # Four rated games: alice is not on the leaderboard yet (the crowd is, on one page); no one
    # has played Under the Moonlight.
    it = await answered(
        await fake.slash(alice, "ps leaderboard", options={"season": "all"}, channel_id=chan)
    )
    assert it.ephemeral and it.embeds[0]["title"] == "Leaderboard: base game, this server"
    assert it.embeds[0]["description"].split("\n") == [
        *ranked(bot, fake.guild_id),
        "",
        "You are not ranked here: it takes 5 rated games and a visible profile.",
    ]
    assert len(ranked(bot, fake.guild_id)) == CROWD and it.response.buttons == []
    it = await answered(
        await fake.slash(
            alice,
            "ps leaderboard",
            options={"rules": "moonlight", "season": "all"},
            channel_id=chan,
        )
    )
    assert it.embeds[0]["title"] == "Leaderboard: Under the Moonlight, this server"
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
    # A rebuild from the stored games gives the live ratings again, to the last bit.
    live = db_rows(bot, "SELECT * FROM ratings ORDER BY scope, family, identity")
    assert len(live) == 2 * (CROWD + 2)  # this server's and all servers'
    await rebuild(tmp_path / "bot.db")
    assert db_rows(bot, "SELECT * FROM ratings ORDER BY scope, family, identity") == live

    # Twelve ranked: two pages, alice's own rank under each; Next, then Previous.
    board = ranked(bot, fake.guild_id)
    rank = 1 + [line.split()[1] for line in board].index(mention(alice))
    mine = f"Your rank: {rank} of {CROWD + 2}, {shown(*after[a][:2])}."
    it = await answered(
        await fake.slash(alice, "ps leaderboard", options={"season": "all"}, channel_id=chan)
    )
    assert it.embeds[0]["description"].split("\n") == [*board[:10], "", mine]
    assert it.embeds[0]["footer"]["text"] == "Page 1 of 2"
    assert [(b["label"], b.get("disabled", False)) for b in it.response.buttons] == [
        ("Previous", True),
        ("Next", False),
    ]
    page = await answered(
        await fake.click(alice, it.response, it.response.find_button(label="Next"))
    )
    assert page.response.embeds[0]["description"].split("\n") == [*board[10:], "", mine]
    assert page.response.embeds[0]["footer"]["text"] == "Page 2 of 2"
    assert [(b["label"], b.get("disabled", False)) for b in page.response.buttons] == [
        ("Previous", False),
        ("Next", True),
    ]
    page = await answered(
        await fake.click(alice, page.response, page.response.find_button(label="Previous"))
    )
    assert page.response.embeds[0]["description"].split("\n") == [*board[:10], "", mine]
    it = await answered(
        await fake.slash(
            alice, "ps leaderboard", options={"scope": "all", "season": "all"}, channel_id=chan
        )
    )
    assert it.embeds[0]["title"] == "Leaderboard: base game, all servers"
    assert it.embeds[0]["description"].split("\n")[-1] == mine
    games = [
        g
        for (g,) in db_rows(
            bot,
            "SELECT id FROM games WHERE status = 'over' AND host_id = ? ORDER BY id",
            (int(alice["id"]),),
        )
    ]
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
    viewer = await answered(
        await fake.click(alice, it.response, it.response.find_button(label=f"Replay #{games[-1]}"))
    )
    assert viewer.ephemeral and viewer.embeds[0]["title"] == f"Replay of game #{games[-1]}"
    it = await answered(await fake.slash(alice, "ps history", channel_id=chan))
    lines = it.embeds[0]["description"].splitlines()
    link = f"[#{games[-1]}](https://discord.com/channels/{fake.guild_id}/{thread})"
    assert lines[0] == f"Finished games of {mention(alice)}"
    assert (
        lines[1].startswith(f"{link} \N{MIDDLE DOT} 20")
        and " \N{MIDDLE DOT} base game " in lines[1]
    )
    assert lines[2].startswith("Alice ") and ", Bobbelina " in lines[2]
    assert len(lines) == 1 + 2 * 5 + 1 and "footer" not in it.embeds[0]  # one page
    # each game says what it did to her rating, and why a new rating starts low (5 games)
    assert lines[1].endswith(")") and " \N{MIDDLE DOT} rating " in lines[1]
    assert lines[-1].startswith("*A new rating starts at 0: ")
    # Replay, under a game of the history: the viewer of that game, at its start.
    viewer = await answered(
        await fake.click(
            alice, it.response, it.response.find_button(custom_id=f"ps:replay:open:{games[1]}")
        )
    )
    assert viewer.ephemeral and viewer.embeds[0]["title"] == f"Replay of game #{games[1]}"
    assert [name for name, _png in viewer.attachments] == ["board.png"]
    assert {b["custom_id"].split(":")[2] for b in viewer.response.buttons} == {f"g{games[1]}"}

    # The crowd's first played 15 games: a history of two pages, newest first.
    crowds = [
        g
        for (g,) in db_rows(
            bot,
            "SELECT id FROM games WHERE status = 'over' AND host_id = ? ORDER BY id DESC",
            (int(crowd[0]["id"]),),
        )
    ]
    assert len(crowds) == CROWD_GAMES
    it = await answered(
        await fake.slash(alice, "ps history", options={"player": crowd[0]}, channel_id=chan)
    )
    assert numbered(it.embeds[0]) == crowds[:10]
    assert it.embeds[0]["footer"]["text"] == "Page 1 of 2"
    assert [b["label"] for b in it.response.buttons] == [
        *(f"Replay #{g}" for g in crowds[:10]),
        "Previous",
        "Next",
    ]
    page = await answered(
        await fake.click(alice, it.response, it.response.find_button(label="Next"))
    )
    assert numbered(page.response.embeds[0]) == crowds[10:]
    assert page.response.embeds[0]["footer"]["text"] == "Page 2 of 2"
    assert [(b["label"], b.get("disabled", False)) for b in page.response.buttons] == [
        *((f"Replay #{g}", False) for g in crowds[10:]),
        ("Previous", False),
        ("Next", True),
    ]
    page = await answered(
        await fake.click(alice, page.response, page.response.find_button(label="Previous"))
    )
    assert numbered(page.response.embeds[0]) == crowds[:10]

    # Bob reads in Hebrew (his setting): the leaderboard, his profile and alice's history.
    await answered(
        await fake.slash(bob, "ps language", options={"language": "he"}, channel_id=chan)
    )
    it = await answered(
        await fake.slash(bob, "ps leaderboard", options={"season": "all"}, channel_id=chan)
    )
    board = ranked(bot, fake.guild_id, "he")
    rank_b = 1 + [line.split()[1] for line in board].index(iso(mention(bob)))
    mine = f"הדירוג שלך: {rank_b} מתוך {CROWD + 2}, {iso(shown(*after[b][:2]))}."
    assert it.embeds[0]["title"] == "טבלת המובילים: המשחק הבסיסי, השרת הזה"
    assert it.embeds[0]["description"].split("\n") == [*board[:10], "", mine]
    assert it.embeds[0]["footer"]["text"] == "עמוד 1 מתוך 2"
    page = await answered(await fake.click(bob, it.response, it.response.find_button(label="הבא")))
    assert page.response.embeds[0]["description"].split("\n") == [*board[10:], "", mine]
    assert page.response.embeds[0]["footer"]["text"] == "עמוד 2 מתוך 2"
    assert [(b["label"], b.get("disabled", False)) for b in page.response.buttons] == [
        ("הקודם", False),
        ("הבא", True),
    ]
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
    assert len(lines) == 1 + 2 * 5 + 1 and lines[-1].startswith("*דירוג חדש מתחיל ב־0: ")
    assert lines[1].startswith(f"{iso(link)} \N{MIDDLE DOT} {FSI}20")
    assert [b["custom_id"] for b in it.response.buttons] == [
        f"ps:replay:open:{g}" for g in reversed(games)
    ]
    it = await answered(
        await fake.slash(bob, "ps history", options={"player": crowd[0]}, channel_id=chan)
    )
    assert it.embeds[0]["footer"]["text"] == "עמוד 1 מתוך 2"
    page = await answered(await fake.click(bob, it.response, it.response.find_button(label="הבא")))
    assert numbered(page.response.embeds[0]) == crowds[10:]
    assert page.response.embeds[0]["description"].splitlines()[0] == (
        f"המשחקים שהסתיימו של {iso(mention(crowd[0]))}"
    )
    assert page.response.embeds[0]["footer"]["text"] == "עמוד 2 מתוך 2"
    assert [b["label"] for b in page.response.buttons] == [
        *(f"צפייה חוזרת #{g}" for g in crowds[10:]),
        "הקודם",
        "הבא",
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
    assert it.content == (
        "הפרופיל שלך מוסתר עכשיו: אחרים לא רואים אותו ולא את המשחקים שלך, אינך באף טבלת מובילים, "
        'ובהיסטוריה שלהם ובייצוא המקומות שלך נקראים "שחקן/ית מוסתר/ת". השרשורים של המשחקים עצמם '
        "(והצפייה החוזרת בהם) עדיין מציגים את שמך."
    )
    await refused(
        await fake.slash(alice, "ps profile", options={"player": bob}, channel_id=chan),
        "Bobbelina keeps their profile and games hidden: in others' histories and in exports "
        'their seats read "a hidden player", and they are on no leaderboard; only the games\' '
        "own threads (and their replays) show their name.",
    )
    it = await answered(
        await fake.slash(alice, "ps leaderboard", options={"season": "all"}, channel_id=chan)
    )
    board = ranked(bot, fake.guild_id)
    assert len(board) == CROWD + 1 and mention(bob) not in "".join(board)
    assert it.embeds[0]["description"].split("\n")[:10] == board[:10]
    assert it.embeds[0]["footer"]["text"] == "Page 1 of 2"

    # The export: Manage Server only; both files replay through /ps replay.
    await refused(
        await fake.slash(carol, "ps export", channel_id=chan, enforce_permissions=False),
        "Only someone with Manage Server can export the server's games.",
    )
    it = await answered(await fake.slash(alice, "ps export", channel_id=chan))
    files = dict(it.attachments)
    jsonl = files[f"photosynthesis-{fake.guild_id}.jsonl"].decode()
    rows = list(csv.reader(io.StringIO(files[f"photosynthesis-{fake.guild_id}.csv"].decode())))
    everything = sorted([*games, *crowds])
    assert [json.loads(line)["game"] for line in jsonl.splitlines()] == everything
    assert [int(row[0]) for row in rows[1:]] == everything
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
        f"Game #{games[2]} of an export of {len(everything)} games (the option `game` chooses another)."
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
    logged = bot.log_path.read_text().lower()
    assert bob["id"] not in logged and "bobbelina" not in logged
    # his ratings are a nameless player's: a rebuild still gives every rating as it was
    live = db_rows(bot, "SELECT * FROM ratings ORDER BY scope, family, identity")
    await rebuild(tmp_path / "bot.db")
    assert db_rows(bot, "SELECT * FROM ratings ORDER BY scope, family, identity") == live
    assert fake.late_interactions == []
