"""Ratings a player can read and privacy that means what it says (issue 57), end to end with
one bot: `/ps history` says what each game did to the rating and why a new one starts low; a
profile's head-to-head records; a hidden player is "a hidden player" in others' histories and
exports; `/ps forget` refuses before it asks while a game is not over; `/ps export` of a server
whose games pass Discord's limit on a message's files comes in parts, and by dates.

The games are stored before the bot starts: a few played through the game service (rated as
in the bot), and for the large export one of them copied thousands of times by SQL."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from bot.services import export
from render.chart import number
from tests.e2e.fakediscord import ATTACHMENT_SIZE_LIMIT, BotProcess, FakeDiscord
from tests.e2e.helpers import answered, db_rows, mention, refused
from tests.e2e.seeded import copy_game, seed_games

NEW_RATING = (
    "*A new rating starts at 0: the figure is the skill your games show minus three times how "
    "unsure that still is. Each game makes it surer, so over the first games it rises, and it "
    "can rise even after a loss.*"
)
SEATS_BEHIND = (
    "*In a game of three or four, every seat you finish above counts for you: a game you did "
    "not win can still raise your rating.*"
)


def history_points(bot: BotProcess, guild: str, user: dict) -> dict[int, tuple[float, int]]:
    """game -> (the rating shown after it, the rating's games then) in this server's base game."""
    rows = db_rows(
        bot,
        "SELECT game_id, mu, sigma, games FROM rating_history WHERE identity = ? AND scope = ?"
        " AND family = 'base'",
        (f"user:{user['id']}", int(guild)),
    )
    return {game: (mu - 3 * sigma, games) for game, mu, sigma, games in rows}


def places(bot: BotProcess, game: int) -> dict[int, int]:
    rows = db_rows(bot, "SELECT user_id, place FROM seat_results WHERE game_id = ?", (game,))
    return {user: place for user, place in rows}


async def test_histories_explain_ratings_and_hide_the_hidden(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    alice = fake.add_user("alice", administrator=True)
    bob = fake.add_user("bobbelina")
    carol = fake.add_user("carol")
    chan, elsewhere = fake.add_channel("games"), fake.add_channel("earlier")
    games = await seed_games(
        tmp_path / "bot.db", fake.guild_id, elsewhere, [[alice, bob], [bob, carol, alice]]
    )
    bot = await bot_process()

    # Alice's history: each game says the rating after it and its change; the first is from 0.
    points = history_points(bot, fake.guild_id, alice)
    it = await answered(await fake.slash(alice, "ps history", channel_id=chan))
    lines = it.embeds[0]["description"].splitlines()
    assert lines[0] == f"Finished games of {mention(alice)}"
    first_after, second_after = points[games[0]][0], points[games[1]][0]
    assert points[games[0]][1] == 1 and points[games[1]][1] == 2
    change = second_after - first_after
    sign = "+" if round(change, 1) >= 0 else ""
    assert lines[1].endswith(
        f" \N{MIDDLE DOT} rating {number(second_after, 'en')} ({sign}{number(change, 'en')})"
    )
    first_sign = "+" if round(first_after, 1) >= 0 else ""
    assert lines[3].endswith(
        f" \N{MIDDLE DOT} rating {number(first_after, 'en')} "
        f"({first_sign}{number(first_after, 'en')})"
    )
    # Why: a new rating (always, in her first games), and a game of three not won that raised it
    # (only when one did).
    raised = places(bot, games[1])[int(alice["id"])] > 1 and round(change, 1) > 0
    assert lines[5:] == [NEW_RATING, *([SEATS_BEHIND] if raised else [])]

    # Carol reads Alice's profile: her record against Alice, by their places.
    mine, hers = places(bot, games[1])[int(carol["id"])], places(bot, games[1])[int(alice["id"])]
    record = (
        "1 won, 0 lost"
        if mine < hers
        else "0 won, 1 lost"
        if mine > hers
        else "0 won, 0 lost, 1 tied"
    )
    it = await answered(
        await fake.slash(carol, "ps profile", options={"player": alice}, channel_id=chan)
    )
    fields = {f["name"]: f["value"] for f in it.embeds[0]["fields"]}
    assert fields["Head to head"] == f"You against Alice: {record}"
    assert fields["Rating"].splitlines()[-1] == NEW_RATING  # Alice's rating is new

    # Bob hides his profile: the sentence says what stays visible, and it is so.
    it = await answered(await fake.slash(bob, "ps profile", options={"hide": True}))
    assert it.content == (
        "Your profile is hidden now: others do not see it nor your games, you are on no "
        'leaderboard, and in their histories and exports your seats read "a hidden player". '
        "The games' own threads (and their replays) still show your name."
    )
    await refused(
        await fake.slash(alice, "ps history", options={"player": bob}, channel_id=chan),
        "Bobbelina keeps their profile and games hidden: in others' histories and in exports "
        'their seats read "a hidden player", and they are on no leaderboard; only the games\' '
        "own threads (and their replays) show their name.",
    )
    it = await answered(await fake.slash(alice, "ps history", channel_id=chan))
    seats = it.embeds[0]["description"].splitlines()[2::2][:2]
    assert "Bobbelina" not in "".join(seats) and mention(bob) not in it.embeds[0]["description"]
    assert seats[0].startswith("a hidden player ") and ", carol " in seats[0]
    assert ", a hidden player " in seats[1] and seats[1].startswith("alice ")
    # his own history still names him
    it = await answered(await fake.slash(bob, "ps history", channel_id=chan))
    assert "bobbelina " in it.embeds[0]["description"]
    # Alice's export: neither his id nor his name, his seats "a hidden player"
    it = await answered(await fake.slash(alice, "ps export", channel_id=chan))
    files = dict(it.attachments)
    jsonl = files[f"photosynthesis-{fake.guild_id}.jsonl"].decode()
    table = files[f"photosynthesis-{fake.guild_id}.csv"].decode()
    for text in (jsonl, table):
        assert bob["id"] not in text and "bobbelina" not in text.lower()
    lines = [json.loads(line) for line in jsonl.splitlines()]
    assert [[s["name"] for s in line["seats"]] for line in lines] == [
        ["alice", "a hidden player"],
        ["a hidden player", "carol", "alice"],
    ]
    assert [[s["user_id"] for s in line["seats"]] for line in lines] == [
        [alice["id"], None],
        [None, carol["id"], alice["id"]],
    ]
    assert [g.game_id for g in export.read_csv(table)] == games
    assert fake.late_interactions == []


async def test_forget_refuses_before_it_asks(fake: FakeDiscord, bot_process) -> None:
    carol = fake.add_user("carol")
    chan = fake.add_channel("games")
    await bot_process()
    lobby = await answered(await fake.slash(carol, "ps new", channel_id=chan))
    assert not lobby.ephemeral
    it = await fake.slash(carol, "ps forget", channel_id=chan)
    await refused(
        it, "You still have a seat in a game that is not over: finish or leave it, then ask again."
    )
    assert it.response.buttons == []  # no question was asked


async def test_a_large_export_comes_in_parts(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    """A server whose export passes Discord's 10 MiB for a message's files: its games come in
    parts, each part's two files together under the limit, every game once and in order; a
    range of dates asks for less."""
    alice, bob = fake.add_user("alice", administrator=True), fake.add_user("bob")
    chan = fake.add_channel("games")
    (game,) = await seed_games(tmp_path / "bot.db", fake.guild_id, chan, [[alice, bob]])
    copies = copy_game(tmp_path / "bot.db", game, 4_000)
    everything = [game, *copies]
    bot = await bot_process()
    it = await answered(await fake.slash(alice, "ps export", channel_id=chan))
    await fake.wait_until(
        lambda: any(m.content.startswith("The ") for m in it.messages), 60, "the export's end"
    )
    parts = [m for m in it.messages if m.attachments]
    assert len(parts) >= 2
    name = f"photosynthesis-{fake.guild_id}"
    seen: list[int] = []
    for number_, part in enumerate(parts, 1):
        files = dict(part.attachments)
        assert set(files) == {f"{name}-part{number_}.jsonl", f"{name}-part{number_}.csv"}
        assert sum(len(data) for data in files.values()) <= ATTACHMENT_SIZE_LIMIT
        games = [
            json.loads(line)["game"]
            for line in files[f"{name}-part{number_}.jsonl"].decode().splitlines()
        ]
        rows = list(csv.reader(io.StringIO(files[f"{name}-part{number_}.csv"].decode())))
        assert rows[0] == list(export.COLUMNS) and [int(r[0]) for r in rows[1:]] == games
        assert part.content == f"Part {number_}: games #{games[0]} to #{games[-1]}."
        seen += games
    assert seen == everything
    total = sum(len(data) for part in parts for _name, data in part.attachments)
    assert total > ATTACHMENT_SIZE_LIMIT  # (it could not have been one message)
    (end,) = [m for m in it.messages if m.content.startswith("The ")]
    assert end.content == (
        f"The {len(everything)} finished games of this server, in {len(parts)} parts (each "
        "part's files together under the 10 MB Discord takes in one message), as JSON lines and "
        "as CSV (docs/export-format.md); `/ps replay` replays a game of either file."
    )
    assert all(m.ephemeral for m in it.messages)
    # A range of dates: the copies finished when the game did; nothing after it, a bad date.
    (finished,) = db_rows(bot, "SELECT finished_at FROM games WHERE id = ?", (game,))[0]
    day = finished[:10]
    await refused(
        await fake.slash(alice, "ps export", options={"since": "2999-01-01"}, channel_id=chan),
        "This server has no finished games in that range of dates.",
    )
    await refused(
        await fake.slash(alice, "ps export", options={"since": "May 1st"}, channel_id=chan),
        "May 1st is not a date: write it as year-month-day, for example 2026-05-01.",
    )
    await refused(
        await fake.slash(
            alice, "ps export", options={"since": day, "until": "2000-01-01"}, channel_id=chan
        ),
        "The range is empty: `until` is before `since`.",
    )
    assert re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day)
    assert fake.late_interactions == []
