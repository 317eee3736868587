"""The Expert (engine.expert_action): legal, deterministic, blind to hidden information."""

from __future__ import annotations

import random

import pytest

import engine
from engine import expert_action
from engine.cynthia import Deck
from engine.expert import Expert, facade, search, token_at
from engine.expert.facade import FacadePosition
from engine.expert.fast import ACTIONS, DECKS_SLOT, FastGame
from engine.moon import BEACHES
from engine.moonlight import BABIES, arrange


def _mid_game(cfg: engine.Config, seed: int, decisions: int) -> engine.GameState:
    """A position some decisions into a game played by the Expert at no budget and Cynthia."""
    state = engine.new_game(cfg, seed=seed)
    for _ in range(decisions):
        if state.seats[state.current_seat].kind == "cynthia":
            state = engine.apply(state, engine.auto_action(state))
        else:
            state = engine.apply(state, expert_action(state, budget_s=0, seed=seed))
    while state.seats[state.current_seat].kind == "cynthia" or len(engine.legal_actions(state)) < 3:
        state = engine.apply(state, engine.legal_actions(state)[0])
    return state


VS_CYNTHIA = engine.Config(seats=("human", "cynthia"))
#: Every Under the Moonlight mode.
MOON = {"moon_animals": True, "elder_tree": True, "moonstones": True}


@pytest.mark.parametrize("decisions", [12, 40])
def test_the_expert_plays_a_legal_action_the_same_each_time(decisions: int) -> None:
    state = _mid_game(VS_CYNTHIA, 4, decisions)
    first = expert_action(state, budget_s=0.05, seed=9)
    assert first in engine.legal_actions(state)
    assert expert_action(state, budget_s=0.05, seed=9) == first
    assert "simulations" in first.explanation or "turn plans" in first.explanation
    assert Expert(budget_s=0.05, seed=9).step(state) == first


def test_only_what_the_seat_observes_is_read() -> None:
    """Cynthia's cards (which and in what order) and the RNG differ; the observation does not."""
    state = _mid_game(VS_CYNTHIA, 6, 30)
    other = state.copy()
    deck = getattr(state, DECKS_SLOT)[1]
    unseen = [c for c in range(1, 15) if c not in deck.cards][: len(deck.cards)]
    swapped = unseen + list(deck.cards)[len(unseen) :]
    setattr(other, DECKS_SLOT, (None, Deck(tuple(reversed(swapped)), deck.half)))
    other.rng = state.rng ^ 0x5555
    assert other != state
    assert engine.observation(other, 0) == engine.observation(state, 0)
    for seed in (1, 2, 3):
        assert expert_action(other, budget_s=0.05, seed=seed) == expert_action(
            state, budget_s=0.05, seed=seed
        )


def test_face_down_baby_turtles_are_not_read() -> None:
    cfg = engine.Config(seats=("human", "human"), moon_animals=True)
    state = engine.new_game(cfg, seed=3)
    while state.phase == "setup":
        state = engine.apply(state, expert_action(state, budget_s=0, seed=1))
    state = arrange(state, animals={state.current_seat: ("turtle", "C3")})
    labels = [engine.geometry.LABELS[i] for i in BEACHES[:6]]
    one = arrange(state, beach=dict(zip(labels, BABIES[:6], strict=True)))
    two = arrange(state, beach=dict(zip(labels, reversed(BABIES[2:]), strict=True)))
    assert one != two
    assert engine.observation(one, one.current_seat) == engine.observation(two, two.current_seat)
    assert expert_action(one, budget_s=0.25, seed=5) == expert_action(two, budget_s=0.25, seed=5)


def test_token_at_falls_to_poorer_piles() -> None:
    taken = [0, 0, 7, 4, 3]  # the 2-leaf pile is empty, one 3-leaf token is left
    assert token_at(taken, 3, 0) == 17
    assert token_at(taken, 3, 1) == 14  # then the 1-leaf pile
    assert token_at(taken, 2, 0) == 14
    assert token_at([0, 9, 7, 5, 3], 4, 0) == 0


def test_the_expert_is_a_player_for_play_until() -> None:
    from engine.players import CynthiaPlayer, Player, play_until, turn_over

    expert = Expert(budget_s=0.02, seed=1)
    assert isinstance(expert, Player)
    state = _mid_game(VS_CYNTHIA, 2, 20)
    after, actions = play_until(state, [expert, CynthiaPlayer()], turn_over(state))
    assert actions[-1] == engine.Action("end")
    assert all(a.verb != "end" for a in actions[:-1])
    assert engine.turn_id(after) != engine.turn_id(state)


def test_light_lost_to_the_cap_is_not_counted() -> None:
    from engine.expert import DEFAULT_PARAMS, seat_features

    masks = [0] * 8
    args = dict(masks=masks, seat=0, avail=[0, 0, 0, 0], rounds_left=5, taken=[0, 0, 0, 0, 3])
    common = dict(n_seats=2, grow_costs=None, params=DEFAULT_PARAMS)
    low = seat_features(**args, light=10, incomes=(30, 6), **common)
    high = seat_features(**args, light=18, incomes=(30, 6), **common)
    assert low[1] == 40  # spare light: 10 held + 30 to come
    assert high[1] == 44  # 18 + 30, less the 4 the cap of 20 takes at the next photosynthesis


