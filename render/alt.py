"""Alt text of a board picture: the position in a few sentences (Discord allows 1,024 characters
for an attachment's description), read from the same ``View`` the picture is drawn from."""

from __future__ import annotations

from collections.abc import Sequence

from engine import GameState
from engine.geometry import LABELS, SUN_CORNER_NAMES
from engine.moon import BORDER, FULL, HALF, N_GAPS, PHASE_TITLES
from engine.moonlight.names import ANIMAL_INDEX, ANIMAL_NAMES
from translation import Text, _, _n, _p, isolate, join, translate

from . import palette as P
from .model import MoonView, View, view

#: Discord's limit for an attachment's description.
ALT_TEXT_LIMIT = 1024
SIZE_WORDS = (_p("size", "seed"), _p("size", "small"), _p("size", "medium"), _p("size", "large"))
#: The seats' colours by seat, as the alt text and the game message name them (one word for
#: both: the first seat's vermillion is "orange", as its swatch).
SEAT_COLOURS = (
    _p("colour", "orange"),
    _p("colour", "blue"),
    _p("colour", "yellow"),
    _p("colour", "purple"),
)
MARK_WORDS = {
    "circle": _p("mark", "circle"),
    "square": _p("mark", "square"),
    "triangle": _p("mark", "triangle"),
    "diamond": _p("mark", "diamond"),
}


def _pieces_of(v: View, seat: int, detailed: bool) -> str:
    by_size: dict[int, list[str]] = {}
    for label, (owner, size) in v.pieces.items():
        if owner == seat:
            by_size.setdefault(size, []).append(label)
    if not by_size:
        return _("nothing on the board")
    parts = []
    for size in (3, 2, 1, 0):
        labels = sorted(by_size.get(size, ()))
        if labels:
            word = SIZE_WORDS[size]
            if detailed:
                parts.append(_("{size} {spaces}", size=word, spaces=" ".join(labels)))
            else:
                parts.append(_("{n} {size}", n=len(labels), size=word))
    return join(parts, ", ")


def describe(v: View, detailed: bool = True) -> str:
    """The alt text of a ``View`` in its language; ``detailed`` lists every piece's space."""
    lang = v.lang
    out = []
    if v.phase == "setup":
        out.append(_("Photosynthesis board during setup."))
    else:
        out.append(
            _(
                "Photosynthesis board, round {round} of {rounds} (revolution {revolution} of "
                "{revolutions}).",
                round=v.round,
                rounds=v.revolutions * 6,
                revolution=v.revolution,
                revolutions=v.revolutions,
            )
        )
    sun = SUN_CORNER_NAMES[v.shadow_sun]
    if v.preview:
        out.append(_("Preview of the next photosynthesis: sun at {corner}.", corner=sun))
    else:
        out.append(_("Sun at {corner}.", corner=sun))
    if v.phase == "over":
        win = [isolate(s.name, lang) for s in v.seats if s.index in v.winners]
        if len(win) > 1:
            out.append(_("Game over, won by {names} and {last}.", names=", ".join(win[:-1]),
                         last=win[-1]))  # fmt: skip
        elif win:
            out.append(_("Game over, won by {name}.", name=win[0]))
        else:
            out.append(_("Game over."))
    elif v.abandoned:
        out.append(_("The game was abandoned."))
    elif v.current_seat is not None:
        out.append(_("{name} to play.", name=isolate(v.seats[v.current_seat].name, lang)))
    mv = v.moon
    if mv is not None and mv.gap >= 0:
        phase = PHASE_TITLES[FULL if mv.full else HALF]
        where = _gap_labels(mv.gap)
        if v.preview:
            out.append(_("{phase} Moon next between {spaces}.", phase=phase, spaces=where))
        else:
            out.append(_("{phase} Moon between {spaces}.", phase=phase, spaces=where))
    for s in v.seats:
        colour = SEAT_COLOURS[s.index % len(SEAT_COLOURS)]
        mark = _("{colour} {mark}", colour=colour,
                 mark=MARK_WORDS.get(P.seat_mark(s.index), P.seat_mark(s.index)))  # fmt: skip
        extra = []
        if s.gain is not None:
            extra.append(_(" (+{gain} next)", gain=s.gain))
        if mv is not None and mv.rows and not s.is_cynthia:
            extra.append(_(", {lunar} lunar", lunar=s.lunar))
            animal = mv.seats[s.index].animal
            if animal:
                index = ANIMAL_INDEX.get(animal)
                name = ANIMAL_NAMES[index] if index is not None else animal
                at = [a.space for a in mv.animals if a.seat == s.index]
                if at:  # where it stands (a kept one in hand is seen by its seat only)
                    extra.append(_(", {animal} on {space}", animal=name, space=LABELS[at[0]]))
                else:
                    extra.append(_(", {animal}", animal=name))
        line = _n(
            "{name} ({mark}): {n} point, {light} light{extra}; {pieces}.",
            "{name} ({mark}): {n} points, {light} light{extra}; {pieces}.",
            s.score,
            name=isolate(s.name, lang),
            mark=mark,
            light=s.light,
            extra=join(extra, ""),
            pieces=_pieces_of(v, s.index, detailed),
        )
        out.append(line)
    if mv is not None:
        out += _where(mv)
    if mv is not None and mv.elder >= 0:
        out.append(_("Great Elder Tree on {space}.", space=LABELS[mv.elder]))
    if mv is not None and mv.stones:
        stones = " ".join(LABELS[i] for i in range(len(LABELS)) if mv.stones >> i & 1)
        shining = " ".join(LABELS[i] for i in range(len(LABELS)) if mv.shining >> i & 1)
        if shining:
            out.append(_("Moonstones on {spaces} (shining: {shining}).", spaces=stones,
                         shining=shining))  # fmt: skip
        else:
            out.append(_("Moonstones on {spaces}.", spaces=stones))
    if v.highlight:
        out.append(_("Outlined: {spaces}.", spaces=" ".join(v.highlight)))
    if v.marks:
        out.append(_("Marked in gold: {spaces}.", spaces=" ".join(v.marks)))
    return translate(join(out), lang)


