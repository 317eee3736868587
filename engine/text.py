"""Text of a position: a text picture for the terminal game and for logs, and the completions
of a typed action."""

from __future__ import annotations

from typing import cast

from translation import _, _n, _p, join

from .actions import Action, IllegalAction, parse_action
from .game import (
    ALREADY_USED,
    apply,
    legal_actions,
    obstacles,
    rules_for,
    scores,
    shadow_map,
    token_words,
    turn_id,
)
from .geometry import LABEL_INDEX, LABELS, LEAVES, N_CELLS, SUN_CORNER_NAMES, WITHIN
from .pieces import PLANT_RANGE, SIZE_NAMES
from .state import PLAY, GameState

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


#: The pieces' words in the status, by size (0 seed .. 3 large).
SIZE_WORDS = (_p("size", "seed"), _p("size", "small"), _p("size", "medium"), _p("size", "large"))
#: The seats' kinds, as the status names them.
KIND_WORDS = {"human": _("human"), "cynthia": _("Cynthia")}


def status_text(state: GameState) -> str:
    """Round, sun and each seat's light, pieces and tokens (a ``translation.Text``)."""
    if state.phase == "setup":
        head = _("Setup")
    else:
        head = _(
            "Round {round}/{last} (revolution {revolution}), sun at the {corner} corner",
            round=state.round,
            last=state.config.last_round,
            revolution=state.revolution,
            corner=SUN_CORNER_NAMES[state.sun],
        )
    lines: list[str] = [head]
    sc = scores(state)
    for i, seat in enumerate(state.seats):
        mark = ">" if i == state.current_seat else " "
        avail = join([_("{size}:{n}", size=SIZE_WORDS[k], n=seat.available[k]) for k in range(4)])
        store = join([_("{size}:{n}", size=SIZE_WORDS[k], n=seat.store[k]) for k in range(4)])
        first = _(" (first player)") if i == state.first_seat and state.phase == "play" else ""
        lunar = _(" lunar {lunar}", lunar=seat.lunar) if state.config.expansion else ""
        lines.append(
            _(
                "{mark} seat {seat} [{letter}] {kind}{first}: light {light}{lunar}, score "
                "{score}, available {available}; store {store}; tokens {tokens}",
                mark=mark,
                seat=i + 1,
                letter=SEAT_MARKS[i],
                kind=KIND_WORDS.get(seat.kind, seat.kind),
                first=first,
                light=seat.light,
                lunar=lunar,
                score=sc[i],
                available=avail,
                store=store,
                tokens=str([points for _leaves, points in seat.tokens]),
            )
        )
    for layer in rules_for(state.config).layers:
        lines.extend(layer.status_lines(state))
    piles = join(
        [
            _n("{n} leaf {pile}", "{n} leaves {pile}", k, pile=str(list(state.piles[k])))
            for k in (4, 3, 2, 1)
        ],
        ", ",
    )
    lines.append(_("Piles: {piles}", piles=piles))
    if state.activated:
        used = [LABELS[i] for i in range(37) if state.activated >> i & 1]
        lines.append(_("Used this turn: {spaces}", spaces=" ".join(used)))
    return join(lines, "\n")


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


#: The end of every "space already used this turn" refusal (in English: ``why_missing`` sorts
#: the engine's English sentences, then gives them as translatable texts).
ALREADY_USED_WORDS = ALREADY_USED.format(space="")
#: At most this many different reasons are given for one action.
MAX_REASONS = 2
#: The four actions of a turn (rulebook order), and what stops one when the player has no
#: candidate at all for it.
TURN_ACTIONS = ("buy", "plant", "grow", "collect")
NO_CANDIDATE = {
    "buy": _("Your player board is empty."),
    "plant": _("None of your trees has an empty space within reach."),
    "grow": _("You have no piece on the board that can grow."),
    "collect": _("You have no large tree on the board."),
}


def _candidates(state: GameState, verb: str) -> list[str]:
    """The attempts worth explaining: every purchase left on the player board, every own piece
    for grow and collect, and every empty space within reach of an own tree for plant (not one
    holding an obstacle, a moonstone, which the player can see: its refusal would hide the
    reason that stops every planting)."""
    seat = cast(int, state.current_seat)  # explaining an attempt of the seat to act
    own = {i: c & 3 for i, c in enumerate(state.cells) if c >= 0 and c >> 2 == seat}
    blocked = obstacles(state)
    if verb == "buy":
        store = state.seats[seat].store
        return [f"buy {SIZE_NAMES[z]}" for z in range(4) if store[z] > 0]
    if verb == "grow":
        return [f"grow {LABELS[i]}" for i, z in sorted(own.items()) if z < 3]
    if verb == "collect":
        return [f"collect {LABELS[i]}" for i, z in sorted(own.items()) if z == 3]
    return [
        f"plant {LABELS[i]} {LABELS[j]}"
        for i, z in sorted(own.items())
        if z > 0
        for j in range(N_CELLS)
        if WITHIN[PLANT_RANGE[z]][i] >> j & 1 and state.cells[j] < 0 and not blocked >> j & 1
    ]


