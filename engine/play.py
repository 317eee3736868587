"""Play a hot-seat game in the terminal: ``python -m engine.play [--seats human,human,cynthia]``.

Seats are ``human``, ``cynthia``, ``expert`` (the Expert at 0.25 s a decision) or
``expert-strong`` (2 s); Cynthia and Expert seats play by themselves. Type actions in the
notation (``grow D4``, ``plant C3 E5``, ``end``; several at once separated by ``;``). ``?`` lists
the legal actions, ``undo`` takes back your last buy, plant, grow, collect or move of this turn,
``help`` the notation, ``quit`` leaves.
"""

from __future__ import annotations

import argparse
import sys

from . import (
    Config,
    IllegalAction,
    apply,
    can_undo,
    legal_actions,
    new_game,
    parse_actions,
    turn_id,
    winners,
)
from .config import CYNTHIA, HUMAN
from .game import score_parts
from .players import CynthiaPlayer, ExpertPlayer, play_until
from .text import board_text, status_text

#: The seats the terminal game seats, and the Expert's budget per decision by its strength.
EXPERT_BUDGETS = {"expert": ExpertPlayer.QUICK_S, "expert-strong": ExpertPlayer.STRONG_S}
SEAT_KINDS = (HUMAN, CYNTHIA, *EXPERT_BUDGETS)

HELP = """Actions:
  place A2          place a starting tree (setup)
  buy seed|small|medium|large
  plant C3 E5       plant a seed from your tree on C3 onto E5
  grow D4           grow the piece on D4 one size
  collect D4        collect your large tree on D4 for a scoring token
  end               end your turn
Several at once: grow D4; plant C3 E5; end
Under the Moonlight adds animal, settle, elder, moonstone, move and use ...
(all in docs/notation.md).
  ?                 list the legal actions      quit   leave the game
  undo              take back your last buy/plant/grow/collect/move of this turn"""


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m engine.play", description="Photosynthesis in the terminal (hot seat)."
    )
    p.add_argument(
        "--seats",
        default="human,human",
        help="comma-separated seats: human, cynthia, expert (the Expert, 0.25 s a decision) "
        "or expert-strong (2 s)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--revolutions", type=int, choices=(3, 4), default=3)
    p.add_argument("--shadow-rule", action="store_true")
    p.add_argument("--moon-animals", action="store_true", help="Under the Moonlight: animals")
    p.add_argument("--elder-tree", action="store_true", help="Under the Moonlight: Elder Tree")
    p.add_argument("--moonstones", action="store_true", help="Under the Moonlight: moonstones")
    return p.parse_args(argv)


def main(argv: list[str] | None = None, stdin=None, out=None) -> int:
    args = _parse_args(argv)
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    kinds = [s.strip() for s in args.seats.split(",")]
    unknown = sorted(set(kinds) - set(SEAT_KINDS))
    if unknown:
        print(f"Unknown seat {unknown[0]!r}: use {', '.join(SEAT_KINDS)}.", file=out)
        return 2
    cfg = Config(
        seats=tuple(CYNTHIA if kind == CYNTHIA else HUMAN for kind in kinds),
        revolutions=args.revolutions,
        shadow_rule=args.shadow_rule,
        moon_animals=args.moon_animals,
        elder_tree=args.elder_tree,
        moonstones=args.moonstones,
    )
    state = new_game(cfg, seed=args.seed)
    # Cynthia and Expert seats play by themselves through the one driver, play_until.
    automa = {
        k: CynthiaPlayer() if kind == CYNTHIA else ExpertPlayer(EXPERT_BUDGETS[kind], args.seed)
        for k, kind in enumerate(kinds)
        if kind != HUMAN
    }

    def show_automa(before, action, after) -> None:
        seat = before.current_seat
        if kinds[seat] == CYNTHIA:
            print(f"Cynthia (seat {seat + 1}): {action}  - {action.explanation}", file=out)
        else:  # the Expert's explanation starts with its action
            print(f"Expert (seat {seat + 1}): {action.explanation}", file=out)
        for event in after.events:
            print(event, file=out)

    shown = told = None
    undo: list = []  # the positions before this turn's undoable actions, last on top
    while not state.is_over:
        if told is not state:  # each position's events once, not again after `?` or `help`
            for event in state.events:
                print(event, file=out)
            told = state
        played, _ = play_until(state, automa, on_action=show_automa)
        if played is not state:  # Cynthia played; show_automa printed her events
            state = told = played
            if state.is_over:
                break
        seat = state.current_seat
        if shown is not state:
            print("\n" + board_text(state) + "\n" + status_text(state), file=out)
            shown = state
        print(f"Seat {seat + 1}> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            return 1
        line = line.strip()
        if line in ("quit", "exit"):
            return 1
        if line == "help":
            print(HELP, file=out)
            continue
        if line == "?":
            print(", ".join(str(a) for a in legal_actions(state)), file=out)
            continue
        if line == "undo":
            if not undo or undo[-1][1] != turn_id(state):
                print("There is nothing to undo in this turn.", file=out)
            else:
                state, _ = undo.pop()
                told = state  # its events were shown already
            continue
        try:  # several actions apply all together or not at all
            after, steps = state, []
            for action in parse_actions(line):
                steps.append((after, action))
                after = apply(after, action)
        except IllegalAction as e:
            print(e, file=out)
            continue
        for before, action in steps:
            if not can_undo(action) or turn_id(after) != turn_id(before):
                undo.clear()  # a hidden draw, another seat involved, or the turn is over
            else:
                undo.append((before, turn_id(before)))
        state = after
    if told is not state:
        for event in state.events:
            print(event, file=out)
    print("\n" + board_text(state) + "\n" + status_text(state), file=out)
    for seat in range(len(state.seats)):
        print(f"Seat {seat + 1}: {score_parts(state, seat)}", file=out)
    print("Winner(s): " + ", ".join(f"seat {w + 1}" for w in winners(state)), file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