def test_pieces_count_the_top_token_of_their_soil_while_they_can_finish() -> None:
    from engine.expert import DEFAULT_PARAMS, FEATURES, seat_features
    from engine.geometry import LABEL_INDEX

    masks = [0] * 8
    masks[0] = 1 << LABEL_INDEX["C3"]  # a seed on a 3-leaf space
    masks[2] = 1 << LABEL_INDEX["A1"] | 1 << LABEL_INDEX["B2"]  # mediums on 1 and 2 leaves
    common = dict(
        masks=masks,
        seat=0,
        light=5,
        avail=[1, 2, 1, 1],
        taken=[0, 1, 0, 0, 3],
        n_seats=2,
        incomes=(30, 6),
        grow_costs=None,
        params=DEFAULT_PARAMS,
    )
    late = dict(zip(FEATURES, seat_features(rounds_left=3, **common), strict=True))
    early = dict(zip(FEATURES, seat_features(rounds_left=10, **common), strict=True))
    assert early["seeds"] == pytest.approx(1.9)  # 19 on top of the 3-leaf pile, in tenths
    assert early["medium_trees"] == pytest.approx(1.4 + 1.7)  # the 1-leaf pile's 14 is taken
    assert early["small_trees"] == early["large_trees"] == 0
    assert late["seeds"] == 0 and late["pieces_waiting"] == 1  # 3 rounds: too late to finish
    assert late["medium_trees"] == early["medium_trees"]
    assert early["income_left"] == pytest.approx(3.0)
    assert early["available"] == 2 + 2 * 1 + 3 * 1


def test_the_reason_line_is_a_translatable_text() -> None:
    from translation import Text

    state = _mid_game(VS_CYNTHIA, 4, 12)
    action = expert_action(state, budget_s=0.05, seed=9)
    why = action.explanation
    assert isinstance(why, Text)
    assert why.params["action"] == str(action)
    assert why.template in (
        "{action}: best of {count} simulation, expected margin {margin} points",
        "{action}: best of {count} turn plans, expected margin {margin} points",
    )
    assert str(why).startswith(f"{action}: ")


def test_no_decision_after_the_end() -> None:
    state = engine.new_game(VS_CYNTHIA, seed=1)
    state, _ = engine.players.play_until(
        state, [engine.players.RandomPlayer(1), engine.players.CynthiaPlayer()]
    )
    assert state.is_over
    with pytest.raises(ValueError, match="game is over"):
        expert_action(state, budget_s=0.01, seed=1)


def test_the_playout_policy_measures_its_own_seat_as_the_full_forecast_does() -> None:
    from engine.expert.eval import fast_own_value, fast_values

    for decisions in (8, 30, 60):
        state = _mid_game(engine.Config(seats=("human", "cynthia", "human")), 5, decisions)
        g = FastGame.from_state(state)
        values = fast_values(g)
        for seat in (0, 2):
            assert fast_own_value(g, seat) == pytest.approx(values[seat])


def test_memoised_forecasts_equal_fresh_ones() -> None:
    """The memos of incomes and forecasts are keyed by everything they read: along random games
    (positions sharing boards, piles, seats' pieces or light), a value read with warm memos
    equals the value computed afresh."""
    import random

    from engine.expert import eval as expert_eval
    from engine.expert.fast import END_CODE

    rnd = random.Random(7)
    for options in ({}, {"harder_grow_minus_one": True, "harder_score_trees": True}):
        config = engine.Config(seats=("human", "cynthia", "human"), **options)
        g = FastGame.from_state(_mid_game(config, 5, 8))
        checked = 0
        while g.phase == 1:
            # The position, every position one action away (a turn's beam), and the position
            # with a seat's light changed.
            positions = [g]
            for code in g.legal():
                child = g.copy()
                child.make(code)
                positions.append(child)
            for seat in range(g.n):
                other = g.copy()
                other.light[seat] = (other.light[seat] + 5) % 21
                positions.append(other)
            warm = [expert_eval.fast_values(p) for p in positions]
            fresh = []
            for p in positions:
                expert_eval.use_weights(None)  # clears the memos
                fresh.append(expert_eval.fast_values(p))
            assert fresh == warm
            checked += len(positions)
            moves = [c for c in g.legal() if c != END_CODE]
            g.make(rnd.choice(moves) if moves and rnd.random() < 0.7 else END_CODE)
        assert checked > 1000
    # Expansion positions: the Great Elder Tree and the moonstones shade too.
    from engine.expert.moonlight import StateView

    state = engine.new_game(engine.Config(seats=("human", "cynthia"), **MOON), seed=3)
    checked = 0
    while not state.is_over:
        positions = [state] + [engine.apply(state, a) for a in engine.legal_actions(state)[:12]]
        # The same position with the human seat's lunar points changed, and a round later
        # (what the lunar points to come read).
        lunar = state.copy()
        lunar.seats = [s.copy() for s in state.seats]
        lunar.seats[0].lunar = (state.seats[0].lunar + 5) % 15
        later = state.copy()
        later.round = min(state.round + 1, state.config.last_round)
        positions += [lunar, later]
        warm = [expert_eval.fast_values(StateView(p)) for p in positions]
        fresh = []
        for p in positions:
            expert_eval.use_weights(None)
            fresh.append(expert_eval.fast_values(StateView(p)))
        assert fresh == warm
        checked += len(positions)
        if state.phase == "play" and state.ext.elder >= 0:
            # The same board with the Great Elder Tree on another empty space.
            ext = state.ext
            free = [i for i in range(37) if not state.occupied() >> i & 1 and i != ext.elder]
            space = rnd.choice(free)
            moved = state.copy()
            moved.ext = ext._replace(
                elder=space, obstacles=ext.obstacles & ~(1 << ext.elder) | 1 << space
            )
            warm = expert_eval.fast_values(StateView(moved))
            expert_eval.use_weights(None)
            assert expert_eval.fast_values(StateView(moved)) == warm
        state = engine.apply(state, rnd.choice(engine.legal_actions(state)))
    assert checked > 500


