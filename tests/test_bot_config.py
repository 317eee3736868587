"""Configuration, the no-token guidance of `python -m bot`, and logging that hides the token."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_PATH, ConfigError, hide_secrets, load_settings
from bot.logs import JsonFormatter, configure_logging
from bot.storage import DatabaseUrlError, database_url

REPO = Path(__file__).resolve().parents[1]


def test_settings_from_the_environment() -> None:
    settings = load_settings(
        {"DISCORD_TOKEN": " abc.def ", "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"}
    )
    assert settings.token == "abc.def" and settings.dev_guild_id == 123
    assert settings.database_path == DEFAULT_DATABASE_PATH and settings.log_level == "DEBUG"
    assert "abc.def" not in repr(settings)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "guild"}, "DEV_GUILD_ID must be a numeric"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://x"}, "DATABASE_URL must start with"),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT must be a positive"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "a"}, "from 0 to 1"),
    ],
)
def test_bad_settings_say_what_is_wrong(env: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(env)


def test_every_variable_is_documented_in_env_example() -> None:
    example = (REPO / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        assert f"\n{name}=" in example
    for name in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "PICTURE_WORKERS"):
        assert f"\n# {name}=" in example


def test_database_url_and_shards_make_a_sharded_bot_on_postgresql() -> None:
    from bot.discord.app import PhotosynthesisBot, ShardedPhotosynthesisBot, create_bot

    url = "postgresql://bot:secret@db:5432/ps"
    env = {"DISCORD_TOKEN": "t", "DATABASE_URL": url, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"}
    settings = load_settings(env)
    assert (settings.database_url, settings.shard_count, settings.shard_ids) == (url, 4, (1, 3))
    assert "secret" not in repr(settings) and "bot:***@db:5432/ps" in repr(settings)
    bot = create_bot(settings)
    assert isinstance(bot, ShardedPhotosynthesisBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    assert [bot.serves(g << 22) for g in range(8)] == [False, True, False, True] * 2
    assert load_settings({**env, "SHARD_IDS": ""}).shard_ids == (0, 1, 2, 3)
    plain = create_bot(load_settings({"DISCORD_TOKEN": "t"}))
    assert type(plain) is PhotosynthesisBot and plain.shard_count is None
    assert plain.serves(3 << 22) and plain.serves(None)


def test_without_a_token_the_bot_explains_the_setup_and_fails(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    for needle in (
        "https://discord.com/developers/applications",
        "Reset Token",
        "No privileged gateway intents",
        "bot+applications.commands",
        "Send Messages, Attach Files, Embed Links, Use Application Commands",
        "make demo",
    ):
        assert needle in done.stderr


def test_the_env_file_in_the_working_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nLOG_LEVEL=loud\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LOG_LEVEL"))}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Configuration error: LOG_LEVEL must be one of" in done.stderr
    assert "from-dotenv" not in done.stderr


def test_log_lines_are_json_and_never_contain_the_token() -> None:
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "token is %s", ("s3cret",), None)
    record.game_id = 7
    line = json.loads(JsonFormatter(["s3cret"]).format(record))
    assert line["message"] == "token is [redacted]" and line["game_id"] == 7
    assert line["level"] == "INFO" and line["logger"] == "bot"


def test_the_token_is_redacted_from_tracebacks_and_extra_fields() -> None:
    """Issue 13, item 10: the filter redacted only the message."""
    try:
        raise RuntimeError("connecting with s3cret.tok failed")
    except RuntimeError:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    record.settings = "Settings(token='s3cret.tok')"
    text = JsonFormatter(["s3cret.tok"]).format(record)
    line = json.loads(text)
    assert "s3cret" not in text
    assert "RuntimeError: connecting with [redacted] failed" in line["exception"]
    assert line["settings"] == "Settings(token='[redacted]')"


def test_no_private_content_at_debug(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 13, item 10: at DEBUG, discord.py logged every request body (ephemeral panels,
    the private animal draft). Its loggers stay at INFO; ours log at DEBUG."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level, logging.getLogger("discord").level
    try:
        configure_logging("DEBUG", secrets=["s3cret"])
        logging.getLogger("discord.http").debug("POST /interactions with %s", "dealt owl, fox")
        logging.getLogger("discord.webhook.async_").debug("payload: dealt owl, fox")
        logging.getLogger("discord.gateway").info("Shard ID None has connected")
        logging.getLogger("bot.services.turns").debug("a debug line of ours")
    finally:
        root.handlers[:], level, discord_level = saved
        root.setLevel(level)
        logging.getLogger("discord").setLevel(discord_level)
    err = capsys.readouterr().err
    assert "dealt owl" not in err
    messages = [json.loads(line)["message"] for line in err.splitlines()]
    assert messages == ["Shard ID None has connected", "a debug line of ours"]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:s3cr3t@db:5432/ps", "postgresql://bot:***@db:5432/ps"),
        ("postgresql://bot@db/ps?password=s3cr3t", "postgresql://bot@db/ps?password=***"),
        ("postgres://db/ps?PassWord=s3cr3t&port=5", "postgres://db/ps?PassWord=***&port=5"),
        ("postgresql://db/ps?pass%77ord=s3cr3t", "postgresql://db/ps?pass%77ord=***"),
        (
            "postgresql://bot@db/ps?sslmode=verify-full&sslkey=/k.pem&sslpassword=s3cr3t"
            "&passfile=/home/bot/.pgpass",
            "postgresql://bot@db/ps?sslmode=verify-full&sslkey=/k.pem&sslpassword=***"
            "&passfile=/home/bot/.pgpass",
        ),
        ("postgresql://bot:pw@db/ps?password=s3cr3t", "postgresql://bot:***@db/ps?password=***"),
        (
            "postgresql:///ps?host=/run/pg&password=s3cr3t",
            "postgresql:///ps?host=/run/pg&password=***",
        ),
        ("postgresql://bot:s3?cr3t@db/ps", "postgresql://bot:***@db/ps"),
        ("postgresql://bot:s3@cr3t@db/ps", "postgresql://bot:***@db/ps"),
        ("postgresql://bot:s3cr3t@h1:5,h2:6/ps", "postgresql://bot:***@h1:5,h2:6/ps"),
        ("postgresql://db?password=s3@cr3t", "postgresql://db?password=***"),
        ("postgresql://db/ps?password=s3&cr3t&port=5", "postgresql://db/ps?password=***&port=5"),
        ("host=db user=bot password=s3cr3t dbname=ps", "host=db user=bot password=*** dbname=ps"),
        ("host=db password = 's3 \\' cr3t' port=5", "host=db password = *** port=5"),
        ("host=db sslpassword=s3cr3t sslkey=/k.pem", "host=db sslpassword=*** sslkey=/k.pem"),
        ("sqlite:///games/s3cr3t.db", "sqlite:///games/s3cr3t.db"),
        ("postgresql://bot@db/ps", "postgresql://bot@db/ps"),
    ],
)
def test_every_password_a_database_url_or_dsn_carries_is_hidden(url: str, shown: str) -> None:
    """Issue 48, item 4: only `user:pass@` was masked; `?password=` went to the log."""
    assert hide_secrets(url) == shown
    if url.startswith(("postgresql://", "postgres://")):
        assert repr(load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url})).count(shown) == 1


def test_a_dsn_that_is_not_a_url_is_refused_without_being_repeated() -> None:
    with pytest.raises(DatabaseUrlError) as refused:
        database_url("host=db password=s3cr3t")
    assert "s3cr3t" not in str(refused.value)
    with pytest.raises(DatabaseUrlError, match="not 'mysql'"):
        database_url("mysql://bot:s3cr3t@db/ps")
