"""A season's end (issue 58, part 3), end to end with one bot on the fake clock.

Five games between two players finish late in the season 2030Q1 (stored through the game service
on the bot's database file, stamped with the test's fake time, their ends rated as in the bot):
both are ranked on this season's leaderboard and see their season rank on `/ps profile`. Then the
clock crosses into 2030Q2 (the fake clock moved and the bot poked, no sleeping): the scheduler's
chore stores the season's final standings, once; `/ps profile` shows the final rank and rating of
2030Q1 beside the new season (no games yet), the new season's board is empty, and last season's
board shows the final standings. A restart after the boundary stores nothing again.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from render.chart import number
from tests.e2e.corr import TestClock, wait_db
from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.e2e.helpers import answered, db_rows
from tests.e2e.seeded import seed_games

#: Late in the season 2030Q1 (the fake time the games finish at), and the next season's start.
LATE_Q1 = datetime(2030, 3, 31, 20, tzinfo=UTC).timestamp()
Q2 = datetime(2030, 4, 1, tzinfo=UTC).timestamp()
GAMES = 5


def stamp(clock: TestClock):
    return lambda: datetime.fromtimestamp(clock.now, UTC).isoformat(timespec="milliseconds")


def season_board(bot: BotProcess, guild: str) -> list[tuple[str, float, int]]:
    """2030Q1's ratings in this server's base game: (identity, shown rating, games), best
    first."""
    rows = db_rows(
        bot,
        "SELECT identity, mu, sigma, games FROM season_ratings WHERE season = '2030Q1'"
        " AND scope = ? AND family = 'base'",
        (int(guild),),
    )
    board = [(who, mu - 3 * sigma, games) for who, mu, sigma, games in rows]
    return sorted(board, key=lambda r: (-r[1], r[0]))


def closings(bot: BotProcess) -> list[str]:
    """The "season closed" lines of the bot's log (every process run on it)."""
    lines = [json.loads(line) for line in bot.output().splitlines() if line.startswith("{")]
    return [line.get("season") for line in lines if line.get("message") == "season closed"]


def field_value(embed: dict, name: str) -> str | None:
    return next((f["value"] for f in embed.get("fields", []) if f["name"] == name), None)


async def test_a_seasons_end(fake: FakeDiscord, bot_process, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    chan = fake.add_channel("games")
    clock = TestClock(tmp_path, start=LATE_Q1)
    await seed_games(tmp_path / "bot.db", fake.guild_id, chan, [[alice, bob]] * GAMES, stamp(clock))
    bot = await bot_process(env=clock.env)
    board = season_board(bot, fake.guild_id)
    assert [games for _who, _rating, games in board] == [GAMES, GAMES]
    lines = [
        f"**{rank}.** <@{who[5:]}> \N{EM DASH} {number(rating, 'en')} after {GAMES} games"
        for rank, (who, rating, _games) in enumerate(board, 1)
    ]
    rank_of = {who: rank for rank, (who, _r, _g) in enumerate(board, 1)}
    rating_of = {who: number(rating, "en") for who, rating, _g in board}
    me = f"user:{alice['id']}"

    # This season's board (the default): both ranked, the season's end said under it.
    it = await answered(await fake.slash(alice, "ps leaderboard", channel_id=chan))
    assert it.embeds[0]["title"] == "Leaderboard: base game, this server, season Q1 2030"
    assert it.embeds[0]["description"].split("\n") == [
        *lines,
        "*The season runs until March 31, 2030 (UTC). Only its games count, rated from a fresh"
        " start at each player's first game of the season.*",
        "",
        f"Your rank: {rank_of[me]} of 2, {rating_of[me]}.",
    ]
    it = await answered(await fake.slash(alice, "ps profile", channel_id=chan))
    season = field_value(it.embeds[0], "Season Q1 2030")
    assert season is not None and season.split("\n")[0] == (
        f"base game, this server: {rating_of[me]} after {GAMES} games, rank {rank_of[me]}"
    )
    assert field_value(it.embeds[0], "Past seasons") is None
    assert db_rows(bot, "SELECT * FROM season_closings") == []

    # The clock crosses into 2030Q2: the scheduler's chore stores the final standings, once.
    clock.set(Q2 + 60, bot)
    await wait_db(lambda: closings(bot) == ["2030Q1"], what="the season's close")
    stored = db_rows(
        bot,
        "SELECT scope, identity, rank, games FROM season_standings ORDER BY scope, rank",
    )
    # (every game in this server: its ranks are the same across all servers, scope 0)
    assert stored == [
        (scope, who, rank_of[who], GAMES)
        for scope in (0, int(fake.guild_id))
        for who, _rating, _games in board
    ]
    assert db_rows(bot, "SELECT season, ranked FROM season_closings") == [("2030Q1", 4)]

    # The profile: the new season has no games yet; the past season's final rank and rating.
    it = await answered(await fake.slash(alice, "ps profile", channel_id=chan))
    assert field_value(it.embeds[0], "Season Q2 2030") == "No rated games this season yet."
    past = field_value(it.embeds[0], "Past seasons")
    assert past is not None and past.split("\n")[0] == (
        f"Q1 2030, base game, this server: final rank {rank_of[me]}, {rating_of[me]}"
        f" after {GAMES} games"
    )
    # The new season's board starts empty; last season's shows its final standings.
    it = await answered(await fake.slash(bob, "ps leaderboard", channel_id=chan))
    assert it.embeds[0]["title"] == "Leaderboard: base game, this server, season Q2 2030"
    assert it.embeds[0]["description"].split("\n")[0] == (
        "No one is ranked yet: it takes 5 rated games."
    )
    it = await answered(
        await fake.slash(bob, "ps leaderboard", options={"season": "previous"}, channel_id=chan)
    )
    assert it.embeds[0]["title"] == "Leaderboard: base game, this server, season Q1 2030"
    him = f"user:{bob['id']}"
    assert it.embeds[0]["description"].split("\n") == [
        "*Final standings, kept as the season ended on March 31, 2030 (UTC).*",
        *lines,
        "",
        f"Your final rank: {rank_of[him]}, {rating_of[him]}.",
    ]
    # All time: the same games, the all-time board.
    it = await answered(
        await fake.slash(bob, "ps leaderboard", options={"season": "all"}, channel_id=chan)
    )
    assert it.embeds[0]["title"] == "Leaderboard: base game, this server"

    # A restart after the boundary stores nothing again.
    await bot.restart()
    await fake.wait_ready()
    it = await answered(await fake.slash(alice, "ps profile", channel_id=chan))
    assert field_value(it.embeds[0], "Past seasons") == past
    assert closings(bot) == ["2030Q1"]
    assert db_rows(bot, "SELECT season, ranked FROM season_closings") == [("2030Q1", 4)]
    assert len(db_rows(bot, "SELECT * FROM season_standings")) == 4