def test_candidates_are_the_best_plan_for_each_distinct_first_action() -> None:
    from engine.expert.search import first_moves

    plans = [(5.0, (70, 71)), (4.0, (70,)), (3.5, (130,)), (3.0, ()), (2.0, (130, 70)), (1.0, (9,))]
    assert first_moves(plans, 3) == [(70, 71), (130,), ()]
    assert first_moves(plans, 9) == [(70, 71), (130,), (), (9,)]


def test_the_lookahead_ends_after_the_seats_next_turns() -> None:
    """A simulation plays the plan, Cynthia's turn, then the seat's next turns, each planned by
    the narrow beam, and values the positions the first and the last of them reach, half each:
    the round has moved on once per turn of the seat, and the seat is to end its turn."""
    import random

    from engine.expert.fast import END_CODE

    assert search.LOOKAHEAD_TURNS == 2
    assert search.FIRST_TURN_SHARE == 0.5
    fast = search.FAST_PATH
    state = _mid_game(VS_CYNTHIA, 4, 20)
    g = FastGame.from_state(state)
    seat = g.cur
    plans = search.plan_turn(g, seat, width=fast.max_plan_width)
    value = search.simulate(g, seat, plans[0][1], random.Random(3))
    d = g.determinise(seat, random.Random(3))
    plan = plans[0][1]
    turns = []
    for _turn in range(2):
        for code in plan:
            d.make(code)
        d.make(END_CODE)
        while d.cur != seat:
            d.make(d.legal()[0])
        expected, plan = search.plan_turn(
            d, seat, width=fast.next_turn_width, max_positions=fast.next_turn_positions
        )[0]
        turns.append(expected)
    assert d.round == g.round + 2  # two seats: the seat plays once a round
    assert turns[0] != turns[1]
    assert value == 0.5 * turns[0] + 0.5 * turns[1]


def test_a_position_limit_plans_narrower_not_shorter() -> None:
    """Past ``max_positions`` a beam step extends only its best plan: the turn plans value
    fewer positions, still reach as many actions deep, and the plans the limit lets through
    are valued as without it."""
    g = FastGame.from_state(_mid_game(VS_CYNTHIA, 4, 20))
    seat = g.cur
    valued = []

    def counting(pos):
        valued.append(1)
        return pos.margin(seat)

    full = search.plan_turn(g, seat, width=8, measure=counting)
    n_full = len(valued)
    valued.clear()
    limited = search.plan_turn(g, seat, width=8, measure=counting, max_positions=40)
    n_limited = len(valued)
    assert search.plan_turn(g, seat, width=8, max_positions=10**9) == full
    assert 40 <= n_limited < n_full // 2
    assert max(len(p) for _v, p in limited) == max(len(p) for _v, p in full)
    full_values = {p: v for v, p in full}
    assert all(full_values.get(p, v) == v for v, p in limited)
    assert len(limited) < len(full)


SIMULATED = "{action}: best of {count} simulation, expected margin {margin} points"


@pytest.mark.parametrize(
    ("budget", "template", "count"),
    [
        (0.025, "{action}: best of {count} turn plans, expected margin {margin} points", None),
        (0.0625, SIMULATED, "4"),  # 4 simulations: 2 candidates, 2 each
        (0.25, SIMULATED, "16"),  # 18: 4 candidates, 4 each
    ],
)
def test_a_small_budget_plays_the_best_plan_a_larger_one_simulates(
    budget: float, template: str, count: str | None
) -> None:
    """Below 4 simulations the beam's best plan stands; a candidate gets 4 when the budget can
    give two candidates that many, else two candidates share what there is."""
    assert round(0.25 * search.FAST_PATH.simulations_per_second) == 18
    state = _mid_game(VS_CYNTHIA, 4, 20)
    why = expert_action(state, budget_s=budget, seed=2).explanation
    assert why.template == template
    if count is not None:
        assert why.params["count"] == count


