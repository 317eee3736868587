"""Perft counts of the base game from an independent engine: Eirik0/BoardGameEngine (Java).

Writes tests/data/perft_bge.json, checked by tests/test_engine_perft.py: positions of the base
game reached by seeded random play (our engine picks the actions), each with the number of legal
moves at depth 1 and 2 as BoardGameEngine counts them, and that engine's commit. Run once, on
purpose: ``.venv/bin/python bench/bge_perft.py --bge PATH`` (PATH a git checkout of
Eirik0/BoardGameEngine; javac and java 17+ on the PATH). bench/BgePerft.java replays the actions
in BoardGameEngine (each must be one of the moves it lists) and counts.

The mapping. BoardGameEngine's board is axial ``(x, y)`` in 0..6 with neighbours (±1, 0),
(0, ±1), (1, 1) and (-1, -1); its sun position k casts shadows along (1, 1), (0, 1), (-1, 0),
(-1, -1), (0, -1), (1, 0) for k = 0..5. Our space ``(q, r)`` (engine.geometry) is its
``(x, y) = (r + 3, 3 - q)``: the one map of the hexagon that takes each of its shadow directions
to ours for the same sun position (both start round 1 at position 0 and turn one step a round).
Actions: ``place`` is its setup move S(x, y), ``buy seed..large`` B0..B3, ``grow`` and
``collect`` U(x, y), ``plant SRC DST`` S(src)-(dst), ``end`` End.

Where its rules differ from the rulebook (and from ours), the positions are left out:
- it lets a seed planted this turn grow in the same turn (it marks only the planting tree as
  used): a position is left out when, at depth 1 or 2, the seat to move has planted in this turn
  and could still pay for a small tree from its available area (it would list that grow, which
  the rulebook forbids);
- for the same reason it lets a seed go onto a space harvested this turn: left out when, at depth
  1 or 2, the seat to move has harvested in this turn and could still plant;
- it harvests a large tree only when a seed is in the available area (its harvest is a grow to
  "size 0"): left out when the seat to move at depth 1 or 2 could harvest with no seed available;
- it knows neither the advanced variant (the shadow rule, a fourth revolution) nor the
  expansion nor Cynthia: only the base game with 2, 3 and 4 players is compared;
- its perft counts no move in a finished game where ours counts the end as one line: positions
  are taken before the last round.
The random play that reaches the positions never harvests with no seed available (the other
engine could not follow).
Its scoring differs too (its 4-leaf pile is 21, 20, 20, used at every player count) but no
score changes which moves are legal.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.engine_bench import compile_bge  # noqa: E402
from engine.config import Config  # noqa: E402
from engine.geometry import COORDS, LABEL_INDEX  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft_bge.json"
HARNESS = Path(__file__).resolve().parent / "BgePerft.java"
SEATS = (2, 3, 4)
#: Where random play stops: the first decision of these rounds, and these many actions into a turn.
ROUNDS = (1, 2, 4, 6, 9, 12, 15, 17)
INTO_TURN = (0, 1, 2)
SIZES = ("seed", "small", "medium", "large")


def config(seats: int) -> Config:
    return Config(seats=("human",) * seats)


def bge_space(index: int) -> str:
    q, r = COORDS[index]
    return f"({r + 3}, {3 - q})"


def bge_move(action: str) -> str:
    verb, *args = action.split()
    spaces = [bge_space(LABEL_INDEX[a]) for a in args if a in LABEL_INDEX]
    if verb == "place":
        return f"S{spaces[0]}"
    if verb == "buy":
        return f"B{SIZES.index(args[0])}"
    if verb in ("grow", "collect"):
        return f"U{spaces[0]}"
    if verb == "plant":
        return f"S{spaces[0]}-{spaces[1]}"
    if verb == "end":
        return "End"
    raise ValueError(f"no BoardGameEngine move for {action!r}")


def this_turn(actions: list[str], verb: str) -> bool:
    """Whether the seat to move played ``verb`` earlier in its turn."""
    turn = actions[len(actions) - actions[::-1].index("end") :] if "end" in actions else actions
    return any(a.split()[0] == verb for a in turn)


def differs(state: engine.GameState, actions: list[str]) -> str | None:
    """Why BoardGameEngine's rules would list other moves within depth 2 here, or None."""
    if state.round >= state.config.last_round:
        return "last round"
    lines = [(state, actions, a) for a in engine.legal_actions(state)]
    for parent, before, action in list(lines):
        child = engine.apply(parent, action)
        lines += [(child, [*before, str(action)], a) for a in engine.legal_actions(child)]
    for parent, before, action in lines:
        seat = parent.seats[parent.current_seat]
        if this_turn(before, "plant") and seat.light >= 1 and seat.available[1] >= 1:
            return "a seed planted this turn could grow"
        if this_turn(before, "collect") and seat.light >= 1 and seat.available[0] >= 1:
            return "a space harvested this turn could take a seed"
        if action.verb == "collect" and seat.available[0] == 0:
            return "a harvest with no seed available"
    return None


