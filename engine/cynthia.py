"""Cynthia, the automa (cynthia-solo rules, RULES-DATA section 8).

Deck state: each Cynthia has her own deck of the 14 action cards, shuffled from the game's RNG at
the start and when the late half comes into use; a card drawn from an empty deck first reshuffles
all 14 cards (from the game's RNG).

Her turn is a sequence of decisions, one per card: ``decide`` draws the next card and returns the
action it gives (Collect, else Grow, else Plant) or ``end`` when the turn is over. ``decide`` is
pure: it returns the decision and a ``Turn`` (her deck after the draw and the RNG state after a
possible reshuffle); ``perform`` stores both in the new state and performs the action. Every
decision carries ``Action.explanation``, a sentence for the game log.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from .actions import Action
from .config import CYNTHIA
from .geometry import (
    ADJACENT_MASK,
    ALL_MASK,
    BORDER_MASK,
    LABELS,
    LEAVES,
    RING_MASK,
    RING_ORDER,
    WITHIN,
    bits,
)
from .layers import Layer, register
from .light import light_from_masks, shade_masks
from .pieces import COLLECT_COST, LARGE, PLANT_COST, PLANT_RANGE, SEED
from .rng import shuffled

EARLY, LATE = "early", "late"
DECK_PATH = Path(__file__).resolve().parent.parent / "data" / "cynthia-deck.json"
SIZE_WORDS = ("seed", "small tree", "medium tree", "large tree")
TARGET_WORDS = ("seed", "small", "medium", "large")


class Deck(NamedTuple):
    """One Cynthia's action deck: card ids top first, and the half in use."""

    cards: tuple[int, ...]
    half: str = EARLY


class Turn(NamedTuple):
    """What a decision changes besides the action: her deck after the draw and the game's RNG."""

    deck: Deck
    rng: int


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


def draw(deck: Deck, rng: int) -> tuple[int, Deck, int, bool]:
    """Draw the top card: ``(card id, deck after, rng after, reshuffled)``.

    A draw from an empty deck first reshuffles all 14 cards (same half) from ``rng``.
    """
    reshuffled = False
    if not deck.cards:
        ids, rng = shuffled(sorted(cards()), rng)
        deck = Deck(tuple(ids), deck.half)
        reshuffled = True
    return deck.cards[0], Deck(deck.cards[1:], deck.half), rng, reshuffled


# -- Directional Selection (RULES-DATA 8.2) -------------------------------------------------

#: ``WALK[leaves][direction]``: the ring from its reference space, clockwise or counter-clockwise.
WALK: dict[int, dict[str, tuple[int, ...]]] = {
    leaves: {
        "cw": RING_ORDER[leaves],
        "ccw": RING_ORDER[leaves][:1] + RING_ORDER[leaves][:0:-1],
    }
    for leaves in (1, 2, 3, 4)
}


def directional(eligible: int, leaves: int, direction: str, count: int) -> int:
    """The space Directional Selection picks among ``eligible`` (a bitmask) on one ring.

    Start at the ring's reference space, walk the ring in ``direction`` counting eligible spaces
    (the start included), round as often as needed; the ``count``-th eligible space is chosen.
    """
    order = [i for i in WALK[leaves][direction] if eligible >> i & 1]
    if not order or eligible & ~RING_MASK[leaves]:
        raise ValueError("Directional Selection needs eligible spaces on one ring.")
    return order[(count - 1) % len(order)]


def _labels(mask: int) -> str:
    return " ".join(LABELS[i] for i in bits(mask))


def _mask(spaces) -> int:
    m = 0
    for i in spaces:
        m |= 1 << i
    return m


def _choose(
    candidates: list[int],
    tiebreaks: list[tuple[str, Callable[[int], int]]],
    where: Callable[[int], int],
    sel: dict,
) -> tuple[int, str]:
    """Narrow ``candidates`` by ``tiebreaks`` (name, key: higher wins), then Directional Selection.

    ``where(space)`` gives the ring a candidate stands for (the space's own ring, or for a tree
    of origin its ring too). Returns the choice and the reason, for the log.
    """
    if len(candidates) == 1:
        return candidates[0], "the only valid choice"
    used = []
    for name, key in tiebreaks:
        values = {c: key(c) for c in candidates}
        best = max(values.values())
        kept = [c for c in candidates if values[c] == best]
        if len(kept) < len(candidates):
            used.append(name)
            candidates = kept
            if len(kept) == 1:
                return kept[0], ", then ".join(used)
    rings = {where(c) for c in candidates}
    if len(rings) != 1:  # every caller narrows to one ring first
        raise AssertionError("Directional Selection across rings")
    chosen = directional(_mask(candidates), rings.pop(), sel["direction"], sel["count"])
    used.append(
        f"Directional Selection ({sel['direction']} {sel['count']} among "
        f"{_labels(_mask(candidates))})"
    )
    return chosen, ", then ".join(used)


