"""The shape of bot/: components and commands reach their handlers through typed attributes of
the bot, never a cog looked up by its name."""

from __future__ import annotations

import re
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"


def test_no_cog_is_looked_up_by_name() -> None:
    found = [
        f"{path.relative_to(BOT)}:{number}"
        for path in sorted(BOT.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bget_cog\(", line)
    ]
    assert found == []
