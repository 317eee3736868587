"""The order of the tests under `pytest -n N --dist worksteal` (`make test`): the slow ones first,
spread evenly over the workers (`tests/conftest.py` calls `order`).

xdist's work stealing first hands each worker one contiguous block of the collection (N equal
counts, in order); an idle worker later steals the second half of the longest queue. Left in
file order, one worker got most of the e2e files, so the suite ended on a few long tests in a
row while the other workers were idle. `order` packs the known durations (`durations.json`, the
seconds each unit took in one `make test` run) into those N blocks, the longest first (LPT),
each block starting with its slowest units: what is left to steal at the end is short.

A unit is one e2e test (each starts its own bot) or one whole other module (their
module-scoped fixtures, such as an Expert's worker pool, are then set up once). A unit missing
from the table counts `DEFAULT_S` a test; refresh the table after adding slow tests:

    .venv/bin/python -m pytest -n 4 --dist worksteal --junitxml=/tmp/run.xml
    .venv/bin/python -m tests.durations /tmp/run.xml
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Protocol, TypeVar

TABLE = Path(__file__).with_name("durations.json")
#: Seconds counted for a test of a unit the table does not know.
DEFAULT_S = 0.1


class Item(Protocol):
    nodeid: str


T = TypeVar("T", bound=Item)


def unit_of(nodeid: str) -> str:
    """An e2e test's own id, else its module's path."""
    path = nodeid.split("::", 1)[0]
    if path.startswith("tests/e2e/"):
        return nodeid.split("[", 1)[0]  # the parametrised cases of a test together
    return path


def block_sizes(count: int, workers: int) -> list[int]:
    """How many tests xdist's work stealing first sends to each worker (in order)."""
    sizes = []
    for i in range(workers):
        sizes.append(count // (workers - i))
        count -= sizes[-1]
    return sizes


def order(items: list[T], workers: int, table: dict[str, float]) -> list[T]:
    """`items` reordered into `workers` blocks of `block_sizes` of about equal known time."""
    units: dict[str, list[T]] = defaultdict(list)
    for item in items:
        units[unit_of(item.nodeid)].append(item)

    def seconds(unit: str) -> float:
        return table.get(unit, DEFAULT_S * len(units[unit]))

    sizes = block_sizes(len(items), workers)
    blocks: list[list[T]] = [[] for _ in sizes]
    load = [0.0] * workers
    # The longest first (ties in collection order), each to the least loaded block it fits in;
    # a unit that fits nowhere whole (the short ones at the end) fills the blocks in turn.
    for unit in sorted(units, key=seconds, reverse=True):
        tests = units[unit]
        fits = [b for b in range(workers) if sizes[b] - len(blocks[b]) >= len(tests)]
        if fits:
            best = min(fits, key=lambda b: load[b])
            blocks[best] += tests
            load[best] += seconds(unit)
            continue
        share = seconds(unit) / len(tests)
        for test in tests:
            best = min(
                (b for b in range(workers) if len(blocks[b]) < sizes[b]), key=lambda b: load[b]
            )
            blocks[best].append(test)
            load[best] += share
    return [item for block in blocks for item in block]


def load_table() -> dict[str, float]:
    return json.loads(TABLE.read_text()) if TABLE.exists() else {}


def table_from_junit(path: str) -> dict[str, float]:
    """The seconds of each unit in a `--junitxml` report (setup, call and teardown)."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(path).iter("testcase"):
        module = case.get("classname", "").split(".")
        while module and module[-1][:1].isupper():  # a test class
            module.pop()
        nodeid = "/".join(module) + ".py::" + case.get("name", "")
        seconds[unit_of(nodeid)] += float(case.get("time") or 0)
    return {unit: round(s, 1) for unit, s in sorted(seconds.items()) if s >= 1}


if __name__ == "__main__":
    TABLE.write_text(json.dumps(table_from_junit(sys.argv[1]), indent=0) + "\n")
    print(f"{TABLE}: {len(load_table())} units")
