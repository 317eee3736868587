"""`/ps puzzle` through the loopback Discord (issue 58): a puzzle solved with the turn panel and
one failed (in Hebrew), each with its verdict, picture, rating and streak; forged and replayed
clicks refused for someone else's puzzle; a puzzle answered in a DM with the bot and the
leaderboard in a server where only the player installed the app; the puzzle leaderboard
without a hidden player, and `/ps forget` removing a solver's puzzle rows. The bot's puzzles are the two fixture puzzles
(tests/data/puzzles-fixture.json: their losses hold the answers played here, so no search
runs)."""

from __future__ import annotations

import json
from pathlib import Path

import engine
from bot.discord.cogs.puzzles import PUZZLE_FILE
from bot.present import pictures
from bot.present import puzzle_texts as pz
from bot.ratings.puzzles import PuzzleRating, rate_attempt
from bot.services import refusals
from bot.services.puzzles import SHIPPED_AT
from engine.expert.puzzles import load_puzzles, turn_key
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.helpers import (
    GLOBAL_COMMANDS,
    answered,
    assert_nothing_unreachable,
    db_rows,
    places,
    refused,
    slash_in,
)
from tests.e2e.learning import Learner
from translation import Number, translate

FIXTURE_PATH = Path(__file__).parents[1] / "data" / "puzzles-fixture.json"
BASE, MOON = load_puzzles(FIXTURE_PATH.read_text())


def only_the_fixture(bot) -> list[int]:
    """The bot's puzzles become the fixture's two (the shipped ones taken out): their ids."""
    conn = __import__("sqlite3").connect(bot.database_path)
    try:
        with conn:
            conn.execute("DELETE FROM puzzles")
            # the base game's puzzle a hair nearer a newcomer's rating (25): shown first
            for p, mu in ((BASE, 25.0), (MOON, 25.001)):
                conn.execute(
                    "INSERT INTO puzzles (key, rules, source, data, mu, sigma, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (p.key, p.rules, p.source, json.dumps(p.to_dict()), mu, 25 / 3, SHIPPED_AT),
                )
        return [r[0] for r in conn.execute("SELECT id FROM puzzles ORDER BY mu")]
    finally:
        conn.close()


async def puzzle(solver: Learner, show: str | None = None) -> FakeMessage:
    options = {} if show is None else {"show": show}
    it = await solver.fake.slash(solver.user, "ps puzzle", options=options, channel_id=solver.chan)
    await answered(it)
    assert it.ephemeral
    return it.response


def picture(solver: Learner, state: engine.GameState, seat: int, highlight=()) -> bytes:
    names = [solver.tr(pz.OPPONENT)] * state.n_seats
    names[seat] = solver.name
    return pictures.board_png(
        state, viewer_seat=seat, names=names, lang=solver.lang,
        layout=pictures.PANEL_LAYOUT, highlight=list(highlight),
    )  # fmt: skip


def after_best(p) -> tuple[engine.GameState, list[str]]:
    state = p.state
    spaces: list[str] = []
    for notation in p.best:
        state = engine.apply(state, notation)
        spaces += [w for w in notation.split()[1:] if w[0].isupper()]
    return state, spaces


