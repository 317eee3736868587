"""Try again's components carry the actions tried so far in their custom_ids (issue 57)."""

from __future__ import annotations

import re

from bot.discord import review_views as rv


def test_a_path_reads_back_as_written() -> None:
    for path in ([], [0], [5, 35, 36, 1295], list(range(0, 1296, 37))):
        assert rv.path_of(rv.path_text(path)) == path
    assert rv.path_text([]) == "-"
    assert rv.path_text([0, 37, 1295]) == "0011zz"


def test_a_long_turn_fits_discords_100_characters() -> None:
    # A turn of 25 actions (more than the light of a turn buys), each an index up to 1,295, of
    # a game with a ten-digit id: the panel's button and select ids stay within Discord's 100.
    path = [1295] * 25
    try_id = f"ps:try:{10**10 - 1}:{9999}:{rv.path_text(path)}:play plant D6 C5"
    pick_id = f"ps:tpick:{10**10 - 1}:{9999}:{rv.path_text(path)}:src:9"
    assert len(try_id) <= 100 and len(pick_id) <= 100
    assert re.fullmatch(rv.TryButton.__discord_ui_compiled_template__, try_id)
    assert re.fullmatch(rv.TrySelect.__discord_ui_compiled_template__, pick_id)
    # Forged paths (an odd digit count, a letter outside base 36) are no try's.
    for forged in ("1", "0g!", "1.2"):
        assert not re.fullmatch(
            rv.TryButton.__discord_ui_compiled_template__,
            f"ps:try:1:2:{forged}:back",
        )