def test_without_chance_each_plan_is_simulated_once(monkeypatch) -> None:
    """Between people nothing is hidden or drawn, so every simulation of a plan plays the same
    game: each candidate is simulated once, and the decision and its expectation are the same
    as with every simulation repeated. What the budget has left goes to the next best plans of
    the candidates' first actions, each simulated once too."""
    import dataclasses

    state = _mid_game(engine.Config(seats=("human", "human")), 4, 20)
    g = FastGame.from_state(state)
    plans = search.root_plans(g, g.cur, 0.25)
    candidates = search.first_moves(plans, 4)
    runs, values = [], []
    real = search.simulate

    def simulate(*args):
        runs.append(args[2])
        values.append(real(*args))
        return values[-1]

    monkeypatch.setattr(search, "simulate", simulate)

    # The quick budget's 18 simulations, each playing two lookaheads: 4 candidates and
    # 18 // (2 * 4) = 2 plans for each of their first actions.
    best = expert_action(state, budget_s=0.25, seed=2)
    assert runs == search.alternatives(plans, candidates, 2)
    assert len(set(runs)) == len(runs) > len(candidates) and set(candidates) <= set(runs)
    assert best.explanation.params["count"] == str(len(runs))
    top = values.index(max(values))
    assert str(best) == str(ACTIONS[runs[top][0]])
    assert best.explanation.params["margin"] == f"{values[top]:+.1f}"

    # The candidates alone (no cost given: no alternatives), once each, decide as when every
    # simulation is repeated.
    no_cost = dataclasses.replace(search.FAST_PATH, no_chance_simulation_cost=0)
    monkeypatch.setattr(FastGame, "SEARCH", no_cost)
    runs.clear()
    once = expert_action(state, budget_s=0.25, seed=2)
    assert once.explanation.params["count"] == "4"
    assert runs == candidates
    runs.clear()
    repeating = search.best_by_simulation

    def always_chance(*args, chance, cost):
        return repeating(*args, chance=True)

    monkeypatch.setattr(search, "best_by_simulation", always_chance)
    repeated = expert_action(state, budget_s=0.25, seed=2)
    assert repeated.explanation.params["count"] == "16"
    assert len(runs) == 16 and len(set(runs)) == 4
    assert repeated == once
    assert repeated.explanation.params["margin"] == once.explanation.params["margin"]


def test_alternatives_are_the_next_best_plans_of_each_first_action() -> None:
    from engine.expert.search import alternatives, first_moves

    plans = [(9, (1, 2)), (8, (1, 3)), (7, (4,)), (6, (1,)), (5, ()), (4, (4, 5)), (3, (6,))]
    candidates = first_moves(plans, 3)
    assert candidates == [(1, 2), (4,), ()]
    assert alternatives(plans, candidates, 2) == [(1, 2), (1, 3), (4,), (4, 5), ()]
    assert alternatives(plans, candidates, 1) == candidates


def test_without_chance_a_plan_is_judged_by_the_reply_that_hurts_it_more(monkeypatch) -> None:
    g = FastGame.from_state(_mid_game(engine.Config(seats=("human", "human")), 4, 30))
    seat = g.cur
    plans = search.root_plans(g, seat, 0.25)
    worse = []
    for _value, plan in (plans[0], plans[2]):
        greedy = search.lookahead(g, seat, plan, random.Random(1), search.greedy_turn)
        beam = search.lookahead(g, seat, plan, random.Random(1), search.beam_turn)
        assert search.simulate(g, seat, plan, random.Random(1)) == min(greedy, beam)
        worse.append("greedy" if greedy < beam else "beam")
    assert worse == ["greedy", "beam"]  # either reply may be the one that hurts
    # With a Cynthia's cards to draw, the greedy model alone.
    cyn = FastGame.from_state(_mid_game(engine.Config(seats=("human", "cynthia")), 4, 20))
    plan = search.root_plans(cyn, cyn.cur, 0.25)[0][1]
    calls = []
    monkeypatch.setattr(search, "beam_turn", lambda d: calls.append(d) or search.greedy_turn(d))
    once = search.lookahead(cyn, cyn.cur, plan, random.Random(1), search.greedy_turn)
    assert search.simulate(cyn, cyn.cur, plan, random.Random(1)) == once and calls == []


