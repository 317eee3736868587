"""The bot's own log never shows the database's password (issue 48, item 4): started with
`DATABASE_URL=postgresql://user@host/db?password=...` (the server of the tests trusts every
connection, so the password is carried but not needed), the INFO "starting" line showed it."""

from __future__ import annotations

import json

import pytest

from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.pg_server import fresh_database

pytestmark = pytest.mark.postgres

SECRET = "Pg-s3cret-4f9a"


async def test_the_starting_line_hides_a_password_given_in_the_url_query(
    fake: FakeDiscord, postgres_server, tmp_path
) -> None:
    url = f"{await fresh_database(postgres_server)}?password={SECRET}&application_name=ps"
    bot = BotProcess(fake, tmp_path, env={"DATABASE_URL": url, "LOG_LEVEL": "DEBUG"})
    try:
        await bot.start()
        await bot.wait_ready(timeout=60)  # it reached the database with that URL
    finally:
        assert await bot.stop() == 0
    output = bot.output()
    assert SECRET not in output
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    starting = [line for line in lines if line["message"] == "starting"]
    assert len(starting) == 1 and starting[0]["level"] == "INFO"
    shown = url.replace(SECRET, "***")
    assert f"database_url={shown!r}" in starting[0]["settings"]
