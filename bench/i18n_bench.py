"""What speaking four languages costs the bot: the reader's language read from storage (once per
interaction), and a game message's embed and a turn panel built in each language.

    .venv/bin/python bench/i18n_bench.py [--repeat 200]

Prints medians and 95th percentiles in milliseconds (SQLite on a temporary file).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord  # noqa: E402

import engine  # noqa: E402
from bot.discord import replies  # noqa: E402
from bot.discord.views import panel  # noqa: E402
from bot.present import choices, embeds, i18n  # noqa: E402
from bot.storage import GameRow, SeatRow, SQLiteStorage  # noqa: E402
from engine.autopilot import autopilot_action  # noqa: E402
from translation import LANGUAGES  # noqa: E402


def _figures(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    return f"median {statistics.median(ms):.3f} ms, p95 {p95:.3f} ms"


class _Interaction:
    def __init__(self, storage, user_id: int) -> None:
        self.client = type("Client", (), {"storage": storage})()
        self.user = discord.Object(id=user_id)
        self.locale = discord.Locale("fr")
        self.guild_id = 42


async def _lookups(repeat: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        store = await SQLiteStorage.open(str(Path(folder) / "bench.db"))
        try:
            await store.set_language("guild", 42, "nl")
            for user in range(0, 100, 2):
                await store.set_language("user", user, "he")
            samples = []
            for k in range(repeat):
                interaction = _Interaction(store, k % 100)
                start = time.perf_counter()
                await replies.reader_language(interaction)
                samples.append(time.perf_counter() - start)
            return samples
        finally:
            await store.close()


def _position():
    state = engine.new_game(engine.Config(seats=("human", "cynthia", "human")), seed=5)
    for _ in range(60):  # a few rounds in: Cynthia by her cards, the people by the autopilot
        state = engine.apply(state, engine.auto_action(state) or autopilot_action(state))
    while state.current_seat is not None and state.config.seats[state.current_seat] == "cynthia":
        state = engine.apply(state, engine.auto_action(state))
    seats = (
        SeatRow(0, "human", 1, "Ann"),
        SeatRow(1, "cynthia", None, "Cynthia"),
        SeatRow(2, "human", 2, "Bob"),
    )
    game = GameRow(1, 42, 7, 1, "active", {}, {}, 5, 3, "now", "now", seats)
    return game, state


def _builds(repeat: int, lang: str, game, state) -> tuple[list[float], list[float]]:
    legal = [str(a) for a in engine.legal_actions(state)]
    embed_times, panel_times = [], []
    with i18n.speaking(lang):
        for _ in range(repeat):
            start = time.perf_counter()
            embeds.game_embed(game, state)
            embed_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            labels = choices.describe_all(state, legal)
            panel(game, state, legal, labels=labels)
            panel_times.append(time.perf_counter() - start)
    return embed_times, panel_times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(f"reader's language from storage: {_figures(await _lookups(args.repeat))}")
    game, state = _position()
    for lang in LANGUAGES:  # the first pass also reads the catalogs: warm them up first
        _builds(3, lang, game, state)
    for lang in LANGUAGES:
        embed_times, panel_times = _builds(args.repeat, lang, game, state)
        print(f"{lang}: game message embed {_figures(embed_times)}; panel {_figures(panel_times)}")


if __name__ == "__main__":
    asyncio.run(main())
