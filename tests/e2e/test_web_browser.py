"""The web companion in a real browser (issue 59): Debian's Chromium driven by Playwright, against
the real bot (its site in its own process: WEB_PORT), the loopback Discord and a stored finished
game with its review. `/ps web on`; the live game's page, opened from the game message's "Watch
on the web", changes by itself when a play is made through Discord; the finished game's replay
steps with the keyboard; a click on a mark of the review's chart opens that decision; a profile
hidden with `/ps profile hide:` is not found. Screenshots at 400 and 1,280 pixels wide, in
English and Hebrew, go to PS_WEB_SHOTS when it names a folder (else the test's own)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.present import web_texts as wt
from bot.storage import SQLiteStorage
from engine.expert.review import review_plies
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.finished_game import CONFIG, SEED, write_finished_game
from tests.e2e.gameplay import start_game
from tests.e2e.helpers import answered, free_port, place_by_typing, refused

CHROMIUM = "/usr/bin/chromium"
WATCH = "Watch on the web"


def link(message: FakeMessage, label: str) -> str:
    (url,) = [b["url"] for b in message.buttons if b.get("style") == 5 and b["label"] == label]
    return str(url)


async def write_review(path: str, notations: list[str]) -> None:
    """A done review of the stored game: Alice's turns of its first plies, at a small budget."""
    decisions = review_plies(CONFIG, SEED, notations, [0], range(0, 30), budget_s=0.02)
    storage = await SQLiteStorage.open(path)
    try:
        await storage.start_review(1)
        await storage.update_review(1, status="posted", decisions=[d.to_dict() for d in decisions])
    finally:
        await storage.close()


@pytest.mark.long
@pytest.mark.timeout(180)
async def test_the_site_in_a_browser(fake: FakeDiscord, bot_process, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    shots = Path(os.environ.get("PS_WEB_SHOTS") or tmp_path)
    alice = fake.add_user("alice", administrator=True)
    bob = fake.add_user("bob")
    old, chan = fake.add_channel("old"), fake.add_channel("games")
    db = str(tmp_path / "bot.db")
    notations = await write_finished_game(db, int(fake.guild_id), int(old), int(alice["id"]))
    await write_review(db, notations)
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    await bot_process(env={"WEB_PORT": str(port), "WEB_URL": site, "WEB_HOST": "127.0.0.1"})

    # Off by default: no link; on with /ps web (Manage Server).
    final = await fake.wait_for_message(
        old, lambda m: any(b["label"] == "Review" for b in m.buttons)
    )
    assert WATCH not in [b["label"] for b in final.buttons]
    await refused(
        await fake.slash(bob, "ps web", options={"state": "on"}, channel_id=chan),
        wt.WEB_FORBIDDEN,
    )
    on = await answered(await fake.slash(alice, "ps web", options={"state": "on"}, channel_id=chan))
    assert on.ephemeral and on.content.startswith("The web companion is on")
    boards = on.content.rsplit(" ", 1)[1]
    assert boards.startswith(site + "/b/")

    message = await start_game(fake, chan, alice, [])
    live = link(message, WATCH)
    assert urlsplit(live).path.startswith("/g/2/")
    profile_it = await answered(await fake.slash(alice, "ps profile", channel_id=chan))
    profile = link(profile_it.response, "Open on the web")

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await (await browser.new_context(viewport={"width": 400, "height": 860})).new_page()

        # The live game follows a play made through Discord.
        await page.goto(live)
        version = int(await page.get_attribute("#live", "data-version") or 0)
        assert await page.text_content(".turn") == "Alice to play"
        played = await place_by_typing(fake, alice, chan)
        await page.wait_for_selector(f'#live:not([data-version="{version}"])', timeout=10_000)
        board = await page.text_content("svg.board title") or ""  # its alt text
        assert played.split()[1] in board and "Cynthia: placed" in (
            await page.text_content("ul.story") or ""
        )
        await page.screenshot(path=str(shots / "live-en-400.png"))

        # The replay steps with the keyboard (`/ps replay` links to it).
        viewer = await answered(
            await fake.slash(bob, "ps replay", options={"game": 1}, channel_id=old)
        )
        game_page = link(viewer.response, "Open on the web").split("/replay#")[0]
        await page.goto(game_page + "/replay")
        last = len(notations)
        assert await page.get_attribute("#step", "data-step") == str(last)
        await page.keyboard.press("ArrowLeft")
        await page.wait_for_selector(f'#step[data-step="{last - 1}"]')
        await page.keyboard.press("ArrowLeft")
        await page.wait_for_selector(f'#step[data-step="{last - 2}"]')
        await page.keyboard.press("ArrowRight")
        await page.wait_for_selector(f'#step[data-step="{last - 1}"]')
        assert await page.input_value("#slider") == str(last - 1)

        # A click on the review's first mark opens that decision.
        await page.goto(game_page + "/review")
        assert await page.get_attribute("#d1", "open") is None
        await page.click('a.mark[data-decision="1"]')
        await page.wait_for_selector("#d1[open]")
        assert "Alice" in (await page.text_content("#d1 summary") or "")

        # Screenshots: the live game, the replay, the review, the profile and the leaderboards.
        for lang in ("en", "he"):
            for width in (400, 1280):
                context = await browser.new_context(
                    viewport={"width": width, "height": 900}, locale=lang
                )
                shot = await context.new_page()
                for name, url in (
                    ("live", live),
                    ("replay", game_page + "/replay"),
                    ("review", game_page + "/review"),
                    ("profile", profile),
                    ("boards", boards),
                ):
                    answer = await shot.goto(url)
                    assert answer is not None and answer.status == 200, name
                    assert await shot.get_attribute("html", "lang") == lang
                    await shot.screenshot(path=str(shots / f"{name}-{lang}-{width}.png"))
                await context.close()

        # A hidden profile is not found.
        await answered(
            await fake.slash(alice, "ps profile", options={"hide": True}, channel_id=chan)
        )
        answer = await page.goto(profile)
        assert answer is not None and answer.status == 404
        assert "no longer works" in (await page.text_content("main") or "")
        await browser.close()
