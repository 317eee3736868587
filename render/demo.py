"""``make demo``: play a whole game offline and draw it.

Two seeded "eager" random players (random legal actions, weighted towards growing and
collecting) play against two Cynthias. A PNG is written to ``out/`` at the start of every round
and at the end, plus an animated GIF of the whole game, and the final scores are printed. No
Discord token and no network are needed.

    python -m render.demo [--seed N] [--out DIR] [--seats human,human,cynthia,cynthia]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import engine
from engine import Action, GameState
from engine.config import CYNTHIA
from engine.geometry import LABEL_INDEX
from engine.players import CynthiaPlayer, Player, play_until
from translation import LANGUAGES

from .draw import board_png
from .model import seat_names
from .replay import animation

#: Weights of the eager random player by verb.
WEIGHTS = {"collect": 6.0, "grow": 5.0, "buy": 2.0, "plant": 1.5, "place": 1.0, "end": 1.2}


class EagerPlayer:
    """A random legal action, weighted so the game looks like one people play."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, state: GameState) -> Action:
        actions = engine.legal_actions(state)
        weights = [WEIGHTS.get(str(a).split()[0], 1.0) for a in actions]
        return self.rng.choices(actions, weights)[0]


def touched(actions: Iterable[Action | str]) -> list[str]:
    """The spaces named by some actions (in notation), in order, without repeats."""
    out: list[str] = []
    for a in actions:
        for word in str(a).replace(">", " ").replace("-", " ").split()[1:]:
            label = word.upper()
            if label in LABEL_INDEX and label not in out:
                out.append(label)
    return out


def play(
    config: engine.Config,
    seed: int,
    rng_seed: int,
    stop: Callable[[GameState], bool] | None = None,
) -> Iterator[tuple[GameState, list[Action]]]:
    """Play from a new game, Cynthias by their cards and the other seats eagerly (one seeded
    generator for them all), through the engine's one driver ``play_until``; yield
    ``(state, actions of the last turn)`` after every action.

    ``stop(state)`` ends the game early when it returns true.
    """
    eager = EagerPlayer(random.Random(rng_seed))
    players: dict[int, Player] = {
        k: CynthiaPlayer() if kind == CYNTHIA else eager for k, kind in enumerate(config.seats)
    }
    steps: list[tuple[GameState, list[Action]]] = []
    turn: list[Action] = []
    last_turn: list[Action] = []

    def record(before: GameState, action: Action, after: GameState) -> None:
        nonlocal turn, last_turn
        turn.append(action)
        if after.current_seat != before.current_seat or after.is_over:
            last_turn, turn = turn, []
        steps.append((after, last_turn))

    play_until(engine.new_game(config, seed=seed), players, stop, on_action=record)
    yield from steps


def play_through(
    config: engine.Config,
    seed: int,
    rng_seed: int,
    stop: Callable[[GameState], bool] | None = None,
) -> tuple[GameState, list[Action]]:
    """``(final state, actions of the last turn)`` of ``play`` (see there)."""
    result: tuple[GameState, list[Action]] = (engine.new_game(config, seed=seed), [])
    for result in play(config, seed, rng_seed, stop):  # noqa: B007 - keep the last one
        pass
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", default="out")
    parser.add_argument("--seats", default="human,human,cynthia,cynthia")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the pictures' language")
    args = parser.parse_args(argv)
    seats = tuple(args.seats.split(","))
    config = engine.Config(seats=seats)
    # Humans are the random players; Cynthias keep the renderer's names ("Cynthia", "Cynthia 2").
    names = [None if k == "cynthia" else f"Random {i + 1}" for i, k in enumerate(seats)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    frames = []
    shown_round = -1
    state = None
    t0 = time.perf_counter()
    for state, last_turn in play(config, args.seed, args.seed):
        if state.round != shown_round or state.is_over:
            shown_round = state.round
            hl = touched(last_turn)
            name = "final" if state.is_over else f"round-{state.round:02d}"
            (out / f"{name}.png").write_bytes(
                board_png(state, highlight=hl, names=names, lang=args.lang)
            )
            frames.append(state)
    assert state is not None
    (out / "game.gif").write_bytes(animation(frames, names=names, lang=args.lang))
    elapsed = time.perf_counter() - t0
    print(
        f"Played {state.round} rounds in {elapsed:.1f} s; wrote {len(frames)} PNGs and game.gif to {out}/"
    )
    scores = engine.scores(state)
    winners = set(engine.winners(state))
    for i, (name, score) in enumerate(zip(seat_names(seats, names), scores)):
        mark = "  <- winner" if i in winners else ""
        print(f"  {name:<12} {score:>3} points{mark}")


if __name__ == "__main__":
    main()
