"""Cynthia, the automa (docs/rules-data.md#8-cynthia), as a rule layer.

``CynthiaLayer`` gives the ``"cynthia"`` seat kind its seat rules (``CynthiaSeat``: grow costs
2/4/6 with the difficulty options, every piece available and no store, a small then a medium
starting tree) and her end of game (the final free collect, her score).

Deck state: each Cynthia has her own deck of the 14 action cards (``GameState.seat_ext[seat]``),
shuffled from the game's RNG at the start and when the late half comes into use; a card drawn
from an empty deck first reshuffles all 14 cards (from the game's RNG).

Her turn is a sequence of decisions, one per card: ``decide`` draws the next card and returns the
action it gives (Collect, else Grow, else Plant) or ``end`` when the turn is over. ``decide`` is
pure: it returns the decision and a ``Turn`` (her deck after the draw and the RNG state after a
possible reshuffle); ``perform`` stores both in the new state and performs the action. Every
decision carries ``Action.explanation``, a sentence for the game log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from functools import cache, partial
from importlib import resources
from typing import Any, NamedTuple, TypeAlias, cast

from translation import _, _n, _p, join

from . import game
from .actions import Action
from .config import CYNTHIA, Config, SeatKind
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
from .layers import Generate, Layer, PositionData, SeatRules, register
from .light import light_from_masks, shade_masks
from .pieces import COLLECT_COST, CYNTHIA_TOTAL, LARGE, MEDIUM, PLANT_COST, PLANT_RANGE, SEED, SMALL
from .rng import shuffled
from .state import GameState

EARLY, LATE = "early", "late"
#: The package of the game's data (the top-level data/ folder, installed as photosynthesis_data).
DATA = "photosynthesis_data"
DECK_RESOURCE = "cynthia-deck.json"
SIZE_WORDS = (_("seed"), _("small tree"), _("medium tree"), _("large tree"))
TARGET_WORDS = (
    _p("size", "seed"), _p("size", "small"), _p("size", "medium"), _p("size", "large")
)  # fmt: skip
#: Directional Selection's arrows, as the explanations name them.
DIRECTION_WORDS = {"cw": _p("direction", "cw"), "ccw": _p("direction", "ccw")}


#: Her reasons' fixed words, made once. A decision's whole sentence is made only when its
#: ``Action.explanation`` is read: Cynthia decides often (in the Expert's search too), and a
#: sentence is rarely wanted.
ONLY_CHOICE = _("the only valid choice")
CLOSEST = _("closest to centre")
HIGHER_FLP = _("higher FLP")
HIGHEST_OWN_FLP = _("highest own FLP")
LOWEST_OPPONENTS_FLP = _("lowest opponents' FLP")
MOST_EMPTY = _("most empty neighbours")
SMALLEST = _("smallest")
OUTERMOST = _("outermost ring")
NO_LIGHT_END = _("She has no light points left, so her turn ends.")
NO_PIECE_END = _("She has no piece on the board, so her turn ends.")
ALL_USED_END = _("Every space with one of her pieces has been activated, so her turn ends.")
COLLECT_NO_LARGE = _("Collect: no large tree")
COLLECT_ALL_USED = _("Collect: her large trees are already activated")
BOTH_LARGE_LATE = _("both large trees on the board in the late half")
PLANT_NO_SEED = _("Plant: no seed left")
PLANT_NO_TREE = _("Plant: no tree that can plant")
PLANT_NO_SPACE = _("Plant: no empty space in range")

#: A step's reason: a text, or a function that makes it when the sentence is read.
Note = str | Callable[[], str]
#: One half of an action card (cynthia-deck.json): its steps and its Directional Selection.
Card: TypeAlias = dict[str, Any]


def _read(note: Note) -> str:
    return note() if callable(note) else note


def _then(parts: list[str]) -> str:
    """Tiebreak names as ``a, then b``."""
    out = parts[0]
    for part in parts[1:]:
        out = _("{first}, then {second}", first=out, second=part)
    return out


def _selection(sel: Card) -> str:
    """``cw 2``: the arrow and the number of a card's Directional Selection."""
    return _("{direction} {count}", direction=DIRECTION_WORDS.get(sel["direction"],
             sel["direction"]), count=sel["count"])  # fmt: skip


