"""The web companion in its own process (issue 59, `WEB_SEPARATE=1`): the bot, reading the same
settings as `python -m bot.web`, serves no page (its port stays free for the site) but gives
the links, and the site's own process serves them and follows the bot's plays."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from aiohttp import ClientSession

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import start_game
from tests.e2e.helpers import answered, free_port, place_by_typing

ROOT = Path(__file__).resolve().parents[2]
WATCH = "Watch on the web"


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.timeout(120)
async def test_the_bot_gives_the_links_and_the_site_serves_them(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    alice = fake.add_user("alice", administrator=True)
    chan = fake.add_channel("games")
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    env = {"WEB_PORT": str(port), "WEB_URL": site, "WEB_HOST": "127.0.0.1", "WEB_SEPARATE": "1"}
    await bot_process(env=env)
    on = await answered(await fake.slash(alice, "ps web", options={"state": "on"}, channel_id=chan))
    assert on.content.rsplit(" ", 1)[1].startswith(site + "/b/")
    message = await start_game(fake, chan, alice, [])
    (live,) = [b["url"] for b in message.buttons if b.get("label") == WATCH]
    assert not listening(port)  # the bot serves nothing

    web_env = {
        **os.environ,
        **env,
        "DATABASE_PATH": str(tmp_path / "bot.db"),
        "LOG_LEVEL": "WARNING",
    }
    web_env.pop("DATABASE_URL", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.web", env=web_env, cwd=ROOT, stderr=asyncio.subprocess.PIPE
    )
    try:
        async with ClientSession() as client:
            for _ in range(400):  # until it listens
                if listening(port):
                    break
                await asyncio.sleep(0.05)
            path = urlsplit(live).path
            async with client.get(live) as page:
                assert page.status == 200 and "Alice to play" in await page.text()
            stream = await client.get(f"{site}{path}/events")
            assert stream.status == 200
            await place_by_typing(fake, alice, chan)  # a play in Discord reaches the page
            line = b""
            while not line.startswith(b"data: "):
                line = await asyncio.wait_for(stream.content.readline(), 10)
            assert "placed" in json.loads(line[6:])["html"]
            stream.close()
    finally:
        process.terminate()
        _, errors = await process.communicate()
        print(errors.decode())
        assert process.returncode == 0