def test_expansion_without_chance_judges_a_plan_by_the_reply_that_hurts_it_more(
    monkeypatch,
) -> None:
    state = _mid_game(engine.Config(seats=("human", "human"), **MOON), 5, 80)
    assert not facade.has_chance(state)
    pos = FacadePosition(state)
    seat = state.current_seat
    plans = search.plan_turn(pos, seat, 25, max_positions=1_500)
    worse = []
    for _value, acts in (plans[1], plans[2]):
        greedy = search.lookahead(pos, seat, acts, random.Random(1), search.greedy_turn)
        beam = search.lookahead(pos, seat, acts, random.Random(1), search.beam_turn)
        assert search.simulate(pos, seat, acts, random.Random(1)) == min(greedy, beam)
        worse.append("greedy" if greedy < beam else "beam")
    assert worse == ["greedy", "beam"]  # either reply may be the one that hurts

    # The quick budget's 18 simulations, each playing two lookaheads: the 5 distinct first
    # actions, one plan each (18 // (2 * 5) = 1); at 0.5 s, 35 simulations: 35 // (2 * 5) = 3
    # plans for each first action.
    runs = []
    real = search.simulate
    monkeypatch.setattr(search, "simulate", lambda *args: runs.append(args[2]) or real(*args))
    quick = expert_action(state, budget_s=0.25, seed=2)
    candidates = search.first_moves(plans, 6)
    assert len(candidates) == 5
    assert runs == candidates and quick.explanation.params["count"] == "5"
    runs.clear()
    half = expert_action(state, budget_s=0.5, seed=2)
    wide = search.plan_turn(pos, seat, 50, max_positions=3_000)
    assert runs == search.alternatives(wide, search.first_moves(wide, 6), 3)
    assert len(set(runs)) == len(runs) > 5 and half.explanation.params["count"] == str(len(runs))

    # With a Cynthia's cards to draw, the greedy model alone.
    cyn = _mid_game(engine.Config(seats=("human", "cynthia"), **MOON), 4, 20)
    cyn_pos = FacadePosition(cyn)
    acts = search.plan_turn(cyn_pos, cyn.current_seat, 25)[0][1]
    calls = []
    monkeypatch.setattr(search, "beam_turn", lambda s: calls.append(s) or search.greedy_turn(s))
    once = search.lookahead(cyn_pos, cyn.current_seat, acts, random.Random(1), search.greedy_turn)
    assert real(cyn_pos, cyn.current_seat, acts, random.Random(1)) == once and calls == []


def test_base_chance_is_a_cynthia() -> None:
    people = _mid_game(engine.Config(seats=("human", "human")), 3, 6)
    assert not FastGame.from_state(people).has_chance()
    for seats in (("human", "cynthia"), ("cynthia", "human", "human")):
        assert FastGame.from_state(_mid_game(engine.Config(seats=seats), 3, 6)).has_chance()


def test_expansion_chance_is_cynthia_or_a_face_down_token() -> None:
    from engine.expert.facade import has_chance

    people = _mid_game(engine.Config(seats=("human", "human"), **MOON), 3, 6)
    assert not people.ext.beach
    assert not has_chance(people)
    beach = people.copy()
    beach.ext = people.ext._replace(beach=((0, 5),))
    assert has_chance(beach)
    assert has_chance(_mid_game(engine.Config(seats=("human", "cynthia"), **MOON), 3, 6))


def test_expansion_decisions_simulate_blind_to_cynthias_cards() -> None:
    state = _mid_game(engine.Config(seats=("human", "cynthia"), **MOON), 3, 16)
    action = expert_action(state, budget_s=0.25, seed=4)
    assert action in engine.legal_actions(state)
    assert action.explanation.template == (
        "{action}: best of {count} simulation, expected margin {margin} points"
    )
    # 18 simulations in the budget: 6 distinct first actions, 3 each.
    assert search.FACADE.simulations_per_second == 70
    assert action.explanation.params["count"] == "18"
    other = state.copy()
    deck = getattr(state, DECKS_SLOT)[1]
    setattr(other, DECKS_SLOT, (None, Deck(tuple(reversed(deck.cards)), deck.half)))
    other.rng = state.rng ^ 0x0F0F
    assert other != state
    assert engine.observation(other, 0) == engine.observation(state, 0)
    assert expert_action(other, budget_s=0.25, seed=4) == action


def _owl_at(label: str, round_: int, lunar: int) -> engine.GameState:
    """Two people, the first one's Owl on ``label`` with ``lunar`` lunar points in ``round_``,
    the Full Moon at gap 7, the Great Elder Tree on D2 and moonstones on C4 and E5."""
    from engine.position import build

    return arrange(
        build(engine.Config(seats=("human", "human"), **MOON), {}, round=round_),
        animals={0: ("owl", label), 1: ("fox", "G1")},
        elder="D2",
        moonstones=("C4", "E5"),
        moon=(7, True),
        lunar=[lunar, 0],
    )


@pytest.mark.parametrize(
    "label, round_, lunar, expected",
    [("F3", 10, 0, 4), ("B2", 4, 5, 10), ("C3", 1, 2, 11), ("A4", 13, 12, 14), ("E3", 16, 0, 0)],
)
def test_lunar_at_end_is_what_an_animal_standing_still_holds_at_the_end(
    label: str, round_: int, lunar: int, expected: int
) -> None:
    from engine.expert.moonlight import lunar_at_end

    state = _owl_at(label, round_, lunar)
    assert lunar_at_end(state, 0) == expected
    # The same, played: every turn ends at once, the animals stay where they stand.
    while not state.is_over:
        state = engine.apply(state, engine.Action("end"))
    assert state.seats[0].lunar == expected


