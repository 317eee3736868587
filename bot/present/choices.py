"""The kinds of action the turn panel offers, and how each choice is labelled.

The panel is driven by a table (`KINDS`): one row per verb, saying how its button reads, how its
select prompts, and whether the player first picks the piece to act from (planting: the tree,
then the target). A verb without a row (the expansion's) still gets a button and a select, so
adding one is a new row, not new code.

No rule lives here: what a choice costs and gives is read off the engine by applying it to the
current state and comparing (light and lunar points spent or gained, tokens taken, the pieces that
changed); Under the Moonlight's names, costs and effects come from `engine.moonlight` through
`bot.present.animals`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

import engine
from bot.present import animals
from bot.present.i18n import notation as ltr
from bot.services.experts import seat_to_play
from engine import GameState
from engine import moonlight as ml
from engine.geometry import LABEL_INDEX, LEAVES
from engine.pieces import LIGHT_CAP
from engine.text import why_missing as engine_why_missing
from translation import Text, _, _n, _p, join

LABEL = re.compile(r"^[A-G][1-7]$")
#: sizes 0..3 of the position format
SIZE_NAMES = (_p("size", "seed"), _p("size", "small"), _p("size", "medium"), _p("size", "large"))
_DOT = " \N{MIDDLE DOT} "


@dataclass(frozen=True)
class Kind:
    """How the panel presents one verb."""

    verb: str
    button: str | Text
    prompt: str | Text
    #: pick the first argument first (e.g. the tree to plant from), then the rest
    two_step: bool = False
    step_prompt: str | Text = ""
    #: list the pieces of a two-step kind in board order (else in the engine's order)
    sort_sources: bool = True


KINDS: dict[str, Kind] = {
    k.verb: k
    for k in (
        Kind("buy", _("Buy..."), _("Buy from your player board")),
        Kind(
            "plant",
            _("Plant..."),
            _("Plant a seed"),
            two_step=True,
            step_prompt=_("Plant a seed: choose the tree to plant from"),
        ),
        Kind("grow", _("Grow..."), _("Grow a piece one size")),
        Kind("collect", _("Collect..."), _("Collect a large tree for a scoring token")),
        Kind("move", _("Move animal..."), _("Move your animal one step")),
        Kind(
            "use",
            _("Use ability..."),
            _("Use an ability"),
            two_step=True,
            step_prompt=_("Use an ability: choose which"),
            sort_sources=False,
        ),
        # Under the Moonlight's setup: one decision each (the select's "{verb}: choose")
        Kind("animal", _("Animal..."), _("Your animal")),
        Kind("settle", _("Settle..."), _("Your animal's space")),
        Kind("elder", _("Great Elder Tree..."), _("The Great Elder Tree's space")),
        Kind("moonstone", _("Moonstone..."), _("A moonstone's space")),
    )
}
#: Order of the verb buttons on the panel; verbs without a row follow in the engine's order.
VERB_ORDER = tuple(KINDS)


def kind(verb: str) -> Kind:
    """The row for `verb` (a default one for verbs the table does not list)."""
    return KINDS.get(verb) or Kind(verb, f"{verb.title()}...", verb.title())


def verb_of(notation: str) -> str:
    """The verb of a canonical notation."""
    return notation.split()[0]


def spaces_of(notation: str) -> list[str]:
    """The board labels an action names (outlined on the preview picture)."""
    return [w for w in notation.split()[1:] if LABEL.match(w)]


def _size(state: GameState, label: str) -> int | None:
    """The size of the piece on a space (what every seat sees), or None."""
    piece = engine.observation(state, None)["board"].get(label)
    return None if piece is None else int(piece["size"])


def _board(state: GameState) -> dict[str, tuple[int, int]]:
    """label -> (seat, size) of every piece on the board (what every seat sees)."""
    board = engine.observation(state, None)["board"]
    return {k: (int(v["seat"]), int(v["size"])) for k, v in board.items()}


def _board_changes(
    before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]
) -> list[Text]:
    """What an ability did to the board, e.g. `E5: seed placed`, `D3: seed → small`."""
    out = []
    for label in sorted(set(before) | set(after)):
        was, now = before.get(label), after.get(label)
        if was == now:
            continue
        if was is None and now is not None:
            out.append(_("{space}: {size} placed", space=label, size=SIZE_NAMES[now[1]]))
        elif was is not None and now is None:
            out.append(_("{space}: {size} removed", space=label, size=SIZE_NAMES[was[1]]))
        elif was is not None and now is not None:
            out.append(
                join([f"{label}:", SIZE_NAMES[was[1]], "\N{RIGHTWARDS ARROW}", SIZE_NAMES[now[1]]])
            )
    return out


def describe(
    state: GameState, notation: str, *, _before: dict[str, tuple[int, int]] | None = None
) -> str | Text:
    """A select label for a legal action: the action, what it costs, what it gives.

    For example ``grow D4: small → medium · 2 light``,
    ``collect D4 · 4 light · takes a 4-leaf token worth 22`` or
    ``use hunt 2 · 9 lunar · +7 light``.
    """
    verb = verb_of(notation)
    if verb == "animal":
        return animals.short(notation.split()[1])
    seat = seat_to_play(state)
    try:
        after = engine.apply(state, notation)
    except engine.IllegalAction:
        return notation
    before_seat, after_seat = state.seats[seat], after.seats[seat]
    text: str | Text = ltr(notation)
    labels = spaces_of(notation)
    if labels and verb not in ("plant", "use"):
        was, now = _size(state, labels[-1]), _size(after, labels[-1])
        if was is not None and now is not None and was != now:
            text = join([f"{text}:", SIZE_NAMES[was], "\N{RIGHTWARDS ARROW}", SIZE_NAMES[now]])
    parts: list[str | Text] = [text]
    words = notation.split()
    if verb == "use" and words[1] == "dam":  # "use dam 10": where the Dam goes, and what it does
        parts.append(_("Dam on {gap}: its pieces grow one size free",
                       gap=ml.gap_words(int(words[2]))))  # fmt: skip
    light = before_seat.light - after_seat.light
    if light > 0:
        parts.append(_("{n} light", n=light))
    lunar = getattr(before_seat, "lunar", 0) - getattr(after_seat, "lunar", 0)
    if lunar > 0:
        parts.append(_n("{n} lunar", "{n} lunar", lunar))  # French: "1 point lunaire"
    if light < 0:
        parts.append(_("+{n} light", n=-light))
    if verb == "use":
        before = _board(state) if _before is None else _before
        parts += _board_changes(before, _board(after))
        if light == 0 and after_seat.light == LIGHT_CAP:
            parts.append(_("light stays at {cap}, the most you can hold", cap=LIGHT_CAP))
    for leaves, points in after_seat.tokens[len(before_seat.tokens) :]:
        parts.append(  # a count: French "un jeton à 1 feuille"
            _n(
                "takes a {n}-leaf token worth {points}",
                "takes a {n}-leaf token worth {points}",
                leaves,
                points=points,
            )
        )
    if verb == "collect" and len(after_seat.tokens) == len(before_seat.tokens):
        parts.append(_("no token left"))
    if verb == "plant":
        parts += soil_and_shade(after, labels[-1])
    if verb in SETUP_PLACEMENTS:
        parts += placement_notes(after, verb, labels[0])
    if verb == "move" and ml.moonlit_next_photosynthesis(state) >> LABEL_INDEX[labels[0]] & 1:
        parts.append(_("in the moonlight next round"))
    return join(parts, _DOT)


def soil(leaves: int) -> Text:
    """``3-leaf soil`` (French: "sol à 1 feuille", "sol à 3 feuilles")."""
    return _n("{n}-leaf soil", "{n}-leaf soil", leaves)


def soil_and_shade(state: GameState, label: str) -> list[Text]:
    """What a target space offers: its soil (leaves) and whether a shadow covers it at the next
    photosynthesis (``3-leaf soil``, ``in shade next round``)."""
    space = LABEL_INDEX[label]
    out = [soil(LEAVES[space])]
    sun = engine.next_photosynthesis_sun(state)
    if sun is not None:
        shaded = engine.shadow_map(state, sun)[space] > 0
        out.append(_("in shade next round") if shaded else _("in sunlight next round"))
    return out


#: The expansion's setup placements whose choices say more than the space (which soil, whether
#: the moon lights it at the first photosynthesis).
SETUP_PLACEMENTS = ("moonstone", "elder", "settle")


def placement_notes(after: GameState, verb: str, label: str) -> list[Text]:
    """``2-leaf soil · shines at the first photosynthesis`` for a moonstone (a shining stone
    lights the animals next to it), ``in the moonlight at the first photosynthesis`` for an
    animal; the Great Elder Tree gets its soil only (it blocks moonlight, it is never lit)."""
    space = LABEL_INDEX[label]
    out = [] if verb == "settle" else [soil(LEAVES[space])]
    if verb != "elder" and ml.moonlit_next_photosynthesis(after) >> space & 1:
        out.append(
            _("shines at the first photosynthesis")
            if verb == "moonstone"
            else _("in the moonlight at the first photosynthesis")
        )
    return out


def describe_all(state: GameState, notations: Sequence[str]) -> dict[str, str | Text]:
    """`describe` for each notation (pure CPU; cheap: one `engine.apply` each)."""
    before = _board(state) if any(verb_of(n) == "use" for n in notations) else None
    return {n: describe(state, n, _before=before) for n in notations}


#: The verbs' names at the head of a `why_missing` line.
VERB_NAMES = {
    "buy": _p("verb", "Buy"),
    "plant": _p("verb", "Plant"),
    "grow": _p("verb", "Grow"),
    "collect": _p("verb", "Collect"),
    "move": _p("verb", "Move"),
    "use": _p("verb", "Use"),
}


def why_missing(state: GameState, offered: set[str]) -> list[Text]:
    """One line per action of a turn the panel does not offer, saying why (the engine's
    refusal), e.g. ``Grow: not now. Growing into a medium tree costs 2 light points; you have 1.``"""
    return [
        _(
            "{verb}: not now. {reason}",
            verb=VERB_NAMES.get(verb, verb.title()),
            reason=reason,
        )
        for verb, reason in engine_why_missing(state).items()
        if verb not in offered
    ]


# --- Under the Moonlight: the panel's words ---


def resources(state: GameState) -> Text:
    """What the player has to spend: `9 light`, or `9 light and 3 lunar points`."""
    seat = state.seats[seat_to_play(state)]
    if _moon_seat(state, seat_to_play(state)).get("animal"):
        return _("{n} light and {lunar}", n=seat.light, lunar=animals.lunar(seat.lunar))
    return _("{n} light", n=seat.light)


class MoonSeatSeen(TypedDict, total=False):
    """What a seat sees of itself in the expansion (`engine.observation`'s
    `moonlight.seats[seat]`, docs/position-format.md): its animal, kept or placed, and the space
    it stands on (the other keys are not read here)."""

    animal: str | None
    space: str | None


def _moon_seat(state: GameState, seat: int) -> MoonSeatSeen:
    """What a seat sees of itself in the expansion (its kept animal and where it stands),
    empty without the expansion."""
    if not getattr(getattr(state, "config", None), "expansion", False):
        return {}
    moonlight = engine.observation(state, seat).get("moonlight")
    seen: MoonSeatSeen = moonlight["seats"][seat] if moonlight else {}
    return seen


def animal_status(state: GameState) -> str | Text:
    """`; your Owl is on C3 (1 step left)`, or nothing without a placed animal."""
    seat = seat_to_play(state)
    mine = _moon_seat(state, seat)
    animal = mine.get("animal")  # (its own: known to the seat whose animal stands somewhere)
    if not mine.get("space") or animal is None or state.phase != "play":
        return ""
    taken = engine.observation(state, seat)["moonlight"]["turn"]["steps"]
    left = max(0, ml.steps_allowed(state, seat) - taken)
    name = animals.animal_name(animal)
    return _n(
        "; your {animal} is on {space} ({n} step left)",
        "; your {animal} is on {space} ({n} steps left)",
        left,
        animal=name,
        space=mine["space"],
    )


def decision_details(verb: str, actions: Sequence[str]) -> str | Text:
    """More words for a setup decision: the two animals dealt to the player, with their
    abilities (shown only to that player)."""
    if verb != "animal":
        return ""
    cards = [animals.card(n.split()[1]) for n in actions]
    return _(
        "You were dealt these animals (only you see them); keep one:\n\n{cards}",
        cards=join(cards, "\n\n"),
    )


def _choices(n: int) -> Text:
    return _n("{n} choice", "{n} choices", n)


def source_label(state: GameState, verb: str, source: str, actions: Sequence[str]) -> Text:
    """The first step of a two-step kind: `C3 · 4 choices` (plant from the tree on C3) or
    `Nighttime Hunting · 5 or 9 lunar` (use that ability)."""
    if verb != "use":
        return join([source, _choices(len(actions))], _DOT)
    costs = sorted({ml.ability_cost(state, engine.parse_action(n)) for n in actions})
    if len(costs) == 1:
        cost = _n("{n} lunar", "{n} lunar", costs[0])
    else:
        cost = _("{costs} or {last} lunar", costs=", ".join(map(str, costs[:-1])), last=costs[-1])
    parts = [animals.title(source), cost]
    if len(actions) > len(costs):
        parts.append(_choices(len(actions)))
    return join(parts, _DOT)


def choose_prompt(verb: str, source: str | None) -> Text | None:
    """The prompt of a two-step kind's choices once its first step is known (`Use Nighttime
    Hunting`), or None for the kind's own prompt."""
    if verb == "use" and source is not None:
        return _("Use {ability}", ability=animals.title(source))
    return None


def choose_details(verb: str, source: str | None) -> str | Text:
    """What the chosen kind does, under its select (an ability's costs and effect)."""
    if verb == "use" and source is not None:
        details = animals.ability_line(source)
        if source == "baby":
            details = join([details, animals.babies_text()], "\n")
        return details
    return ""
