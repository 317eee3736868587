"""What the picture shows, read from a game state through the engine's public API.

The position comes from ``engine.observation(state, viewer)`` (what that person may see: no
hidden animals, no face-down Baby Turtle token), and everything that needs the rules (shadows,
prices, scores, light, the moon's path) is asked of the engine or its geometry; render decides
no rule of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine import GameState, moon
from engine import moonlight as ml
from engine.config import SeatKind
from engine.geometry import LABEL_INDEX, LABELS
from engine.pieces import LIGHT_CAP, LUNAR_CAP
from engine.state import Phase
from translation import _, is_right_to_left, translate

from .fonts import RLM, clean

PIECES = ("seed", "small", "medium", "large")
#: A space label inside a notation ("grow D4", "plant B2 C3", "use dig E5").
_LABEL = re.compile(r"\b([A-Ga-g][1-7])\b")
#: The automa's names as the bot gives them, in English: "Cynthia", "Cynthia 2".
_CYNTHIA = re.compile(r"Cynthia(?: ([0-9]+))?")


@dataclass(frozen=True)
class SeatView:
    """One seat's card."""

    index: int
    name: str
    kind: SeatKind
    light: int
    lunar: int
    available: tuple[int, ...]  # by size, seed to large
    store: tuple[int, ...]
    prices: tuple[int | None, ...]
    tokens: tuple[tuple[int, int], ...]
    score: int
    gain: int | None  # light under the previewed sun, when previewing
    lunar_gain: int | None = None  # lunar points at the previewed photosynthesis

    @property
    def is_cynthia(self) -> bool:
        return self.kind == "cynthia"


@dataclass(frozen=True)
class AnimalView:
    """An animal on the board."""

    seat: int
    animal: str  # name, e.g. "fox"
    space: int
    lit: bool  # it would get lunar points with the moon drawn


@dataclass(frozen=True)
class MoonSeatView:
    """The expansion's part of one seat's card."""

    animal: str | None  # None: no animal (Cynthia), or one not yet on the board
    choosing: bool  # animals dealt, none kept yet
    abilities: tuple[tuple[str, bool], ...]  # (ability name, used this turn)
    babies: tuple[str, ...]  # face-up Baby Turtle tokens in the available area, by title
    scoring: int  # Scoring tokens used
    rich: int  # Rich soil pending
    parts: tuple[tuple[str, int], ...]  # final score parts, once the game is over


@dataclass(frozen=True)
class MoonView:
    """Everything Under the Moonlight adds to the picture.

    Face-down Baby Turtle tokens are hidden information: only their spaces are known here.
    """

    rows: bool  # the cards have the animal row (Moon and Forest Animals mode)
    gap: int  # the moon's gap as drawn (at the next photosynthesis in a preview), -1 without
    full: bool
    next_gap: int  # where the tracker says it goes next (-1: nowhere)
    next_full: bool
    now_gap: int  # where it stands now
    now_full: bool
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


@dataclass(frozen=True)
class View:
    """Everything drawn for one position."""

    pieces: dict[str, tuple[int, int]]  # label -> (seat, size)
    shadows: tuple[int, ...]  # per space index: height of the tallest shadow (0 none)
    sun: int  # the current sun
    shadow_sun: int  # the sun whose shadows are drawn
    preview: bool
    phase: Phase
    round: int
    revolution: int
    revolutions: int
    current_seat: int | None
    first_seat: int
    seats: tuple[SeatView, ...]
    piles: dict[int, tuple[int, ...]]
    unused_piles: tuple[int, ...]  # leaves of the piles not used in this game
    highlight: tuple[str, ...]
    viewer_seat: int | None
    winners: tuple[int, ...]  # best seats once the game is over
    setup_kind: str | None = None  # the current setup decision ("place", "animal", ...)
    moon: MoonView | None = None  # Under the Moonlight, when any of its modes is on
    light_cap: int = LIGHT_CAP
    lunar_cap: int = LUNAR_CAP
    lang: str | None = None  # the language of the picture's words (None: English)
    marks: tuple[str, ...] = ()  # spaces a lesson talks about (labels), ringed in the sun's gold
    abandoned: bool = False  # the game was abandoned: nobody is to play

    def t(self, text: str) -> str:
        """``text`` in the picture's language (``words``)."""
        return words(text, self.lang)


def words(text: str, lang: str | None) -> str:
    """``text`` (a ``translation.Text`` or a plain name) in ``lang``, for drawing: in a
    right-to-left language it starts with a right-to-left mark, so that ``render.text`` lays
    it out right to left (alt text uses ``translation.translate`` itself)."""
    out = translate(text, lang)
    return RLM + out if is_right_to_left(lang) and out else out