class Deck(NamedTuple):
    """One Cynthia's action deck: card ids top first, and the half in use."""

    cards: tuple[int, ...]
    half: str = EARLY


class Turn(NamedTuple):
    """What a decision changes besides the action: her deck after the draw and the game's RNG."""

    deck: Deck
    rng: int


@cache
def cards() -> dict[int, Card]:
    """The 14 action cards by id (data/cynthia-deck.json, read as package data)."""
    data = json.loads(resources.files(DATA).joinpath(DECK_RESOURCE).read_text("utf-8"))
    return {card["id"]: card for card in data["cards"]}


def deck_to_dict(deck: Deck) -> dict[str, Any]:
    return {"deck": list(deck.cards), "half": deck.half}


def deck_from_dict(d: dict[str, Any]) -> Deck:
    return Deck(tuple(int(x) for x in d["deck"]), d["half"])


def _shuffle_all(state: GameState, half: str) -> Deck:
    ids, state.rng = shuffled(sorted(cards()), state.rng)
    return Deck(tuple(ids), half)


def init_decks(s: GameState) -> GameState:
    """Shuffle each Cynthia's deck at the start of the game (``s`` is a fresh state)."""
    if CYNTHIA in s.config.seats:
        s.seat_ext = tuple(
            _shuffle_all(s, EARLY) if kind == CYNTHIA else None for kind in s.config.seats
        )
    return s


def start_late_half(s: GameState) -> None:
    """At the start of the last revolution every Cynthia's deck is shuffled and turned."""
    if CYNTHIA in s.config.seats:
        s.seat_ext = tuple(None if deck is None else _shuffle_all(s, LATE) for deck in s.seat_ext)


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


# -- Directional Selection (docs/rules-data.md#82-directional-selection) ---------------------------

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


def _mask(spaces: Iterable[int]) -> int:
    m = 0
    for i in spaces:
        m |= 1 << i
    return m


def _choose(
    candidates: list[int],
    tiebreaks: Sequence[tuple[str, Callable[[int], int]]],
    where: Callable[[int], int],
    sel: Card,
) -> tuple[int, Note]:
    """Narrow ``candidates`` by ``tiebreaks`` (name, key: higher wins), then Directional Selection.

    ``where(space)`` gives the ring a candidate stands for (the space's own ring, or for a tree
    of origin its ring too). Returns the choice and the reason, for the log.
    """
    if len(candidates) == 1:
        return candidates[0], ONLY_CHOICE
    used: list[str] = []
    for name, key in tiebreaks:
        values = {c: key(c) for c in candidates}
        best = max(values.values())
        kept = [c for c in candidates if values[c] == best]
        if len(kept) < len(candidates):
            used.append(name)
            candidates = kept
            if len(kept) == 1:
                return kept[0], partial(_then, used)
    rings = {where(c) for c in candidates}
    if len(rings) != 1:  # every caller narrows to one ring first
        raise AssertionError("Directional Selection across rings")
    chosen = directional(_mask(candidates), rings.pop(), sel["direction"], sel["count"])
    return chosen, partial(_then_selection, used, sel, _mask(candidates))


def _then_selection(used: list[str], sel: Card, candidates: int) -> str:
    """The tiebreaks used, then Directional Selection among the candidates left."""
    last = _(
        "Directional Selection ({selection} among {spaces})",
        selection=_selection(sel),
        spaces=_labels(candidates),
    )
    return _then([*used, last])


# -- the Future Light Points Check --------------------------------------------------------


class _Ctx:
    """What one decision needs about the state, computed once."""

    __slots__ = ("state", "seat", "n", "base", "masks", "light", "activated", "sun", "extra")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.n = len(state.seats)
        self.base = seat * 4
        self.masks = state.masks
        self.light = state.seats[seat].light
        self.activated = state.activated
        self.sun = (state.sun + 1) % 6
        self.extra = game.extra_shade(state, self.sun)

    def flp(self, masks: list[int]) -> list[int]:
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


def _end(explanation: Note) -> Action:
    return Action("end", (), explanation)