def why_missing(state: GameState) -> dict[str, str]:
    """For each of the four actions of a turn that the current player cannot take now, the rule
    that stops it, in the engine's own refusal words, e.g.
    ``{"grow": "Growing into a medium tree costs 3 light points; you have 1."}``. Of the
    attempts' refusals the first two of different kinds (their first word: "Buying",
    "Growing", "You", ...) are given, those about a space already used this turn last.

    Empty outside the play phase and for a seat that does not take these actions itself.
    Each reason is a ``translation.Text``.
    """
    if state.phase != PLAY or state.current_seat is None:
        return {}
    legal = {a.verb for a in legal_actions(state)}
    if not legal & set(TURN_ACTIONS) and "end" not in legal:
        return {}
    out: dict[str, str] = {}
    for verb in TURN_ACTIONS:
        if verb in legal:
            continue
        reasons: list[str] = []
        for text in _candidates(state, verb):
            try:
                apply(state, text)
            except IllegalAction as refusal:
                reason = refusal.text  # one reason of each kind: its first word
                if reason.split()[0] not in [r.split()[0] for r in reasons]:
                    reasons.append(reason)
        reasons.sort(key=lambda r: r.endswith(ALREADY_USED_WORDS))  # stable: others keep order
        out[verb] = join(reasons[:MAX_REASONS]) if reasons else NO_CANDIDATE[verb]
    return out


#: The pieces with their article, by size, for the story's words.
_TREE_WORDS = (_("a seed"), _("a small tree"), _("a medium tree"), _("a large tree"))


def action_words(before: GameState, action: Action | str) -> str:
    """What an action did, in words, for the story of a round: ``bought a seed``, ``planted C3
    from B2``, ``grew D4 to a medium tree``, ``collected D4: a 3-leaf token worth 17``,
    ``ended the turn``. ``before`` is the position it was played in (the action must be legal
    there); sizes, tokens and animals are read from the positions before and after it. A verb
    these words do not know reads as its notation. The words are a ``translation.Text``
    (notation and space labels inside stay as they are)."""
    action = parse_action(action)
    seat = cast(int, before.current_seat)  # an action is played by the seat to act
    after = apply(before, action)
    spaces = [LABELS[i] for i in action.args if isinstance(i, int)]
    verb = action.verb
    if verb == "end":
        return _("ended the turn")
    if verb == "buy":
        return _("bought {piece}", piece=_TREE_WORDS[action.args[0]])
    if verb == "place":
        size = _size_at(after, action.args[0])
        return _("placed {piece} on {space}", piece=_TREE_WORDS[size], space=spaces[0])
    if verb == "plant":
        return _("planted {dst} from {src}", dst=spaces[1], src=spaces[0])
    if verb == "grow":
        size = _size_at(after, action.args[0])
        return _("grew {space} to {piece}", space=spaces[0], piece=_TREE_WORDS[size])
    if verb == "collect":
        won = after.seats[seat].tokens[len(before.seats[seat].tokens) :]
        if won:
            token = token_words(won[0][0], won[0][1])
        else:
            token = _("no token left")
        return _("collected {space}: {token}", space=spaces[0], token=token)
    return _moonlight_words(before, seat, action, spaces)


def _size_at(state: GameState, space: int) -> int:
    """The size of the piece on ``space`` (0 seed .. 3 large)."""
    piece = state.piece_at(space)
    assert piece is not None, "the action left a piece there"
    return piece[1]


def _moonlight_words(before: GameState, seat: int, action: Action, spaces: list[str]) -> str:
    """Words for the expansion's verbs (its animals, Great Elder Tree and moonstones)."""
    from .moonlight.abilities import ABILITY_RECORDS
    from .moonlight.names import ANIMAL_TITLES

    verb = action.verb
    if verb == "animal":
        return _("kept the {animal}", animal=ANIMAL_TITLES[action.args[0]])
    if verb == "settle":
        animal = ANIMAL_TITLES[before.ext.animal[seat]]
        return _("put the {animal} on {space}", animal=animal, space=spaces[0])
    if verb == "move":
        animal = ANIMAL_TITLES[before.ext.animal[seat]]
        return _("moved the {animal} to {space}", animal=animal, space=spaces[0])
    if verb == "elder":
        return _("placed the Great Elder Tree on {space}", space=spaces[0])
    if verb == "moonstone":
        return _("placed a moonstone on {space}", space=spaces[0])
    if verb == "use":
        return _(
            "used {ability} ({notation})",
            ability=ABILITY_RECORDS[action.args[0]].title,
            notation=str(action),
        )
    return str(action)
