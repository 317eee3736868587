"""The errors of storage that the services handle."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of the storage errors the service layer handles."""


class StorageUnwritable(StorageError):
    """The database can be read but not written (read-only file, directory or mount)."""


class ChannelBusy(StorageError):
    """The channel already holds a game in the lobby or in play."""


class UnreadableGame(StorageError):
    """A stored game that cannot be loaded: its row is damaged (for example `options` that is
    not JSON) or its action log no longer replays. It is quarantined (`quarantine`): the rest
    of the bot goes on, and its channel is told when someone uses it."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be loaded: {reason}")
        self.game_id = game_id
        self.reason = reason


class DamagedSnapshot(StorageError):
    """A stored state snapshot that does not read. Snapshots are a cache: it is dropped
    (`drop_snapshot`) and the state rebuilt from the action log."""


class DatabaseUrlError(StorageError, ValueError):
    """A DATABASE_URL this bot cannot use."""


class VersionConflict(StorageError):
    """The game changed since the caller read it (optimistic concurrency check failed)."""