def decide(state: GameState) -> tuple[Action, Turn]:
    """Cynthia's next decision and what it changes besides the board: ``(Action, Turn)``."""
    seat = cast(int, state.current_seat)  # she decides when her seat is to act
    deck: Deck = state.seat_ext[seat]
    if state.phase == "setup":
        kind = game.setup_kind(state)
        if kind == "tree":
            return _decide_setup(state, deck)
        return _decide_setup_piece(state, deck, kind)
    ctx = _Ctx(state, seat)
    if ctx.light == 0:
        return _end(NO_LIGHT_END), Turn(deck, state.rng)
    own = 0
    for size in range(4):
        own |= state.masks[ctx.base + size]
    if not own & ~state.activated:
        return _end(NO_PIECE_END if not own else ALL_USED_END), Turn(deck, state.rng)

    card_id, after, rng, reshuffled = draw(deck, state.rng)
    half = deck.half
    card = cards()[card_id][half]
    notes: list[Note] = []
    for step in (_collect, _grow, _plant):
        action, note = step(ctx, card, half)
        notes.append(note)
        if action is not None:
            action.explanation = partial(_explain, card_id, half, reshuffled, notes, True)
            return action, Turn(after, rng)
    return _end(partial(_explain, card_id, half, reshuffled, notes, False)), Turn(after, rng)


def _explain(card_id: int, half: str, reshuffled: bool, notes: list[Note], acted: bool) -> str:
    """Her reason for a card's decision, made when it is read: the card, then each step."""
    head = _card_head(card_id, HALF_WORDS[half], reshuffled)
    parts = join([_read(n) for n in notes], "; ")
    if acted:
        return _("{head}: {notes}.", head=head, notes=parts)
    return _("{head}: {notes}; no action, so her turn ends.", head=head, notes=parts)


#: The halves of her deck, as the explanations name them.
HALF_WORDS = {EARLY: _p("half", "early"), LATE: _p("half", "late"), "setup": _p("half", "setup")}


def _card_head(card_id: int, half: str, reshuffled: bool) -> str:
    """``Card 7 early`` (``Card 7 early (deck reshuffled)``)."""
    if reshuffled:
        return _("Card {card} {half} (deck reshuffled)", card=card_id, half=half)
    return _("Card {card} {half}", card=card_id, half=half)


def _decide_setup(state: GameState, deck: Deck) -> tuple[Action, Turn]:
    card_id, after, rng, reshuffled = draw(deck, state.rng)
    sel = cards()[card_id]["setup"]
    occupied = state.occupied()
    free = BORDER_MASK & ~occupied & ~game.obstacles(state)
    trees = occupied | game.extra_trees(state)  # a layer's tree (the Great Elder Tree) too
    near = 0
    for i in bits(trees):
        near |= ADJACENT_MASK[i]
    valid = free & ~near
    note = _("empty border spaces not next to a tree")
    if not valid:
        valid = free
        note = _("no border space is free of neighbours, so any empty border space")
    space = directional(valid, 1, sel["direction"], sel["count"])
    size = SIZE_WORDS[game.starting_tree_size(state)]
    explanation = _n(
        "{head}: {piece} on {space} by Directional Selection ({selection}) among {n} valid "
        "space ({note}).",
        "{head}: {piece} on {space} by Directional Selection ({selection}) among {n} valid "
        "spaces ({note}).",
        valid.bit_count(),
        head=_card_head(card_id, HALF_WORDS["setup"], reshuffled),
        piece=size,
        space=LABELS[space],
        selection=_selection(sel),
        note=note,
    )
    return Action("place", (space,), explanation), Turn(after, rng)


def _decide_setup_piece(state: GameState, deck: Deck, kind: str) -> tuple[Action, Turn]:
    """A layer's setup piece at her seat (the Great Elder Tree, a moonstone): she draws a card
    and takes the space chosen by Directional Selection with its setup arrow and number among
    the legal spaces on the 2-leaf ring (docs/rules-data.md#72-setup-with-the-expansion)."""
    verb = game.rules_for(state.config).setup_verbs[kind]
    generate = cast(Generate, verb.generate)  # a setup verb has one
    legal = {a.args[0]: a for a in generate(state)}
    card_id, after, rng, reshuffled = draw(deck, state.rng)
    sel = cards()[card_id]["setup"]
    eligible = _mask(legal) & RING_MASK[2]
    space = directional(eligible, 2, sel["direction"], sel["count"])
    n = eligible.bit_count()
    explanation = _n(
        "{head}: {piece} on {space} by Directional Selection ({selection}) among {n} empty "
        "2-leaf space.",
        "{head}: {piece} on {space} by Directional Selection ({selection}) among {n} empty "
        "2-leaf spaces.",
        n,
        head=_card_head(card_id, HALF_WORDS["setup"], reshuffled),
        piece=verb.what,
        space=LABELS[space],
        selection=_selection(sel),
    )
    return Action(kind, (space,), explanation), Turn(after, rng)