@pytest.mark.parametrize(
    "label, round_, lunar, expected",
    [("D5", 1, 14, 13), ("C3", 1, 10, 5), ("A4", 13, 14, 2), ("F3", 10, 12, 2), ("C3", 1, 2, 0)],
)
def test_an_owls_surplus_is_the_moonlight_the_cap_would_waste(
    label: str, round_: int, lunar: int, expected: int
) -> None:
    """What the moon gives an Owl standing still beyond 14 lunar points by the end is its
    surplus, worth 0.4 a point to the evaluation; another animal has none."""
    from engine.expert.moonlight import OWL_SURPLUS_VALUE, StateView, lunar_at_end, owl_surplus

    start = _owl_at(label, round_, lunar)
    assert owl_surplus(start, 0) == expected
    assert owl_surplus(start, 1) == 0  # the Fox
    assert OWL_SURPLUS_VALUE == 0.4
    assert StateView(start).token_points(0) == lunar_at_end(start, 0) + 0.4 * expected
    # The same, played: every turn ends at once, and the Owl's store is emptied before each of
    # its turns, so the cap never stops what the moon gives.
    state, gained = start, 0
    while not state.is_over:
        if state.current_seat == 0:
            gained += state.seats[0].lunar
            state = state.copy()
            state.seats = [seat.copy() for seat in state.seats]
            state.seats[0].lunar = 0
        state = engine.apply(state, engine.Action("end"))
    gained += state.seats[0].lunar - lunar
    assert max(0, lunar + gained - 14) == expected


def test_lunar_points_the_cap_would_waste_cost_nothing_to_spend() -> None:
    """An Owl at 14 lunar points on a space the moon will light often hunts for free: the
    evaluation counts the lunar points it will hold at the end, which the cap keeps at 14; near
    the end, where the moon cannot give them back, hunting costs what it spends."""
    from engine.expert.moonlight import StateView

    def points_before_and_after_hunting(round_: int) -> tuple[int, int]:
        state = _owl_at("D5", round_, 14)
        after = engine.apply(state, engine.Action("use", ("hunt", 3)))
        assert after.seats[0].lunar == 2 and after.seats[0].light == state.seats[0].light + 10
        return StateView(state).token_points(0), StateView(after).token_points(0)

    # In round 1 the Owl on D5 has 13 lunar points to come beyond the cap (``owl_surplus``);
    # hunting 12 of them leaves 2 held, and the moon fills the store again with 1 to spare.
    assert points_before_and_after_hunting(1) == (14 + 0.4 * 13, 14 + 0.4 * 1)
    assert points_before_and_after_hunting(18) == (14, 2)


@pytest.mark.parametrize(
    "seed, dealt, kept",
    [
        (12, {"animal boar", "animal hedgehog"}, "animal hedgehog"),
        (28, {"animal fox", "animal owl"}, "animal owl"),
        (9, {"animal fox", "animal turtle"}, "animal fox"),
    ],
)
def test_the_expert_keeps_the_animal_whose_abilities_need_no_walk(
    seed: int, dealt: set[str], kept: str
) -> None:
    me = seed % 2
    seats = ["cynthia"]
    seats.insert(me, "human")
    state = engine.new_game(engine.Config(seats=tuple(seats), **MOON), seed=seed)
    while state.current_seat != me or state.phase != "setup":
        state = engine.apply(state, engine.auto_action(state))
    assert {str(a) for a in engine.legal_actions(state)} == dealt
    assert str(expert_action(state, budget_s=0.25, seed=seed)) == kept


@pytest.mark.parametrize(
    ("seats", "options", "rules"),
    [
        (("human", "cynthia"), {}, "base"),
        (("cynthia", "human", "cynthia"), {}, "base"),
        (("human", "cynthia"), MOON, "moonlight"),
        (("human", "human"), {}, None),  # between people: no level
        (("human", "human"), MOON, None),
    ],
)
def test_the_reason_line_states_the_final_margin_it_expects(monkeypatch, seats, options, rules):
    """Against a Cynthia the line adds the fitted level of its rule set to the evaluation's
    margin, ``a * phase + b * phase ** 2`` with the rounds left; between people it adds
    nothing. The level changes no decision."""
    from engine.expert import eval as expert_eval

    state = _mid_game(engine.Config(seats=seats, **options), 5, 12)
    seat = state.current_seat
    stated = expert_action(state, budget_s=0.25, seed=3)
    shipped = expert_eval._shipped_weights()
    flat = {**shipped, "reason_level": {"base": (0.0, 0.0), "moonlight": (0.0, 0.0)}}
    monkeypatch.setattr(expert_eval, "_shipped_weights", lambda: flat)
    raw = expert_action(state, budget_s=0.25, seed=3)
    assert raw == stated  # the same action
    added = float(stated.explanation.params["margin"]) - float(raw.explanation.params["margin"])
    if rules is None:
        assert added == 0
        return
    a, b = shipped["reason_level"][rules]
    last = state.config.last_round
    phase = (last - state.round) / last
    assert state.phase == "play" and state.seats[seat].kind == "human" and phase > 0.5
    assert added == pytest.approx(a * phase + b * phase * phase, abs=0.11)  # shown to 0.1
    assert 20 < added < 70  # early on, the evaluation's margin is far too low against her


