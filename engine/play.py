"""Play a hot-seat game in the terminal: ``python -m engine.play [--seats human,human,cynthia]``.

Seats are ``human``, ``cynthia``, ``expert`` (the Expert at 0.25 s a decision) or
``expert-strong`` (2 s); Cynthia and Expert seats play by themselves. Type actions in the
notation (``grow D4``, ``plant C3 E5``, ``end``; several at once separated by ``;``). ``?`` lists
the legal actions, ``undo`` takes back your last buy, plant, grow, collect or move of this turn,
``help`` the notation, ``quit`` leaves. ``--lang nl|fr|he`` plays in Dutch, French or Hebrew
(the notation stays the same; each language's verbs are accepted too).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO, cast

from translation import LANGUAGES, _, _n, join, translate

from . import (
    Action,
    Config,
    GameState,
    IllegalAction,
    apply,
    can_undo,
    legal_actions,
    new_game,
    parse_actions,
    turn_id,
    winners,
)
from .config import CYNTHIA, CYNTHIA_DIFFICULTY, HUMAN
from .game import score_parts
from .players import CynthiaPlayer, ExpertPlayer, play_until
from .text import board_text, status_text

#: The seats the terminal game seats, and the Expert's budget per decision by its strength.
EXPERT_BUDGETS = {"expert": ExpertPlayer.QUICK_S, "expert-strong": ExpertPlayer.STRONG_S}
SEAT_KINDS = (HUMAN, CYNTHIA, *EXPERT_BUDGETS)

HELP = _(
    "Actions:\n"
    "  place A2          place a starting tree (setup)\n"
    "  buy seed|small|medium|large\n"
    "  plant C3 E5       plant a seed from your tree on C3 onto E5\n"
    "  grow D4           grow the piece on D4 one size\n"
    "  collect D4        collect your large tree on D4 for a scoring token\n"
    "  end               end your turn\n"
    "Several at once: grow D4; plant C3 E5; end\n"
    "Under the Moonlight adds animal, settle, elder, moonstone, move and use ...\n"
    "(all in docs/notation.md).\n"
    "  ?                 list the legal actions      quit   leave the game\n"
    "  undo              take back your last buy/plant/grow/collect/move of this turn"
)
#: The parts of a final score, as the terminal names them.
PART_WORDS = {
    "tokens": _("scoring tokens {n}"),
    "light": _("light points {n}"),
    "lunar": _("lunar points {n}"),
    "baby turtle": _("Baby Turtle {n}"),
    "trees": _("trees on the board {n}"),
}


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    # The help is said in the language asked for (``--lang he --help``): read --lang first.
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--lang", choices=LANGUAGES, default="en")
    lang = first.parse_known_args(argv)[0].lang

    def t(text: str) -> str:
        return translate(text, lang)

    p = argparse.ArgumentParser(
        prog="python -m engine.play", description=t(_("Photosynthesis in the terminal (hot seat)."))
    )
    p.add_argument(
        "--seats",
        default="human,human",
        help=t(_("comma-separated seats: human, cynthia, expert (the Expert, 0.25 s a decision) "
                 "or expert-strong (2 s)")),
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=1, help=t(_("the game's random seed")))
    p.add_argument(
        "--revolutions", type=int, choices=(3, 4), default=3, help=t(_("3, or 4 (advanced)"))
    )
    p.add_argument("--shadow-rule", action="store_true", help=t(_("the advanced shadow rule")))
    p.add_argument("--moon-animals", action="store_true", help=t(_("Under the Moonlight: animals")))
    p.add_argument(
        "--elder-tree", action="store_true", help=t(_("Under the Moonlight: Elder Tree"))
    )
    p.add_argument(
        "--moonstones", action="store_true", help=t(_("Under the Moonlight: moonstones"))
    )
    p.add_argument(
        "--cynthia",
        choices=tuple(CYNTHIA_DIFFICULTY),
        default="normal",
        help=t(_("Cynthia's difficulty: easier (no final collect, growing costs 1 more, two "
                 "small trees to start), normal, or harder (growing costs 1 less, her trees "
                 "left at the end score 1/2/3)")),
    )  # fmt: skip
    p.add_argument(
        "--lang", choices=LANGUAGES, default="en", help=t(_("language of the game's texts (en)"))
    )
    return p.parse_args(argv)


def main(
    argv: list[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None
) -> int:
    args = _parse_args(argv)
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    lang = args.lang

    def say(text: str) -> None:
        """Print a text in the game's language."""
        print(translate(text, lang), file=out)

    kinds = [s.strip() for s in args.seats.split(",")]
    unknown = sorted(set(kinds) - set(SEAT_KINDS))
    if unknown:
        say(_("Unknown seat {seat}: use {kinds}.", seat=repr(unknown[0]),
              kinds=", ".join(SEAT_KINDS)))  # fmt: skip
        return 2
    cfg = Config(
        seats=tuple(CYNTHIA if kind == CYNTHIA else HUMAN for kind in kinds),
        revolutions=args.revolutions,
        shadow_rule=args.shadow_rule,
        moon_animals=args.moon_animals,
        elder_tree=args.elder_tree,
        moonstones=args.moonstones,
        **CYNTHIA_DIFFICULTY[args.cynthia],
    )
    state = new_game(cfg, seed=args.seed)
    # Cynthia and Expert seats play by themselves through the one driver, play_until.
    automa = {
        k: CynthiaPlayer() if kind == CYNTHIA else ExpertPlayer(EXPERT_BUDGETS[kind], args.seed)
        for k, kind in enumerate(kinds)
        if kind != HUMAN
    }

    def show_automa(before: GameState, action: Action, after: GameState) -> None:
        seat = cast(int, before.current_seat)  # the automa played for the seat to act
        if kinds[seat] == CYNTHIA:
            say(_("Cynthia (seat {seat}): {action}  - {why}", seat=seat + 1,
                  action=str(action), why=action.explanation))  # fmt: skip
        else:  # the Expert's explanation starts with its action
            say(_("Expert (seat {seat}): {why}", seat=seat + 1, why=action.explanation))
        for event in after.events:
            say(event)

    shown = told = None
    # The positions (and their turns) before this turn's undoable actions, last on top.
    undo: list[tuple[GameState, str]] = []
    while not state.is_over:
        if told is not state:  # each position's events once, not again after `?` or `help`
            for event in state.events:
                say(event)
            told = state
        played, _decisions = play_until(state, automa, on_action=show_automa)
        if played is not state:  # Cynthia played; show_automa printed her events
            state = told = played
            if state.is_over:
                break
        seat = cast(int, state.current_seat)  # not over: a seat is to act
        if shown is not state:
            print("\n" + board_text(state), file=out)
            say(status_text(state))
            shown = state
        print(translate(_("Seat {seat}> ", seat=seat + 1), lang), end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            return 1
        line = line.strip()
        if line in ("quit", "exit"):
            return 1
        if line == "help":
            say(HELP)
            continue
        if line == "?":
            print(", ".join(str(a) for a in legal_actions(state)), file=out)
            continue
        if line == "undo":
            if not undo or undo[-1][1] != turn_id(state):
                say(_("There is nothing to undo in this turn."))
            else:
                state, _turn = undo.pop()
                told = state  # its events were shown already
            continue
        try:  # several actions apply all together or not at all
            after, steps = state, []
            for action in parse_actions(line):
                steps.append((after, action))
                after = apply(after, action)
        except IllegalAction as e:
            say(e.text)
            continue
        for before, action in steps:
            if not can_undo(action) or turn_id(after) != turn_id(before):
                undo.clear()  # a hidden draw, another seat involved, or the turn is over
            else:
                undo.append((before, turn_id(before)))
        state = after
    if told is not state:
        for event in state.events:
            say(event)
    print("\n" + board_text(state), file=out)
    say(status_text(state))
    for seat in range(len(state.seats)):
        parts = [
            PART_WORDS[name].format(n=value) if name in PART_WORDS else f"{name} {value}"
            for name, value in score_parts(state, seat).items()
        ]
        say(_("Seat {seat}: {parts}", seat=seat + 1, parts=join(parts, ", ")))
    best = winners(state)
    seats = join([_("seat {seat}", seat=w + 1) for w in best], ", ")
    say(_n("Winner: {seats}", "Winners: {seats}", len(best), seats=seats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
