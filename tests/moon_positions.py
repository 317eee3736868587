"""Under the Moonlight positions built for the tests: the picture tests' (`POSITIONS`, drawn in
tests/golden/moon-*.png), a game in play with pieces arranged (`in_play`) and a position of
animals on a board (`pos`)."""

from __future__ import annotations

import engine
from engine import Config
from engine import moonlight as ml
from engine.moonlight import arrange
from engine.position import build

H, C = "human", "cynthia"
ALL = {"moon_animals": True, "elder_tree": True, "moonstones": True}


# -- the picture tests' positions ------------------------------------------------------------------


def setup_3():
    """Setup with all modes: animals kept and placed, the Great Elder Tree placed, moonstones
    next; the Turtle is in play, so Baby Turtle tokens lie on the beaches."""
    state = engine.new_game(Config(seats=(H, H, H), **ALL), seed=8)
    for notation in ("animal turtle", "animal beaver", "animal badger", "settle C3", "settle E3",
                     "settle D5", "elder B3"):  # fmt: skip
        state = engine.apply(state, notation)
    return state


def mid_4():
    """Round 9, all modes: Half Moon at G2-G1, the Elder on D4, a moonstone, the Dam at gap 9,
    four face-down tokens, two face-up ones in the Turtle's panel, a lit Beaver."""
    board = {
        "D1": (0, 2), "E2": (0, 1), "F2": (0, 0), "C1": (1, 3), "C2": (1, 1), "A3": (2, 2),
        "B5": (3, 3), "C6": (3, 1), "D6": (0, 1), "E6": (1, 2), "G3": (2, 1), "F4": (3, 0),
        "E4": (2, 2), "B3": (1, 0), "G4": (3, 1), "D7": (2, 1),
    }  # fmt: skip
    state = build(Config(seats=(H, H, H, H), **ALL), board, light=[6, 11, 3, 15], round=9,
                  current_seat=1, first_seat=2)  # fmt: skip
    return arrange(
        state,
        animals={0: ("fox", "C3"), 1: ("turtle", "E5"), 2: ("beaver", "F1"), 3: ("owl", "B2")},
        elder="D4",
        moonstones=["E3"],
        moon=(8, False),
        lunar=[5, 9, 2, 12],
        beach={"A4": "double", "G1": "light", "D1": "scoring", "A1": "seed"},
        babies={1: ["rich", "medium"]},
        dam=9,
    )


def full_2():
    """A Full Moon at C6-D7 lighting a chain of three moonstones, two lit animals."""
    board = {"A2": (0, 3), "B2": (1, 2), "D2": (0, 1), "E5": (1, 1), "F3": (0, 2), "C5": (1, 0)}
    state = build(Config(seats=(H, H), **ALL), board, light=[4, 8], round=14)
    return arrange(
        state,
        animals={0: ("squirrel", "C3"), 1: ("badger", "D6")},
        elder="E4",
        moonstones=["B4", "C4", "D5"],
        moon=(2, True),
        lunar=[7, 14],
    )


def over_3(**options):
    """The game is over: final score parts with lunar points and a used Scoring turtle; a
    Cynthia seat has no animal. ``options``: more Config options (Cynthia's difficulty)."""
    board = {"A1": (0, 3), "D4": (1, 3), "E5": (2, 2), "C2": (0, 1), "F3": (1, 1)}
    state = build(Config(seats=(H, H, C), **ALL, **options), board, light=[7, 2, 1], round=18)
    state = arrange(
        state,
        animals={0: ("hedgehog", "C4"), 1: ("boar", "E1")},
        elder="B3",
        moonstones=["E2", "F2"],
        moon=(13, True),
        lunar=[11, 4, 0],
        babies={1: ["light"]},
    )
    state.ext = state.ext._replace(scoring=(0, 1, 0))
    seats = [s.copy() for s in state.seats]
    seats[0].tokens = ((4, 22), (3, 18), (2, 16))
    seats[1].tokens = ((4, 21), (2, 14), (1, 14), (1, 13))
    seats[2].tokens = ((3, 19), (3, 18), (2, 17))
    state.seats = tuple(seats)
    state.phase = "over"
    state.current_seat = None
    return state


POSITIONS = {
    "moon-setup-3": (setup_3, {"names": ["Ada", "Grace", "Linus"]}),
    "moon-mid-4": (mid_4, {"highlight": ["E5"], "names": ["Ada", "Grace", "Linus", "Barbara"]}),
    "moon-full-2": (full_2, {"viewer_seat": 0}),
    "moon-over-3": (over_3, {}),
}


# -- positions arranged by the tests ---------------------------------------------------------------

#: Two people with the three modes.
TWO = Config(seats=(H, H), moon_animals=True, elder_tree=True, moonstones=True)


def in_play(**arrange) -> engine.GameState:
    """A 2-seat game with the three modes, setup done, seat 0 to play, pieces arranged."""
    config = engine.Config(
        seats=("human", "human"), moon_animals=True, elder_tree=True, moonstones=True
    )
    state = engine.new_game(config, seed=3)
    while state.phase == "setup":
        state = engine.apply(state, engine.legal_actions(state)[0])
    while state.current_seat != 0:
        state = engine.apply(state, "end")
    d = state.to_dict()
    d["board"] = arrange.pop("board", {})
    d["seats"][0]["light"] = arrange.pop("light", 6)
    state = engine.GameState.from_dict(d)
    return ml.arrange(state, **arrange)


def pos(board=None, *, animals, light=(0, 0), lunar=(14, 14), cfg=TWO, **kw):
    """A position of `cfg` (two people with the three modes) with the pieces of `board`,
    `animals` placed, and light and lunar points (more of `arrange` in `kw`)."""
    s = build(cfg, board or {}, light=list(light))
    return arrange(s, animals=animals, lunar=list(lunar), **kw)
