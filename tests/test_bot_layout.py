"""bot/ is laid out by role (docs/architecture.md, "bot/ by role"): a handful of modules at its top
level, every other module in the folder of its role."""

from __future__ import annotations

from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
ROLES = {"discord", "present", "services", "storage", "ratings", "web"}


def test_bots_top_level_holds_the_entry_point_and_the_shared_pieces_only() -> None:
    top = sorted(p.name for p in BOT.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "config.py", "logs.py", "workers.py"]
    assert len(top) <= 6


def test_every_folder_of_bot_is_a_role() -> None:
    folders = {p.name for p in BOT.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == ROLES
