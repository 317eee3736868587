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

    def __repr__(self) -> str:  # never show the token, even in a traceback or a log line
        return (
            f"Settings(token=<{len(self.token)} chars>, database_path={self.database_path!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r})"
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
    return Settings(
        token=token, database_path=database_path, dev_guild_id=dev_guild_id, log_level=log_level
    )


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