def test_the_reason_level_fades_to_nothing_at_the_end() -> None:
    """The level is the fitted quadratic of the rounds left: largest in round 1, about nothing in
    the last round, and the expansion's is its own."""
    from engine.expert.eval import _shipped_weights, expected_margin

    base = engine.Config(seats=("human", "cynthia"))
    moon = engine.Config(seats=("human", "cynthia"), **MOON)
    for cfg, rules in ((base, "base"), (moon, "moonlight")):
        a, b = _shipped_weights()["reason_level"][rules]
        levels = [expected_margin(0.0, cfg, r, 0) for r in range(1, 19)]
        assert levels[0] == pytest.approx(a * 17 / 18 + b * (17 / 18) ** 2)
        assert levels[0] == max(levels) and abs(levels[-1]) < 0.1
        assert expected_margin(-3.5, cfg, 18, 0) == pytest.approx(-3.5)
    assert expected_margin(0.0, base, 1, 0) != expected_margin(0.0, moon, 1, 0)
    people = engine.Config(seats=("human", "human"))
    assert expected_margin(-12.25, people, 1, 0) == -12.25


@pytest.mark.parametrize(("options", "seed"), [({}, 2), (MOON, 1)])
def test_a_person_and_a_cynthia_are_weighed_on_one_scale(options, seed) -> None:
    """Facing a person and a Cynthia, the evaluation finds the best of them with her value lowered
    by the reason level (early on her forecast stands that much above a person's), then lowers
    the margin by the level as against Cynthias alone. Early on that makes the person the one to
    beat where, unlevelled, Cynthia seemed far ahead; the reason line then states the margin
    over the person. With only Cynthias or only people it is the plain margin."""
    from engine.expert.eval import fast_values, margin, position_margin, reason_level
    from engine.expert.moonlight import StateView

    def view(state):
        return StateView(state) if options else FastGame.from_state(state)

    state = _mid_game(engine.Config(seats=("human", "human", "cynthia"), **options), seed, 16)
    seat = state.current_seat
    person = 1 - seat
    g = view(state)
    values = fast_values(g)
    level = reason_level(state.config, state.round)
    assert seat in (0, 1) and state.phase == "play" and state.round <= 2 and level > 40
    assert values[2] > values[person] > values[2] - level  # Cynthia ahead only unlevelled
    got = position_margin(g, seat)
    assert got == pytest.approx(values[seat] - values[person] - level)
    assert got < margin(values, seat)  # the person, not Cynthia, is the one to beat
    stated = engine.expert.eval.expected_margin(got, state.config, state.round, seat)
    assert stated == pytest.approx(values[seat] - values[person])
    for seats in (("human", "cynthia", "cynthia"), ("human", "human", "human")):
        state = _mid_game(engine.Config(seats=seats, **options), 5, 12)
        g = view(state)
        assert position_margin(g, state.current_seat) == margin(fast_values(g), state.current_seat)


#: Games the Expert plays on every seat but Cynthia's at a budget that simulates (0.06 s: 2
#: candidates, 2 simulations each), and the sha256 of their actions as recorded on the tree
#: before the two searches became one (``bench/expert_decisions.py``'s ``game_hash``): the
#: base game against Cynthia and, to its end, the expansion against her; the first 60 actions
#: of a base game of two people and a Cynthia and of an expansion game between people.
RECORDED = [
    (("human", "cynthia"), {}, None, "f69a9794ad4f0051"),
    (("human", "human", "cynthia"), {}, 60, "53c2d0f3b0b6570a"),
    (("human", "human"), MOON, 60, "2ef4121192e3176f"),
    (("human", "cynthia"), MOON, None, "862906e77bfee568"),
]


@pytest.mark.parametrize(("seats", "options", "limit", "recorded"), RECORDED)
def test_the_expert_decides_as_recorded(seats, options, limit, recorded) -> None:
    from bench.expert_decisions import game_hash

    digest, decisions = game_hash(engine, seats, options, 1, 0.06, limit)
    assert decisions > 30
    assert digest[:16] == recorded


