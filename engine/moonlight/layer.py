"""Under the Moonlight as a rule layer on the base core: its hooks (obstacles and their shade,
the moon's move and light, Rich soil, the Double token, fresh seeds, the end score), its verbs,
its position format and its hidden information."""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from translation import _, _p, join

from .. import game as G
from ..actions import UNDOABLE, Action, Args, register_notation
from ..config import Config
from ..geometry import LABELS, bits
from ..layers import NO_SHADE, Check, Layer, LegalPlay, Perform, PositionData, Verb, register
from ..light import FULL_RAY_MASK, SHADOW_MASK
from ..moon import PHASE_TITLES, moonlit, next_moon
from ..pieces import LUNAR_CAP
from ..state import PLAY, SETUP, GameState
from . import setup
from .abilities import check_use, do_use, format_use, parse_use
from .animals import check_move, do_move, legal_animal_play, one_label_parser, parse_animal
from .ext import Moonlight, ext_from_dict, gap_words, replace_at, tracker
from .names import (
    ANIMAL_NAMES,
    ANIMALS,
    BABIES,
    DOUBLE_READY,
    DOUBLE_SPENT,
    LANGUAGE_VERBS,
    NO_DOUBLE,
    SCORING_POINTS,
)


@lru_cache(maxsize=4096)
def _obstacle_shade(elder: int, stones: int, sun: int) -> tuple[int, int, int, int]:
    s3 = FULL_RAY_MASK[sun][elder] if elder >= 0 else 0
    s1 = 0
    table = SHADOW_MASK[sun]
    for i in bits(stones):
        s1 |= table[i][1]
    return (0, s1, 0, s3)


_TURN_FIELDS = 4  # used, steps, double, fresh: the last fields of Moonlight
_NO_TURN = (0, 0, NO_DOUBLE, 0)
_SPACE_VERBS = frozenset(("plant", "grow", "collect"))


def _reused(state: GameState, a: Action) -> int:
    """Spaces of a plant/grow/collect already activated this turn."""
    m = 0
    for i in a.args:
        m |= 1 << i
    return m & state.activated


PLAY_VERBS = (
    Verb("move", check_move, do_move, undoable=True),
    Verb("use", check_use, do_use),
)
UNDOABLE.update(v.name for v in (*setup.VERBS, *PLAY_VERBS) if v.undoable)
FOREST = _("Under the Moonlight's forest animals")
ELDER = _("Under the Moonlight's Great Elder Tree")
STONES = _("Under the Moonlight's moonstones")
register_notation(
    "animal",
    lambda a: f"animal {ANIMALS[a[0]]}",
    parse_animal,
    ("animal", "keep"),
    owner=FOREST,
    language_words=LANGUAGE_VERBS["animal"],
)
for verb, what, usage, words, owner in (
    (
        "settle",
        _("an animal's placement"),
        _p("notation example", "settle C4"),
        ("settle",),
        FOREST,
    ),
    (
        "elder",
        _("the Great Elder Tree's placement"),
        _p("notation example", "elder D4"),
        ("elder",),
        ELDER,
    ),
    (
        "moonstone",
        _("a moonstone's placement"),
        _p("notation example", "moonstone C2"),
        ("moonstone", "stone"),
        STONES,
    ),
    (
        "move",
        _("an animal's step"),
        _p("notation example", "move C3"),
        ("move", "m", "step"),
        FOREST,
    ),
):

    def _format(a: Args, verb: str = verb) -> str:
        return f"{verb} {LABELS[a[0]]}"

    register_notation(
        verb,
        _format,
        one_label_parser(what, usage),
        words,
        arg_kinds=("space",),
        owner=owner,
        language_words=LANGUAGE_VERBS[verb],
    )
register_notation(
    "use", format_use, parse_use, ("use", "u"), owner=FOREST, language_words=LANGUAGE_VERBS["use"]
)