def _collect(ctx: _Ctx, card: Card, half: str) -> tuple[Action | None, Note]:
    state, seat = ctx.state, ctx.seat
    larges = ctx.masks[ctx.base + LARGE]
    if not larges:
        return None, COLLECT_NO_LARGE
    light = ctx.light
    if light < COLLECT_COST:
        return None, lambda: _(
            "Collect: not enough light ({light} < {cost})", light=light, cost=COLLECT_COST
        )
    candidates = list(bits(larges & ~ctx.activated))
    if not candidates:
        return None, COLLECT_ALL_USED
    flp = {sp: ctx.flp_changed(sp, LARGE, None)[seat] for sp in candidates}
    need = state.revolution + card["collect"]
    rule = f"{state.revolution}+{card['collect']}"
    if half == LATE and larges.bit_count() == 2:
        valid = candidates
        why: Note = BOTH_LARGE_LATE
    else:
        valid = [sp for sp in candidates if flp[sp] >= need]
        if not valid:
            return None, lambda: _(
                "Collect: none valid ({checks})",
                checks=join([_flp_check(sp, flp[sp], "<", rule) for sp in candidates], ", "),
            )

        def why() -> str:
            return join([_flp_check(sp, flp[sp], ">=", rule) for sp in valid], ", ")

    space, reason = _choose(
        valid,
        [(CLOSEST, lambda sp: LEAVES[sp]), (HIGHER_FLP, lambda sp: flp[sp])],
        lambda sp: LEAVES[sp],
        card,
    )
    return Action("collect", (space,)), lambda: _(
        "Collect on {space} ({why}): {reason}",
        space=LABELS[space],
        why=_read(why),
        reason=_read(reason),
    )


def _flp_check(space: int, flp: int, sign: str, rule: str) -> str:
    """``D4 FLP 5 >= 1+3``: a large tree's future light points against the card's threshold."""
    if sign == "<":
        return _("{space} FLP {flp} < {rule}", space=LABELS[space], flp=flp, rule=rule)
    return _("{space} FLP {flp} >= {rule}", space=LABELS[space], flp=flp, rule=rule)


def _grow(ctx: _Ctx, card: Card, half: str) -> tuple[Action | None, Note]:
    state, seat = ctx.state, ctx.seat
    me = state.seats[seat]
    failed: list[Note] = []
    shade_now = game.shade(state) if state.config.shadow_rule else None
    for target in card["grow"]:
        word = TARGET_WORDS[target]
        cost = game.grow_cost(state, seat, target)
        if me.available[target] == 0:
            failed.append(partial(_no_tree_left, word))
            continue
        if ctx.light < cost:
            failed.append(partial(_too_dear, word, cost, ctx.light))
            continue
        spaces = ctx.masks[ctx.base + target - 1] & ~ctx.activated
        if not spaces:
            failed.append(partial(_nothing_to_grow, target, word))
            continue
        if shade_now is not None:
            spaces &= ~shade_now[target - 1]
            if not spaces:
                failed.append(partial(_all_in_shadow, target))
                continue
        space, reason = _choose_grow(ctx, spaces, target, card)
        return Action("grow", (space,)), partial(_grow_note, failed, word, space, reason)
    return None, lambda: _("Grow: {tried}", tried=join([_read(f) for f in failed], "; "))


def _no_tree_left(word: str) -> str:
    return _("no {size} tree left", size=word)


def _too_dear(word: str, cost: int, light: int) -> str:
    return _("{size} costs {cost} > {light}", size=word, cost=cost, light=light)


def _nothing_to_grow(target: int, word: str) -> str:
    return _("no {piece} to grow to {size}", piece=SIZE_WORDS[target - 1], size=word)


def _all_in_shadow(target: int) -> str:
    return _("every {piece} is in shadow", piece=SIZE_WORDS[target - 1])