# -- the Future Light Points Check --------------------------------------------------------


class _Ctx:
    """What one decision needs about the state, computed once."""

    __slots__ = ("state", "seat", "n", "base", "masks", "light", "activated", "sun", "extra")

    def __init__(self, state, seat: int) -> None:
        from . import game  # noqa: PLC0415 (game imports this module)

        self.state = state
        self.seat = seat
        self.n = len(state.seats)
        self.base = seat * 4
        self.masks = state.masks
        self.light = state.seats[seat].light
        self.activated = state.activated
        self.sun = (state.sun + 1) % 6
        self.extra = game.extra_shade(state, self.sun)

    def flp(self, masks) -> list[int]:
        """Light every seat would collect on ``masks`` with the sun one position on (no cap)."""
        return light_from_masks(masks, self.n, shade_masks(masks, self.n, self.sun, self.extra))

    def flp_changed(self, space: int, old: int, new: int | None) -> list[int]:
        """FLP after her piece on ``space`` changes from size ``old`` to ``new`` (None: removed)."""
        masks = self.masks[:]
        bit = 1 << space
        masks[self.base + old] &= ~bit
        if new is not None:
            masks[self.base + new] |= bit
        return self.flp(masks)


# -- decisions ------------------------------------------------------------------------------


def _end(explanation: str) -> Action:
    return Action("end", (), explanation)


def decide(state) -> tuple[Action, Turn]:
    """Cynthia's next decision and what it changes besides the board: ``(Action, Turn)``."""
    from . import game  # noqa: PLC0415

    seat = state.current_seat
    deck = state.cynthia[seat]
    if state.phase == "setup":
        kind = game.setup_kind(state)
        if kind == "tree":
            return _decide_setup(state, deck)
        # The Great Elder Tree or a moonstone at her seat (RULES-DATA 7.2): the expansion decides.
        from . import moonlight  # noqa: PLC0415

        return moonlight.cynthia_setup(state, deck)
    ctx = _Ctx(state, seat)
    if ctx.light == 0:
        return _end("She has no light points left, so her turn ends."), Turn(deck, state.rng)
    own = 0
    for size in range(4):
        own |= state.masks[ctx.base + size]
    if not own & ~state.activated:
        why = (
            "She has no piece on the board"
            if not own
            else "Every space with one of her pieces has been activated"
        )
        return _end(f"{why}, so her turn ends."), Turn(deck, state.rng)

    card_id, after, rng, reshuffled = draw(deck, state.rng)
    card = cards()[card_id][deck.half]
    head = f"Card {card_id} {deck.half}" + (" (deck reshuffled)" if reshuffled else "")
    notes = []
    for step in (_collect, _grow, _plant):
        action, note = step(ctx, card, deck.half)
        notes.append(note)
        if action is not None:
            action.explanation = f"{head}: " + "; ".join(notes) + "."
            return action, Turn(after, rng)
    return _end(f"{head}: " + "; ".join(notes) + "; no action, so her turn ends."), Turn(after, rng)


def _decide_setup(state, deck: Deck) -> tuple[Action, Turn]:
    from . import game  # noqa: PLC0415

    card_id, after, rng, reshuffled = draw(deck, state.rng)
    sel = cards()[card_id]["setup"]
    occupied = state.occupied()
    free = BORDER_MASK & ~occupied & ~game.obstacles(state)
    trees = occupied
    if state.ext is not None and state.ext.elder >= 0:
        trees |= 1 << state.ext.elder  # the Great Elder Tree is a tree too
    near = 0
    for i in bits(trees):
        near |= ADJACENT_MASK[i]
    valid = free & ~near
    note = "empty border spaces not next to a tree"
    if not valid:
        valid = free
        note = "no border space is free of neighbours, so any empty border space"
    space = directional(valid, 1, sel["direction"], sel["count"])
    size = SIZE_WORDS[game.starting_tree_size(state)]
    explanation = (
        f"Card {card_id} setup" + (" (deck reshuffled)" if reshuffled else "") + ": "
        f"{size} on {LABELS[space]} by Directional Selection ({sel['direction']} {sel['count']}) "
        f"among {valid.bit_count()} valid space{'s' if valid.bit_count() > 1 else ''} ({note})."
    )
    return Action("place", (space,), explanation), Turn(after, rng)