async def test_a_puzzle_solved_and_one_failed(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    base_id, moon_id = only_the_fixture(bot)
    chan = fake.add_channel("puzzles")
    ana = Learner(fake, "en", chan, "ana")

    screen = await puzzle(ana)
    assert f"**Puzzle {base_id}** (base game)" in screen.content
    assert pz.RATING_LINE.format(rating=Number(0.0, 1), streak=Number(0, 0)) in screen.content
    assert pz.TASK.format(round=BASE.round, rounds=18) in screen.content
    ((name, png),) = screen.attachments
    assert name == PUZZLE_FILE and png == picture(ana, BASE.state, BASE.seat)
    ids = [c["custom_id"] for c in (*screen.buttons, *screen.selects)]
    (attempt,) = {int(i.split(":")[2]) for i in ids if i.startswith("ps:puz")}
    assert all(f":{attempt}:0:" in i for i in ids)

    # The best turn, action by action with the panel, then End turn.
    await ana.play(screen, BASE.best[0])
    assert pz.SO_FAR.format(turn=BASE.best[0]) in screen.content
    assert any(b["custom_id"] == f"ps:puz:{attempt}:1:undo" for b in screen.buttons)
    for notation in BASE.best[1:]:
        await ana.play(screen, notation)
    await ana.play(screen, "end")
    turn = ", ".join(BASE.best)
    assert "\N{WHITE HEAVY CHECK MARK} " + pz.RIGHT.format(turn=turn) in screen.content
    best = pz.BEST.format(best=turn, margin=Number(BASE.margin, 1, signed=True),
                          gap=Number(BASE.gap, 1))  # fmt: skip
    assert best in screen.content
    me, _it = rate_attempt(PuzzleRating(), PuzzleRating(), True)
    rated = pz.RATED.format(rating=Number(me.ordinal, 1),
                            change=Number(me.ordinal - PuzzleRating().ordinal, 1, signed=True),
                            streak=Number(1, 0), best=Number(1, 0))  # fmt: skip
    assert rated in screen.content
    state, spaces = after_best(BASE)
    ((_name, png),) = screen.attachments
    assert png == picture(ana, state, BASE.seat, spaces)
    assert [b["custom_id"] for b in screen.buttons] == [f"ps:puznext:{moon_id}"]
    assert db_rows(bot, "SELECT solved, failed, streak, best_streak FROM puzzle_players") == [
        (1, 0, 1, 1)
    ]

    # Next puzzle, in Hebrew, answered with End turn at once: wrong, with the best turn shown.
    ana.lang = "he"
    await ana.speak()
    await ana.click(screen, f"ps:puznext:{moon_id}")
    assert translate(pz.RULES_MOONLIGHT, "he") in screen.content
    await ana.play(screen, "end")
    loss = MOON.losses[turn_key(MOON.state, [])]
    wrong = pz.WRONG.format(turn=translate(pz.NOTHING, "he"), loss=Number(loss, 1))
    assert "\N{CROSS MARK} " + ana.tr(wrong) in screen.content, screen.content
    best = pz.BEST.format(best=", ".join(MOON.best), margin=Number(MOON.margin, 1, signed=True),
                          gap=Number(MOON.gap, 1))  # fmt: skip
    assert ana.tr(best) in screen.content
    state, spaces = after_best(MOON)
    ((_name, png),) = screen.attachments
    assert png == picture(ana, state, MOON.seat, spaces)
    assert ana.tr(pz.ALL_DONE) in screen.content and screen.buttons == []
    assert db_rows(bot, "SELECT solved, failed, streak, best_streak FROM puzzle_players") == [
        (1, 1, 0, 1)
    ]
    assert db_rows(bot, "SELECT puzzle_id, status FROM puzzle_attempts ORDER BY id") == [
        (base_id, "solved"),
        (moon_id, "failed"),
    ]
    assert fake.late_interactions == []


async def test_forged_and_replayed_clicks_the_leaderboard_and_forget(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process(env=GLOBAL_COMMANDS)  # (as in production: a DM reaches them)
    base_id, moon_id = only_the_fixture(bot)
    chan = fake.add_channel("puzzles")
    ana, bea = Learner(fake, "en", chan, "ana"), Learner(fake, "en", chan, "bea")

    screen = await puzzle(ana)
    end = next(b for b in screen.buttons if b["custom_id"].endswith(":play end"))
    attempt = int(end["custom_id"].split(":")[2])
    # Bea replays Ana's click, and forges Ana's attempt into her own screen: refused.
    own = await puzzle(bea)
    before = db_rows(bot, "SELECT * FROM puzzle_attempts")
    await refused(await fake.click(bea.user, screen, end), refusals.NOT_YOUR_PUZZLE)
    mine = next(b for b in own.buttons if b["custom_id"].endswith(":play end"))
    mine["custom_id"] = f"ps:puz:{attempt}:0:play end"
    await refused(await fake.click(bea.user, own, mine), refusals.NOT_YOUR_PUZZLE)
    assert db_rows(bot, "SELECT * FROM puzzle_attempts") == before
    # Ana's own second screen of the same puzzle, once her answer moved on: out of date.
    second = await puzzle(ana)
    assert second.content == screen.content
    await ana.play(screen, BASE.best[0])
    old = next(b for b in second.buttons if b["custom_id"].endswith(":play end"))
    await refused(await fake.click(ana.user, second, old), refusals.STALE_PUZZLE)

    # Both answer: Ana right, Bea wrong; the leaderboard ranks both.
    for notation in (*BASE.best[1:], "end"):
        await ana.play(screen, notation)
    own = await puzzle(bea)
    await bea.play(own, "end")
    board = await puzzle(bea, "leaderboard")
    assert f"<@{ana.user['id']}>" in board.content and f"<@{bea.user['id']}>" in board.content
    ana_rating, puzzle_rating = rate_attempt(PuzzleRating(), PuzzleRating(), True)
    bea_rating, _after = rate_attempt(PuzzleRating(), puzzle_rating, False)  # (after Ana's)
    rows = board.content.splitlines()[1:3]
    assert rows == [
        pz.LEADERBOARD_ROW.format(rank="1", name=f"<@{ana.user['id']}>",
                                  rating=Number(ana_rating.ordinal, 1), solved=1, best=1),
        pz.LEADERBOARD_ROW.format(rank="2", name=f"<@{bea.user['id']}>",
                                  rating=Number(bea_rating.ordinal, 1), solved=0, best=0),
    ]  # fmt: skip
    assert pz.YOUR_RANK.format(rank=2, rating=Number(bea_rating.ordinal, 1)) in board.content

    # Bea hides her profile: off the puzzle leaderboard.
    await answered(await fake.slash(bea.user, "ps profile", options={"hide": True}))
    board = await puzzle(ana, "leaderboard")
    assert f"<@{bea.user['id']}>" not in board.content
    assert pz.YOUR_RANK.format(rank=1, rating=Number(ana_rating.ordinal, 1)) in board.content

    # Wherever the player is: Bea's next puzzle in a DM with the bot, answered there; the
    # leaderboard in a server where only she installed the app.
    where = places(fake, bea.user)
    dm = Learner(fake, "en", where["bot DM"], "bea")
    dm.user = bea.user
    there = await puzzle(dm)
    assert f"**Puzzle {moon_id}** (Under the Moonlight)" in there.content and there.attachments
    await dm.play(there, "end")
    assert there.content.splitlines()[1].startswith("\N{CROSS MARK} ")
    board = await slash_in(fake, bea.user, where["user-installed server"], "ps puzzle",
                           show="leaderboard")  # fmt: skip
    assert board.ephemeral and pz.LEADERBOARD_TITLE in board.content
    assert_nothing_unreachable(fake)

    # Ana is forgotten: her puzzle rows go, and the leaderboard has nobody left to show.
    it = await answered(await fake.slash(ana.user, "ps forget", channel_id=chan))
    yes = it.response.find_button(label="Forget me")
    await answered(await fake.click(ana.user, it.response, yes))
    uid = int(ana.user["id"])
    for table in ("puzzle_attempts", "puzzle_players"):
        assert db_rows(bot, f"SELECT * FROM {table} WHERE user_id = ?", (uid,)) == []
    board = await puzzle(bea, "leaderboard")
    assert f"<@{ana.user['id']}>" not in board.content
    assert pz.LEADERBOARD_EMPTY in board.content
    assert db_rows(bot, "SELECT attempts FROM puzzles WHERE id = ?", (base_id,)) == [(2,)]
