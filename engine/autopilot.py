"""The autopilot: a sensible player for a human seat (a player who ran out of time, or left).

It plays under the normal rules, through ``legal_actions``: each decision it looks one action
ahead (two after a purchase, so that it can buy a piece to grow into it) and takes the action
whose resulting position it values most, ending the turn when nothing beats standing still.

The value of a position for a seat, with ``R`` rounds left after this one:

- scoring tokens at face value, and light points at ``light_value(R)``: 1/3 point at the end
  (the final conversion), more while they can still be spent;
- the light its trees will collect under the next two sun positions (what growing and planting
  for light are for), while rounds remain to spend it;
- each piece on the board as a token in the making: the top token of its soil's pile, discounted
  per turn still needed (seed 4, small 3, medium 2, large 1), less the light still to spend on it;
  a piece that can no longer become a token before the end counts nothing;
- pieces in the available area a little, never their price, so it buys only what it will use.

In the last round only what scores counts, so it collects every large tree it can pay for.
"""

from __future__ import annotations

from typing import cast

from .actions import Action
from .game import END, apply, legal_actions, light_for_sun, pile_for
from .geometry import LEAVES, bits
from .state import GameState

#: Light points still to spend before a piece of each size becomes a scoring token
#: (grow costs, then 4 to collect), and the number of turns that takes.
COST_TO_TOKEN = (10, 9, 7, 4)
TURNS_TO_TOKEN = (4, 3, 2, 1)
#: How much a piece's token is worth per step still to go (progress makes a piece surer).
STEP_DISCOUNT = 0.87


def _rounds_left(state: GameState) -> int:
    return state.config.last_round - state.round


def light_value(rounds_left: int) -> float:
    """What a light point is worth: 1/3 point at the end, more while it can still be spent."""
    return 1 / 3 + 0.5 * min(1.0, rounds_left / 6)


def evaluate(state: GameState, seat: int) -> float:
    """How good ``state`` is for ``seat`` (higher is better); see the module docstring."""
    seat_state = state.seats[seat]
    tokens = sum(points for _, points in seat_state.tokens)
    if state.is_over:
        return tokens + seat_state.light // 3
    left = _rounds_left(state)
    lam = light_value(left)
    value = tokens + seat_state.light * lam
    if left == 0:
        return value + 0.01 * sum(seat_state.available)  # nothing else will score
    # The light the trees will collect in the coming sun positions, spendable later.
    income = 0
    for k in (1, 2):
        income += light_for_sun(state, (state.sun + k) % 6)[seat]
    value += lam * min(left, 3) / 2 * income * 0.8
    base = seat * 4
    for size in range(4):
        turns = TURNS_TO_TOKEN[size]
        if turns > left:
            continue  # it cannot become a token any more
        for space in bits(state.masks[base + size]):
            pile = pile_for(state, LEAVES[space])
            token = state.piles[pile][0] if pile else 0
            value += max(0.0, token * STEP_DISCOUNT**turns - lam * COST_TO_TOKEN[size])
    # Pieces waiting in the available area are worth a little, never their full price.
    value += 0.2 * lam * sum(seat_state.available[1:])
    return value


def choose(state: GameState) -> Action:
    """The autopilot's next action for the current seat."""
    seat = cast(int, state.current_seat)  # the autopilot plays for the seat to act
    actions = legal_actions(state)
    best, best_value = END, evaluate(state, seat) + 1e-6
    for action in actions:
        if action.verb == "end":
            continue
        after = apply(state, action)
        value = evaluate(after, seat)
        if action.verb == "buy":
            # A purchase is only worth its follow-up: the best action it makes possible.
            for follow in legal_actions(after):
                if follow.verb not in ("end", "buy"):
                    value = max(value, evaluate(apply(after, follow), seat))
        if value > best_value:
            best, best_value = action, value
    if best is END and END not in actions:
        return actions[0]  # setup decisions: the best placement is judged by the same value
    return best


def choose_setup(state: GameState) -> Action:
    """A setup decision: the placement whose position is worth most."""
    seat = cast(int, state.current_seat)  # the autopilot plays for the seat to act
    return max(legal_actions(state), key=lambda a: evaluate(apply(state, a), seat))


def autopilot_action(state: GameState) -> Action:
    """The autopilot's decision in any phase for the current (human) seat."""
    if state.phase == "setup":
        return choose_setup(state)
    return choose(state)