def _collect(ctx: _Ctx, card: dict, half: str) -> tuple[Action | None, str]:
    state, seat = ctx.state, ctx.seat
    larges = ctx.masks[ctx.base + LARGE]
    if not larges:
        return None, "Collect: no large tree"
    if ctx.light < COLLECT_COST:
        return None, f"Collect: not enough light ({ctx.light} < {COLLECT_COST})"
    candidates = list(bits(larges & ~ctx.activated))
    if not candidates:
        return None, "Collect: her large trees are already activated"
    flp = {sp: ctx.flp_changed(sp, LARGE, None)[seat] for sp in candidates}
    need = state.revolution + card["collect"]
    rule = f"{state.revolution}+{card['collect']}"
    if half == LATE and larges.bit_count() == 2:
        valid = candidates
        why = "both large trees on the board in the late half"
    else:
        valid = [sp for sp in candidates if flp[sp] >= need]
        if not valid:
            checks = ", ".join(f"{LABELS[sp]} FLP {flp[sp]} < {rule}" for sp in candidates)
            return None, f"Collect: none valid ({checks})"
        why = ", ".join(f"{LABELS[sp]} FLP {flp[sp]} >= {rule}" for sp in valid)
    space, reason = _choose(
        valid,
        [("closest to centre", lambda sp: LEAVES[sp]), ("higher FLP", lambda sp: flp[sp])],
        lambda sp: LEAVES[sp],
        card,
    )
    return (
        Action("collect", (space,)),
        f"Collect on {LABELS[space]} ({why}): {reason}",
    )


def _grow(ctx: _Ctx, card: dict, half: str) -> tuple[Action | None, str]:
    from . import game  # noqa: PLC0415

    state, seat = ctx.state, ctx.seat
    me = state.seats[seat]
    failed = []
    shade_now = game.shade(state) if state.config.shadow_rule else None
    for target in card["grow"]:
        word = TARGET_WORDS[target]
        cost = game.grow_cost(state, seat, target)
        if me.available[target] == 0:
            failed.append(f"no {word} tree left")
            continue
        if ctx.light < cost:
            failed.append(f"{word} costs {cost} > {ctx.light}")
            continue
        spaces = ctx.masks[ctx.base + target - 1] & ~ctx.activated
        if not spaces:
            failed.append(f"no {SIZE_WORDS[target - 1]} to grow to {word}")
            continue
        if shade_now is not None:
            spaces &= ~shade_now[target - 1]
            if not spaces:
                failed.append(f"every {SIZE_WORDS[target - 1]} is in shadow")
                continue
        space, reason = _choose_grow(ctx, spaces, target, card)
        tried = f" ({'; '.join(failed)})" if failed else ""
        return Action("grow", (space,)), f"Grow{tried} to {word} on {LABELS[space]}: {reason}"
    return None, f"Grow: {'; '.join(failed)}"


def _choose_grow(ctx: _Ctx, spaces: int, target: int, card: dict) -> tuple[int, str]:
    """Grow tiebreakers: closest to centre, highest own FLP, lowest opponents' FLP (option)."""
    seat = ctx.seat
    flps: dict[int, list[int]] = {}

    def flp(sp: int) -> list[int]:
        if sp not in flps:
            flps[sp] = ctx.flp_changed(sp, target - 1, target)
        return flps[sp]

    tiebreaks = [
        ("closest to centre", lambda sp: LEAVES[sp]),
        ("highest own FLP", lambda sp: flp(sp)[seat]),
    ]
    if ctx.state.config.cynthia_opponent_tiebreak:
        tiebreaks.append(("lowest opponents' FLP", lambda sp: flp(sp)[seat] - sum(flp(sp))))
    return _choose(list(bits(spaces)), tiebreaks, lambda sp: LEAVES[sp], card)


