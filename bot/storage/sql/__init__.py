"""Every query of `Storage`, written once with `?` placeholders over a driver's `Connection`,
one module per concern; `SQLStorage` is all of them over the driver interface (`base`)."""

from __future__ import annotations

from .base import SQLBase, _utcnow
from .clocks import ClockSQL
from .games import GameSQL
from .jobs import JobSQL
from .log import LogSQL
from .messages import MessageSQL
from .players import PlayerSQL
from .reviews import ReviewSQL
from .settings import SettingsSQL
from .tutorials import TutorialSQL


class SQLStorage(
    PlayerSQL,
    GameSQL,
    LogSQL,
    MessageSQL,
    SettingsSQL,
    ClockSQL,
    JobSQL,
    TutorialSQL,
    ReviewSQL,
):
    """Every query of `Storage`, written once over a driver (`_reading`, `_reading_one`,
    `_transaction`).

    A driver subclass sets `dialect`, `integrity_errors` (the exceptions of a broken
    constraint), `skip_locked` (appended to the claim of due jobs) and `orphaned_claim` (the
    condition that a claimed job's process is gone), and implements `lock`.
    """


__all__ = ["SQLBase", "SQLStorage", "_utcnow"]
