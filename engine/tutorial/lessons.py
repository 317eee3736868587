"""The tutorial's lessons: short steps on real positions built with the engine.

Each step shows a position, marks the spaces its text talks about and asks the learner for one
action (any of ``answers``). A wrong action is explained by the engine's own refusal when the
engine refuses it, else by the step's ``explain`` (a reason computed from the engine, e.g. whose
shadow a tree stands in), else by the step's request itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property

from translation import _

from ..actions import Action, parse_action
from ..config import Config
from ..game import (
    TREE_NAMES,
    apply,
    legal_actions,
    light_for_sun,
    new_game,
    next_photosynthesis_sun,
    scores,
    winners,
)
from ..geometry import LABEL_INDEX, LABELS, LEAVES, RAY, SHADOW_DIRECTION
from ..moonlight import arrange, gap_words, moonlit_next_photosynthesis, tracker
from ..moonlight.names import ANIMALS
from ..position import build
from ..state import GameState

#: A reason for a legal action that is not what the step asks (None: no specific reason).
Explain = Callable[[GameState, Action], str | None]


#: What an action is worth to a step: ``worth(before, after)``, the position the step shows
#: and the one the action leads to. Every legal action worth the most answers the step.
Worth = Callable[[GameState, GameState], float]


@dataclass(frozen=True)
class Step:
    """One question of a lesson: its text, its position, what an answer is worth and what the
    picture marks. The answers are not written down: every legal action of the position is
    played on the engine and ``worth`` compares what it leads to; every action worth the most
    answers the step (``shown``, when given, is the one a second wrong try shows)."""

    text: str
    ask: str  # the request alone, repeated when a legal action is not the one asked for
    position: Callable[[], GameState]
    worth: Worth
    marks: tuple[str, ...]  # space labels the picture marks
    explain: Explain | None = None
    #: The picture previews the next photosynthesis (its sun, and the moon where it will be):
    #: ``board_png(state, preview_sun=engine.next_photosynthesis_sun(state), marks=...)``.
    preview: bool = False
    shown: str | None = None

    @cached_property
    def answers(self) -> tuple[str, ...]:
        """Every legal action worth the most (canonical notations; ``shown`` first)."""
        state = self.position()
        worth = {str(a): self.worth(state, apply(state, a)) for a in legal_actions(state)}
        best = max(worth.values())
        found = [n for n, w in worth.items() if w == best]
        if self.shown is not None:
            assert self.shown in found, f"{self.shown} is not worth the most"
            found.remove(self.shown)
            found.insert(0, self.shown)
        return tuple(found)


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


def _with_tokens(state: GameState, tokens: dict[int, tuple[tuple[int, int], ...]]) -> GameState:
    """``state`` with the seats' scoring tokens set (``(leaves, points)`` each)."""
    s = state.copy()
    seats = list(s.seats)
    for seat, held in tokens.items():
        seat_state = seats[seat].copy()
        seat_state.tokens = held
        seats[seat] = seat_state
    s.seats = tuple(seats)
    return s


# --- what an answer is worth (the learner is seat 0 in every lesson) ---


def _tree_sizes(_before: GameState, after: GameState) -> float:
    """The sizes of the learner's seeds and trees on the board, added up."""
    return sum(size * after.masks[size].bit_count() for size in range(4))


def _light_now(_before: GameState, after: GameState) -> float:
    """The light the learner's trees collect with this round's sun."""
    return light_for_sun(after, after.sun)[0]


def _light_next(before: GameState, after: GameState) -> float:
    """The light the learner's trees will collect at the next photosynthesis."""
    sun = next_photosynthesis_sun(before)
    assert sun is not None, "a photosynthesis is to come"
    return light_for_sun(after, sun)[0]


def _light_round_one(_before: GameState, after: GameState) -> float:
    """The light the learner's trees will collect in round 1 (the sun at its first corner)."""
    return light_for_sun(after, 0)[0]