def _spaces(mask: int | Sequence[int]) -> str:
    """Space labels in board order, of a mask or of space indices."""
    if isinstance(mask, int):
        return " ".join(LABELS[i] for i in range(len(LABELS)) if mask >> i & 1)
    return " ".join(LABELS[i] for i in sorted(mask))


def _where(mv: MoonView) -> list[Text]:
    """Where the expansion's things are that the picture draws: the moonlight (where an
    animal gets lunar points), a beam the Great Elder Tree stops, the Dam, the face-down
    Baby Turtle tokens on the beaches."""
    out = []
    if mv.gap >= 0 and mv.lit:
        out.append(_("Moonlight on {spaces}.", spaces=_spaces(mv.lit)))
    if any(mv.blocked):
        out.append(_("The Great Elder Tree stops a beam."))
    if mv.dam:
        out.append(_("The Dam on {spaces}.", spaces=_spaces(mv.dam)))
    if mv.face_down:
        out.append(_("Face-down Baby Turtle tokens on {spaces}.", spaces=_spaces(mv.face_down)))
    return out


def _gap_labels(gap: int) -> str:
    return _("{first} and {second}", first=LABELS[BORDER[gap]],
             second=LABELS[BORDER[(gap + 1) % N_GAPS]])  # fmt: skip


def alt_text(
    state: GameState,
    *,
    highlight: Sequence[str | tuple[int, str]] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str | None] | None = None,
    lang: str | None = None,
    marks: Sequence[str] = (),
    abandoned: bool = False,
) -> str:
    """A concise description of the picture ``board_png`` draws with the same arguments, at
    most 1,024 characters (the spaces of every piece when they fit, else counts by size)."""
    v = view(
        state,
        highlight=highlight,
        preview_sun=preview_sun,
        viewer_seat=viewer_seat,
        names=names,
        lang=lang,
        marks=marks,
        drawn_names=False,
        abandoned=abandoned,
    )
    return text_of(v)


def text_of(v: View) -> str:
    """The alt text of a ``View``, within Discord's limit."""
    text = describe(v, detailed=True)
    if len(text) > ALT_TEXT_LIMIT:
        text = describe(v, detailed=False)
    if len(text) > ALT_TEXT_LIMIT:
        text = text[: ALT_TEXT_LIMIT - 1].rstrip() + "…"
    return text
