"""Configuration from the environment (and a `.env` file, loaded by `bot.__main__`).

Every variable is documented in `.env.example`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_DATABASE_PATH = "./photosynthesis.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A configuration variable is missing or malformed; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    """The bot's runtime settings."""

    token: str
    database_path: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: DATABASE_URL: `sqlite:///path` or `postgresql://...`; None: the SQLite file database_path.
    database_url: str | None = None
    #: SHARD_COUNT and SHARD_IDS: the shards this process runs (None: one process, every guild).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    def __repr__(self) -> str:  # never show the token, even in a traceback or a log line
        return (
            f"Settings(token=<{len(self.token)} chars>, database_path={self.database_path!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"database_url={_hide_password(self.database_url)!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r})"
        )

    @property
    def log_level_number(self) -> int:
        """The numeric `logging` level."""
        return logging.getLevelName(self.log_level)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read the settings from `env` (default: `os.environ`).

    Raises `ConfigError` when DISCORD_TOKEN is missing or a value is malformed.
    """
    env = os.environ if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set.")
    database_path = env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH
    raw_guild = env.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if raw_guild:
        if not raw_guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a numeric guild id, not {raw_guild!r}.")
        dev_guild_id = int(raw_guild)
    log_level = (env.get("LOG_LEVEL", "").strip() or "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
    database_url = env.get("DATABASE_URL", "").strip() or None
    if database_url is not None and not database_url.startswith(
        ("sqlite:///", "postgresql://", "postgres://")
    ):
        raise ConfigError("DATABASE_URL must start with sqlite:/// or postgresql://.")
    shard_count, shard_ids = _shards(env)
    return Settings(
        token=token,
        database_path=database_path,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        database_url=database_url,
        shard_count=shard_count,
        shard_ids=shard_ids,
    )


def _hide_password(url: str | None) -> str | None:
    """The URL with its password (if any) replaced by stars."""
    if url is None or "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in credentials else url


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (how many shards in all) and SHARD_IDS (this process's, comma-separated;
    default: all of them)."""
    raw_count = env.get("SHARD_COUNT", "").strip()
    raw_ids = env.get("SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all).")
        return None, None
    if not raw_count.isdigit() or int(raw_count) < 1:
        raise ConfigError(f"SHARD_COUNT must be a positive number, not {raw_count!r}.")
    count = int(raw_count)
    if not raw_ids:
        return count, tuple(range(count))
    parts = [p.strip() for p in raw_ids.split(",")]
    if not all(p.isdigit() and int(p) < count for p in parts):
        raise ConfigError(
            f"SHARD_IDS must be shard numbers from 0 to {count - 1}, comma-separated,"
            f" not {raw_ids!r}."
        )
    return count, tuple(sorted({int(p) for p in parts}))


#: TESTS ONLY: every new game gets this seed instead of a random one (`fixed_seed_from_env`).
FIXED_SEED_ENV = "PS_TEST_SEED"


def fixed_seed_from_env(env: Mapping[str, str] | None = None) -> int | None:
    """The seed from `PS_TEST_SEED` (end-to-end tests choose the deal of a game with it), or None
    (normal: each game draws its seed at random). Raises `ConfigError` when it is not a number.
    Never set it in production: everyone could foresee the animals dealt and Cynthia's cards."""
    env = os.environ if env is None else env
    raw = env.get(FIXED_SEED_ENV, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) >= 2**31:
        raise ConfigError(f"{FIXED_SEED_ENV} must be a number from 0 to 2**31 - 1, not {raw!r}.")
    return int(raw)
