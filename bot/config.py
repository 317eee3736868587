"""Configuration from the environment (and a `.env` file, loaded by `bot.__main__`).

Every variable is documented in `.env.example`.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote

DEFAULT_DATABASE_PATH = "./photosynthesis.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A configuration variable is missing or malformed; the message says which and why."""


@dataclass(frozen=True)
class WebSettings:
    """The web companion's settings (issue 59): off unless WEB_PORT is set."""

    port: int
    #: WEB_URL: the address players reach the site at (the links' start), without a final /
    url: str
    #: WEB_HOST: the address listened on (a proxy in front: 127.0.0.1)
    host: str = "0.0.0.0"
    #: WEB_RATE: requests a second per address
    rate: float = 10.0
    #: WEB_FORWARDED: behind a proxy, the address is the last of X-Forwarded-For
    forwarded: bool = False
    #: WEB_STREAMS: live pages' event streams one address may hold open at once
    streams: int = 20
    #: WEB_SEPARATE: the site runs in its own process (`python -m bot.web`); the bot's process
    #: only gives its links
    separate: bool = False


def _flag(env: Mapping[str, str], name: str) -> bool:
    """A yes/no variable: on when it is 1, true or yes (any case)."""
    return env.get(name, "").strip().lower() in ("1", "true", "yes")


def load_web_settings(env: Mapping[str, str] | None = None) -> WebSettings | None:
    """The web companion's settings, or None (off) when WEB_PORT is not set. Raises
    `ConfigError` when a value is malformed or WEB_URL is missing."""
    env = os.environ if env is None else env
    raw_port = env.get("WEB_PORT", "").strip()
    if not raw_port:
        return None
    if not raw_port.isdigit() or int(raw_port) > 65535:
        raise ConfigError(f"WEB_PORT must be a port number (0 to 65535), not {raw_port!r}.")
    url = env.get("WEB_URL", "").strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError("WEB_URL must be the site's address, starting with http:// or https://.")
    raw_rate = env.get("WEB_RATE", "").strip() or "10"
    try:
        rate = float(raw_rate)
    except ValueError:
        rate = 0.0
    if rate <= 0:
        raise ConfigError(
            f"WEB_RATE must be a positive number of requests a second, not {raw_rate!r}."
        )
    raw_streams = env.get("WEB_STREAMS", "").strip() or "20"
    if not raw_streams.isdigit() or int(raw_streams) < 1:
        raise ConfigError(f"WEB_STREAMS must be a positive number of streams, not {raw_streams!r}.")
    return WebSettings(
        port=int(raw_port),
        url=url,
        host=env.get("WEB_HOST", "").strip() or "0.0.0.0",
        rate=rate,
        forwarded=_flag(env, "WEB_FORWARDED"),
        streams=int(raw_streams),
        separate=_flag(env, "WEB_SEPARATE"),
    )


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
    #: the web companion's (None: off, WEB_PORT not set)
    web: WebSettings | None = None

    def __repr__(self) -> str:  # never show the token, even in a traceback or a log line
        return (
            f"Settings(token=<{len(self.token)} chars>, database_path={self.database_path!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"database_url={hide_secrets(self.database_url)!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r}, web={self.web!r})"
        )

    @property
    def log_level_number(self) -> int:
        """The numeric `logging` level."""
        return logging.getLevelNamesMapping()[self.log_level]


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
        web=load_web_settings(env),
    )


#: Parameter names whose value is a secret (compared in lower case, percent-decoded): libpq's
#: `password` and `sslpassword`, and any other name a password could be given under.
_SECRET_NAME = re.compile(r"pass(word|wd)?$|secret|token", re.IGNORECASE)
#: A `name=value` parameter of a URL's query (a stray `&` without `=` still belongs to the value).
_QUERY_PARAM = re.compile(r"([?&])([^?&=]*)=([^&]*(?:&[^&=]*(?=&|$))*)")
#: A `name = value` parameter of a libpq keyword/value DSN (`host=db password='a b'`).
_KEYWORD_PARAM = re.compile(r"(^|\s)([\w%]+)(\s*=\s*)('(?:[^'\\]|\\.)*(?:'|$)|\S*)")


def hide_secrets(url: str | None) -> str | None:
    """The database URL or DSN as it may be shown (in a log line, a repr): every password it
    carries replaced by stars. URLs (`postgresql://user:pass@host/db?password=...&sslpassword=...`)
    and libpq's keyword/value form (`host=db password=...`) are both understood; a file path
    (`sslkey`, `passfile`) is shown, a password-like parameter never."""
    if url is None:
        return None
    if "://" not in url:
        return _KEYWORD_PARAM.sub(
            lambda m: m[0] if not _is_secret(m[2]) else f"{m[1]}{m[2]}{m[3]}***", url
        )
    scheme, rest = url.split("://", 1)
    # libpq reads the credentials up to the first `@` before any `/`; a password with an
    # unencoded `@` reaches the last `@` before the path or the query: the later of the two.
    first_at = rest.find("@", 0, _find(rest, "/"))
    last_at = rest.rfind("@", 0, min(_find(rest, "/"), _find(rest, "?")))
    end = max(first_at, last_at)
    if end >= 0 and ":" in rest[:end]:
        rest = rest[: rest.index(":")] + ":***" + rest[end:]
    rest = _QUERY_PARAM.sub(lambda m: m[0] if not _is_secret(m[2]) else f"{m[1]}{m[2]}=***", rest)
    return f"{scheme}://{rest}"


def _find(text: str, char: str) -> int:
    """Where `char` first is in `text`, or the text's length."""
    at = text.find(char)
    return len(text) if at < 0 else at


def _is_secret(name: str) -> bool:
    return bool(_SECRET_NAME.search(unquote(name).strip()))


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