def _grow_note(failed: list[Note], word: str, space: int, reason: Note) -> str:
    """``Grow (large costs 6 > 2) to small on B4: the only valid choice``."""
    if failed:
        return _(
            "Grow ({tried}) to {size} on {space}: {reason}",
            tried=join([_read(f) for f in failed], "; "),
            size=word,
            space=LABELS[space],
            reason=_read(reason),
        )
    return _(
        "Grow to {size} on {space}: {reason}", size=word, space=LABELS[space], reason=_read(reason)
    )


def _choose_grow(ctx: _Ctx, spaces: int, target: int, card: Card) -> tuple[int, Note]:
    """Grow tiebreakers: closest to centre, highest own FLP, lowest opponents' FLP (option)."""
    seat = ctx.seat
    flps: dict[int, list[int]] = {}

    def flp(sp: int) -> list[int]:
        if sp not in flps:
            flps[sp] = ctx.flp_changed(sp, target - 1, target)
        return flps[sp]

    tiebreaks = [
        (CLOSEST, lambda sp: LEAVES[sp]),
        (HIGHEST_OWN_FLP, lambda sp: flp(sp)[seat]),
    ]
    if ctx.state.config.cynthia_opponent_tiebreak:
        tiebreaks.append((LOWEST_OPPONENTS_FLP, lambda sp: flp(sp)[seat] - sum(flp(sp))))
    return _choose(list(bits(spaces)), tiebreaks, lambda sp: LEAVES[sp], card)


def _plant(ctx: _Ctx, card: Card, half: str) -> tuple[Action | None, Note]:
    state, seat = ctx.state, ctx.seat
    me = state.seats[seat]
    if me.available[SEED] == 0:
        return None, PLANT_NO_SEED
    light = ctx.light
    if light < PLANT_COST:
        return None, lambda: _(
            "Plant: not enough light ({light} < {cost})", light=light, cost=PLANT_COST
        )
    base_number = state.revolution if half == EARLY else 3
    limit = base_number + card["plant"]
    count = state.board_count(seat)
    if count >= limit:
        return None, lambda: _(
            "Plant: {count} spaces occupied, not fewer than {base}+{extra}",
            count=count,
            base=base_number,
            extra=card["plant"],
        )
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
        return None, PLANT_NO_TREE
    occupied = state.occupied()
    blocked = occupied | game.obstacles(state)
    targets = reach & ~blocked & ~ctx.activated & ALL_MASK
    for ring in card["rings"]:
        ring_targets = targets & RING_MASK[ring]
        if ring_targets:
            break
    else:
        return None, PLANT_NO_SPACE
    empty = ALL_MASK & ~blocked
    dst, dst_reason = _choose(
        list(bits(ring_targets)),
        [(MOST_EMPTY, lambda sp: (ADJACENT_MASK[sp] & empty).bit_count())],
        lambda sp: LEAVES[sp],
        card,
    )
    origins = [(sp, size) for sp, size in sources if WITHIN[PLANT_RANGE[size]][sp] >> dst & 1]
    size_of = dict(origins)
    src, src_reason = _choose(
        [sp for sp, _size in origins],
        [
            (SMALLEST, lambda sp: -size_of[sp]),
            (OUTERMOST, lambda sp: -LEAVES[sp]),
        ],
        lambda sp: LEAVES[sp],
        card,
    )
    return Action("plant", (src, dst)), lambda: _(
        "Plant ({count} < {base}+{extra}) on {dst} (ring {ring}, rings {rings}): "
        "{dst_reason}; from the {piece} on {src}: {src_reason}",
        count=count,
        base=base_number,
        extra=card["plant"],
        dst=LABELS[dst],
        ring=ring,
        rings="-".join(map(str, card["rings"])),
        dst_reason=_read(dst_reason),
        piece=SIZE_WORDS[size_of[src]],
        src=LABELS[src],
        src_reason=_read(src_reason),
    )


def perform(state: GameState, turn: Turn, action: Action) -> GameState:
    """The state after her decision: her deck and the RNG as ``decide`` left them, then the action."""
    s = state.copy()
    decks = list(s.seat_ext)
    decks[cast(int, s.current_seat)] = turn.deck
    s.seat_ext = tuple(decks)
    s.rng = turn.rng
    return game.perform_unchecked(s, action)


