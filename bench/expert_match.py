"""The Expert of this tree against the Expert of another commit (issue 60).

Run: ``.venv/bin/python bench/expert_match.py --baseline REF [--games N] [--expansion-games N2]
[--budget 0.25] [--jobs J] [--eval shipped|learned]``.

Each side plays in its own process from its own tree (``bench/expert_side.py``): this tree's
from here, the baseline's from a temporary ``git worktree`` of ``REF`` (removed at the end). The
sides receive the game (its config, seed and the actions so far) and return the chosen action
and the CPU time (``time.process_time`` in their own process) the decision took; this process
keeps the game and checks every action against its legal ones.

Games are two-seat games between people, ``N`` in the base game and ``N2`` (``N`` unless told)
with every Under the Moonlight mode on (animals, the Great Elder Tree, moonstones). Games go in
pairs: games ``2j`` and ``2j + 1`` share a seed and this tree's side takes seat 1 in the first
and seat 2 in the second, so the seats are swapped from game to game and each seed's luck and
starting trees are met from both seats. The seeds are fresh: 70000 + j in the base game, 80000 +
j in the expansion (the training scripts use 0-139, 1000-1039, 2000-2011, 3000-3059 and, for the
learned evaluation, 10000-11999; ``expert_bench.py`` uses 0-399). No game between people has
chance in it, so the starting trees are placed at random from the seed, as in
``expert_bench.py``; every other decision (an animal kept, the turns) is the sides'. Both sides
use the game's seed as the Expert's seed. A tie counts half a game.

Stopped (Ctrl-C or SIGTERM), it prints the line for the games it finished. It prints, then,
one line (the interval is Wilson's 95%; CPU over every decision of each side):

    expert-match: won W of G (95% a-b%) against REF at B s a decision, base; W2 of G2 (95%
    c-d%) in the expansion; CPU per decision mean M ms, p99 Q ms (baseline M0, Q0)

``--eval learned`` plays this tree's side with the learned evaluation (``data/expert_learned.json``,
off in the bot), the baseline with what its tree ships.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402

SIDE_SCRIPT = ROOT / "bench" / "expert_side.py"
MOON = {"moon_animals": True, "elder_tree": True, "moonstones": True}
#: The first seed of each rule set's games (see the module's note on seeds).
FIRST_SEED = {"base": 70_000, "moonlight": 80_000}


class Side(Protocol):
    """A player of the match: the action (its text) for the game reached by ``actions``, and
    the CPU seconds the decision took."""

    def decide(
        self, config: dict[str, object], seed: int, actions: Sequence[str], budget: float
    ) -> tuple[str, float]: ...


class ProcessSide:
    """An Expert in its own process (``bench/expert_side.py --root TREE``)."""

    def __init__(self, root: Path, eval_name: str = "shipped") -> None:
        self.root = root.resolve()
        self.proc = subprocess.Popen(
            [sys.executable, str(SIDE_SCRIPT), "--root", str(self.root), "--eval", eval_name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        hello = json.loads(self._read())
        for what in ("engine", "data"):
            if not Path(hello[what]).resolve().is_relative_to(self.root):
                self.close()
                raise RuntimeError(f"the side for {self.root} loaded its {what} from {hello[what]}")

    def _read(self) -> str:
        out: IO[str] | None = self.proc.stdout
        line = out.readline() if out is not None else ""
        if not line:
            raise RuntimeError(f"the side for {self.root} stopped (exit {self.proc.poll()})")
        return line

    def decide(
        self, config: dict[str, object], seed: int, actions: Sequence[str], budget: float
    ) -> tuple[str, float]:
        request = {
            "config": config,
            "seed": seed,
            "actions": list(actions),
            "budget": budget,
            "expert_seed": seed,
        }
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self._read())
        return str(answer["action"]), float(answer["cpu"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@dataclass
class Game:
    """One game's outcome for this tree's side: ``result`` 1, 0.5 or 0, and each side's CPU
    seconds per decision."""

    rules: str
    index: int
    seat: int
    result: float
    cpu_new: list[float] = field(default_factory=list)
    cpu_base: list[float] = field(default_factory=list)


def game_setup(rules: str, index: int) -> tuple[dict[str, object], int, int]:
    """Game ``index`` of a rule set: its config (as sent to the sides), seed, and the seat of
    this tree's side (pairs of games share a seed, with the seats swapped)."""
    config: dict[str, object] = {"seats": ["human", "human"]}
    if rules == "moonlight":
        config.update(MOON)
    return config, FIRST_SEED[rules] + index // 2, index % 2


def play_game(new: Side, base: Side, rules: str, index: int, budget: float) -> Game:
    """Play game ``index`` of ``rules`` between ``new`` (this tree) and ``base``."""
    config, seed, me = game_setup(rules, index)
    cfg = engine.Config(**{**config, "seats": tuple(config["seats"])})  # type: ignore[arg-type]
    state = engine.new_game(cfg, seed=seed)
    opening = random.Random(seed)
    actions: list[str] = []
    game = Game(rules, index, me, 0.0)
    while not state.is_over:
        legal = engine.legal_actions(state)
        if state.phase == "setup" and any(a.verb == "place" for a in legal):
            action = opening.choice(legal)
        else:
            side, cpus = (new, game.cpu_new) if state.current_seat == me else (base, game.cpu_base)
            text, cpu = side.decide(config, seed, actions, budget)
            cpus.append(cpu)
            chosen = [a for a in legal if str(a) == text]
            if not chosen:
                raise RuntimeError(f"game {rules} {index}: {text!r} is not a legal action")
            action = chosen[0]
        actions.append(str(action))
        state = engine.apply(state, action)
    winners = engine.winners(state)
    game.result = 0.0 if me not in winners else 1.0 / len(winners)
    return game


