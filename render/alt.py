"""Alt text of a board picture: the position in a few sentences (Discord allows 1,024 characters
for an attachment's description), read from the same ``View`` the picture is drawn from."""

from __future__ import annotations

from collections.abc import Sequence

from engine.geometry import LABELS, SUN_CORNER_NAMES
from engine.moon import BORDER, N_GAPS

from . import palette as P
from .model import View, view

#: Discord's limit for an attachment's description.
ALT_TEXT_LIMIT = 1024
SIZE_WORDS = ("seed", "small", "medium", "large")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pieces_of(v: View, seat: int, detailed: bool) -> str:
    by_size: dict[int, list[str]] = {}
    for label, (owner, size) in v.pieces.items():
        if owner == seat:
            by_size.setdefault(size, []).append(label)
    if not by_size:
        return "nothing on the board"
    parts = []
    for size in (3, 2, 1, 0):
        labels = sorted(by_size.get(size, ()))
        if labels:
            word = SIZE_WORDS[size]
            if detailed:
                parts.append(f"{word} {' '.join(labels)}")
            else:
                parts.append(f"{len(labels)} {word}")
    return ", ".join(parts)


def describe(v: View, detailed: bool = True) -> str:
    """The alt text of a ``View``; ``detailed`` lists every piece's space."""
    out = []
    if v.phase == "setup":
        out.append("Photosynthesis board during setup.")
    else:
        out.append(
            f"Photosynthesis board, round {v.round} of {v.revolutions * 6} "
            f"(revolution {v.revolution} of {v.revolutions})."
        )
    sun = SUN_CORNER_NAMES[v.shadow_sun]
    if v.preview:
        out.append(f"Preview of the next photosynthesis: sun at {sun}.")
    else:
        out.append(f"Sun at {sun}.")
    if v.phase == "over":
        win = [s.name for s in v.seats if s.index in v.winners]
        out.append(f"Game over, won by {' and '.join(win)}." if win else "Game over.")
    elif v.current_seat is not None:
        out.append(f"{v.seats[v.current_seat].name} to play.")
    mv = v.moon
    if mv is not None and mv.gap >= 0:
        phase = "Full" if mv.full else "Half"
        where = _gap_labels(mv.gap)
        out.append(f"{phase} Moon {'next ' if v.preview else ''}between {where}.")
    for s in v.seats:
        mark = f"{P.SEAT_COLOUR_NAMES[s.index % 4]} {P.seat_mark(s.index)}"
        line = f"{s.name} ({mark}): {_plural(s.score, 'point')}, {s.light} light"
        if s.gain is not None:
            line += f" (+{s.gain} next)"
        if mv is not None and mv.rows and not s.is_cynthia:
            line += f", {s.lunar} lunar"
            animal = mv.seats[s.index].animal
            if animal:
                line += f", {animal}"
        line += f"; {_pieces_of(v, s.index, detailed)}."
        out.append(line)
    if mv is not None and mv.elder >= 0:
        out.append(f"Great Elder Tree on {LABELS[mv.elder]}.")
    if mv is not None and mv.stones:
        stones = [LABELS[i] for i in range(len(LABELS)) if mv.stones >> i & 1]
        shining = [LABELS[i] for i in range(len(LABELS)) if mv.shining >> i & 1]
        line = f"Moonstones on {' '.join(stones)}"
        out.append(line + (f" (shining: {' '.join(shining)})." if shining else "."))
    if v.highlight:
        out.append(f"Outlined: {' '.join(v.highlight)}.")
    return " ".join(out)


def _gap_labels(gap: int) -> str:
    return f"{LABELS[BORDER[gap]]} and {LABELS[BORDER[(gap + 1) % N_GAPS]]}"


def alt_text(
    state,
    *,
    highlight: Sequence = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
    lang: str | None = None,
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