def final_collects(s: GameState) -> None:
    """After the last round each Cynthia collects her large tree closest to the centre, free.

    ``s`` is the final state (already copied). Cynthias collect in player order, that is the turn
    order of the last round, from its first player; a tie between two large trees on one ring is
    broken by Directional Selection with a freshly drawn card.
    """
    if CYNTHIA not in s.config.seats or s.config.easier_no_final_collect:
        return
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
            how = _("closest to the centre")
        else:
            deck: Deck = s.seat_ext[seat]
            card_id, after, s.rng, _reshuffled = draw(deck, s.rng)
            sel = cards()[card_id][deck.half]
            decks = list(s.seat_ext)
            decks[seat] = after
            s.seat_ext = tuple(decks)
            space = directional(tied, best, sel["direction"], sel["count"])
            how = _(
                "tie on ring {ring} broken by Directional Selection with card {card} ({selection})",
                ring=best,
                card=card_id,
                selection=_selection(sel),
            )
        got = game.collect_tree(s, seat, space, 0)
        s.events = (
            *s.events,
            _(
                "After the last round Cynthia (seat {seat}) collects her large tree on {space} "
                "for free ({how}): {got}.",
                seat=seat + 1,
                space=LABELS[space],
                how=how,
                got=got,
            ),
        )


class CynthiaSeat(SeatRules):
    """A Cynthia seat: every piece available, no store, grow costs 2/4/6
    (docs/rules-data.md#81-her-pieces-costs-and-deck)."""

    start_available = CYNTHIA_TOTAL
    start_store = (0, 0, 0, 0)
    has_store = False
    automa = True

    def grow_cost(self, config: Config, target: int) -> int:
        return 2 * target + config.easier_grow_plus_one - config.harder_grow_minus_one

    def starting_tree_size(self, config: Config, placement: int) -> int:
        """Her small tree first, then a medium one (two small with the easier option)."""
        return MEDIUM if placement >= 1 and not config.easier_two_small_start else SMALL

    def decide(self, state: GameState) -> tuple[Action, Turn]:
        return decide(state)

    def perform(self, state: GameState, decided: object, action: Action) -> GameState:
        return perform(state, cast(Turn, decided), action)  # what her ``decide`` returned

    def refusal(self, decision: Action, action: Action) -> str:
        return _(
            "Cynthia's cards decide her moves: she plays '{decision}', not '{action}'.",
            decision=str(decision),
            action=str(action),
        )


CYNTHIA_SEAT = CynthiaSeat()


@register
class CynthiaLayer(Layer):
    """Cynthia seats as a rule layer."""

    name = "cynthia"

    @classmethod
    def applies(cls, config: Config) -> bool:
        return CYNTHIA in config.seats

    def seat_rules(self, kind: SeatKind) -> SeatRules | None:
        return CYNTHIA_SEAT if kind == CYNTHIA else None

    def init(self, s: GameState) -> None:
        init_decks(s)

    def new_round(self, s: GameState) -> None:
        if s.sun == 0 and s.revolution == s.config.revolutions:
            start_late_half(s)

    def photosynthesis(self, s: GameState) -> None:
        # a one-revolution game is all last revolution: the late half from round 1
        if s.round == 1 and s.config.revolutions == 1:
            start_late_half(s)

    def end_game(self, s: GameState) -> None:
        final_collects(s)

    def score_parts(self, state: GameState, seat: int, parts: dict[str, int]) -> None:
        """She scores her tokens only; the harder option adds 1/2/3 per small/medium/large."""
        if state.config.seats[seat] != CYNTHIA:
            return
        del parts["light"]
        if state.config.harder_score_trees:
            parts["trees"] = sum(
                size * state.masks[seat * 4 + size].bit_count() for size in (1, 2, 3)
            )

    def to_dict(self, state: GameState, d: PositionData) -> None:
        d["cynthia"] = [None if c is None else deck_to_dict(c) for c in state.seat_ext]

    def from_dict(self, d: PositionData, s: GameState) -> None:
        s.seat_ext = tuple(None if c is None else deck_from_dict(c) for c in d["cynthia"])

    def hidden(self, config: Config) -> dict[str, str]:
        return {"cynthia.deck": _("the order of each Cynthia's action cards")}

    def observe(self, state: GameState, seat: int | None, d: PositionData) -> None:
        d["cynthia"] = [
            None if x is None else {"cards_left": len(x["deck"]), "half": x["half"]}
            for x in d["cynthia"]
        ]
