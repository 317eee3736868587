"""Issue 14: Cynthia's reasons were cut at 120 characters on the game message; they are shown
in full, split over fields, within Discord's limits (1,024 a field, 6,000 an embed)."""

from __future__ import annotations

import engine
from bot import embeds
from bot.storage import GameRow, NewAction, SeatRow

GAME = GameRow(
    id=5, guild_id=1, channel_id=2, host_id=3, status="active", options={}, config=None,
    seed=1, version=1, created_at="", updated_at="",
    seats=(SeatRow(0, "human", 3, "Ana"), SeatRow(1, "cynthia", None, "Cynthia")),
)  # fmt: skip


def test_cynthias_reasons_are_never_cut() -> None:
    state = engine.new_game(engine.Config(seats=("human", "cynthia")), seed=1)
    reasons = [f"Card {n}: " + "because " * 70 + f"end of reason {n}." for n in range(8)]
    recent = [NewAction(n + 1, "end", 1, None, reason) for n, reason in enumerate(reasons)]
    embed = embeds.game_embed(GAME, state, recent)
    moves = [f.value for f in embed.fields if f.name.startswith("Last moves")]
    assert len(moves) >= 2 and all(len(v) <= 1024 for v in moves)
    assert len(embed) <= 6000
    text = "\n".join(moves)
    shown = [r for r in reasons if r in text]
    assert shown and shown == reasons[-len(shown) :]  # the latest ones, each whole
    assert "..." not in text
