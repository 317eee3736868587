"""What the picture shows, read from a game state.

The position comes from ``state.to_dict()`` (the stable position format) and everything that
needs the rules (shadows, prices, scores, light) is asked of the engine; render holds no rule
logic of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import engine

PIECES = ("seed", "small", "medium", "large")


@dataclass(frozen=True)
class SeatView:
    """One seat's panel."""

    index: int
    name: str
    kind: str
    light: int
    lunar: int
    available: tuple[int, int, int, int]
    store: tuple[int, int, int, int]
    prices: tuple[int | None, int | None, int | None, int | None]
    tokens: tuple[tuple[int, int], ...]
    score: int
    gain: int | None  # light under the previewed sun, when previewing

    @property
    def is_cynthia(self) -> bool:
        return self.kind == "cynthia"


@dataclass(frozen=True)
class View:
    """Everything drawn for one position."""

    pieces: dict[str, tuple[int, int]]  # label -> (seat, size)
    shadows: tuple[int, ...]  # per space index: height of the tallest shadow (0 none)
    sun: int  # the current sun
    shadow_sun: int  # the sun whose shadows are drawn
    preview: bool
    phase: str
    round: int
    revolution: int
    revolutions: int
    current_seat: int | None
    first_seat: int
    seats: tuple[SeatView, ...]
    piles: dict[int, tuple[int, ...]]
    highlight: tuple[str, ...]
    viewer_seat: int | None
    winners: tuple[int, ...]  # best seats once the game is over


def seat_names(kinds: Sequence[str], names: Sequence[str] | None) -> list[str]:
    """Display names: the given ones, else "Seat N" for humans and "Cynthia" for the automa."""
    out = []
    n_cynthia = sum(1 for k in kinds if k == "cynthia")
    c = 0
    for i, kind in enumerate(kinds):
        given = names[i] if names is not None and i < len(names) and names[i] else None
        if given:
            out.append(str(given))
        elif kind == "cynthia":
            c += 1
            out.append("Cynthia" if n_cynthia == 1 else f"Cynthia {c}")
        else:
            out.append(f"Seat {i + 1}")
    return out


def view(
    state,
    *,
    highlight: Sequence[str] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> View:
    """Read a game state into a ``View``."""
    d = state.to_dict()
    shadow_sun = d["sun"] if preview_sun is None else int(preview_sun) % 6
    shadows = tuple(engine.shadow_map(state, shadow_sun))
    scores = engine.scores(state)
    gains = engine.light_for_sun(state, shadow_sun) if preview_sun is not None else None
    kinds = [s["kind"] for s in d["seats"]]
    display = seat_names(kinds, names)
    seats = []
    for i, s in enumerate(d["seats"]):
        seats.append(
            SeatView(
                index=i,
                name=display[i],
                kind=s["kind"],
                light=int(s["light"]),
                lunar=int(s.get("lunar", 0)),
                available=tuple(int(s["available"].get(p, 0)) for p in PIECES),
                store=tuple(int(s["store"].get(p, 0)) for p in PIECES),
                prices=tuple(engine.next_price(state, i, size) for size in range(4)),
                tokens=tuple((int(a), int(b)) for a, b in s.get("tokens", ())),
                score=int(scores[i]),
                gain=None if gains is None else int(gains[i]),
            )
        )
    pieces = {label: (int(p["seat"]), int(p["size"])) for label, p in d["board"].items()}
    piles = {int(k): tuple(v) for k, v in d["piles"].items()}
    return View(
        pieces=pieces,
        shadows=shadows,
        sun=int(d["sun"]),
        shadow_sun=shadow_sun,
        preview=preview_sun is not None,
        phase=d["phase"],
        round=int(d["round"]),
        revolution=int(d["revolution"]),
        revolutions=int(d["config"].get("revolutions", 3)),
        current_seat=d["current_seat"],
        first_seat=int(d.get("first_seat", 0)),
        seats=tuple(seats),
        piles=piles,
        highlight=tuple(h.strip().upper() for h in highlight),
        viewer_seat=viewer_seat,
        winners=tuple(engine.winners(state)) if d["phase"] == "over" else (),
    )
