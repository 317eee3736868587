"""Make puzzles: positions where the Expert's best whole turn is clearly best (issue 58).

Run: ``.venv/bin/python bench/make_puzzles.py [--out data/puzzles.json] [--database URL]
[--base 200] [--moonlight 100] [--minutes 90] [--first-game K] [--game-budget S]
[--sample N]``.

Positions are taken at the start of a person's turn from finished games in a database (with
``--database``: every finished game it holds) and from the Expert's own games, which this script
plays (game ``k`` uses seed ``k``; base and Under the Moonlight with the Great Elder Tree and the moonstones, in turn: the
Expert at the quick budget against Cynthia (``--game-budget``), and between people the Expert
against itself at a quarter of that budget, the starting trees placed at random from ``k``). A position becomes a
puzzle when ``engine.expert.puzzles.make_puzzle`` says so: the Expert's best whole turn beats its
second best by at least 2 points at four times its quick budget (1.0 s of its calibration,
counted in simulations), on two checks with different seeds (turns reaching the same position
are one turn), and no puzzle yet has the same position (``position_key``).

Where it looks (measured with ``--sample``, see docs/puzzles.md#how-they-are-made): every round
(puzzles came as often early as late), expansion games with the Great Elder Tree and the
moonstones (with the animals nearly no position passes), and a quick check at the quick budget
first (``--prefilter`` points of gap at least) so that the two full checks run only where a gap
shows at all.

The output is written again after every puzzle found (a partial run is usable), in the format of
docs/puzzles.md; the puzzles already in ``--out`` are kept and their positions skipped. It prints
one line per puzzle found and, at the end, how long it took and the counts:
``made P puzzles (B base, E expansion) from N positions checked in T minutes``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.expert import expert_action  # noqa: E402
from engine.expert.puzzles import (  # noqa: E402
    PREFILTER_GAP,
    PUZZLE_BUDGET_S,
    QUICK_BUDGET_S,
    Puzzle,
    analyse,
    best_on_judge_draws,
    candidate_turns,
    dump_puzzles,
    is_puzzle_position,
    load_puzzles,
    make_puzzle,
    position_key,
    turn_starts,
    turn_state,
)

#: The expansion's modes in the Expert's own games: the Great Elder Tree and the moonstones. With
#: the Moon and Forest Animals, a turn that also walks the animal is worth the same as the turn
#: without the walk and reaches another position, so nearly no position has a best turn 2 points
#: clear (0 of 18 in the sample; docs/puzzles.md#how-they-are-made).
MOON = {"elder_tree": True, "moonstones": True}
#: The share of a game's rounds from which positions are looked at (every round: the sample
#: found puzzles as often early as late).
FROM_SHARE = 0.0
#: The quick check's gap below which a position is not checked fully.
PREFILTER = PREFILTER_GAP
#: The seeds of the two full checks (a background job and a re-check use others).
CHECK_SEEDS = (1, 2)


def own_game(k: int, budget: float) -> tuple[str, engine.GameState, list[str]]:
    """The Expert's game ``k``: ``(source, start, notations)``. Four kinds in turn: base
    against Cynthia, expansion against Cynthia, base between people, expansion between
    people; the Expert plays at ``budget`` (against itself, the other seat at a quarter of
    it)."""
    kind = k % 4
    rules = MOON if kind in (1, 3) else {}
    cynthia = kind in (0, 1)
    me = (k // 4) % 2
    seats = ["cynthia"] if cynthia else ["human"]
    seats.insert(me, "human")
    start = engine.new_game(engine.Config(seats=tuple(seats), **rules), seed=k)  # type: ignore[arg-type]
    state = start
    opening = random.Random(k)
    notations: list[str] = []
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        if state.seats[seat].kind == "cynthia":
            action = engine.auto_action(state)
            assert action is not None
        elif (
            not cynthia
            and state.phase == "setup"
            and all(a.verb == "place" for a in engine.legal_actions(state))
        ):
            action = opening.choice(engine.legal_actions(state))
        elif seat == me:
            action = expert_action(state, budget_s=budget, seed=k)
        else:
            action = expert_action(state, budget_s=budget / 4, seed=k + 1)
        notations.append(str(action))
        state = engine.apply(state, action)
    who = "cynthia" if cynthia else "itself"
    rules_name = "moonlight" if rules else "base"
    return f"expert-vs-{who}:{rules_name}:{k}", start, notations


def database_games(url: str) -> Iterator[tuple[str, engine.GameState, list[str]]]:
    """Every finished game of the database at ``url``: ``(source, start, notations)``."""
    from bot.services.puzzles import finished_game_records

    records = asyncio.run(finished_game_records(url))
    for game_id, config, seed, notations in records:
        yield f"game:{game_id}", engine.new_game(config, seed), notations


def positions(
    games: Iterator[tuple[str, engine.GameState, list[str]]], from_share: float
) -> Iterator[tuple[str, engine.GameState]]:
    """The turn starts of each game (``turn_starts``) from ``from_share`` of its rounds on."""
    for source, start, notations in games:
        for state in turn_starts(start, notations):
            if state.round >= from_share * state.config.last_round:
                yield source, state


def completed(text: str) -> str:
    """A puzzle file's text with every puzzle's ``best_quick`` (the best turn's mean on the
    judge's determinisations) filled in where a run of an earlier version left it out, and
    its keys named as ``position_key`` names them now (``rekeyed``)."""
    data = json.loads(text)
    for p in data["puzzles"]:
        state = engine.GameState.from_dict(p["position"])
        if "best_quick" not in p:
            p["best_quick"] = round(best_on_judge_draws(state, p["best"], QUICK_BUDGET_S), 4)
        if p["key"] != position_key(state):
            rekeyed(p, state)
    return json.dumps(data)


def _key_with_events(state: engine.GameState) -> str:
    """``position_key`` as an earlier version named a position: with its ``events``."""
    seen = engine.observation(state, state.current_seat)
    text = json.dumps(seen, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def rekeyed(p: dict[str, Any], state: engine.GameState) -> None:
    """A puzzle of an earlier version, whose keys held the position's ``events`` (what the last
    action set off, which a stored position no longer has), keyed again without them: the
    position's own key and the empty turn's are its old ``key``; every other turn's is found
    among the turns its checks simulated (``candidate_turns`` with its seeds, replayed on the
    stored position: a turn's events are those of its own last action). A loss whose turn is
    not found again is dropped (such a turn is judged by simulation)."""
    old_key = p["key"]
    turns: dict[str, str] = {old_key: position_key(state)}
    for seed in p["seeds"]:
        for turn in candidate_turns(state, PUZZLE_BUDGET_S, seed):
            after = turn_state(state, turn)
            turns.setdefault(_key_with_events(after), position_key(after))
    p["key"] = position_key(state)
    p["losses"] = {turns[k]: v for k, v in p["losses"].items() if k in turns}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--out", default="data/puzzles.json")
    p.add_argument("--database", default=None, help="a database URL: its finished games first")
    p.add_argument("--base", type=int, default=200, help="base-game puzzles wanted")
    p.add_argument("--moonlight", type=int, default=100, help="expansion puzzles wanted")
    p.add_argument("--minutes", type=float, default=90.0, help="stop after this long")
    p.add_argument("--first-game", type=int, default=0, help="the Expert's first game seed")
    p.add_argument("--from-share", type=float, default=FROM_SHARE)
    p.add_argument(
        "--game-budget", type=float, default=QUICK_BUDGET_S, help="the Expert's, in its games"
    )
    p.add_argument("--prefilter", type=float, default=PREFILTER)
    p.add_argument("--sample", type=int, default=0, help="only measure: N positions, all checked")
    args = p.parse_args()

    t0 = time.monotonic()
    out = Path(args.out)
    found: list[Puzzle] = load_puzzles(completed(out.read_text("utf-8"))) if out.exists() else []
    seen = {p.key for p in found}
    want = {"base": args.base, "moonlight": args.moonlight}
    have = {r: sum(p.rules == r for p in found) for r in want}
    print(f"{len(found)} puzzles already in {out}", flush=True)

    def games() -> Iterator[tuple[str, engine.GameState, list[str]]]:
        if args.database:
            yield from database_games(args.database)
        k = args.first_game
        while True:
            rules = "moonlight" if k % 4 in (1, 3) else "base"
            if have[rules] < want[rules] or args.sample:  # (no game for rules already done)
                yield own_game(k, args.game_budget)
            k += 1

    checked = quick_passed = 0
    for source, state in positions(games(), args.from_share):
        if time.monotonic() - t0 > args.minutes * 60:
            break
        rules = "base" if state.ext is None else "moonlight"
        if not args.sample and have[rules] >= want[rules]:
            if all(have[r] >= want[r] for r in want):
                break
            continue
        if not is_puzzle_position(state):
            continue
        key = position_key(state)
        if key in seen:
            continue
        seen.add(key)
        checked += 1
        quick = analyse(state, QUICK_BUDGET_S, 0).gap
        if args.sample:
            puzzle = make_puzzle(state, source, CHECK_SEEDS)
            print(
                f"sample {rules} r{state.round}/{state.config.last_round} quick gap {quick:.2f}"
                f" -> {'puzzle' if puzzle else 'no'}"
                + (f" gap {puzzle.gap:.2f}" if puzzle else ""),
                flush=True,
            )
            if checked >= args.sample:
                break
            continue
        if quick < args.prefilter:
            continue
        quick_passed += 1
        puzzle = make_puzzle(state, source, CHECK_SEEDS)
        if puzzle is None:
            continue
        found.append(puzzle)
        have[rules] += 1
        tmp = out.with_suffix(".tmp")
        tmp.write_text(dump_puzzles(found), "utf-8")
        os.replace(tmp, out)
        minutes = (time.monotonic() - t0) / 60
        print(
            f"{minutes:6.1f} min  {have['base']} base, {have['moonlight']} expansion"
            f"  (+ {source} round {state.round}, gap {puzzle.gap:.2f};"
            f" {checked} checked, {quick_passed} past the quick check)",
            flush=True,
        )
    minutes = (time.monotonic() - t0) / 60
    print(
        f"made {len(found)} puzzles ({have['base']} base, {have['moonlight']} expansion)"
        f" from {checked} positions checked ({quick_passed} past the quick check)"
        f" in {minutes:.1f} minutes"
    )


if __name__ == "__main__":
    main()