def match_plan(base: int, expansion: int) -> list[tuple[str, int]]:
    """The games in the order they start: a pair of base games, then a pair of expansion games,
    and so on (a match stopped early has played both rule sets alike)."""
    pairs = [[("base", k), ("base", k + 1)][: base - k] for k in range(0, base, 2)]
    moon = [
        [("moonlight", k), ("moonlight", k + 1)][: expansion - k] for k in range(0, expansion, 2)
    ]
    plan: list[tuple[str, int]] = []
    for j in range(max(len(pairs), len(moon))):
        for part in (pairs, moon):
            if j < len(part):
                plan += part[j]
    return plan


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a win rate (95% by default); (0, 1) without games."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def p99(values: Sequence[float]) -> float:
    """The 99th percentile (nearest rank) of ``values``; 0 without any."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def _won(games: Sequence[Game]) -> str:
    wins = sum(g.result for g in games)
    lo, hi = wilson(wins, len(games))
    return f"won {wins:g} of {len(games)} (95% {lo:.0%}-{hi:.0%})".replace("%-", "-")


def summary(games: Sequence[Game], ref: str, budget: float) -> str:
    """The match's line."""
    base = [g for g in games if g.rules == "base"]
    moon = [g for g in games if g.rules == "moonlight"]
    new = [c for g in games for c in g.cpu_new]
    old = [c for g in games for c in g.cpu_base]

    def mean(xs: Sequence[float]) -> float:
        return sum(xs) / len(xs) if xs else 0.0

    w2 = _won(moon).removeprefix("won ")
    return (
        f"expert-match: {_won(base)} against {ref} at {budget:g} s a decision, base; "
        f"{w2} in the expansion; CPU per decision mean {1000 * mean(new):.0f} ms, "
        f"p99 {1000 * p99(new):.0f} ms (baseline {1000 * mean(old):.0f}, {1000 * p99(old):.0f})"
    )


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """A temporary worktree of ``ref`` (detached), removed afterwards."""
    parent = Path(tempfile.mkdtemp(prefix="expert-match-"))
    tree = parent / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), ref],
        check=True,
    )
    try:
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
        )
        shutil.rmtree(parent, ignore_errors=True)


def run_match(
    new_root: Path,
    base_root: Path,
    plan: Sequence[tuple[str, int]],
    budget: float,
    jobs: int,
    eval_name: str = "shipped",
    progress: bool = False,
) -> list[Game]:
    """Play the games of ``plan`` ((rules, index) pairs) in ``jobs`` threads, each with its own
    pair of side processes."""
    local = threading.local()
    sides: list[ProcessSide] = []
    lock = threading.Lock()
    done: list[Game] = []

    def one(job: tuple[str, int]) -> Game:
        if not hasattr(local, "pair"):
            pair = (ProcessSide(new_root, eval_name), ProcessSide(base_root))
            with lock:
                sides.extend(pair)
            local.pair = pair
        game = play_game(local.pair[0], local.pair[1], job[0], job[1], budget)
        with lock:
            done.append(game)
            if progress:
                score = sum(g.result for g in done if g.rules == game.rules)
                played = sum(1 for g in done if g.rules == game.rules)
                print(
                    f"  {game.rules} game {game.index}: {game.result:g} "
                    f"(so far {score:g} of {played})",
                    flush=True,
                )
        return game

    pool = ThreadPoolExecutor(max(1, jobs))
    try:
        futures = [pool.submit(one, job) for job in plan]
        return [f.result() for f in futures]
    except KeyboardInterrupt:
        # stopped (Ctrl-C, SIGTERM): the sides are killed, the games finished are kept
        pool.shutdown(wait=False, cancel_futures=True)
        with lock:
            for side in sides:
                side.proc.kill()
            finished = list(done)
        raise MatchStopped(finished) from None
    finally:
        pool.shutdown(wait=True)
        for side in sides:
            side.close()


class MatchStopped(Exception):
    """The match was stopped; ``games`` are those it finished."""

    def __init__(self, games: list[Game]) -> None:
        super().__init__(f"stopped after {len(games)} games")
        self.games = games


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the other tree's git ref")
    parser.add_argument("--games", type=int, default=100, help="base games")
    parser.add_argument("--expansion-games", type=int, default=None, help="(--games unless told)")
    parser.add_argument("--budget", type=float, default=0.25, help="seconds per decision")
    parser.add_argument("--jobs", type=int, default=2, help="games at once")
    parser.add_argument("--eval", choices=("shipped", "learned"), default="shipped")
    parser.add_argument("--progress", action="store_true", help="a line per game")
    args = parser.parse_args()
    n_moon = args.games if args.expansion_games is None else args.expansion_games
    plan = match_plan(args.games, n_moon)
    t = time.perf_counter()
    signal.signal(signal.SIGTERM, _interrupt)
    with checkout(args.baseline) as tree:
        try:
            games = run_match(ROOT, tree, plan, args.budget, args.jobs, args.eval, args.progress)
        except MatchStopped as stop:
            games = stop.games
            print(f"stopped: {len(games)} of the {len(plan)} games were played", flush=True)
    print(f"{len(games)} games in {time.perf_counter() - t:.0f} s", flush=True)
    print(summary(games, args.baseline, args.budget))


if __name__ == "__main__":
    main()