def _medium_available(_before: GameState, after: GameState) -> float:
    return after.seats[0].available[2]


def _medium_trees(_before: GameState, after: GameState) -> float:
    return after.masks[2].bit_count()


def _small_trees(_before: GameState, after: GameState) -> float:
    return after.masks[1].bit_count()


def _seeds(_before: GameState, after: GameState) -> float:
    return after.masks[0].bit_count()


def _seed_on(label: str) -> Worth:
    def worth(_before: GameState, after: GameState) -> float:
        return float(after.piece_at(LABEL_INDEX[label]) == (0, 0))

    return worth


def _token_points(_before: GameState, after: GameState) -> float:
    return sum(points for _leaves, points in after.seats[0].tokens)


def _light(_before: GameState, after: GameState) -> float:
    return after.seats[0].light


def _score(_before: GameState, after: GameState) -> float:
    return scores(after)[0]


def _best_final(_before: GameState, after: GameState) -> float:
    """The learner's final score when the turn goes on with every collect they can pay (the
    richest soil first) and then ends."""
    state = after
    while state.current_seat == 0:
        collects = [a for a in legal_actions(state) if a.verb == "collect"]
        if not collects:
            break
        state = apply(state, max(collects, key=lambda a: LEAVES[a.args[0]]))
    return scores(state)[0]


def _result(_before: GameState, after: GameState) -> float:
    """2: the learner alone wins as the game stands; 1: a shared win; 0: a loss."""
    won = winners(after)
    return 0.0 if 0 not in won else 2.0 if won == [0] else 1.0


def _babies(_before: GameState, after: GameState) -> float:
    return len(after.ext.babies[0])


def _moonlit(_before: GameState, after: GameState) -> float:
    """Whether the learner's animal stands in the moonlight of the next photosynthesis."""
    return float(moonlit_next_photosynthesis(after) >> after.ext.at[0] & 1)


def _hunting_light(_before: GameState, after: GameState) -> float:
    """The most light points the learner's kept animal gives in one ability, from a position
    where it stands on C3 with 14 lunar points (0: none of its abilities gives light)."""
    kept = after.ext.animal[0]
    if kept < 0:
        return 0.0
    state = build(MOON, {"D5": (1, 0)}, light=[0, 0])
    state = arrange(state, animals={0: (ANIMALS[kept], "C3"), 1: ("fox", "E5")}, lunar=[14, 2])
    return max(
        (apply(state, a).seats[0].light for a in legal_actions(state) if a.verb == "use"),
        default=0,
    )


# --- why an action is worth less than the best one (its worth and the best one's, in words) ---

#: ``say(action, value, best, best_value)``: the sentence comparing an action with the best.
Say = Callable[[str, int, str, int], str]


