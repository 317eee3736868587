"""Text of a position: a text picture for the terminal game and for logs, and the completions
of a typed action."""

from __future__ import annotations

from .actions import parse_action
from .game import apply, legal_actions, rules_for, scores, shadow_map, turn_id
from .geometry import LABEL_INDEX, LABELS, LEAVES, SUN_CORNER_NAMES
from .pieces import SIZE_NAMES
from .state import GameState

#: Seat letters on the text board; the size is shown as a digit after it (0 seed .. 3 large).
SEAT_MARKS = "abcd"
ROWS = ("A", "B", "C", "D", "E", "F", "G")
ROW_LENGTH = (4, 5, 6, 7, 6, 5, 4)


def board_text(state: GameState) -> str:
    """The hex board as text: ``a2`` is seat 1's medium tree, ``.3`` an empty 3-leaf space.

    Shadowed spaces under the current sun are marked with ``*``.
    """
    shadows = shadow_map(state)
    obstacles: dict[int, str] = {}
    for layer in rules_for(state.config).layers:
        obstacles.update(layer.text_marks(state))
    lines = []
    for row, length in zip(ROWS, ROW_LENGTH, strict=True):
        cells = []
        for n in range(1, length + 1):
            i = LABEL_INDEX[f"{row}{n}"]
            c = state.cells[i]
            if c >= 0:
                body = f"{SEAT_MARKS[c >> 2]}{c & 3}"
            elif i in obstacles:
                body = obstacles[i]
            else:
                body = f".{LEAVES[i]}"
            cells.append(body + ("*" if shadows[i] else " "))
        lines.append(" " * (2 * (7 - length)) + f"{row} " + " ".join(cells))
    return "\n".join(lines)


def status_text(state: GameState) -> str:
    """Round, sun and each seat's light, pieces and tokens."""
    if state.phase == "setup":
        head = "Setup"
    else:
        head = (
            f"Round {state.round}/{state.config.last_round} (revolution {state.revolution}), "
            f"sun at the {SUN_CORNER_NAMES[state.sun]} corner"
        )
    lines = [head]
    sc = scores(state)
    for i, seat in enumerate(state.seats):
        mark = ">" if i == state.current_seat else " "
        avail = " ".join(f"{SIZE_NAMES[k]}:{seat.available[k]}" for k in range(4))
        store = " ".join(f"{SIZE_NAMES[k]}:{seat.store[k]}" for k in range(4))
        first = " (first player)" if i == state.first_seat and state.phase == "play" else ""
        lunar = f" lunar {seat.lunar}" if state.config.expansion else ""
        lines.append(
            f"{mark} seat {i + 1} [{SEAT_MARKS[i]}] {seat.kind}{first}: light {seat.light}{lunar}, "
            f"score {sc[i]}, available {avail}; store {store}; "
            f"tokens {[p for _, p in seat.tokens]}"
        )
    for layer in rules_for(state.config).layers:
        lines.extend(layer.status_lines(state))
    piles = ", ".join(f"{k} leaves {list(state.piles[k])}" for k in (4, 3, 2, 1))
    lines.append(f"Piles: {piles}")
    if state.activated:
        used = [LABELS[i] for i in range(37) if state.activated >> i & 1]
        lines.append(f"Used this turn: {' '.join(used)}")
    return "\n".join(lines)


def completions(state: GameState, typed: str) -> list[str]:
    """What a player typing ``typed`` may mean, best first, each as the whole text to send.

    Several actions are separated by ``;``: the complete ones before the last ``;`` are applied
    (nothing is offered if one is illegal, or if the turn is over before the rest), then the
    legal actions of that position matching the last part are offered after the part already
    typed (or its canonical form, when shorter). A whole action in any accepted spelling
    (``g d4``) comes first, then the actions that start with the typed text, then those with a
    word that starts with it (``d4`` offers ``grow D4``; ``g`` never offers ``buy large``).
    """
    *done, last = typed.split(";")
    canonical = []
    turn = turn_id(state)
    for segment in done:
        if not segment.strip():
            continue
        if state.is_over or turn_id(state) != turn:
            return []  # the turn is over before this action: all would be refused
        try:
            action = parse_action(segment)
            state = apply(state, action)
        except Exception:  # IllegalAction, or anything raised on odd input
            return []
        canonical.append(str(action))
    if state.is_over or turn_id(state) != turn:
        return []
    prefix = ""
    if done:
        typed_prefix = typed[: typed.rfind(";") + 1].rstrip() + " "
        short = "; ".join(canonical) + "; " if canonical else ""
        prefix = min(typed_prefix, short, key=len) if short else typed_prefix
    words = " ".join(last.lower().split())
    legal = [str(a) for a in legal_actions(state)]
    matches = []
    try:
        parsed = str(parse_action(last))
    except Exception:  # not (yet) a whole action
        parsed = None
    if parsed in legal:
        matches.append(parsed)
    matches += [n for n in legal if n.lower().startswith(words) and n not in matches]
    matches += [n for n in legal if f" {words}" in f" {n.lower()}" and n not in matches]
    return [prefix + n for n in matches]