@register
class MoonlightLayer(Layer):
    """Under the Moonlight (any of its three modes) as a rule layer."""

    name = "moonlight"

    @classmethod
    def applies(cls, config: Config) -> bool:
        return config.expansion

    # -- setup

    def init(self, s: GameState) -> None:
        setup.init(s)

    def setup_steps(self, config: Config) -> tuple[tuple[int, str], ...]:
        return setup.setup_schedule(config)

    # -- the board

    def obstacles(self, state: GameState) -> int:
        ext: Moonlight = state.ext
        return ext.obstacles

    def obstacle_name(self, state: GameState, space: int) -> str | None:
        ext: Moonlight = state.ext
        if space == ext.elder:
            return _("the Great Elder Tree")
        return _("a moonstone") if ext.stones >> space & 1 else None

    def extra_trees(self, state: GameState) -> int:
        elder: int = state.ext.elder
        return 0 if elder < 0 else 1 << elder

    def extra_shade(self, state: GameState, sun: int) -> tuple[int, int, int, int]:
        """Sun shade of the Great Elder Tree (every space behind it, all sizes) and the
        moonstones (one space, small trees only)."""
        ext = state.ext
        if not ext.obstacles:
            return NO_SHADE
        return _obstacle_shade(ext.elder, ext.stones, sun)

    # -- verbs

    def verbs(self) -> tuple[Verb, ...]:
        """Only the verbs of the modes in play: a game without animals knows no ``move``."""
        cfg = self.config
        modes = {
            "animal": cfg.moon_animals,
            "settle": cfg.moon_animals,
            "move": cfg.moon_animals,
            "use": cfg.moon_animals,
            "elder": cfg.elder_tree,
            "moonstone": cfg.moonstones,
        }
        return tuple(v for v in (*setup.VERBS, *PLAY_VERBS) if modes[v.name])

    def check(self, inner: Check, state: GameState, action: Action) -> str | None:
        """Setup order, fresh seeds, the Double token."""
        verb = action.verb
        if state.phase == SETUP:
            kind = G.setup_kind(state)
            if kind != "tree" and verb != kind:
                return setup.setup_hint(state)
            return inner(state, action)
        if verb in _SPACE_VERBS and state.phase == PLAY:
            ext = state.ext
            space = action.args[0]
            own = state.cells[space] >= 0 and state.cells[space] >> 2 == state.current_seat
            if verb == "grow" and own and ext.fresh >> space & 1:
                return _(
                    "The seed on {space} was placed by an animal or a Baby Turtle this turn and cannot grow until your next turn.",
                    space=LABELS[space],
                )
            if ext.double == DOUBLE_READY:
                reused = _reused(state, action)
                if reused and reused.bit_count() == 1:
                    tmp = state.copy()
                    tmp.activated &= ~reused
                    return inner(tmp, action)
        return inner(state, action)

    def perform(self, inner: Perform, state: GameState, action: Action) -> GameState:
        """A second action on a space uses the ready Double."""
        if action.verb in _SPACE_VERBS and state.ext.double == DOUBLE_READY:
            reused = _reused(state, action)
            if reused:
                tmp = state.copy()
                tmp.activated &= ~reused
                s = inner(tmp, action)
                s.activated |= state.activated
                s.ext = s.ext._replace(double=DOUBLE_SPENT)
                return s
        return inner(state, action)

    def legal_play(self, state: GameState, out: list[Action], below: LegalPlay) -> list[Action]:
        ext = state.ext
        if ext.fresh:
            fresh = ext.fresh
            out = [a for a in out if not (a.verb == "grow" and fresh >> a.args[0] & 1)]
        if ext.double == DOUBLE_READY and state.activated:
            tmp = state.copy()
            tmp.activated = 0
            for a in below(tmp):
                if a.verb not in _SPACE_VERBS or (a.verb == "grow" and ext.fresh >> a.args[0] & 1):
                    continue
                if _reused(state, a).bit_count() == 1:
                    out.append(a)
        if ext.at and ext.at[state.current_seat] >= 0:
            out.extend(legal_animal_play(state))
        return out

    # -- the turn, the round, the game

    def end_turn(self, s: GameState) -> None:
        """The turn's ability uses, steps, Double token and fresh seeds end with it."""
        ext = s.ext
        if ext[-_TURN_FIELDS:] != _NO_TURN:
            s.ext = tuple.__new__(Moonlight, ext[:-_TURN_FIELDS] + _NO_TURN)

    def new_round(self, s: GameState) -> None:
        """The moon moves 5 gaps counter-clockwise as the sun moves (``s.sun`` has moved)."""
        ext = s.ext
        if ext.moon < 0:
            return
        gap, full = next_moon(ext.moon, ext.full, (s.sun - 1) % 6)
        s.ext = ext._replace(moon=gap, full=full)
        if full != ext.full:
            text = _("The moon moves to {gap} and turns: {phase} Moon.", gap=gap_words(gap),
                     phase=PHASE_TITLES[full])  # fmt: skip
        else:
            text = _("The moon moves to {gap}: {phase} Moon.", gap=gap_words(gap),
                     phase=PHASE_TITLES[full])  # fmt: skip
        s.events = (*s.events, text)

    def photosynthesis(self, s: GameState) -> None:
        """Lunar points: each lit animal gives its seat 1 (Half Moon) or 2 (Full Moon), cap 14."""
        ext = s.ext
        if ext.moon < 0 or not any(i >= 0 for i in ext.at):
            return
        lit = moonlit(ext.moon, ext.elder, ext.stones)
        gain = 2 if ext.full else 1
        seats = list(s.seats)
        parts = []
        for seat, space in enumerate(ext.at):
            if space >= 0 and lit >> space & 1:
                seat_state = seats[seat].copy()
                seat_state.lunar = min(LUNAR_CAP, seat_state.lunar + gain)
                seats[seat] = seat_state
                parts.append(
                    _(
                        "seat {seat}'s {animal} +{gain}",
                        seat=seat + 1,
                        animal=ANIMAL_NAMES[ext.animal[seat]],
                        gain=gain,
                    )  # fmt: skip
                )
        s.seats = tuple(seats)
        got = join(parts, ", ") if parts else _("no animal is lit")
        s.events = (
            *s.events,
            _(
                "Moonlight ({phase} Moon at {gap}): {got}.",
                phase=PHASE_TITLES[ext.full],
                gap=gap_words(ext.moon),
                got=got,
            ),  # fmt: skip
        )

    def collect_leaves(self, s: GameState, seat: int, leaves: int) -> int:
        """Rich soil: a pending token makes this collect score one more leaf (4 stays 4); it is
        used up on the state being built."""
        ext = s.ext
        if ext.rich and ext.rich[seat]:
            s.ext = ext._replace(rich=replace_at(ext.rich, seat, ext.rich[seat] - 1))
            return min(4, leaves + 1)
        return leaves

    def score_parts(self, state: GameState, seat: int, parts: dict[str, int]) -> None:
        """One point per unused lunar point; 3 per used Scoring Baby Turtle (animal seats)."""
        if not state.config.moon_animals or G.seat_rules(state, seat).automa:
            return
        parts["lunar"] = state.seats[seat].lunar
        parts["baby turtle"] = SCORING_POINTS * state.ext.scoring[seat]

    # -- the position format and hidden information

    def to_dict(self, state: GameState, d: PositionData) -> None:
        d["moonlight"] = state.ext.to_dict()

    def from_dict(self, d: PositionData, s: GameState) -> None:
        s.ext = ext_from_dict(d["moonlight"])

    def hidden(self, config: Config) -> dict[str, str]:
        if not config.moon_animals:
            return {}
        return {
            "moonlight.seats.dealt": _("the two animals dealt to each other seat"),
            "moonlight.beach": _("which Baby Turtle token lies face down on each beach"),
        }

    def observe(self, state: GameState, seat: int | None, d: PositionData) -> None:
        ml = d["moonlight"]
        ml["beach"] = sorted(ml["beach"])  # the spaces only: the tokens lie face down
        for k, x in enumerate(ml["seats"]):
            if k != seat:
                x["dealt"] = []
                if x["space"] is None:
                    x["animal"] = None  # kept in hand until it is placed

    def observe_action(self, seen: PositionData, actor: int, action: str) -> str | None:
        verb = action.split(" ", 1)[0]
        if verb == "animal" and seen["moonlight"]["seats"][actor]["animal"] is None:
            return "animal ?"  # kept in hand: which one shows when it is placed
        return None

    def text_marks(self, state: GameState) -> dict[int, str]:
        ext: Moonlight = state.ext
        return ext.text_marks()

    def status_lines(self, state: GameState) -> list[str]:
        """The moon, each seat's animal on the board, face-up Baby Turtles; and the hand of the
        seat to act (its dealt or kept animal), which only that seat may see."""
        ext: Moonlight = state.ext
        lines: list[str] = []
        if ext.moon >= 0:
            nxt = cast(tuple[int, bool], tracker(state))  # the moon is in play
            lines.append(
                _(
                    "Moon at gap {gap} ({phase}); next: gap {next_gap} ({next_phase})",
                    gap=ext.moon,
                    phase=PHASE_TITLES[ext.full],
                    next_gap=nxt[0],
                    next_phase=PHASE_TITLES[nxt[1]],
                )  # fmt: skip
            )
        for seat in range(len(state.seats)):
            parts: list[str] = []
            if ext.animal and ext.animal[seat] >= 0 and ext.at[seat] >= 0:
                parts.append(
                    _(
                        "{animal} on {space}",
                        animal=ANIMAL_NAMES[ext.animal[seat]],
                        space=LABELS[ext.at[seat]],
                    )  # fmt: skip
                )
            elif seat == state.current_seat and ext.dealt and ext.dealt[seat]:
                # Only the seat to act: its own hand (the hot-seat terminal shows it to them).
                mine = ext.animal[seat]
                if mine >= 0:
                    parts.append(_("{animal} kept, not placed yet", animal=ANIMAL_NAMES[mine]))
                else:
                    first, second = (ANIMAL_NAMES[a] for a in ext.dealt[seat])
                    parts.append(_("dealt {first} and {second}", first=first, second=second))
            if ext.babies and ext.babies[seat]:
                babies = " ".join(BABIES[b] for b in ext.babies[seat])
                parts.append(_("baby turtles {babies}", babies=babies))
            if parts:
                lines.append(_("  seat {seat}: {parts}", seat=seat + 1, parts=join(parts, "; ")))
        return lines
