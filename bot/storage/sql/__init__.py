"""Every query of `Storage`, written once with `?` placeholders over a driver's `Connection`,
one module per concern; `SQLStorage` is all of them over the driver interface (`base`)."""

from __future__ import annotations

from bot.storage.sql.base import SQLBase, _utcnow
from bot.storage.sql.clocks import ClockSQL
from bot.storage.sql.daily import DailySQL
from bot.storage.sql.games import GameSQL
from bot.storage.sql.jobs import JobSQL
from bot.storage.sql.log import LogSQL
from bot.storage.sql.messages import MessageSQL
from bot.storage.sql.players import PlayerSQL
from bot.storage.sql.puzzles import PuzzleSQL
from bot.storage.sql.reviews import ReviewSQL
from bot.storage.sql.seasons import SeasonSQL
from bot.storage.sql.settings import SettingsSQL
from bot.storage.sql.tutorials import TutorialSQL
from bot.storage.sql.web import WebSQL


class SQLStorage(
    PlayerSQL,
    SeasonSQL,
    GameSQL,
    LogSQL,
    MessageSQL,
    SettingsSQL,
    ClockSQL,
    JobSQL,
    TutorialSQL,
    ReviewSQL,
    PuzzleSQL,
    DailySQL,
    WebSQL,
):
    """Every query of `Storage`, written once over a driver (`_reading`, `_reading_one`,
    `_transaction`).

    A driver subclass sets `dialect`, `integrity_errors` (the exceptions of a broken
    constraint), `skip_locked` (appended to the claim of due jobs) and `orphaned_claim` (the
    condition that a claimed job's process is gone), and implements `lock`.
    """


__all__ = ["SQLBase", "SQLStorage", "_utcnow"]
