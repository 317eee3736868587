"""The kinds of action the turn panel offers, and how each choice is labelled.

The panel is driven by a table (`KINDS`): one row per verb, saying how its button reads, how its
select prompts, and whether the player first picks the piece to act from (planting: the tree,
then the target). A verb without a row (the expansion's) still gets a button and a select, so
adding one is a new row, not new code.

No rule lives here: what a choice costs and gives is read off the engine by applying it to the
current state and comparing (light and lunar points spent, tokens taken, the piece that changed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import engine

LABEL = re.compile(r"^[A-G][1-7]$")
SIZE_NAMES = ("seed", "small", "medium", "large")  # sizes 0..3 of the position format


@dataclass(frozen=True)
class Kind:
    """How the panel presents one verb."""

    verb: str
    button: str
    prompt: str
    #: pick the first argument first (e.g. the tree to plant from), then the rest
    two_step: bool = False
    step_prompt: str = ""


KINDS: dict[str, Kind] = {
    k.verb: k
    for k in (
        Kind("buy", "Buy...", "Buy from your player board"),
        Kind(
            "plant",
            "Plant...",
            "Plant a seed",
            two_step=True,
            step_prompt="Plant a seed: choose the tree to plant from",
        ),
        Kind("grow", "Grow...", "Grow a piece one size"),
        Kind("collect", "Collect...", "Collect a large tree for a scoring token"),
    )
}
#: Order of the verb buttons on the panel; verbs without a row follow in the engine's order.
VERB_ORDER = tuple(KINDS)


def kind(verb: str) -> Kind:
    """The row for `verb` (a default one for verbs the table does not list)."""
    return KINDS.get(verb) or Kind(verb, f"{verb.title()}...", f"{verb.title()}")


def verb_of(notation: str) -> str:
    """The verb of a canonical notation."""
    return notation.split()[0]


def spaces_of(notation: str) -> list[str]:
    """The board labels an action names (outlined on the preview picture)."""
    return [w for w in notation.split()[1:] if LABEL.match(w)]


def _size(state: Any, label: str) -> int | None:
    """The size of the piece on a space (position format), or None."""
    piece = state.to_dict()["board"].get(label)
    return None if piece is None else int(piece["size"])


def describe(state: Any, notation: str) -> str:
    """A select label for a legal action: the action, what it costs, what it gives.

    For example ``grow D4: small → medium · 2 light`` or
    ``collect D4 · 4 light · takes a 4-leaf token worth 22``.
    """
    seat = state.current_seat
    try:
        after = engine.apply(state, notation)
    except engine.IllegalAction:
        return notation
    before_seat, after_seat = state.seats[seat], after.seats[seat]
    text = notation
    labels = spaces_of(notation)
    if labels and verb_of(notation) != "plant":
        was, now = _size(state, labels[-1]), _size(after, labels[-1])
        if was is not None and now is not None and was != now:
            text += f": {SIZE_NAMES[was]} \N{RIGHTWARDS ARROW} {SIZE_NAMES[now]}"
    parts = [text]
    light = before_seat.light - after_seat.light
    if light > 0:
        parts.append(f"{light} light")
    lunar = getattr(before_seat, "lunar", 0) - getattr(after_seat, "lunar", 0)
    if lunar > 0:
        parts.append(f"{lunar} lunar")
    for leaves, points in after_seat.tokens[len(before_seat.tokens) :]:
        parts.append(f"takes a {leaves}-leaf token worth {points}")
    if verb_of(notation) == "collect" and len(after_seat.tokens) == len(before_seat.tokens):
        parts.append("no token left")
    return " \N{MIDDLE DOT} ".join(parts)


def describe_all(state: Any, notations: Sequence[str]) -> dict[str, str]:
    """`describe` for each notation (pure CPU; cheap: one `engine.apply` each)."""
    return {n: describe(state, n) for n in notations}
