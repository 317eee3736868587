"""Game configuration: seats, variants and options (docs/architecture.md#the-engine-facade)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final, Literal, TypedDict

from translation import _

#: The kind of a seat: a player, or the Cynthia automa.
SeatKind = Literal["human", "cynthia"]
HUMAN: Final = "human"
CYNTHIA: Final = "cynthia"


#: Cynthia's difficulty as one word: every "Adjusting Difficulty" option of the solo rules on one
#: side (docs/rules-data.md#81-her-pieces-costs-and-deck), as ``Config`` keyword arguments.
CYNTHIA_DIFFICULTY: dict[str, dict[str, bool]] = {
    "normal": {},
    "easier": {
        "easier_no_final_collect": True,
        "easier_grow_plus_one": True,
        "easier_two_small_start": True,
    },
    "harder": {"harder_grow_minus_one": True, "harder_score_trees": True},
}


#: The game lengths: 3 revolutions of the sun, 4 with the advanced variant, 1 for the short
#: practice game that ends the tutorial.
REVOLUTIONS: Final = (3, 4, 1)


class ConfigDict(TypedDict, total=False):
    """A `Config` as JSON data (`Config.to_dict`, stored with every started game): its fields,
    the seats as a list. Every key is optional to `Config.from_dict`: data written before a
    field existed lacks it, and the field keeps its default."""

    seats: list[SeatKind]
    revolutions: int
    shadow_rule: bool
    moon_animals: bool
    elder_tree: bool
    moonstones: bool
    easier_no_final_collect: bool
    easier_grow_plus_one: bool
    easier_two_small_start: bool
    harder_grow_minus_one: bool
    harder_score_trees: bool
    cynthia_opponent_tiebreak: bool


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for a whole game.

    ``seats`` lists 2-4 seats in turn order, each ``"human"`` or ``"cynthia"``.
    ``revolutions`` is 3, or 4 for the advanced variant with the fourth sun revolution counter,
    or 1 for the short practice game that ends the tutorial (six rounds; not a published rule:
    docs/rules-data.md#the-short-game).
    ``shadow_rule`` is the advanced rule: no planting from, and no growing of, a shadowed piece.
    """

    seats: tuple[SeatKind, ...] = (HUMAN, HUMAN)
    revolutions: int = 3
    shadow_rule: bool = False
    # Under the Moonlight modes.
    moon_animals: bool = False
    elder_tree: bool = False
    moonstones: bool = False
    # Cynthia difficulty options (docs/rules-data.md#81-her-pieces-costs-and-deck).
    easier_no_final_collect: bool = False
    easier_grow_plus_one: bool = False
    easier_two_small_start: bool = False
    harder_grow_minus_one: bool = False
    harder_score_trees: bool = False
    cynthia_opponent_tiebreak: bool = True

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        object.__setattr__(self, "seats", seats)
        if not 2 <= len(seats) <= 4:
            raise ValueError(_("A game has 2 to 4 seats."))
        for kind in seats:
            if kind not in (HUMAN, CYNTHIA):
                raise ValueError(_("A seat is 'human' or 'cynthia', not {kind!r}.", kind=kind))
        if self.revolutions not in REVOLUTIONS:
            raise ValueError(
                _("A game has 3 revolutions, 4 with the advanced variant, or 1 for practice.")
            )

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def expansion(self) -> bool:
        """True when any Under the Moonlight mode is on."""
        return self.moon_animals or self.elder_tree or self.moonstones

    @property
    def last_round(self) -> int:
        return 6 * self.revolutions

    def to_dict(self) -> ConfigDict:
        """Every field, in the order they are declared (as `dataclasses.asdict` gives them)."""
        return {
            "seats": list(self.seats),
            "revolutions": self.revolutions,
            "shadow_rule": self.shadow_rule,
            "moon_animals": self.moon_animals,
            "elder_tree": self.elder_tree,
            "moonstones": self.moonstones,
            "easier_no_final_collect": self.easier_no_final_collect,
            "easier_grow_plus_one": self.easier_grow_plus_one,
            "easier_two_small_start": self.easier_two_small_start,
            "harder_grow_minus_one": self.harder_grow_minus_one,
            "harder_score_trees": self.harder_score_trees,
            "cynthia_opponent_tiebreak": self.cynthia_opponent_tiebreak,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Config:
        """The config of `to_dict` data (`ConfigDict`), or of any mapping holding some of the
        fields (a game's lobby options): other keys are left out, a missing field keeps its
        default."""
        known = {f.name for f in fields(cls)}
        # the values as given, checked by the constructor (`__post_init__`)
        kwargs: dict[str, Any] = {k: v for k, v in d.items() if k in known}
        if "seats" in kwargs:
            kwargs["seats"] = tuple(kwargs["seats"])
        return cls(**kwargs)
