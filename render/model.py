"""What the picture shows, read from a game state.

The position comes from ``state.to_dict()`` (the stable position format) and everything that
needs the rules (shadows, prices, scores, light) is asked of the engine; render holds no rule
logic of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import engine
from engine import moon
from engine import moonlight as ml
from engine.game import setup_kind

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
    setup_kind: str | None = None  # the current setup decision ("tree", "animal", ...)
    moon: MoonView | None = None  # Under the Moonlight, when any of its modes is on


@dataclass(frozen=True)
class AnimalView:
    """An animal on the board."""

    seat: int
    animal: str  # name, e.g. "fox"
    space: int
    lit: bool  # it would get lunar points now


@dataclass(frozen=True)
class MoonSeatView:
    """The expansion's part of one seat's panel."""

    animal: str | None  # None: no animal (Cynthia) or not chosen yet
    choosing: bool  # two animals dealt, none kept yet
    abilities: tuple[tuple[str, bool], ...]  # (ability with its cost, used this turn)
    babies: tuple[str, ...]  # face-up Baby Turtle tokens in the available area, by title
    scoring: int  # Scoring tokens used
    rich: int  # Rich soil pending
    parts: tuple[tuple[str, int], ...]  # final score parts, once the game is over


@dataclass(frozen=True)
class MoonView:
    """Everything Under the Moonlight adds to the picture.

    Face-down Baby Turtle tokens are hidden information: only their spaces are read.
    """

    rows: bool  # the panels have the lunar and animal rows (Moon and Forest Animals mode)
    gap: int  # the moon's gap, -1 without the moon
    full: bool
    next_gap: int
    next_full: bool
    beams: tuple[tuple[int, ...], ...]  # the lit part of each beam, from the border inward
    blocked: tuple[bool, ...]  # the beam stops at the Great Elder Tree
    lit: int  # mask of the spaces where an animal gets lunar points
    shining: int  # mask of the shining moonstones
    elder: int  # -1: none
    stones: int  # mask
    dam: tuple[int, ...]  # the Dam's three spaces (empty while not built)
    river: bool  # draw the river (the Beaver is in play)
    beaches: bool  # draw the beaches (the Turtle is in play)
    face_down: tuple[int, ...]  # spaces holding a face-down Baby Turtle token
    animals: tuple[AnimalView, ...]
    seats: tuple[MoonSeatView, ...]


#: Names of the abilities in the panels (the engine's titles are the rules' full names).
ABILITY_SHORT = {
    "dig": "Digging",
    "run": "Running",
    "plant": "Planting",
    "eat": "Eating",
    "scare": "Scaring",
    "scratch": "Scratching",
    "steal": "Stealing",
    "hunt": "Hunting",
    "grow": "Growing",
    "dam": "Dam",
    "improve": "Improving",
    "hatch": "Hatching",
    "baby": "First steps",
}


def _ability_costs(word: str) -> str:
    if word in ml.LEVEL_COSTS:
        return "/".join(str(c) for c in ml.LEVEL_COSTS[word][1:])
    if word == "eat":
        return f"{ml.EAT_COST[1]}-{ml.EAT_COST[-1]}"
    return str(ml.FLAT_COSTS[word])


def _abilities(state, seat: int, animal: int) -> tuple[tuple[str, bool], ...]:
    ext = state.ext
    out = []
    if animal == ml.SQUIRREL:
        out.append(("2 steps", False))
    for word, (owner, _) in ml.ABILITIES.items():
        if owner == animal:
            used = seat == state.current_seat and bool(ext.used & ml.ABILITY_BIT[word])
            out.append((f"{ABILITY_SHORT[word]} {_ability_costs(word)}", used))
    return tuple(out)


def moon_view(state, over: bool) -> MoonView:
    """Read ``state.ext`` (the expansion) into a ``MoonView``."""
    ext = state.ext
    cfg = state.config
    gap = ext.moon
    beams: list[tuple[int, ...]] = []
    blocked: list[bool] = []
    direct = 0
    if gap >= 0:
        direct = moon.lit_by_beams(gap, ext.elder)
        for beam in moon.BEAMS[gap]:
            lit_part = []
            for i in beam:
                if not direct >> i & 1:
                    break
                lit_part.append(i)
            beams.append(tuple(lit_part))
            blocked.append(len(lit_part) < len(beam))
    nxt = ml.tracker(state)
    lit = ml.moonlit_spaces(state)
    in_play = {a for a in ext.animal if a >= 0}
    animals = tuple(
        AnimalView(seat, ml.ANIMALS[a], space, bool(lit >> space & 1))
        for seat, (a, space) in enumerate(zip(ext.animal, ext.at, strict=False))
        if a >= 0 and space >= 0
    )
    seats = []
    for k, seat_state in enumerate(state.seats):
        a = ext.animal[k] if k < len(ext.animal) else -1
        parts = ()
        if over:
            parts = tuple((name, int(v)) for name, v in engine.score_parts(state, k).items())
        seats.append(
            MoonSeatView(
                animal=None if a < 0 else ml.ANIMALS[a],
                choosing=a < 0 and bool(ext.dealt[k]) and seat_state.kind != "cynthia",
                abilities=() if a < 0 else _abilities(state, k, a),
                babies=tuple(ml.BABY_TITLES[t] for t in ext.babies[k]),
                scoring=int(ext.scoring[k]),
                rich=int(ext.rich[k]),
                parts=parts,
            )
        )
    return MoonView(
        rows=bool(cfg.moon_animals),
        gap=gap,
        full=bool(ext.full),
        next_gap=-1 if nxt is None else nxt[0],
        next_full=False if nxt is None else bool(nxt[1]),
        beams=tuple(beams),
        blocked=tuple(blocked),
        lit=lit,
        shining=moon.shining(direct, ext.stones) if gap >= 0 else 0,
        elder=ext.elder,
        stones=ext.stones,
        dam=moon.DAM[ext.dam] if ext.dam >= 0 else (),
        river=ml.BEAVER in in_play or ext.dam >= 0,
        beaches=ml.TURTLE in in_play or bool(ext.beach),
        face_down=tuple(i for i, _token in ext.beach),
        animals=animals,
        seats=tuple(seats),
    )


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
        setup_kind=setup_kind(state) if d["phase"] == "setup" else None,
        moon=None if state.ext is None else moon_view(state, d["phase"] == "over"),
    )