def test_a_lookahead_the_game_ends_in_values_as_its_calibration_says(monkeypatch) -> None:
    """A plan played in the next-to-last round: the seat's next turn is its last, so the game
    ends inside the lookahead after its first planned turn. The fast path values that by the
    final margin alone; blending it with the first turn's margin (the facade's way,
    ``Settings.blend_at_end``) gives another value."""
    import dataclasses

    from engine.expert.fast import END_CODE

    state = engine.new_game(VS_CYNTHIA, seed=4)
    last = state.config.last_round
    while not (state.round == last - 1 and state.current_seat == 0 and state.phase == "play"):
        if state.seats[state.current_seat].kind == "cynthia":
            state = engine.apply(state, engine.auto_action(state))
        else:
            state = engine.apply(state, expert_action(state, budget_s=0, seed=4))
    g = FastGame.from_state(state)
    plan = search.root_plans(g, 0, 0.25)[0][1]
    d = g.determinise(0, random.Random(1))
    for code in (*plan, END_CODE):
        d.make(code)
    while d.cur != 0:
        d.make(d.legal()[0])
    first, second = search.plan_turn(d, 0, 8, max_positions=150)[0]
    for code in (*second, END_CODE):
        d.make(code)
    while d.phase == 1:
        d.make(d.legal()[0])
    final = d.margin(0)
    assert d.is_over and first != final
    assert not search.FAST_PATH.blend_at_end and search.FACADE.blend_at_end
    value = search.lookahead(g, 0, plan, random.Random(1), search.greedy_turn)
    assert value == final
    blending = dataclasses.replace(search.FAST_PATH, blend_at_end=True)
    monkeypatch.setattr(FastGame, "SEARCH", blending)
    blended = search.lookahead(g, 0, plan, random.Random(1), search.greedy_turn)
    assert blended == 0.5 * first + 0.5 * final


def test_the_learned_correction_is_off_unless_asked_and_adds_to_a_persons_forecast() -> None:
    """``use_learned`` adds ``learned_correction`` of ``learned_features`` to each person's
    forecast (Cynthia's stays), with the shipped weights or given ones; off again, the values
    are the hand-made ones."""
    from engine.expert import eval as expert_eval

    config = engine.Config(seats=("human", "cynthia", "human"))
    g = FastGame.from_state(_mid_game(config, 5, 30))
    hand = expert_eval.fast_values(g)
    n = expert_eval.N_LEARNED
    # one point per medium tree on the border, two more times the phase
    w = [0.0] * (2 * n)
    w[expert_eval.LEARNED_FEATURES.index("medium_1")] = 1.0
    w[n + expert_eval.LEARNED_FEATURES.index("medium_1")] = 2.0
    phase = (config.last_round - g.round) / config.last_round
    try:
        expert_eval.use_learned(w)
        learned = expert_eval.fast_values(g)
        for seat in (0, 2):
            mediums = (g.masks[4 * seat + 2] & expert_eval.RING_MASK[1]).bit_count()
            assert mediums > 0
            assert learned[seat] == pytest.approx(hand[seat] + mediums * (1 + 2 * phase))
        assert learned[1] == hand[1]
        expert_eval.use_learned(True)
        shipped = expert_eval._learned_weights()
        for seat in (0, 2):
            f = expert_eval.learned_features(
                g.masks,
                seat,
                g.light[seat],
                g.avail[4 * seat : 4 * seat + 4],
                expert_eval._incomes(g, config.last_round - g.round, (seat,))[0][1],
            )
            correction = expert_eval.learned_correction(shipped, f, phase)
            assert expert_eval.fast_values(g)[seat] == pytest.approx(hand[seat] + correction)
    finally:
        expert_eval.use_learned(False)
    assert expert_eval.fast_values(g) == hand


def test_learned_features_count_pieces_by_size_and_soil() -> None:
    from engine.expert import eval as expert_eval
    from engine.geometry import RING_MASK, bits

    # seat 1: two seeds on the border, a large tree in the centre
    border = list(bits(RING_MASK[1]))
    masks = [0] * 8
    masks[4] = (1 << border[0]) | (1 << border[1])
    masks[7] = RING_MASK[4] & -RING_MASK[4]
    f = expert_eval.learned_features(masks, 1, 7, [2, 4, 1, 0], 5)
    named = dict(zip(expert_eval.LEARNED_FEATURES, f, strict=True))
    assert named["bias"] == 1.0 and named["light"] == 7.0 and named["income"] == 5.0
    assert named["seeds_1"] == 2.0 and named["large_4"] == 1.0
    assert sum(f[3:19]) == 3.0
    assert [named[f"available_{k}"] for k in ("seeds", "small", "medium", "large")] == [2, 4, 1, 0]


def test_the_expert_with_the_learned_correction_decides_the_same_for_a_seed() -> None:
    from engine.expert import eval as expert_eval

    state = _mid_game(engine.Config(seats=("human", "human")), 3, 24)
    try:
        expert_eval.use_learned(True)
        first = expert_action(state, budget_s=0.05, seed=4)
        expert_eval.use_learned(True)  # fresh memos
        assert expert_action(state, budget_s=0.05, seed=4) == first
    finally:
        expert_eval.use_learned(False)
