"""Which database the configuration names (DATABASE_URL, else DATABASE_PATH)."""

from __future__ import annotations

from bot.storage.errors import DatabaseUrlError


def database_url(url: str | None, path: str | None = None) -> tuple[str, str]:
    """`(dialect, where)` from DATABASE_URL (`sqlite:///path`, `postgresql://...`), else from
    DATABASE_PATH (a SQLite file). Raises `DatabaseUrlError` for any other scheme."""
    if not url:
        return "sqlite", path or DEFAULT_PATH
    if url.startswith("sqlite:///"):
        rest = url[len("sqlite:///") :]
        if not rest:
            raise DatabaseUrlError("DATABASE_URL sqlite:/// needs a file path after the slashes.")
        return "sqlite", rest
    if url.startswith(("postgresql://", "postgres://")):
        return "postgres", url
    if "://" not in url:  # perhaps libpq's `host=... password=...`: never repeated
        raise DatabaseUrlError("DATABASE_URL must start with sqlite:/// or postgresql://.")
    scheme = url.split("://", 1)[0]
    raise DatabaseUrlError(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme!r}."
    )


DEFAULT_PATH = "./photosynthesis.db"
