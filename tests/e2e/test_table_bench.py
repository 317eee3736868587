"""``bench/table_bench.py --seed N`` plays the same game every time: two runs with one seed print
the same lines (the two run side by side, each its own bot and loopback Discord)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "table_bench.py"


def start(seed: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(BENCH), "--seed", str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.timeout(400)
@pytest.mark.long
def test_the_same_seed_plays_the_same_game():
    runs = [start(7), start(7)]
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=360)
        assert run.returncode == 0, err
        outputs.append(out)
    first, second = outputs
    assert first == second
    lines = first.splitlines()
    assert lines[0] == "seed: 7"
    assert lines[1].startswith("game: ") and lines[-1].startswith("table: typical turn ")
    assert "final message in the thread: 'The game is over. Congratulations, " in first
    # Issue 44: the Expert's turns post no message of their own; the summary line's C clicks,
    # M channel and T thread messages, P px at 400 px wide on every picture the bot sent
    # (issue 56: the game's, the previews, /ps rules, a lesson, a replay step, the profile's
    # chart and the review, each measured: at least 9 px).
    (people,) = [line for line in lines if line.startswith("turns taken by people: ")]
    turns = int(people.rsplit(" ", 1)[1])
    table = re.fullmatch(
        r"table: typical turn (\d+) clicks; (\d+) channel messages, (\d+) thread messages per "
        r"game; smallest picture text (\d+\.\d) px at 400 px wide \(every picture kind\); "
        r"longest game message (\d+) characters",
        lines[-1],
    )
    assert table is not None, lines[-1]
    clicks, channel, thread = (int(n) for n in table.groups()[:3])
    assert clicks <= 5 and channel == 2 and turns + 1 <= thread <= turns + 3
    assert float(table[4]) >= 9.0
    assert 300 <= int(table[5]) <= 1200  # issue 56: read at a glance