def _abilities(animal: str, used: Iterable[str], active: bool) -> tuple[tuple[str, bool], ...]:
    index = ml.ANIMALS.index(animal)
    used = set(used) if active else set()
    return tuple(
        (ml.ABILITY_RECORDS[word].card_name, word in used)
        for word, (owner, *_rest) in ml.ABILITIES.items()
        if owner == index
    )


def _beams(gap: int, elder: int) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...], int]:
    direct = moon.lit_by_beams(gap, elder)
    beams, blocked = [], []
    for beam in moon.BEAMS[gap]:
        lit_part = []
        for i in beam:
            if not direct >> i & 1:
                break
            lit_part.append(i)
        beams.append(tuple(lit_part))
        blocked.append(len(lit_part) < len(beam))
    return tuple(beams), tuple(blocked), direct


def moon_view(
    state: GameState, obs: dict[str, Any], preview: bool
) -> tuple[MoonView, tuple[int | None, ...]]:
    """The expansion's part of the picture, and each seat's lunar gain in a preview."""
    m = obs["moonlight"]
    now_gap = -1 if m["moon"] is None else int(m["moon"]["gap"])
    now_full = m["moon"] is not None and m["moon"]["phase"] == "full"
    elder = -1 if m["elder"] is None else LABEL_INDEX[m["elder"]]
    stones = sum(1 << LABEL_INDEX[x] for x in m["moonstones"])
    next_gap, next_full = -1, False
    if now_gap >= 0:
        next_gap, next_full = moon.next_moon(now_gap, now_full, int(obs["sun"]))
    gap, full = now_gap, now_full
    if preview and now_gap >= 0 and obs["phase"] == "play":
        # The next photosynthesis comes after the moon has moved (during setup it has not).
        gap, full = next_gap, next_full
    beams, blocked, direct = ((), (), 0) if gap < 0 else _beams(gap, elder)
    lit = moon.moonlit(gap, elder, stones) if gap >= 0 else 0
    seats_obs = m["seats"]
    at = [
        -1 if x["space"] is None or x["animal"] is None else LABEL_INDEX[x["space"]]
        for x in seats_obs
    ]
    animals = tuple(
        AnimalView(k, x["animal"], at[k], bool(lit >> at[k] & 1))
        for k, x in enumerate(seats_obs)
        if at[k] >= 0
    )
    in_play = {x["animal"] for x in seats_obs if x["animal"]}
    over = obs["phase"] == "over"
    seats = []
    gains: list[int | None] = []
    for k, x in enumerate(seats_obs):
        kind = obs["seats"][k]["kind"]
        animal = x["animal"] if at[k] >= 0 or k == obs.get("viewer") else None
        parts: tuple[tuple[str, int], ...] = ()
        if over:
            parts = tuple((name, int(v)) for name, v in engine.score_parts(state, k).items())
        seats.append(
            MoonSeatView(
                animal=animal,
                choosing=x["animal"] is None and kind != "cynthia" and obs["phase"] == "setup",
                abilities=()
                if animal is None
                else _abilities(animal, m["turn"]["used"], k == obs["current_seat"]),
                babies=tuple(ml.BABY_TITLES[ml.BABIES.index(t)] for t in x["babies"]),
                scoring=int(x["scoring"]),
                rich=int(x["rich"]),
                parts=parts,
            )
        )
        gain = None
        if preview and gap >= 0:
            lunar = int(obs["seats"][k].get("lunar", 0))
            lit_here = at[k] >= 0 and bool(lit >> at[k] & 1)
            gain = min(LUNAR_CAP - lunar, (2 if full else 1)) if lit_here else 0
        gains.append(gain)
    dam_gap = m["dam"]
    view = MoonView(
        rows=bool(obs["config"].get("moon_animals")),
        gap=gap,
        full=full,
        next_gap=next_gap,
        next_full=next_full,
        now_gap=now_gap,
        now_full=now_full,
        beams=beams,
        blocked=blocked,
        lit=lit,
        shining=moon.shining(direct, stones) if gap >= 0 else 0,
        elder=elder,
        stones=stones,
        dam=tuple(moon.DAM[dam_gap]) if dam_gap is not None else (),
        river="beaver" in in_play or dam_gap is not None,
        beaches="turtle" in in_play or bool(m["beach"]),
        face_down=tuple(sorted(LABEL_INDEX[label] for label in m["beach"])),
        animals=animals,
        seats=tuple(seats),
    )
    return view, tuple(gains)


