"""Who a seat's rating belongs to: a person, Cynthia at one difficulty, or the Expert at one budget.

An identity is a short text, stable forever (it is stored with every rating):

- ``user:<discord id>``: a person. A person who left a game (the autopilot finished their seat)
  is still that person: they are rated as their seat finished.
- ``cynthia:<difficulty>``: the Cynthia automa with the lobby's difficulty options
  (`bot.services.base.CYNTHIA_OPTIONS`, `engine.config.CYNTHIA_DIFFICULTY`). The three named difficulties
  are ``normal``, ``easier`` (every easier option) and ``harder`` (every harder option); any other
  mix of the options is its own Cynthia, named by its options in a fixed order joined by ``+``
  (``cynthia:easier_grow_plus_one+harder_score_trees``).
- ``expert:quick`` and ``expert:strong``: the Expert at each budget (`bot.services.experts.EXPERT_BUDGETS`).
- ``former:<random>``: a person who asked to be forgotten (`forgotten`): one nameless identity
  for all their seats, which takes over their ratings, so that a rebuild rates their games as
  they were rated; drawn at random, it holds nothing of their id. Never shown on a leaderboard.
- ``former:<game id>:<seat>``: a human seat without a person, whose result was recorded after the
  person was forgotten (a game that finished before results were kept): a new player.

This module is pure: it imports neither the bot's storage nor Discord.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from engine.config import CYNTHIA_DIFFICULTY

#: Cynthia's difficulty options, in the lobby's order (`bot.services.base.CYNTHIA_OPTIONS`: the same
#: names; `tests/test_ratings.py` checks that they agree).
CYNTHIA_OPTIONS: tuple[str, ...] = (
    "easier_no_final_collect",
    "easier_grow_plus_one",
    "easier_two_small_start",
    "harder_grow_minus_one",
    "harder_score_trees",
)
#: The Expert's seat kinds (`bot.services.experts.EXPERT_BUDGETS`) and their budget's name.
EXPERT_NAMES: dict[str, str] = {"expert": "quick", "expert-strong": "strong"}

PERSON = "user"
CYNTHIA = "cynthia"
EXPERT = "expert"
FORMER = "former"


def person(user_id: int) -> str:
    """A person's identity: their Discord user id."""
    if user_id <= 0:
        raise ValueError(f"a Discord user id is a positive number, not {user_id}")
    return f"{PERSON}:{user_id}"


def cynthia_difficulty(options: Mapping[str, object]) -> str:
    """The name of Cynthia's difficulty in a game whose options (or config) are ``options``."""
    chosen = frozenset(name for name in CYNTHIA_OPTIONS if options.get(name))
    for name, preset in CYNTHIA_DIFFICULTY.items():
        if chosen == frozenset(k for k, on in preset.items() if on):
            return name
    return "+".join(name for name in CYNTHIA_OPTIONS if name in chosen)


def cynthia(options: Mapping[str, object]) -> str:
    """Cynthia's identity in a game whose options (or config) are ``options``."""
    return f"{CYNTHIA}:{cynthia_difficulty(options)}"


def expert(kind: str) -> str:
    """The Expert's identity for a seat of kind ``expert`` or ``expert-strong``."""
    try:
        return f"{EXPERT}:{EXPERT_NAMES[kind]}"
    except KeyError:
        raise ValueError(f"not an Expert's seat kind: {kind!r}") from None


def former(game_id: int, position: int) -> str:
    """A seat without a person, recorded after its person was forgotten: a new player."""
    return f"{FORMER}:{game_id}:{position}"


def forgotten() -> str:
    """A new nameless identity for a person who asks to be forgotten (random: nothing of them)."""
    return f"{FORMER}:{secrets.token_hex(8)}"


def seat_identity(
    kind: str, user_id: int | None, options: Mapping[str, object], game_id: int, position: int
) -> str:
    """The identity of a stored seat (`bot.storage.SeatRow`'s ``kind`` and ``user_id``) in a
    game whose options are ``options``. A human seat without a user id is a forgotten person's."""
    if kind == CYNTHIA:
        return cynthia(options)
    if kind in EXPERT_NAMES:
        return expert(kind)
    if kind != "human":
        raise ValueError(f"not a seat kind: {kind!r}")
    return person(user_id) if user_id is not None else former(game_id, position)


def is_bot(identity: str) -> bool:
    """Whether the identity is Cynthia's or the Expert's."""
    return identity.split(":", 1)[0] in (CYNTHIA, EXPERT)


def is_ranked(identity: str) -> bool:
    """Whether the identity may appear on a leaderboard (a forgotten seat never does)."""
    return identity.split(":", 1)[0] != FORMER


def user_id_of(identity: str) -> int | None:
    """The Discord user id of a person's identity, else None."""
    kind, _, rest = identity.partition(":")
    return int(rest) if kind == PERSON else None
