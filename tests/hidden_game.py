"""The game of the hidden-information tests: three people with the forest animals (seed 46), Ann
an Expert who keeps one of her two dealt animals (tests/test_bot_hidden.py,
tests/test_bot_seat_text.py)."""

from __future__ import annotations

import engine
from bot.storage import GameRow, NewAction, SeatRow

SEED = 46
CONFIG = engine.Config(seats=("human", "human", "human"), moon_animals=True)
SEATS = (SeatRow(0, "human", None, "Ann"), SeatRow(1, "human", 11, "Ben"),
         SeatRow(2, "human", 12, "Cy"))  # fmt: skip
GAME = GameRow(
    id=7, guild_id=1, channel_id=2, host_id=11, status="active", options={},
    config=CONFIG.to_dict(), seed=SEED, version=1, created_at="", updated_at="", seats=SEATS,
)  # fmt: skip


def played(keep: int, until: int) -> tuple[engine.GameState, list[NewAction]]:
    """The game after `until` setup decisions, Ann (an Expert: a reason with each move) keeping
    her dealt animal number `keep`; every other decision is the first legal one."""
    state, log = engine.new_game(CONFIG, SEED), []
    while len(log) < until:
        seat = state.current_seat
        legal = [str(a) for a in engine.legal_actions(state)]
        notation = legal[keep] if seat == 0 and legal[0].startswith("animal ") else legal[0]
        why = f"{notation}: the best of 24 simulations" if seat == 0 else None
        log.append(NewAction(len(log) + 1, notation, seat, 10 if seat else None, why))
        state = engine.apply(state, notation)
    return state, log
