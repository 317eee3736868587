"""The tutorial's lessons: short steps on real positions built with the engine.

Each step shows a position, marks the spaces its text talks about and asks the learner for one
action (any of ``answers``). A wrong action is explained by the engine's own refusal when the
engine refuses it, else by the step's ``explain`` (a reason computed from the engine, e.g. whose
shadow a tree stands in), else by the step's request itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from translation import _

from ..actions import Action, parse_action
from ..config import Config
from ..game import TREE_NAMES, apply, legal_actions, scores
from ..geometry import ADJACENT_MASK, LABEL_INDEX, LABELS, LEAVES, RAY, SHADOW_DIRECTION, bits
from ..moonlight import arrange, gap_words, moonlit_next_photosynthesis, tracker
from ..position import build
from ..state import GameState

#: A reason for a legal action that is not what the step asks (None: no specific reason).
Explain = Callable[[GameState, Action], str | None]


@dataclass(frozen=True)
class Step:
    """One question of a lesson: its text, its position, what answers it and what it marks."""

    text: str
    ask: str  # the request alone, repeated when a legal action is not the one asked for
    position: Callable[[], GameState]
    answers: tuple[str, ...]  # canonical notations, the first one shown as the answer
    marks: tuple[str, ...]  # space labels the picture marks
    explain: Explain | None = None
    #: The picture previews the next photosynthesis (its sun, and the moon where it will be):
    #: ``board_png(state, preview_sun=engine.next_photosynthesis_sun(state), marks=...)``.
    preview: bool = False


@dataclass(frozen=True)
class Lesson:
    """A lesson: a key (stored in a learner's progress), a title and its steps."""

    key: str
    title: str
    steps: tuple[Step, ...]
    expansion: bool = False


TWO = Config(seats=("human", "human"))
MOON = Config(seats=("human", "human"), moon_animals=True)


def caster(state: GameState, space: int, sun: int | None = None) -> int | None:
    """The nearest tree whose shadow covers the piece on ``space`` with the sun at ``sun``: a
    tree at distance k towards the sun, at least k tall and at least as tall as that piece (any
    tree shades a seed). None when the piece is in the light."""
    sun = state.sun if sun is None else sun
    here = state.piece_at(space)
    size = 0 if here is None else here[1]
    towards_sun = (SHADOW_DIRECTION[sun] + 3) % 6
    for k, j in enumerate(RAY[space][towards_sun][:3], start=1):
        piece = state.piece_at(j)
        if piece is not None and piece[1] >= max(k, size, 1):
            return j
    return None


def _in_shadow(state: GameState, action: Action) -> str | None:
    """Growing a tree that stands in a shadow: whose shadow it is."""
    if action.verb != "grow":
        return None
    space = action.args[0]
    source = caster(state, space)
    if source is None:
        return None
    piece = state.piece_at(source)
    assert piece is not None, "a caster is a piece"
    return _(
        "{space} is in the shadow of {source}'s {piece} this round.",
        space=LABELS[space],
        source=LABELS[source],
        piece=TREE_NAMES[piece[1]],
    )


def _poorer_token(state: GameState, action: Action) -> str | None:
    """Collecting on poorer soil: the token it takes against the best one."""
    if action.verb != "collect":
        return None
    seat = state.current_seat
    assert seat is not None, "a learner is to act"

    def token(notation: str | Action) -> tuple[int, int]:
        return apply(state, notation).seats[seat].tokens[-1]

    best = BEST["collect"]
    (k, points), (_best_k, best_points) = token(action), token(best)
    return _(
        "Collecting {space} ({leaves}-leaf soil) takes a {k}-leaf token worth {points}; "
        "collecting {best} takes one worth {best_points}.",
        space=LABELS[action.args[0]],
        leaves=LEAVES[action.args[0]],
        k=k,
        points=points,
        best=LABELS[parse_action(best).args[0]],
        best_points=best_points,
    )


def _ends_too_soon(state: GameState, action: Action) -> str | None:
    """Ending the last turn with a large tree still standing: the score with and without it."""
    if action.verb != "end":
        return None
    seat = state.current_seat
    assert seat is not None, "a learner is to act"
    best = BEST["last"]
    return _(
        "Ending your turn now, you would score {now}; collecting {space} first, {then}.",
        now=scores(apply(state, action))[seat],
        space=LABELS[parse_action(best).args[0]],
        then=scores(apply(state, best))[seat],
    )


def _out_of_moonlight(state: GameState, action: Action) -> str | None:
    """An animal's step to a space the moon will not light at the next photosynthesis."""
    moon = tracker(state)
    if action.verb != "move" or moon is None:
        return None
    if moonlit_next_photosynthesis(state) >> action.args[0] & 1:
        return None
    return _(
        "{space} is not in the moonlight at the next photosynthesis: the moon moves to {gap}.",
        space=LABELS[action.args[0]],
        gap=gap_words(moon[0]),
    )


#: The right answers some reasons compare with.
BEST = {"collect": "collect C3", "last": "collect D4"}


def _available(state: GameState, seat: int, size: int, n: int) -> GameState:
    """``state`` with ``n`` pieces of ``size`` in the seat's available area, the others of it
    moved to its player board (which must have room: pieces stay conserved)."""
    s = state.copy()
    seats = list(s.seats)
    seat_state = seats[seat].copy()
    total = seat_state.available[size] + seat_state.store[size]
    seat_state.available[size] = n
    seat_state.store[size] = total - n
    seats[seat] = seat_state
    s.seats = tuple(seats)
    return s


def _shadows() -> GameState:
    return build(TWO, {"B2": (1, 2), "C2": (0, 1), "E4": (0, 1)}, light=[2, 0])


def _light() -> GameState:
    state = build(TWO, {"D3": (0, 1), "C4": (0, 2), "F3": (1, 1)}, light=[2, 0])
    return _available(_available(state, 0, 2, 1), 0, 3, 1)


def _life_cycle() -> GameState:
    # The medium tree on F4 took the one medium tree of the available area.
    return build(TWO, {"D3": (0, 1), "F4": (0, 2), "B4": (1, 1)}, light=[5, 0])


def _reach() -> GameState:
    return build(TWO, {"C2": (0, 1), "E5": (0, 2), "B4": (1, 1)}, light=[2, 0])


def _collect() -> GameState:
    return build(TWO, {"C3": (0, 3), "A2": (0, 3), "F3": (1, 2)}, light=[4, 0])


def _activated() -> GameState:
    state = build(TWO, {"D3": (0, 1), "F2": (0, 1), "B4": (1, 1)}, light=[3, 0])
    return apply(state, "grow D3")


def _last_round() -> GameState:
    return build(TWO, {"D4": (0, 3), "B2": (1, 2)}, light=[5, 0], round=18)


def _moon() -> GameState:
    state = build(MOON, {"D5": (0, 1), "B2": (1, 1)}, light=[0, 0])
    return arrange(state, animals={0: ("owl", "E4"), 1: ("fox", "B4")}, moon=(10, False))


def _moonlit_steps() -> tuple[str, ...]:
    """The owl's steps onto a space the moon lights at the next photosynthesis."""
    state = _moon()
    lit = moonlit_next_photosynthesis(state)
    return tuple(f"move {LABELS[i]}" for i in bits(ADJACENT_MASK[state.ext.at[0]] & lit))


def _lunar() -> GameState:
    state = build(MOON, {"D5": (0, 1), "B2": (1, 1)}, light=[2, 0])
    animals = {0: ("owl", "E4"), 1: ("fox", "B4")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[9, 2])


def _ability() -> GameState:
    state = build(MOON, {"C3": (0, 3), "E4": (0, 3), "B4": (1, 1)}, light=[0, 0])
    animals = {0: ("boar", "C3"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[5, 2])


def _plants_from(position: Callable[[], GameState], source: str) -> tuple[str, ...]:
    """Every legal planting from ``source`` in the position."""
    return tuple(
        str(a)
        for a in legal_actions(position())
        if a.verb == "plant" and a.args[0] == LABEL_INDEX[source]
    )


BASE: tuple[Lesson, ...] = (
    Lesson(
        "shadows",
        _("The sun and shadows"),
        (
            Step(
                _(
                    "The sun shines from one corner of the board and moves one corner clockwise "
                    "each round. Every tree casts a shadow away from it: 1 space long for a "
                    "small tree, 2 for a medium tree, 3 for a large tree. A tree in the shadow "
                    "of a tree at least as tall gets no light; a taller tree stands above the "
                    "shadow. The shadows of this round are drawn on the board."
                ),
                _("Grow your small tree that stands in the light."),
                cache(_shadows),
                ("grow E4",),
                ("B2", "C2", "E4"),
                _in_shadow,
            ),
        ),
    ),
    Lesson(
        "light",
        _("Light points"),
        (
            Step(
                _(
                    "At the start of each round, every tree in the light gives its owner light "
                    "points: 1 for a small tree, 2 for a medium tree, 3 for a large tree (20 "
                    "at most). You spend them on your actions: growing into a small tree costs "
                    "1, into a medium tree 2, into a large tree 3. You have 2 light points."
                ),
                _("Grow the tree that your 2 light points can grow."),
                cache(_light),
                ("grow D3",),
                ("D3", "C4"),
            ),
        ),
    ),
    Lesson(
        "life",
        _("The life cycle and the available area"),
        (
            Step(
                _(
                    "A seed grows into a small tree, then a medium tree, then a large tree, one "
                    "size at a time. The new size comes from your available area, next to your "
                    "player board; the piece it replaces goes back onto the player board. Your "
                    "available area has no medium tree left: buy one from your player board "
                    "(its price is printed under it)."
                ),
                _("Buy a medium tree."),
                cache(_life_cycle),
                ("buy medium",),
                ("D3",),
            ),
            Step(
                _("Now the medium tree is in your available area: growing costs 2 light points."),
                _("Grow your small tree into a medium tree."),
                cache(lambda: apply(_life_cycle(), "buy medium")),
                ("grow D3",),
                ("D3",),
            ),
        ),
    ),
    Lesson(
        "reach",
        _("Planting"),
        (
            Step(
                _(
                    "Planting puts a seed from your available area on an empty space near one "
                    "of your trees, for 1 light point: up to 1 space away from a small tree, 2 "
                    "from a medium tree, 3 from a large tree. Seeds plant nothing."
                ),
                _("Plant a seed on {space}.", space="C4"),
                cache(_reach),
                ("plant E5 C4",),
                ("C2", "E5", "C4"),
            ),
        ),
    ),
    Lesson(
        "collect",
        _("Collecting and the soils' tokens"),
        (
            Step(
                _(
                    "A large tree can be collected for 4 light points: it leaves the board and "
                    "you take the top scoring token of its soil's pile. The richer the soil "
                    "(more leaves, towards the centre), the more the token is worth; a pile "
                    "that runs out gives the next poorer one's."
                ),
                _("Collect the large tree whose token is worth more."),
                cache(_collect),
                (BEST["collect"],),
                ("C3", "A2"),
                _poorer_token,
            ),
        ),
    ),
    Lesson(
        "activated",
        _("Activated spaces"),
        (
            Step(
                _(
                    "Each space can be used only once in a turn: a tree that grew, planted or "
                    "was planted rests until your next turn. You have just grown {space} into a "
                    "medium tree this turn.",
                    space="D3",
                ),
                _("Plant a seed from a tree you have not used this turn."),
                cache(_activated),
                _plants_from(_activated, "F2"),
                ("D3", "F2"),
            ),
        ),
    ),
    Lesson(
        "end",
        _("The end and scoring"),
        (
            Step(
                _(
                    "The game ends after the last round (the 18th: the sun goes around the "
                    "board three times). Each player scores their tokens, plus 1 point for "
                    "every 3 light points left. This is your last turn."
                ),
                _("Make the most points before the game ends."),
                cache(_last_round),
                (BEST["last"],),
                ("D4",),
                _ends_too_soon,
            ),
        ),
    ),
)

EXPANSION: tuple[Lesson, ...] = (
    Lesson(
        "moon",
        _("The moon and moonlight"),
        (
            Step(
                _(
                    "Under the Moonlight adds the moon: it stands outside the board between two "
                    "border spaces, and from each a beam of moonlight runs straight into the "
                    "board. Each round it moves on before the photosynthesis; an animal in its "
                    "light then gets lunar points. Your animal takes one step a turn, for "
                    "nothing. The picture shows the next photosynthesis: its moonlit spaces "
                    "next to your Owl are marked."
                ),
                _("Move your Owl onto a space the moon lights at the next photosynthesis."),
                cache(_moon),
                _moonlit_steps(),
                ("E4", "D5", "E5"),
                _out_of_moonlight,
                preview=True,
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "lunar",
        _("Lunar points"),
        (
            Step(
                _(
                    "Every player starts with 2 lunar points. At each photosynthesis an animal "
                    "in the moonlight gets 1 at Half Moon, 2 at Full Moon (14 at most). They pay "
                    "for your animal's abilities, and each one left scores 1 point at the end. "
                    "Your Owl's Nighttime Hunting turns lunar points into light points: level 1 "
                    "costs 5 for 3 light points, level 2 costs 9 for 7, level 3 costs 12 for 10. "
                    "You have 9 lunar points."
                ),
                _("Hunt at the highest level your lunar points pay for."),
                cache(_lunar),
                ("use hunt 2",),
                ("E4",),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "ability",
        _("An animal's abilities"),
        (
            Step(
                _(
                    "Each animal has its own abilities, each usable once a turn; many act on "
                    "the space the animal stands on. Your Boar stands on your large tree on "
                    "{space}: its Digging (5 lunar points) collects the tree under it without "
                    "light points. You have no light points left.",
                    space="C3",
                ),
                _("Collect a large tree."),
                cache(_ability),
                ("use dig 1",),
                ("C3", "E4"),
            ),
        ),
        expansion=True,
    ),
)

#: Every lesson, in order (the expansion's after the base game's).
LESSONS: tuple[Lesson, ...] = BASE + EXPANSION
