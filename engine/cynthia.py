"""Cynthia, the automa (cynthia-solo rules, RULES-DATA section 8).

Deck state: each Cynthia has her own deck of the 14 action cards, shuffled from the game's RNG at
the start and when the late half comes into use; an empty deck is reshuffled.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import NamedTuple

from .config import CYNTHIA
from .rng import shuffled

EARLY, LATE = "early", "late"
DECK_PATH = Path(__file__).resolve().parent.parent / "data" / "cynthia-deck.json"


class Deck(NamedTuple):
    """One Cynthia's action deck: card ids top first, and the half in use."""

    cards: tuple[int, ...]
    half: str = EARLY


@cache
def cards() -> dict[int, dict]:
    """The 14 action cards by id (data/cynthia-deck.json)."""
    data = json.loads(DECK_PATH.read_text())
    return {card["id"]: card for card in data["cards"]}


def deck_to_dict(deck: Deck) -> dict:
    return {"deck": list(deck.cards), "half": deck.half}


def deck_from_dict(d: dict) -> Deck:
    return Deck(tuple(int(x) for x in d["deck"]), d["half"])


def _shuffle_all(state, half: str) -> Deck:
    ids, state.rng = shuffled(sorted(cards()), state.rng)
    return Deck(tuple(ids), half)


def init_decks(s):
    """Shuffle each Cynthia's deck at the start of the game (``s`` is a fresh state)."""
    if CYNTHIA in s.config.seats:
        s.cynthia = tuple(
            _shuffle_all(s, EARLY) if kind == CYNTHIA else None for kind in s.config.seats
        )
    return s


def start_late_half(s) -> None:
    """At the start of the last revolution every Cynthia's deck is shuffled and turned."""
    if CYNTHIA in s.config.seats:
        s.cynthia = tuple(None if deck is None else _shuffle_all(s, LATE) for deck in s.cynthia)


def decide(state):
    """Cynthia's next decision and her deck after it: ``(Action, Deck)``."""
    raise NotImplementedError("Cynthia's turn logic is being written (issue 3).")


def perform(state, deck, action):
    raise NotImplementedError


def final_collects(s) -> None:
    """After the last round each Cynthia collects her large tree closest to the centre, free."""