def _say_light_now(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Light your trees collect with this round's sun: {value} after {action}, {best_value} "
        "after {best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_light_next(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Light your trees collect next round: {value} after {action}, {best_value} after "
        "{best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_round_one(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Light your trees collect in round 1: {value} after {action}, {best_value} after "
        "{best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_sizes(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "The sizes of your pieces on the board added up (a seed 0, a small tree 1, a medium "
        "tree 2, a large tree 3): {value} after {action}, {best_value} after {best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_pieces(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Your pieces of the kind asked for: {value} after {action}, {best_value} after "
        "{best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_tokens(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Your scoring tokens' worth: {value} after {action}, {best_value} after {best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_light(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Your light points: {value} after {action}, {best_value} after {best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_score(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "Your score: {value} after {action}, {best_value} after {best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_best_final(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "The most you can score this turn: {value} after {action}, {best_value} after {best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


def _say_result(action: str, value: int, best: str, best_value: int) -> str:
    if value == 1:
        return _(
            "After {action} you would share the win: same score and as many pieces on the "
            "board; after {best} you win alone.",
            action=action, best=best,
        )  # fmt: skip
    return _("After {action} you would lose; after {best} you win alone.", action=action, best=best)


def _say_moonlit(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "After {action} your animal gets no lunar points at the next photosynthesis; after "
        "{best}, it does.",
        action=action, best=best,
    )  # fmt: skip


def _say_hunting(action: str, value: int, best: str, best_value: int) -> str:
    return _(
        "The most light points one ability gives: {value} with {action}, {best_value} with "
        "{best}.",
        action=action, value=value, best=best, best_value=best_value,
    )  # fmt: skip


#: What each measure says about an action worth less than the best one.
SAYS: dict[Worth, Say] = {
    _tree_sizes: _say_sizes,
    _light_now: _say_light_now,
    _light_next: _say_light_next,
    _light_round_one: _say_round_one,
    _medium_available: _say_pieces,
    _medium_trees: _say_pieces,
    _small_trees: _say_pieces,
    _seeds: _say_pieces,
    _token_points: _say_tokens,
    _light: _say_light,
    _score: _say_score,
    _best_final: _say_best_final,
    _result: _say_result,
    _babies: _say_pieces,
    _moonlit: _say_moonlit,
    _hunting_light: _say_hunting,
}


def why_worth_less(step: Step, state: GameState, action: Action) -> str | None:
    """The step's measure of ``action`` against the best answer's, in words (None: the step's
    measure has no words, or the action is worth as much)."""
    say = SAYS.get(step.worth)
    best = step.answers[0]
    value = step.worth(state, apply(state, action))
    best_value = step.worth(state, apply(state, best))
    if say is None or value >= best_value:
        return None
    return say(str(action), round(value), best, round(best_value))


# --- the positions ---

TWO = Config(seats=("human", "human"))
MOON = Config(seats=("human", "human"), moon_animals=True)
ELDER = Config(seats=("human", "human"), elder_tree=True)
STONES = Config(seats=("human", "human"), moon_animals=True, moonstones=True)


def _setup() -> GameState:
    # the learner placed D7, the opponent B1: the learner's second starting tree is to place
    return apply(apply(new_game(TWO, 0), "place D7"), "place B1")


def _shadows() -> GameState:
    return build(TWO, {"B2": (1, 2), "C2": (0, 1), "E4": (0, 1)}, light=[2, 0])


def _light_points() -> GameState:
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


def _turn_order() -> GameState:
    # round 2: the opponent holds the first-player token and has played; the learner plays last
    board = {"D4": (0, 1), "C2": (0, 1), "E4": (1, 2), "B5": (1, 1)}
    return build(TWO, board, light=[2, 0], round=2, current_seat=0, first_seat=1)


def _two_players() -> GameState:
    return build(TWO, {"D4": (0, 3), "C3": (0, 3), "F3": (1, 2)}, light=[4, 0])


def _last_round() -> GameState:
    return build(TWO, {"D4": (0, 3), "B2": (1, 2)}, light=[5, 0], round=18, first_seat=1)


def _tie() -> GameState:
    board = {"B2": (0, 1), "F3": (0, 1), "C5": (1, 1), "E2": (1, 2)}
    state = build(TWO, board, light=[1, 0], round=18, first_seat=1)
    return _with_tokens(state, {0: ((2, 16), (1, 14)), 1: ((3, 17), (1, 13))})


def _draft() -> GameState:
    return new_game(MOON, 1)  # the learner is dealt the Hedgehog and the Owl


def _moon() -> GameState:
    state = build(MOON, {"D5": (0, 1), "B2": (1, 1)}, light=[0, 0])
    return arrange(state, animals={0: ("owl", "E4"), 1: ("fox", "B4")}, moon=(10, False))


def _lunar() -> GameState:
    state = build(MOON, {"D5": (0, 1), "B2": (1, 1)}, light=[2, 0])
    animals = {0: ("owl", "E4"), 1: ("fox", "B4")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[9, 2])


def _boar() -> GameState:
    state = build(MOON, {"C3": (0, 3), "E4": (0, 3), "B4": (1, 1)}, light=[0, 0])
    animals = {0: ("boar", "C3"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[5, 2])


def _hedgehog() -> GameState:
    state = build(MOON, {"D5": (0, 1), "B4": (1, 1)}, light=[0, 0])
    state = _available(state, 0, 0, 0)
    animals = {0: ("hedgehog", "C3"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[3, 2])


def _squirrel() -> GameState:
    state = build(MOON, {"D5": (0, 1), "C3": (1, 0), "B4": (1, 1)}, light=[0, 2])
    animals = {0: ("squirrel", "C3"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[7, 2])


def _fox() -> GameState:
    state = build(MOON, {"D5": (0, 1), "B4": (1, 1)}, light=[0, 5])
    animals = {0: ("fox", "C3"), 1: ("owl", "C4")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[4, 2])


def _badger() -> GameState:
    state = build(MOON, {"C3": (0, 0), "D5": (0, 1), "B4": (1, 1)}, light=[0, 0])
    animals = {0: ("badger", "C3"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[4, 2])


def _beaver() -> GameState:
    board = {"F1": (0, 0), "E2": (0, 1), "D2": (0, 1), "B4": (1, 1)}
    state = build(MOON, board, light=[0, 0])
    animals = {0: ("beaver", "E1"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), lunar=[6, 2])


def _turtle() -> GameState:
    state = build(MOON, {"D3": (0, 1), "B4": (1, 1)}, light=[0, 0])
    animals = {0: ("turtle", "D1"), 1: ("fox", "B5")}
    beach = {"D1": "light", "G1": "seed", "A4": "double"}
    return arrange(state, animals=animals, moon=(10, False), lunar=[4, 2], beach=beach)


def _babies_position() -> GameState:
    state = build(MOON, {"C3": (0, 3), "D5": (0, 1), "B4": (1, 1)}, light=[0, 0])
    animals = {0: ("turtle", "E2"), 1: ("fox", "B5")}
    babies = {0: ["light", "harvest", "scoring"]}
    return arrange(state, animals=animals, moon=(10, False), lunar=[1, 2], babies=babies)


def _elder() -> GameState:
    board = {"D3": (0, 1), "E4": (0, 1), "F4": (1, 1)}
    return arrange(build(ELDER, board, light=[2, 0]), elder="D7")


def _moonstones() -> GameState:
    state = build(STONES, {"D5": (0, 1), "B2": (1, 1)}, light=[0, 0])
    # the moon lights G1..G4 and A2..F5 at the next photosynthesis; the moonstone on C4 is in
    # that beam and shines on its six neighbours
    animals = {0: ("owl", "D3"), 1: ("fox", "B5")}
    return arrange(state, animals=animals, moon=(10, False), moonstones=("C4", "A4", "F1"))


BASE: tuple[Lesson, ...] = (
    Lesson(
        "setup",
        _("Setting up"),
        (
            Step(
                _(
                    "Each player starts with two small trees on the board. Before the first "
                    "round, each player in turn places one small tree from their available area "
                    "on an empty space of the outer ring (1 leaf), then each places a second "
                    "one in the same order. In round 1 the sun shines from the corner beside "
                    "{corner}: a small tree shades the one space behind it.",
                    corner="A4",
                ),
                _("Place your second starting tree where the sun lights it in round 1."),
                cache(_setup),
                _light_round_one,
                ("D7", "B1"),
            ),
        ),
    ),
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
                _light_now,
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
                cache(_light_points),
                _tree_sizes,
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
                _medium_available,
                ("D3",),
            ),
            Step(
                _("Now the medium tree is in your available area: growing costs 2 light points."),
                _("Grow your small tree into a medium tree."),
                cache(lambda: apply(_life_cycle(), "buy medium")),
                _medium_trees,
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
                _seed_on("C4"),
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
                _token_points,
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
                _seeds,
                ("D3", "F2"),
            ),
        ),
    ),
    Lesson(
        "order",
        _("Turn order and the first-player token"),
        (
            Step(
                _(
                    "In each round every player takes one turn, clockwise, starting with the "
                    "holder of the first-player token. When the round ends, the token passes to "
                    "the next player clockwise and the sun moves one corner on. Your opponent "
                    "holds the token this round and has played: you play last, and next round "
                    "you play first. The picture shows next round's sun and shadows."
                ),
                _("Grow the small tree that the sun will light next round."),
                cache(_turn_order),
                _light_next,
                ("D4", "C2", "E4"),
                preview=True,
            ),
        ),
    ),
    Lesson(
        "two",
        _("Scoring tokens with two players"),
        (
            Step(
                _(
                    "With two players the 4-leaf tokens are not used: they stay in the box. A "
                    "large tree collected on the centre takes the top token of the 3-leaf pile, "
                    "like one on the 3-leaf ring."
                ),
                _("Collect a large tree for the most points."),
                cache(_two_players),
                _token_points,
                ("D4", "C3"),
                shown="collect D4",
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
                _best_final,
                ("D4",),
                _ends_too_soon,
                shown=BEST["last"],
            ),
        ),
    ),
    Lesson(
        "ties",
        _("Ties"),
        (
            Step(
                _(
                    "The highest score wins. On a tie, the player with more seeds and trees on "
                    "the board wins; if that is equal too, they share the win. This is your last "
                    "turn: you have 30 points and 1 light point, your opponent 30 points and as "
                    "many pieces on the board as you."
                ),
                _("Win the game outright."),
                cache(_tie),
                _result,
                ("B2", "F3", "C5", "E2"),
            ),
        ),
    ),
)

EXPANSION: tuple[Lesson, ...] = (
    Lesson(
        "draft",
        _("The animals' draft"),
        (
            Step(
                _(
                    "Under the Moonlight gives each player an animal. Each is dealt two of the "
                    "eight animals, keeps one and puts the other back unseen; then, starting "
                    "with the player before the first player and going backwards, each places "
                    "their animal on an empty 3-leaf space. You are dealt the Hedgehog and the "
                    "Owl: the Owl's Nighttime Hunting turns lunar points into light points."
                ),
                _("Keep the animal that can turn lunar points into light points."),
                cache(_draft),
                _hunting_light,
                (),
            ),
        ),
        expansion=True,
    ),
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
                _moonlit,
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
                _light,
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
                cache(_boar),
                _token_points,
                ("C3", "E4"),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "hedgehog",
        _("The Hedgehog"),
        (
            Step(
                _(
                    "The Hedgehog's Running (1 lunar point) gives it one more step this turn. "
                    "Its Planting (3) puts a seed from your player board on its empty space, "
                    "without light points and without buying it. You have no light points and "
                    "no seed in your available area."
                ),
                _("Put one more of your seeds on the board."),
                cache(_hedgehog),
                _seeds,
                ("C3",),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "squirrel",
        _("The Squirrel"),
        (
            Step(
                _(
                    "The Squirrel may take two steps a turn. Its Eating (5, 6, 7 or 8 lunar "
                    "points on a 1-, 2-, 3- or 4-leaf space) eats an opponent's seed on its "
                    "space: the seed goes back to its owner, who gets 1 light point, and you get "
                    "as many light points as the space has leaves. Your Squirrel stands on your "
                    "opponent's seed on a 3-leaf space."
                ),
                _("Get light points."),
                cache(_squirrel),
                _light,
                ("C3",),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "fox",
        _("The Fox"),
        (
            Step(
                _(
                    "The Fox's Scaring (1 lunar point) moves an animal next to it one step; its "
                    "Scratching (3) moves a seed on its space 1 or 2 spaces in a straight line; "
                    "its Stealing (4) takes 2 light points from a player whose animal is next to "
                    "it. Your opponent's Owl is next to your Fox, and they have 5 light points."
                ),
                _("Take light points from your opponent."),
                cache(_fox),
                _light,
                ("C3", "C4"),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "badger",
        _("The Badger"),
        (
            Step(
                _(
                    "The Badger's Growing grows your seed on its space into a small tree, "
                    "without light points: level 1 (4 lunar points) takes the small tree from "
                    "your available area, level 2 (6) may take it from your player board. A "
                    "seed planted this turn cannot grow this way. You have no light points."
                ),
                _("Grow your seed into a small tree."),
                cache(_badger),
                _small_trees,
                ("C3",),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "beaver",
        _("The Beaver"),
        (
            Step(
                _(
                    "The Beaver's Building the Dam (6 lunar points) puts the Dam on three "
                    "spaces side by side: two border spaces and the 2-leaf space touching both, "
                    "covering the Beaver's space and a river space ({river}). Each of your seeds "
                    "and trees on the Dam grows once for free, when the next size is in your "
                    "available area. Improving the Dam (5) later grows one of them for free.",
                    river="G3 G2 G1 F1 E1 D1",
                ),
                _("Build the Dam where it grows the most of your pieces."),
                cache(_beaver),
                _tree_sizes,
                ("E1", "F1", "E2", "D2"),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "turtle",
        _("The Turtle"),
        (
            Step(
                _(
                    "With the Turtle in play, six Baby Turtle tokens lie face down on the six "
                    "corner spaces (the beaches). The Turtle's Hatching (4 lunar points) takes "
                    "the token of the beach it stands on, face up, into your available area. "
                    "Your Turtle stands on the beach {space}.",
                    space="D1",
                ),
                _("Hatch a Baby Turtle."),
                cache(_turtle),
                _babies,
                ("D1", "G1", "A4"),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "babies",
        _("The Baby Turtle tokens"),
        (
            Step(
                _(
                    "The Turtle's First steps (1 lunar point) uses one face-up Baby Turtle "
                    "token. Double: two actions on one space this turn. Small and Medium: that "
                    "tree from your player board to your available area. Harvest: collect a "
                    "large tree without light points. Light: 3 light points. Seed: plant a seed "
                    "on any empty space for free. Scoring: 3 points at the end. Rich soil: your "
                    "next collect takes a token of one more leaf. You have Light, Harvest and "
                    "Scoring, 1 lunar point and no light points."
                ),
                _("Score the most points with your lunar point."),
                cache(_babies_position),
                _score,
                ("C3",),
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "elder",
        _("The Great Elder Tree"),
        (
            Step(
                _(
                    "The Great Elder Tree stands on the board from the start (the last player "
                    "places it during setup, on any empty space). Its shadow runs to the edge "
                    "of the board whatever the size of the trees behind it; it is never in a "
                    "shadow and never collects. It also stops the moonlight along a beam. The "
                    "picture shows next round's sun and shadows."
                ),
                _("Grow the small tree that will be in the light next round."),
                cache(_elder),
                _light_next,
                ("D7", "D3", "E4"),
                preview=True,
            ),
        ),
        expansion=True,
    ),
    Lesson(
        "moonstones",
        _("The moonstones"),
        (
            Step(
                _(
                    "With two players, three moonstones are placed during setup. A moonstone "
                    "on a beam of moonlight shines, and so does one next to a shining "
                    "moonstone: an animal next to a shining moonstone gets lunar points as if "
                    "it stood in the moonlight. A moonstone's shadow is 1 space long and "
                    "shades only small trees. No animal may step onto one."
                ),
                _("Move your Owl where it gets lunar points at the next photosynthesis."),
                cache(_moonstones),
                _moonlit,
                ("D3", "C4"),
                preview=True,
            ),
        ),
        expansion=True,
    ),
)

#: Every lesson, in order (the expansion's after the base game's).
LESSONS: tuple[Lesson, ...] = BASE + EXPANSION