def bge_can(state: engine.GameState, action) -> bool:
    """Whether BoardGameEngine can play ``action`` too (not a harvest with no seed available)."""
    return action.verb != "collect" or state.seats[state.current_seat].available[0] > 0


def perft(state: engine.GameState, depth: int) -> int:
    actions = engine.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(engine.apply(state, a), depth - 1) for a in actions)


def candidates(seats: int, seed: int):
    """(stop, actions, state) along one seeded random game."""
    rnd = random.Random(f"bge/{seats}/{seed}")
    state = engine.new_game(config(seats), seed)
    actions: list[str] = []
    if seed == 0:
        yield "setup", [], state
    seen = set()
    into = 0
    while not state.is_over:
        key = (state.round, into)
        if (
            state.phase != "setup"
            and state.round in ROUNDS
            and into in INTO_TURN
            and key not in seen
        ):
            seen.add(key)
            yield f"round-{state.round}+{into}", actions[:], state
        action = rnd.choice([a for a in engine.legal_actions(state) if bge_can(state, a)])
        actions.append(str(action))
        into = 0 if action.verb == "end" else into + 1
        state = engine.apply(state, action)


def bge_counts(checkout: Path, lines: list[str]) -> list[str]:
    with tempfile.TemporaryDirectory() as out:
        compile_bge(checkout, HARNESS, out)
        result = subprocess.run(
            ["java", "-cp", out, "BgePerft"],
            input="".join(line + "\n" for line in lines),
            check=True,
            capture_output=True,
            text=True,
        )
    return result.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bge", type=Path, required=True, help="a checkout of BoardGameEngine")
    parser.add_argument("--seeds", type=int, default=6, help="random games per seat count")
    parser.add_argument("--check", action="store_true", help="compare every candidate, write none")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "-C", str(args.bge), "rev-parse", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    found = [
        {"seats": seats, "seed": seed, "position": stop, "actions": actions, "state": state}
        for seats in SEATS
        for seed in range(args.seeds)
        for stop, actions, state in candidates(seats, seed)
    ]
    answers = bge_counts(
        args.bge, [f"{e['seats']}|{';'.join(map(bge_move, e['actions']))}" for e in found]
    )
    kept, tally = [], {}
    for entry, answer in zip(found, answers, strict=True):
        if answer.startswith("illegal"):
            sys.exit(f"BoardGameEngine refuses {entry['position']} of {entry}: {answer}")
        counts = [int(n) for n in answer.split()]
        reason = differs(entry.pop("state"), entry["actions"])
        state = engine.replay(config(entry["seats"]), entry["seed"], entry["actions"])
        ours = [perft(state, 1), perft(state, 2)]
        tally[reason, ours == counts] = tally.get((reason, ours == counts), 0) + 1
        if reason is None and ours != counts:
            print(
                f"differs: {entry['seats']} seats, seed {entry['seed']}, {entry['position']}: "
                f"ours {ours}, BoardGameEngine {counts}"
            )
        if reason is None:
            actions = entry.pop("actions")
            kept.append({**entry, "perft": counts, "actions": actions})
    for (reason, same), n in sorted(tally.items(), key=str):
        print(f"{reason or 'compared'}: {n} positions, {'same' if same else 'other'} counts")
    if args.check:
        return
    head = {
        "engine": "https://github.com/Eirik0/BoardGameEngine",
        "commit": commit,
        "written_by": "bench/bge_perft.py with bench/BgePerft.java",
    }
    # One position a line: seats, seed, where, the two counts, then the actions that reach it.
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    rows = ",\n".join(f"  {json.dumps(entry)}" for entry in kept)
    DATA.write_text("{\n" + "\n".join(lines) + '\n  "positions": [\n' + rows + "\n  ]\n}\n")
    print(f"wrote {len(kept)} positions to {DATA}")


if __name__ == "__main__":
    main()