def seat_names(
    kinds: Sequence[str],
    names: Sequence[str | None] | None,
    lang: str | None = None,
    drawn: bool = True,
) -> list[str]:
    """Display names: the given ones (without what no font draws), else "Seat N" for humans
    and "Cynthia" for the automa (in ``lang``). The automa's English names as given ("Cynthia",
    "Cynthia 2") are said in ``lang`` too: a Hebrew card heading said "Cynthia". ``drawn``:
    names as the picture draws them (``fonts.clean``: a symbol no font has as its stand-in);
    else as given (alt text: a screen reader says the emoji)."""
    out = []
    n_cynthia = sum(1 for k in kinds if k == "cynthia")
    c = 0
    for i, kind in enumerate(kinds):
        given = names[i] if names is not None and i < len(names) and names[i] else None
        if given:  # an Expert's or an autopilot's seat name is a Text: said in `lang`
            given = translate(given, lang)
            given = clean(given) if drawn else " ".join(given.split())
        else:
            given = ""
        if kind == "cynthia":
            c += 1
            automa = _CYNTHIA.fullmatch(given)
            if automa:
                name = _("Cynthia") if not automa[1] else _("Cynthia {n}", n=int(automa[1]))
                given = translate(name, lang)
        if given:
            out.append(given)
        elif kind == "cynthia":
            name = _("Cynthia") if n_cynthia == 1 else _("Cynthia {n}", n=c)
            out.append(translate(name, lang))
        else:
            out.append(translate(_("Seat {n}", n=i + 1), lang))
    return out


def highlight_spaces(
    highlight: Iterable[str | tuple[int, str]], animal_at: dict[int, str]
) -> tuple[str, ...]:
    """The spaces to outline: labels, or the spaces named by notations; a notation given with
    its seat, ``(seat, "use hunt")``, that names no space marks that seat's animal."""
    out: list[str] = []
    for item in highlight:
        seat, text = item if isinstance(item, tuple) else (None, item)
        found = [m.upper() for m in _LABEL.findall(str(text))]
        if not found and seat is not None and seat in animal_at:
            found = [animal_at[seat]]
        for label in found:
            if label in LABEL_INDEX and label not in out:
                out.append(label)
    return tuple(out)


def _setup_kind(state: GameState) -> str | None:
    legal = engine.legal_actions(state)
    return str(legal[0]).split()[0] if legal else None


def view(
    state: GameState,
    *,
    highlight: Sequence[str | tuple[int, str]] = (),
    preview_sun: int | None = None,
    viewer_seat: int | None = None,
    names: Sequence[str | None] | None = None,
    lang: str | None = None,
    marks: Sequence[str] = (),
    drawn_names: bool = True,
    abandoned: bool = False,
) -> View:
    """Read a game state into a ``View`` (what ``viewer_seat`` may see; None: anyone);
    ``marks``: space labels a lesson talks about (see ``View.marks``); ``drawn_names``: the
    names as a picture draws them (``seat_names``); ``abandoned``: the game was abandoned
    (nobody is to play)."""
    obs = engine.observation(state, viewer_seat)
    shadow_sun = int(obs["sun"]) if preview_sun is None else int(preview_sun) % 6
    preview = preview_sun is not None
    shadows = tuple(engine.shadow_map(state, shadow_sun))
    scores = engine.scores(state)
    gains = engine.light_for_sun(state, shadow_sun) if preview else None
    kinds = [s["kind"] for s in obs["seats"]]
    display = seat_names(kinds, names, lang, drawn_names)
    moon_v: MoonView | None = None
    lunar_gains: tuple[int | None, ...] = ()
    if "moonlight" in obs:
        moon_v, lunar_gains = moon_view(state, obs, preview)
    seats = []
    for i, s in enumerate(obs["seats"]):
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
                lunar_gain=lunar_gains[i] if i < len(lunar_gains) else None,
            )
        )
    pieces = {label: (int(p["seat"]), int(p["size"])) for label, p in obs["board"].items()}
    piles = {int(k): tuple(v) for k, v in obs["piles"].items()}
    # The 4-leaf pile is not used with 2 players: it is empty from the start.
    unused = (4,) if len(seats) == 2 and not piles.get(4) else ()
    animal_at = {} if moon_v is None else {a.seat: LABELS[a.space] for a in moon_v.animals}
    return View(
        pieces=pieces,
        shadows=shadows,
        sun=int(obs["sun"]),
        shadow_sun=shadow_sun,
        preview=preview,
        phase=obs["phase"],
        round=int(obs["round"]),
        revolution=int(obs["revolution"]),
        revolutions=int(obs["config"].get("revolutions", 3)),
        current_seat=None if abandoned else obs["current_seat"],
        first_seat=int(obs.get("first_seat", 0)),
        seats=tuple(seats),
        piles=piles,
        unused_piles=unused,
        highlight=highlight_spaces(highlight, animal_at),
        viewer_seat=viewer_seat,
        winners=tuple(engine.winners(state)) if obs["phase"] == "over" else (),
        setup_kind=_setup_kind(state) if obs["phase"] == "setup" else None,
        moon=moon_v,
        lang=lang,
        marks=tuple(label.upper() for label in marks if label.upper() in LABEL_INDEX),
        abandoned=abandoned,
    )
