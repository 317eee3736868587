"""Structured logging: one JSON object per line, the token never written, nothing private.

Fields given with `extra={...}` (game_id, user_id, channel_id, ...) become keys of the object.
The secrets are redacted from the whole line: the message, every extra field and the traceback.
discord.py writes HTTP request bodies (ephemeral panels, the private animal draft) and gateway
payloads at DEBUG, so its loggers never go below INFO, whatever `LOG_LEVEL` says.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


#: Libraries whose DEBUG output carries message contents: kept at INFO or above.
QUIET_LOGGERS = ("discord",)


class JsonFormatter(logging.Formatter):
    """Formats a record as a JSON object: time, level, logger, message, extras, exception;
    every occurrence of a secret, anywhere in the line, becomes ``[redacted]``."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        super().__init__()
        self.secrets = [s for s in secrets or () if s]

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value if isinstance(value, int | float | bool | None) else str(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        line = json.dumps(entry, ensure_ascii=False)
        for secret in self.secrets:  # as written in the line (JSON escapes included)
            for form in {secret, json.dumps(secret, ensure_ascii=False)[1:-1]}:
                line = line.replace(form, "[redacted]")
        return line


def configure_logging(level: int | str, secrets: list[str]) -> None:
    """Send every logger (discord.py's included) as JSON lines to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(root.level, logging.INFO))