def _plant(ctx: _Ctx, card: dict, half: str) -> tuple[Action | None, str]:
    from . import game  # noqa: PLC0415

    state, seat = ctx.state, ctx.seat
    me = state.seats[seat]
    if me.available[SEED] == 0:
        return None, "Plant: no seed left"
    if ctx.light < PLANT_COST:
        return None, f"Plant: not enough light ({ctx.light} < {PLANT_COST})"
    base_number = state.revolution if half == EARLY else 3
    limit = base_number + card["plant"]
    count = state.board_count(seat)
    if count >= limit:
        return None, f"Plant: {count} spaces occupied, not fewer than {base_number}+{card['plant']}"
    shade_now = game.shade(state) if state.config.shadow_rule else None
    sources = []  # (space, size) of her trees that may plant
    reach = 0
    for size in (1, 2, 3):
        trees = ctx.masks[ctx.base + size] & ~ctx.activated
        if shade_now is not None:
            trees &= ~shade_now[size]
        for sp in bits(trees):
            sources.append((sp, size))
            reach |= WITHIN[PLANT_RANGE[size]][sp]
    if not sources:
        return None, "Plant: no tree that can plant"
    occupied = state.occupied()
    blocked = occupied | game.obstacles(state)
    targets = reach & ~blocked & ~ctx.activated & ALL_MASK
    for ring in card["rings"]:
        ring_targets = targets & RING_MASK[ring]
        if ring_targets:
            break
    else:
        return None, "Plant: no empty space in range"
    empty = ALL_MASK & ~blocked
    dst, dst_reason = _choose(
        list(bits(ring_targets)),
        [("most empty neighbours", lambda sp: (ADJACENT_MASK[sp] & empty).bit_count())],
        lambda sp: LEAVES[sp],
        card,
    )
    origins = [(sp, size) for sp, size in sources if WITHIN[PLANT_RANGE[size]][sp] >> dst & 1]
    size_of = dict(origins)
    src, src_reason = _choose(
        [sp for sp, _ in origins],
        [
            ("smallest", lambda sp: -size_of[sp]),
            ("outermost ring", lambda sp: -LEAVES[sp]),
        ],
        lambda sp: LEAVES[sp],
        card,
    )
    return (
        Action("plant", (src, dst)),
        f"Plant ({count} < {base_number}+{card['plant']}) on {LABELS[dst]} "
        f"(ring {ring}, rings {'-'.join(map(str, card['rings']))}): {dst_reason}; "
        f"from the {SIZE_WORDS[size_of[src]]} on {LABELS[src]}: {src_reason}",
    )


def perform(state, turn: Turn, action: Action):
    """The state after her decision: her deck and the RNG as ``decide`` left them, then the action."""
    from . import game  # noqa: PLC0415

    s = state.copy()
    decks = list(s.cynthia)
    decks[s.current_seat] = turn.deck
    s.cynthia = tuple(decks)
    s.rng = turn.rng
    return game.perform_unchecked(s, action)


def final_collects(s) -> None:
    """After the last round each Cynthia collects her large tree closest to the centre, free.

    ``s`` is the final state (already copied). Cynthias collect in player order, that is the turn
    order of the last round, from its first player; a tie between two large trees on one ring is
    broken by Directional Selection with a freshly drawn card.
    """
    if CYNTHIA not in s.config.seats or s.config.easier_no_final_collect:
        return
    from . import game  # noqa: PLC0415

    n = len(s.seats)
    for seat in [(s.first_seat + k) % n for k in range(n)]:
        if s.config.seats[seat] != CYNTHIA:
            continue
        larges = s.masks[seat * 4 + LARGE]
        if not larges:
            continue
        best = max(LEAVES[i] for i in bits(larges))
        tied = larges & RING_MASK[best]
        if tied.bit_count() == 1:
            space = tied.bit_length() - 1
            how = "closest to the centre"
        else:
            deck = s.cynthia[seat]
            card_id, after, s.rng, _ = draw(deck, s.rng)
            sel = cards()[card_id][deck.half]
            decks = list(s.cynthia)
            decks[seat] = after
            s.cynthia = tuple(decks)
            space = directional(tied, best, sel["direction"], sel["count"])
            how = (
                f"tie on ring {best} broken by Directional Selection with card {card_id} "
                f"({sel['direction']} {sel['count']})"
            )
        got = game.collect_tree(s, seat, space, 0)
        s.events = (
            *s.events,
            f"After the last round Cynthia (seat {seat + 1}) collects her large tree on "
            f"{LABELS[space]} for free ({how}): {got}.",
        )


@register
class CynthiaLayer(Layer):
    """Cynthia seats as a rule layer."""

    name = "cynthia"

    @classmethod
    def applies(cls, config) -> bool:
        return CYNTHIA in config.seats

    def hidden(self, config) -> dict[str, str]:
        return {"cynthia.deck": "the order of each Cynthia's action cards"}

    def observe(self, state, seat, d: dict) -> None:
        d["cynthia"] = [
            None if x is None else {"cards_left": len(x["deck"]), "half": x["half"]}
            for x in d["cynthia"]
        ]
